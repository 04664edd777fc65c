"""Group and member names a stranger types: NUL, control characters, right-to-left
overrides, SQL-looking text. Each is refused in one line (BadGroup) or kept as plain
text, the same in a data folder and in PostgreSQL; none reaches the database as an
error of its own."""

from __future__ import annotations

import pytest

from scorer.groups.model import BadGroup
from scorer.groups.service import Groups

CONTROL = ["Fri\x00day", "Fri\x07day", "\x1b[31mred", "Fri\u202eyad", "Ann\u200b",
           "\ud800lone"]


@pytest.mark.parametrize("name", CONTROL)
def test_a_name_with_hidden_characters_is_refused_in_one_line(groups: Groups,
                                                             name: str) -> None:
    with pytest.raises(BadGroup, match="letters"):
        groups.create(name)
    group, _ = groups.create("Friday")
    with pytest.raises(BadGroup, match="letters"):
        groups.add_member(group.id, name)
    with pytest.raises(BadGroup, match="letters"):
        groups.rename(group.id, name)
    with pytest.raises(BadGroup, match="letters"):
        groups.create("Family", members=["Ann", name])
    assert [g.name for g in groups.list_groups()] == ["Friday"]
    assert groups.get(group.id).members == ()


def test_sql_looking_and_right_to_left_names_are_kept_as_written(groups: Groups) -> None:
    sql = "x'); DROP TABLE groups;--"
    group, _ = groups.create(sql, members=["Robert'); --", "عليّ", "O'Neil"])
    assert groups.find(sql) == group
    assert groups.get(group.id).members == ("Robert'); --", "عليّ", "O'Neil")
    assert groups.find("x'); drop table GROUPS;--").id == group.id
