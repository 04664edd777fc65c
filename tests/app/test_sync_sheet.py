"""The sheet of a game a phone keeps itself (issue 40): one calm line while it records
alone, a small mark on each hand the server does not have yet, a hand another phone
saved differently to choose, and what was refused, until read. Drawn with a stand-in
for the phone's sync (`CONFIG.phone_sync`); the browser tests draw the real one."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import flet as ft
import pytest
from test_plain_words import texts

from rules.hand_file import parse_hand
from scorer.app import CONFIG
from scorer.app.context import AppContext
from scorer.app.views.sheet import sheet_view
from scorer.recording.conflicts import Clash, Situation
from scorer.store import GameStore
from scorer.sync.client import Choice, Notice, SyncClash
from scorer.sync.phone import SyncLine

HAND = {"caller": 1, "trump": "H", "points": {"team": 0, "tricks": 70}}
GAME: dict[str, Any] = {"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
                        "first_dealer": 0, "rules": {}, "hands": [HAND, HAND]}


class FakeSync:
    def __init__(self, game: str) -> None:
        self.game = game
        self.shown = SyncLine(alone=False, waiting=0)
        self.marks: frozenset[int] = frozenset()
        self.clashing: SyncClash | None = None
        self.told: list[Notice] = []
        self.met = True

    def watch(self, game_changed: Callable[[str], object], everything: Callable[[], object]
              ) -> None:
        return None

    def meets_server(self) -> bool:
        return self.met

    def synced(self, game_id: str) -> bool:
        return game_id == self.game

    def line(self) -> SyncLine:
        return self.shown

    def unsent(self, game_id: str) -> frozenset[int]:
        return self.marks

    def clash(self, game_id: str) -> SyncClash | None:
        return self.clashing

    def choose(self, game_id: str, choice: Choice) -> None:
        self.clashing = None

    def notices(self, game_id: str) -> list[Notice]:
        return self.told

    def dismiss(self, game_id: str) -> None:
        self.told = []

    def shared_address(self, game_id: str) -> str | None:
        return game_id


@pytest.fixture
def sheet(tmp_path: Path) -> Iterator[tuple[FakeSync, Callable[[], list[str]]]]:
    store = GameStore(tmp_path)
    game = store.create_game(GAME).id
    fake = FakeSync(game)
    page = SimpleNamespace(theme_mode=ft.ThemeMode.LIGHT,
                           platform_brightness=ft.Brightness.LIGHT, width=400.0,
                           height=844.0, views=[])
    ctx = AppContext(page=cast(ft.Page, page), store=store)
    CONFIG.phone_sync = fake
    try:
        yield fake, lambda: list(texts(sheet_view(ctx, game)))
    finally:
        CONFIG.phone_sync = None
        store.close()


def test_all_is_well_says_nothing(sheet: tuple[FakeSync, Callable[[], list[str]]]) -> None:
    _fake, drawn = sheet
    shown = drawn()
    assert "not sent yet" not in shown
    assert not any(t.startswith("This phone is recording alone") for t in shown)


def test_recording_alone_is_one_calm_line_and_marks_the_hands_not_sent(
        sheet: tuple[FakeSync, Callable[[], list[str]]]) -> None:
    fake, drawn = sheet
    fake.shown = SyncLine(alone=True, waiting=2)
    fake.marks = frozenset({2})
    shown = drawn()
    assert "This phone is recording alone: 2 hands wait to be sent." in shown
    assert shown.count("not sent yet") == 1
    fake.shown = SyncLine(alone=True, waiting=1, hands_only=False)
    assert "This phone is recording alone: 1 change waits to be sent." in drawn()


def test_an_app_told_to_update_says_so_on_the_sheet(
        sheet: tuple[FakeSync, Callable[[], list[str]]]) -> None:
    """Told to update, the phone sends nothing more until the new app runs: the sheet
    says so in its one line (the page takes the new version at a calm moment)."""
    from scorer.app.phone_sync import UPDATE_LINE

    fake, drawn = sheet
    fake.shown = SyncLine(alone=True, waiting=1, update=True)
    shown = drawn()
    assert UPDATE_LINE in shown and not any("recording alone" in t for t in shown)


def test_a_clash_and_the_refusals_are_shown_until_chosen_and_read(
        sheet: tuple[FakeSync, Callable[[], list[str]]]) -> None:
    fake, drawn = sheet
    mine = parse_hand({"caller": 2, "trump": "S", "points": {"team": 0, "tricks": 90}})
    fake.clashing = SyncClash(change="a" * 32, situation=Situation(
        clash=Clash.THEIRS, number=2, next_number=3, theirs=parse_hand(HAND), mine=mine),
        is_new=True, choices=(Choice.KEEP_THEIRS, Choice.USE_MINE, Choice.RECORD_NEXT))
    fake.told = [Notice(game=fake.game, change=None, reason="not_allowed",
                        words="This phone may not change this game.")]
    shown = drawn()
    assert "Choose hand 2" in shown
    assert "This phone may not change this game." in shown
    fake.clashing, fake.told = None, []
    shown = drawn()
    assert "Choose hand 2" not in shown and "This phone may not change this game." not in shown


def test_a_followed_game_not_here_yet_is_on_its_way_until_a_first_try_fails(
        tmp_path: Path) -> None:
    """A server's game opened by its address, before the server answered this phone: on
    its way while the first try is under way (a server with the sync socket answers in a
    moment); the 'lives on the server' page once a try failed (a server without it)."""
    from scorer.app.views.server_game import LIVES_ON_SERVER

    store = GameStore(tmp_path)
    followed = "0123abcd"  # not in this phone's store
    fake = FakeSync(followed)
    fake.met = False
    page = SimpleNamespace(theme_mode=ft.ThemeMode.LIGHT,
                           platform_brightness=ft.Brightness.LIGHT, width=400.0,
                           height=844.0, views=[])
    ctx = AppContext(page=cast(ft.Page, page), store=store)
    CONFIG.phone_sync = fake
    alone, server_game = CONFIG.alone, CONFIG.server_game
    CONFIG.alone, CONFIG.server_game = True, followed
    try:
        shown = list(texts(sheet_view(ctx, followed)))  # the store's word on it
        assert "Score sheet" in shown and LIVES_ON_SERVER not in shown
        fake.shown = SyncLine(alone=True, waiting=0)  # the first try failed
        assert LIVES_ON_SERVER in texts(sheet_view(ctx, followed))
        fake.met = True  # it answered once: the server's word from then on
        assert LIVES_ON_SERVER not in texts(sheet_view(ctx, followed))
    finally:
        CONFIG.phone_sync = None
        CONFIG.alone, CONFIG.server_game = alone, server_game
        store.close()
