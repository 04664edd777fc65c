"""The group store: the same tests for the data folder and for PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorer.store.group_models import Group, GroupNotFound, GroupRefused
from scorer.store.group_store import GROUPS_FILE, FolderGroups

GAME = "0123abcd"


@pytest.fixture(params=["folder", "postgres"])
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """A function giving the group store, made afresh over the same place each call."""
    if request.param == "folder":
        yield lambda: FolderGroups(tmp_path)
        return
    from scorer.store.database import Database
    from scorer.store.pg_groups import PgGroups

    db = Database(request.getfixturevalue("pg_url"))
    try:
        yield lambda: PgGroups(db)
    finally:
        db.close()


def test_a_group_keeps_name_members_and_games(make_store: Any) -> None:
    store = make_store()
    group, code = store.new_group("  Friday   night ")
    assert group == Group(id=group.id, name="Friday night")
    assert len(code) == 8 and code.isdigit()
    store.add_member(group.id, "Ann")
    store.add_member("friday NIGHT", "ANN ")  # capitals do not matter, for groups too
    store.add_member(group.id, "Bob")
    store.add_game(group.id, GAME)
    store.add_game(group.id, GAME)
    again = make_store().get_group(group.id)
    assert again.members == ("Ann", "Bob") and again.games == (GAME,)
    assert again.contract() == {"id": group.id, "name": "Friday night",
                                "members": ["Ann", "Bob"], "games": [GAME]}
    assert [g.id for g in make_store().list_groups()] == [group.id]
    assert store.remove_member(group.id, "aNN").members == ("Bob",)
    assert store.remove_game(group.id, GAME).games == ()


def test_the_keeper_code_is_checked_and_never_kept_as_typed(make_store: Any,
                                                            tmp_path: Path) -> None:
    store = make_store()
    group, code = store.new_group("Club", token="phone-1")
    assert store.holds(group.id, "phone-1") and not store.holds(group.id, "phone-2")
    assert store.code_matches(group.id, code)
    assert not store.code_matches(group.id, "00000000" if code != "00000000" else "1")
    store.grant(group.id, "phone-2")
    assert make_store().holds(group.id, "phone-2")
    for path in tmp_path.rglob("*.json"):
        assert code not in path.read_text(encoding="utf-8")


@pytest.mark.parametrize("bad", ["", "   ", "x" * 41, "a\u0007b"])
def test_bad_names_are_refused_in_one_line(make_store: Any, bad: str) -> None:
    with pytest.raises(GroupRefused) as refused:
        make_store().new_group(bad)
    assert "\n" not in str(refused.value)


def test_bad_ids_and_twins_are_refused(make_store: Any) -> None:
    store = make_store()
    group, _code = store.new_group("Club")
    with pytest.raises(GroupRefused):
        store.new_group("CLUB")
    with pytest.raises(GroupRefused):
        store.add_game(group.id, "../../etc")
    with pytest.raises(GroupNotFound):
        store.add_member("nope", "Ann")


def test_a_damaged_file_is_set_aside(tmp_path: Path) -> None:
    (tmp_path / GROUPS_FILE).write_text('{"format": "tarabish-groups/1", "gro', "utf-8")
    (tmp_path / "keep.json").write_text("{}", "utf-8")
    store = FolderGroups(tmp_path)
    assert store.list_groups() == []
    assert len(list((tmp_path / "damaged").iterdir())) == 1
    assert json.loads((tmp_path / "keep.json").read_text("utf-8")) == {}
    store.new_group("Fresh")
    assert [g.name for g in FolderGroups(tmp_path).list_groups()] == ["Fresh"]


def test_guessing_the_keeper_code_is_braked(make_store: Any) -> None:
    from scorer.rights.group_keepers import GroupKeepers, NotKeeper
    from scorer.rights.limiter import TooManyTries, WrongCode

    store = make_store()
    group, code = store.new_group("Club")
    keepers = GroupKeepers(store)
    with pytest.raises(NotKeeper):
        keepers.check(group.id, "phone")
    wrong = "1" * 8 if code != "1" * 8 else "2" * 8
    for _ in range(3):
        with pytest.raises(WrongCode):
            keepers.enter(group.id, "phone", "10.0.0.9", wrong)
    with pytest.raises(TooManyTries):
        keepers.enter(group.id, "phone", "10.0.0.9", code)  # braked, even the right one
    keepers.enter(group.id, "other", "10.0.0.7", code)
    keepers.check(group.id, "other")
