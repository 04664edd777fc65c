"""What a phone keeps for itself (its colours, the games it showed) and the game home
offers it to continue (issue 25)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import flet as ft
import pytest

from scorer.app.context import AppContext
from scorer.app.phone_prefs import KEPT_SHOWN, PhonePrefs
from scorer.rights import get_rights
from scorer.store import GameStore

DOC: dict[str, Any] = {"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
                       "first_dealer": 3, "rules": {}, "hands": []}
WON = [{"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 162}, "bella": 0}] * 3
PHONE = "phone-token-0123456789abcdef"


def test_the_games_shown_stay_in_order_and_only_what_the_app_wrote_is_read() -> None:
    prefs = PhonePrefs()
    assert prefs.read("dark", "0123abcd,not-a-game,89abcdef") is False
    assert prefs.theme_mode == ft.ThemeMode.DARK
    assert prefs.shown == ["0123abcd", "89abcdef"]
    assert prefs.showed("89abcdef") and prefs.shown == ["89abcdef", "0123abcd"]
    assert not prefs.showed("89abcdef")  # already the last one: nothing to keep
    prefs.read("purple", None)  # not a choice this app offers
    assert prefs.theme == "dark"
    for n in range(KEPT_SHOWN + 5):
        prefs.showed(f"{n:08x}")
    assert len(prefs.shown) == KEPT_SHOWN and prefs.shown[0] == f"{KEPT_SHOWN + 4:08x}"


def test_a_game_shown_before_the_browser_answered_goes_first_and_is_kept_again() -> None:
    """A deep link to a sheet is drawn before the browser has said what it kept."""
    prefs = PhonePrefs()
    prefs.showed("0000000c")
    assert prefs.read(None, "0000000a,0000000c,0000000b") is True  # write the new order
    assert prefs.shown == ["0000000c", "0000000a", "0000000b"]


def session(store: GameStore) -> AppContext:
    page = SimpleNamespace(theme_mode=ft.ThemeMode.SYSTEM, platform_brightness=ft.Brightness.LIGHT,
                           width=390.0)
    return AppContext(page=cast(ft.Page, page), store=store)


def test_home_continues_the_game_this_phone_showed_last_else_the_one_it_holds(
    tmp_path: Path,
) -> None:
    store = GameStore(tmp_path)
    held, other, won = (store.create_game(DOC).id, store.create_game(DOC).id,
                        store.create_game({**DOC, "hands": WON}).id)
    ctx = session(store)
    actions = ctx.actions
    assert actions.game_to_continue() is None  # another table's games are not this phone's

    actions.device = PHONE
    get_rights(tmp_path).start(held, PHONE)
    game = actions.game_to_continue()
    assert game is not None and game.id == held  # the one it started

    actions.showed_game(other)  # then it watched another table's game
    game = actions.game_to_continue()
    assert game is not None and game.id == other
    actions.showed_game(won)  # a won game is no game to continue
    game = actions.game_to_continue()
    assert game is not None and game.id == other


def test_a_choice_of_colours_must_be_one_offered(tmp_path: Path) -> None:
    actions = session(GameStore(tmp_path)).actions
    assert actions.choose_theme("dark") == ft.ThemeMode.DARK
    assert actions.choose_theme("system") == ft.ThemeMode.SYSTEM
    with pytest.raises(ValueError):
        actions.choose_theme("purple")
