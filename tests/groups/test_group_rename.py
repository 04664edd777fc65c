"""A keeper renames a member once, for the group (issue 41, point 5): every game of the
group (whoever holds its table code), its member list spelt as typed, its board and
statistics; games outside the group are not touched; a stranger changes nothing; the
command line does the same. Both stores."""

from __future__ import annotations

import secrets
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ratings"))

from ratings_docs import game_doc

from scorer.app.group_access import get_groups
from scorer.app.ratings_access import rated_folder
from scorer.cli import main
from scorer.groups.folder import FolderGroups
from scorer.groups.model import NotKeeper
from scorer.store import GameStore
from tests.groups.test_group_actions import AnyStore, phone

KEEPER = "keeper-token-00000000001"
TABLE = "table-phone-token-000001"
STRANGER = "stranger-token-000000001"
SEATS = [["Ann", "Bob", "Cid", "Dee"], ["Ann", "dee", "Cid", "Bob"], ["Dee", "Eve", "Ann", "Fay"]]



def seat(store: AnyStore, group_id: str, game_id: str) -> None:
    """The game joins the group (seeded as the store's own groups would have it)."""
    get_groups(store).add_games(group_id, [(game_id, store.get_game(game_id).doc["players"])])


def group_of_three(store: AnyStore) -> tuple[str, list[str], str]:
    """Three finished games of "Friday bish" started on TABLE's phone (one typed "dee"),
    and one game with Dee outside the group; (group id, its games, the outside game)."""
    # New groups are braked per address: a fresh one per test.
    keeper = phone(store, KEEPER, f"10.9.{secrets.randbelow(250)}.{secrets.randbelow(250)}")
    group, _code = keeper.create("Friday bish")
    table = phone(store, TABLE)
    ids = [table.actions.create_game(game_doc(s, 0)).id for s in SEATS]
    for game_id in ids:
        seat(store, group.id, game_id)
    outside = table.actions.create_game(game_doc(["Dee", "Gus", "Hal", "Ivy"], 0)).id
    return group.id, ids, outside


def test_the_keeper_renames_a_member_for_the_whole_group(store: AnyStore) -> None:
    group_id, ids, outside = group_of_three(store)
    after, result = phone(store, KEEPER).rename_member(group_id, "DEE", "Deirdre")
    assert sorted(result.renamed) == sorted(ids) and result.skipped == []
    for game_id in ids:
        assert "Deirdre" in store.get_game(game_id).doc["players"]
    assert "Dee" in store.get_game(outside).doc["players"]  # not the group's: untouched
    assert "Deirdre" in after.members and "Dee" not in after.members
    assert get_groups(store).get(group_id).members == after.members
    board = {row.player for row in rated_folder(store).board("all", group_id)}
    assert "Deirdre" in board and not {"Dee", "dee"} & board


def test_renaming_into_another_member_makes_them_one(store: AnyStore) -> None:
    group_id, _ids, _outside = group_of_three(store)
    after, _result = phone(store, KEEPER).rename_member(group_id, "Fay", "eve ")
    # Eve and Fay sat at one table in the third game: left as it was, the list merged.
    assert [m.casefold() for m in after.members].count("eve") == 1
    assert "Fay" not in after.members and "eve" in after.members


def test_a_stranger_or_a_table_phone_renames_nothing(store: AnyStore) -> None:
    group_id, ids, _outside = group_of_three(store)
    before = [store.get_game(g).revision for g in ids]
    for device in (STRANGER, TABLE):
        with pytest.raises(NotKeeper):
            phone(store, device).rename_member(group_id, "Dee", "Mallory")
    assert [store.get_game(g).revision for g in ids] == before
    assert "Dee" in get_groups(store).get(group_id).members


def test_the_command_line_renames_as_the_keeper_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    with GameStore(data) as opened:
        ids = [opened.create_game(game_doc(s, 0)).id for s in SEATS]
        outside = opened.create_game(game_doc(["Dee", "Gus", "Hal", "Ivy"], 0)).id
    groups = FolderGroups(data)
    group, _code = groups.create("Friday bish")
    groups.add_games(group.id, [(i, ("Ann", "Bob", "Cid", "Dee")) for i in ids])
    assert main(["rename-player", "Dee", "Deirdre", "--group", "friday bish",
                 "--data-dir", str(data)]) == 0
    assert "Renamed in 3 games" in capsys.readouterr().out
    assert "Deirdre" in FolderGroups(data).get(group.id).members
    with GameStore(data, read_only=True) as opened:
        assert "Dee" in opened.get_game(outside).doc["players"]
    assert main(["ratings", "--group", "Friday bish", "--json", "--data-dir", str(data)]) == 0
    listed = capsys.readouterr().out
    assert "Deirdre" in listed and '"Dee"' not in listed
    assert main(["rename-player", "Zed", "Zoe", "--group", "Friday bish",
                 "--data-dir", str(data)]) == 2
    assert "Zed is not a member of Friday bish" in capsys.readouterr().err
