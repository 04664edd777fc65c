"""TableActions refuses changes from a phone without edit rights, on the server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scorer.app.actions import TableActions, game_topic
from scorer.app.game_view_model import GameModel
from scorer.rights import NotAllowed, get_rights
from scorer.sharing import Reach
from scorer.store.errors import StaleRevision, StoreError
from scorer.store.game_store import GameStore
from tests.fake_phone import table_actions

HAND: dict[str, Any] = {"caller": 0, "trump": "S", "points": {"team": 0, "tricks": 100}}


def phone(store: GameStore, device: str, address: str = "192.168.1.40") -> TableActions:
    return table_actions(store, device, address, "/game/x")


@pytest.fixture
def store(tmp_path: Path) -> GameStore:
    return GameStore(tmp_path / "data")


def new_game(store: GameStore) -> str:
    return store.create_game({"format": "tarabish-game/1", "players": ["A", "B", "C", "D"],
                              "first_dealer": 3, "rules": {}, "hands": []}).id


def model(store: GameStore, game_id: str) -> GameModel:
    return GameModel.load(store.get_game(game_id))


def test_a_watcher_cannot_save_edit_or_undo(store: GameStore) -> None:
    game = new_game(store)
    starter = phone(store, "starter-device-token-000001")
    watcher = phone(store, "watcher-device-token-000002")
    starter.game_created(game)
    starter.save_hand(model(store, game), HAND, None)
    assert starter.ctx.page.pubsub.sent == [(game_topic(game), game)]

    assert not watcher.can_edit(game)
    with pytest.raises(NotAllowed) as refused:
        watcher.save_hand(model(store, game), HAND, None)
    assert isinstance(refused.value, ValueError) and isinstance(refused.value, StoreError)
    assert "enter the table code" in str(refused.value)
    with pytest.raises(NotAllowed):
        watcher.save_hand(model(store, game), HAND, 0)
    with pytest.raises(NotAllowed):
        watcher.undo_last_hand(model(store, game))
    assert len(store.get_game(game).doc["hands"]) == 1
    assert watcher.ctx.page.pubsub.sent == []
    assert watcher.table_code(game) is None
    assert starter.table_code(game) == get_rights(store.data_dir).code(game)


def test_the_code_gives_rights_and_they_stay_with_the_device(store: GameStore) -> None:
    game = new_game(store)
    starter = phone(store, "starter-device-token-000001")
    code = starter.game_created(game)
    watcher = phone(store, "watcher-device-token-000002")
    watcher.enter_code(game, code)
    watcher.save_hand(model(store, game), HAND, None)
    watcher.undo_last_hand(model(store, game))
    # Same device token in a new session (a reload after the session timed out).
    assert phone(store, "watcher-device-token-000002").can_edit(game)


def test_a_game_nobody_holds_is_open_to_no_phone(store: GameStore) -> None:
    """Imported, saved before table codes, or its codes file lost: the first comer
    gets nothing; the code (given at import or at start) or the host code is needed."""
    game = new_game(store)
    first = phone(store, "first-device-token-0000001")
    assert not first.can_edit(game)
    with pytest.raises(NotAllowed):
        first.save_hand(model(store, game), HAND, None)
    with pytest.raises(NotAllowed):
        first.delete_game(game)
    assert first.table_code(game) is None
    assert store.get_game(game).doc["hands"] == []
    rights = get_rights(store.data_dir)
    rights.give_codes([game])
    code = rights.code(game)
    assert code is not None
    first.enter_code(game, code)
    first.save_hand(model(store, game), HAND, None)


def test_the_host_holds_every_game_and_sees_every_code(store: GameStore) -> None:
    game = new_game(store)
    rights = get_rights(store.data_dir)
    rights.give_codes([game])
    host = phone(store, "host-device-token-00000001")
    assert not host.is_host and host.table_code(game) is None
    host.enter_host_code(rights.new_host_code())
    assert host.is_host and host.can_edit(game)
    assert host.table_code(game) == rights.code(game)
    host.delete_game(game)
    assert game not in {g.id for g in store.list_games()}


def test_only_a_holder_deletes_a_game_and_its_code_goes_with_it(store: GameStore) -> None:
    game = new_game(store)
    starter = phone(store, "starter-device-token-000001")
    starter.game_created(game)
    watcher = phone(store, "watcher-device-token-000002")
    with pytest.raises(NotAllowed):
        watcher.delete_game(game)
    assert store.get_game(game).id == game
    starter.delete_game(game)
    assert game not in {g.id for g in store.list_games()}
    rights = get_rights(store.data_dir)
    assert rights.code(game) is None and not rights.may_edit(game, "starter-device-token-000001")
    assert starter.ctx.page.pubsub.sent[-1] == (game_topic(game), game)


def test_new_games_are_limited_per_address(store: GameStore) -> None:
    from scorer.rights import TooManyGames
    from scorer.rights.service import GAMES_PER_HOUR

    doc = {"format": "tarabish-game/1", "players": ["A", "B", "C", "D"], "first_dealer": 0,
           "rules": {}, "hands": []}
    guest = phone(store, "guest-device-token-0000001", address="10.7.7.7")
    for _ in range(GAMES_PER_HOUR):
        made = guest.create_game(doc)
        assert guest.can_edit(made.id)
    before = len(store.list_games())
    with pytest.raises(TooManyGames, match="wait"):
        phone(store, "another-token-of-the-guest", address="10.7.7.7").create_game(doc)
    assert len(store.list_games()) == before
    phone(store, "neighbour-device-token-001", address="10.7.7.8").create_game(doc)


def test_a_stale_sheet_is_refused_with_the_current_game(store: GameStore) -> None:
    game = new_game(store)
    a = phone(store, "phone-a-device-token-00001")
    code = a.game_created(game)
    b = phone(store, "phone-b-device-token-00002")
    b.enter_code(game, code)
    seen_by_b = model(store, game)
    a.save_hand(model(store, game), HAND, None)
    with pytest.raises(StaleRevision) as stale:
        b.save_hand(seen_by_b, HAND, None)
    assert "changed on another phone" in str(stale.value)
    assert len(stale.value.current.doc["hands"]) == 1


def test_an_unidentified_session_cannot_edit_a_held_game(store: GameStore) -> None:
    game = new_game(store)
    phone(store, "starter-device-token-000001").game_created(game)
    anonymous = table_actions(store, None)
    assert anonymous.device is None
    assert not anonymous.can_edit(game)
    with pytest.raises(NotAllowed):
        anonymous.save_hand(model(store, game), HAND, None)


def test_share_urls_prefer_the_lan_address(store: GameStore, monkeypatch: pytest.MonkeyPatch
                                           ) -> None:
    from scorer.app import CONFIG

    monkeypatch.setattr(CONFIG, "reach", Reach(listening=(
        "http://localhost:8550/", "http://192.168.1.20:8550/")))
    a = phone(store, "phone-a-device-token-00001")
    a.ctx.page.url = "ws://localhost:8550/game/0123abcd"
    assert a.share_urls("0123abcd") == ["http://192.168.1.20:8550/game/0123abcd"]


def test_behind_a_proxy_share_gives_the_address_the_phone_opened(
        store: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Flet page's own address is its websocket's (`wss://`): it was dropped, and a
    community's Share showed the process's own http://localhost:8551."""
    from scorer.app import CONFIG

    monkeypatch.setattr(CONFIG, "reach", Reach(listening=("http://localhost:8551/",),
                                               behind_proxy=True))
    a = phone(store, "phone-a-device-token-00001")
    a.ctx.page.url = "wss://bish.example.org"
    a.ctx.via_proxy = True
    assert a.share_urls("0123abcd") == ["https://bish.example.org/game/0123abcd"]


def test_a_phone_is_named_in_the_trail_by_the_name_it_chose_never_its_token(
        store: GameStore) -> None:
    game = new_game(store)
    first = phone(store, "first-device-token-0000001")
    first.game_created(game)
    second = phone(store, "second-device-token-000002")
    second.game_created(game)
    assert first.label() == "phone 1" and second.label() == "phone 2"
    assert second.name_phone("  Mary\x1b ") == "Mary"  # trimmed, no control characters
    second.save_hand(model(store, game), HAND, None)
    saved = store.get_game(game)
    assert saved.history[-1]["by"] == "Mary"
    assert "second-device-token" not in str(saved.history)
    assert second.name_phone("") == "phone 2"  # blank: back to its number
