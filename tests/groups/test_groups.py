"""Groups on both stores: names, members with their games, the keeper code."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from scorer.groups import BadGroup, GroupNotFound, NotKeeper
from scorer.groups.folder import FolderGroups
from scorer.groups.model import MAX_MEMBERS
from scorer.groups.service import Groups
from scorer.rights.limiter import TooManyTries, WrongCode

PLAYERS = ("Ann", "Bob", "Cid", "Dee")


def test_a_group_is_made_found_and_listed(groups: Groups) -> None:
    friday, code = groups.create("  Friday   bish ", members=["Ann", "ann ", "Bob"])
    assert friday.name == "Friday bish" and friday.members == ("Ann", "Bob")
    assert len(code) == 8 and code.isdigit()
    family, _ = groups.create("Family")
    assert [g.name for g in groups.list_groups()] == ["Family", "Friday bish"]
    assert groups.find("FRIDAY BISH") == friday == groups.get(friday.id)
    assert groups.find(friday.id[:5]).id == friday.id or groups.find(friday.id).id == friday.id
    with pytest.raises(GroupNotFound):
        groups.find("Tuesday")
    with pytest.raises(BadGroup, match="already a group named"):
        groups.create("friday bish")
    with pytest.raises(BadGroup, match="cannot be empty"):
        groups.create("   ")
    with pytest.raises(BadGroup, match="at most 40"):
        groups.create("x" * 41)
    assert family.id != friday.id


def test_games_join_with_their_players_and_can_be_taken_out(groups: Groups) -> None:
    group, _ = groups.create("Friday")
    after = groups.add_games(group.id, [("0000000a", PLAYERS),
                                        ("0000000b", ("ann", "BOB", "Eve", "Fay"))])
    assert after.games == ("0000000a", "0000000b")
    assert after.members == ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
    again = groups.add_games(group.id, [("0000000a", PLAYERS)])
    assert again.games == after.games  # a game joins once
    assert groups.groups_of_game("0000000b") == [again]
    out = groups.remove_game(group.id, "0000000a")
    assert out.games == ("0000000b",) and out.members == after.members
    with pytest.raises(BadGroup, match="not in the group"):
        groups.remove_game(group.id, "0000000a")
    assert groups.get(group.id) == out


def test_members_are_bounded(groups: Groups) -> None:
    group, _ = groups.create("Big")
    groups.add_games(group.id, [(f"{n:08x}", [f"P{n}-{s}" for s in range(4)])
                                for n in range(MAX_MEMBERS // 4)])
    with pytest.raises(BadGroup, match=f"at most {MAX_MEMBERS} members"):
        groups.add_member(group.id, "One too many")
    assert len(groups.get(group.id).members) == MAX_MEMBERS


def test_the_keeper_code_makes_a_keeper_and_is_braked(groups: Groups) -> None:
    group, code = groups.create("Friday", keeper="maker-token")
    assert groups.holds(group.id, "maker-token")
    assert not groups.holds(group.id, "guest-token") and not groups.holds(group.id, None)
    with pytest.raises(NotKeeper):
        groups.must_keep(group.id, "guest-token")
    with pytest.raises(WrongCode, match="2 more tries"):
        groups.enter_code(group.id, "guest-token", "10.0.0.9", "00000000")
    groups.enter_code(group.id, "guest-token", "10.0.0.9", f" {code} ")
    assert groups.holds(group.id, "guest-token")
    wrong = "11111111" if code != "11111111" else "22222222"
    for _ in range(3):
        with pytest.raises(WrongCode):
            groups.enter_code(group.id, "thief", "10.0.0.66", wrong)
    with pytest.raises(TooManyTries):  # braked before the code is compared: even the right one
        groups.enter_code(group.id, "thief", "10.0.0.66", code)
    assert not groups.holds(group.id, "thief")


def test_a_new_code_replaces_the_old_and_only_a_keeper_may_ask(groups: Groups) -> None:
    group, old = groups.create("Friday", keeper="maker")
    with pytest.raises(NotKeeper):
        groups.new_code(group.id, "guest")
    new = groups.new_code(group.id, "maker")
    with pytest.raises(WrongCode):
        groups.enter_code(group.id, "guest", "10.0.0.2", old if old != new else "x")
    groups.enter_code(group.id, "guest", "10.0.0.3", new)
    assert groups.holds(group.id, "guest")
    assert groups.new_code(group.id, None)  # the operator at the server's command line


def test_two_changes_at_once_both_land(groups: Groups) -> None:
    group, _ = groups.create("Friday")
    start = threading.Barrier(8)

    def add(n: int) -> None:
        start.wait()
        groups.add_games(group.id, [(f"{n:08x}", [f"A{n}", f"B{n}", f"C{n}", f"D{n}"])])

    threads = [threading.Thread(target=add, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(groups.get(group.id).games) == [f"{n:08x}" for n in range(8)]


def test_bad_ids_name_no_group(groups: Groups) -> None:
    for bad in ("../x", "", "ZZZZZZZZ", "1234567"):
        with pytest.raises(GroupNotFound):
            groups.get(bad)


def test_the_file_keeps_no_code_and_no_token(tmp_path: Path) -> None:
    store = FolderGroups(tmp_path)
    group, code = store.create("Friday", keeper="secret-device-token")
    text = (tmp_path / "groups.json").read_text()
    assert code not in text and "secret-device-token" not in text
    assert json.loads(text)["groups"][group.id]["code"].startswith("scrypt$")


def test_a_damaged_file_is_set_aside_and_nothing_else_lost(tmp_path: Path) -> None:
    (tmp_path / "groups.json").write_text("{ torn")
    store = FolderGroups(tmp_path)
    assert store.list_groups() == []
    assert list((tmp_path / "damaged").iterdir())
    assert "could not be read" in store.problems[0]
    group, _ = store.create("Friday")
    assert FolderGroups(tmp_path).get(group.id).name == "Friday"


def test_the_groups_of_a_game_are_those_holding_it(groups: Groups) -> None:
    """Asked at each redraw of a sheet: on PostgreSQL the database picks them."""
    one, _ = groups.create("One")
    two, _ = groups.create("Two")
    groups.add_games(one.id, [("0000000a", PLAYERS), ("0000000b", PLAYERS)])
    groups.add_games(two.id, [("0000000b", PLAYERS)])
    assert [g.id for g in groups.groups_of_game("0000000a")] == [one.id]
    assert sorted(g.id for g in groups.groups_of_game("0000000b")) == sorted([one.id, two.id])
    assert groups.groups_of_game("0000000c") == []
