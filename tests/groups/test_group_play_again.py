"""Play again on a group's game: the next game joins the group, checked on the server
when it is made; only a keeper may say it does not count, and a watcher's game of its
own joins nothing (issue 41, point 1). Both stores."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from scorer.app.group_access import get_groups
from scorer.groups.model import NotKeeper
from tests.groups.test_group_actions import AnyStore, doc, phone

WON = [{"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 162}, "bella": 0}] * 3
KEEPER = "keeper-token-00000000001"
TABLE = "table-phone-token-000001"
STRANGER = "stranger-token-000000001"



def seat(store: AnyStore, group_id: str, game_id: str) -> None:
    """The game joins the group (seeded as the store's own groups would have it)."""
    get_groups(store).add_games(group_id, [(game_id, store.get_game(game_id).doc["players"])])


def finished_group_game(store: AnyStore) -> tuple[str, str]:
    """A group "Friday bish" and a finished game of it, started on TABLE's phone (which
    does not keep the group); (group id, game id)."""
    # New groups are braked per address: a fresh one per test.
    keeper = phone(store, KEEPER, f"10.9.{secrets.randbelow(250)}.{secrets.randbelow(250)}")
    group, _code = keeper.create("Friday bish")
    played = phone(store, TABLE).actions.create_game({**doc(), "hands": WON})
    seat(store, group.id, played.id)
    return group.id, played.id


def again(store: AnyStore, device: str, finished: str, count: bool = True) -> Any:
    return phone(store, device).play_again(finished, store.get_game(finished).revision,
                                           doc(), count=count)


def test_the_tables_next_game_counts_for_the_group(store: AnyStore) -> None:
    group_id, finished = finished_group_game(store)
    table = phone(store, TABLE)
    assert table.will_follow(finished) is not None
    after = again(store, TABLE, finished)
    assert after.made and store.get_game(after.game_id).follows == finished
    assert after.game_id in get_groups(store).get(group_id).games
    assert table.group_of_game(after.game_id) is not None
    # The next game's next game too: the whole night counts.
    for hand in WON:
        store.add_hand(after.game_id, hand, expected_revision=store.get_game(
            after.game_id).revision)
    third = again(store, TABLE, after.game_id)
    assert third.game_id in get_groups(store).get(group_id).games


def test_a_watchers_play_again_joins_no_group(store: AnyStore) -> None:
    group_id, finished = finished_group_game(store)
    assert phone(store, STRANGER).will_follow(finished) is None
    own = again(store, STRANGER, finished)
    assert own.made and store.get_game(own.game_id).follows is None
    assert own.game_id not in get_groups(store).get(group_id).games


def test_only_the_keeper_may_say_the_next_game_does_not_count(store: AnyStore) -> None:
    group_id, finished = finished_group_game(store)
    before = len(store.list_games())
    with pytest.raises(NotKeeper):
        again(store, TABLE, finished, count=False)
    assert len(store.list_games()) == before  # refused before any game was made
    with pytest.raises(NotKeeper):
        again(store, STRANGER, finished, count=False)
    kept_out = again(store, KEEPER, finished, count=False)
    assert kept_out.made
    assert kept_out.game_id not in get_groups(store).get(group_id).games
