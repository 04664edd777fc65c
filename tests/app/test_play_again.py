"""Play again keeps the table together (issue 31, section 7): the phones that held
the finished game hold the next one, granted on the server; a watcher is offered
it to watch; the finished sheet links to it from stored data; home continues it."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import flet as ft
import pytest
from test_store_notices import texts

from scorer.app.context import AppContext
from scorer.app.views.next_game import LINK, STARTED
from scorer.app.views.sheet import sheet_view
from scorer.rights import NotAllowed, get_rights
from scorer.store import GameStore

DOC: dict[str, Any] = {"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
                       "first_dealer": 3, "rules": {}, "hands": []}
WON = [{"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 162}, "bella": 0}] * 3
PHONE_A = "phone-a-token-0123456789abcdef"
PHONE_B = "phone-b-token-0123456789abcdef"
GUEST = "guest-token-0123456789abcdefgh"


def phone(store: GameStore, device: str, sent: list[str]) -> AppContext:
    """A session of a phone known by `device`; what it announces goes to `sent`."""
    pubsub = SimpleNamespace(send_others_on_topic=lambda topic, _msg: sent.append(topic))
    page = SimpleNamespace(theme_mode=ft.ThemeMode.LIGHT, platform_brightness=ft.Brightness.LIGHT,
                           width=390.0, views=[], pubsub=pubsub)
    ctx = AppContext(page=cast(ft.Page, page), store=store)
    ctx.actions.device = device
    return ctx


def table(tmp_path: Path) -> tuple[GameStore, str, list[str]]:
    """A finished game held by phones A and B (B entered its code)."""
    store = GameStore(tmp_path)
    done = store.create_game({**DOC, "hands": WON})
    assert store.list_games()[0].finished
    rights = get_rights(tmp_path)
    code = rights.start(done.id, PHONE_A)
    rights.enter_code(done.id, PHONE_B, "10.0.0.2", code)
    return store, done.id, []


def test_the_phones_that_held_the_finished_game_hold_the_next_one(tmp_path: Path) -> None:
    store, done, sent = table(tmp_path)
    a, b, guest = (phone(store, d, sent) for d in (PHONE_A, PHONE_B, GUEST))
    after = a.actions.play_again(done, store.get_game(done).revision, DOC)
    assert after.made
    assert store.get_game(after.game_id).follows == done
    assert a.actions.can_edit(after.game_id) and b.actions.can_edit(after.game_id)
    assert not guest.actions.can_edit(after.game_id)  # watched: may watch, not record
    assert sent == [f"game:{done}"]  # the phones on the finished sheet are told


def test_a_second_play_again_opens_the_game_already_made(tmp_path: Path) -> None:
    store, done, sent = table(tmp_path)
    a, b = phone(store, PHONE_A, sent), phone(store, PHONE_B, sent)
    seen = store.get_game(done).revision
    first = a.actions.play_again(done, seen, DOC)
    second = b.actions.play_again(done, seen, DOC)
    assert second.game_id == first.game_id and not second.made
    assert len(store.list_games()) == 2


def test_a_watchers_play_again_is_a_game_of_its_own(tmp_path: Path) -> None:
    """Only a phone that held the game starts the table's next one: a watcher's
    game gives nobody rights and is linked to nothing."""
    store, done, sent = table(tmp_path)
    guest, b = phone(store, GUEST, sent), phone(store, PHONE_B, sent)
    own = guest.actions.play_again(done, store.get_game(done).revision, DOC)
    assert own.made and store.get_game(own.game_id).follows is None
    assert store.next_game(done) is None and not b.actions.can_edit(own.game_id)
    assert sent == []


def test_rights_are_carried_only_for_a_phone_that_held_the_game(tmp_path: Path) -> None:
    store, done, _sent = table(tmp_path)
    rights = get_rights(tmp_path)
    nxt = store.create_game(DOC).id
    with pytest.raises(NotAllowed):
        rights.start_next(nxt, GUEST, done)
    assert not rights.may_edit(nxt, PHONE_B)


def test_the_finished_sheet_announces_live_and_links_after_a_reload(tmp_path: Path) -> None:
    store, done, sent = table(tmp_path)
    a, b, guest = (phone(store, d, sent) for d in (PHONE_A, PHONE_B, GUEST))
    assert LINK not in texts(sheet_view(b, done)) and LINK not in texts(sheet_view(guest, done))
    after = a.actions.play_again(done, store.get_game(done).revision, DOC).game_id
    on_b, on_guest = texts(sheet_view(b, done)), texts(sheet_view(guest, done))
    assert f"{STARTED}: open it" in on_b and "Open next game" in on_b
    assert f"{STARTED}: watch it" in on_guest and "Watch next game" in on_guest
    # A phone that opens the finished game later reads it from the stored games.
    later = texts(sheet_view(phone(store, PHONE_B, sent), done))
    assert LINK in later and not any(STARTED in t for t in later)
    assert after in {g.id for g in store.list_games() if g.follows == done}


def test_home_continues_the_next_game_on_every_phone_that_showed_the_finished_one(
    tmp_path: Path,
) -> None:
    store, done, sent = table(tmp_path)
    a, b, guest = (phone(store, d, sent) for d in (PHONE_A, PHONE_B, GUEST))
    other = store.create_game(DOC).id
    b.actions.showed_game(other)  # B looked at another table's game before
    for ctx in (b, guest):
        ctx.actions.showed_game(done)
    after = a.actions.play_again(done, store.get_game(done).revision, DOC).game_id
    for ctx in (b, guest):
        game = ctx.actions.game_to_continue()
        assert game is not None and game.id == after
    # A phone that never showed it but holds it: the game it holds played last.
    fresh = phone(store, PHONE_B, sent)
    game = fresh.actions.game_to_continue()
    assert game is not None and game.id == after
