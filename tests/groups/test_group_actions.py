"""GroupActions checks on the server, at the change, that the phone keeps the group:
a phone that forges the route or the event (another group's id) changes nothing.
Both stores: a data folder's and a community's database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scorer.app.group_access import get_groups
from scorer.app.group_actions import PICK_MAX, GroupActions
from scorer.groups.model import BadGroup, GroupNotFound, NotKeeper
from scorer.rights.limiter import WrongCode
from scorer.store.game_store import GameStore
from scorer.store.pg_games import PgGameStore
from tests.fake_phone import group_phone

AnyStore = GameStore | PgGameStore


def doc(players: tuple[str, str, str, str] = ("Ann", "Bob", "Cid", "Dee")) -> dict[str, Any]:
    return {"format": "tarabish-game/1", "players": list(players), "first_dealer": 0,
            "rules": {}, "hands": []}


def phone(store: AnyStore, device: str | None, address: str | None = None) -> GroupActions:
    """A phone; its own address unless given (the hourly brake on new groups is per
    address and per process)."""
    return group_phone(store, device, address or f"addr-{device}")


def own(store: AnyStore, keeper: GroupActions,
        players: tuple[str, str, str, str] = ("Ann", "Bob", "Cid", "Dee")) -> str:
    """A game this phone started (on a community a phone adds only games it sees)."""
    game = store.create_game(doc(players)).id
    assert keeper.actions.device is not None
    keeper.actions.rights.start(game, keeper.actions.device)
    return game


def test_the_maker_keeps_the_group_and_a_stranger_changes_nothing(store: AnyStore) -> None:
    keeper = phone(store, "keeper-token-00000000001")
    stranger = phone(store, "stranger-token-000000001", "192.168.1.66")
    group, code = keeper.create("Friday bish", ["Ann", "Bob"])
    assert len(code) == 8 and code.isdigit()
    assert keeper.keeps(group.id) and not stranger.keeps(group.id)
    game = own(store, keeper)
    other = store.create_game(doc(("Eve", "Fay", "Gus", "Hal"))).id
    keeper.add_game(group.id, game)
    before = get_groups(store).get(group.id)
    for change in (lambda: stranger.add_game(group.id, other),
                   lambda: stranger.remove_game(group.id, game),
                   lambda: stranger.add_member(group.id, "Zed"),
                   lambda: stranger.new_code(group.id),
                   lambda: stranger.create_game(group.id, doc())):
        with pytest.raises(NotKeeper, match="Only the group's keeper can change it"):
            change()
    assert get_groups(store).get(group.id) == before
    assert len(store.list_games()) == 2  # the forged "Start a game" made no game
    assert phone(store, None).keeps(group.id) is False
    with pytest.raises(NotKeeper):
        phone(store, None).add_member(group.id, "Zed")
    with pytest.raises(BadGroup, match="still being recognised"):
        phone(store, None).create("Nobody's")


def test_a_keeper_of_one_group_cannot_change_another(store: AnyStore) -> None:
    """The forged event: a keeper's phone calls an action with another group's id."""
    ann = phone(store, "ann-token-00000000000001")
    bob = phone(store, "bob-token-00000000000001", "192.168.1.11")
    ours, _ = ann.create("Ours")
    theirs, _ = bob.create("Theirs")
    game = own(store, ann)
    with pytest.raises(NotKeeper):
        ann.add_game(theirs.id, game)
    with pytest.raises(NotKeeper):
        ann.create_game(theirs.id, doc())
    assert get_groups(store).get(theirs.id).games == ()
    ann.add_game(ours.id, game)
    assert get_groups(store).get(ours.id).games == (game,)
    with pytest.raises(GroupNotFound):
        ann.add_game("not-an-id", game)
    with pytest.raises(GroupNotFound):
        ann.add_game("0badc0de", game)


def test_the_keeper_code_makes_a_second_phone_a_keeper(store: AnyStore) -> None:
    keeper = phone(store, "keeper-token-00000000002")
    group, code = keeper.create("Legion")
    second = phone(store, "second-token-00000000002", "192.168.1.12")
    wrong = "00000000" if code != "00000000" else "11111111"
    with pytest.raises(WrongCode, match="not the keeper code"):
        second.enter_code(group.id, wrong)
    assert not second.keeps(group.id)
    second.enter_code(group.id, code)
    assert second.keeps(group.id)
    made = second.create_game(group.id, doc(("Ann", "Bob", "Cid", "Dee")))
    joined = get_groups(store).get(group.id)
    assert joined.games == (made.id,)
    assert set(joined.members) == {"Ann", "Bob", "Cid", "Dee"}
    assert [s.id for s in second.games(joined)] == [made.id]
    assert second.group_of_game(made.id) == joined
    fresh = second.new_code(group.id)
    third = phone(store, "third-token-000000000002", "192.168.1.13")
    with pytest.raises(WrongCode):
        third.enter_code(group.id, code)  # the old code stops working
    third.enter_code(group.id, fresh)
    assert third.keeps(group.id)


def test_take_out_and_the_pickers(store: AnyStore) -> None:
    keeper = phone(store, "keeper-token-00000000003")
    group, _ = keeper.create("Pickers")
    first = own(store, keeper)
    second = own(store, keeper)
    keeper.add_game(group.id, first)
    shown, more = keeper.candidates(keeper.get(group.id))
    assert [s.id for s in shown] == [second] and more == 0
    held = keeper.group_of_game(first)  # the sheet's line, read (and kept) before...
    assert held is not None and held.id == group.id
    keeper.remove_game(group.id, first)  # ...a change right after: it is seen at once
    shown, _ = keeper.candidates(keeper.get(group.id))
    assert [s.id for s in shown] == [second, first]  # newest first
    assert keeper.group_of_game(first) is None
    assert keeper.add_member(group.id, "  Zed ").members[-1] == "Zed"


def test_the_picker_is_bounded(tmp_path: Path) -> None:
    with GameStore(tmp_path / "data") as store:
        keeper = phone(store, "keeper-token-00000000004")
        group, _ = keeper.create("Many")
        store.create_games([doc() for _ in range(PICK_MAX + 5)])
        shown, more = keeper.candidates(keeper.get(group.id))
        assert len(shown) == PICK_MAX and more == 5
