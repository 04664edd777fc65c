"""Issue 41, point 8: the smaller things a weekly group met on its second night."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import flet_charts as fch
import pytest

from scorer.app.group_actions import TooManyGroups
from scorer.app.views.group_one import member_added
from scorer.app.views.rating_chart import game_step, rating_chart
from scorer.cli import main
from scorer.groups.folder import FolderGroups
from scorer.groups.model import Group
from scorer.ratings.timeline import Point


def group(*members: str) -> Group:
    return Group(id="0123abcd", name="Friday bish", members=members,
                 created=datetime(2026, 11, 27, tzinfo=UTC))


def test_adding_ann_as_ann_says_she_is_ann() -> None:
    before = group("Ann", "Bob")
    assert member_added(before, before, "ann") == "Ann is already a member (you typed ann)."
    assert member_added(before, before, "Ann ") == "Ann is already a member."
    assert member_added(before, group("Ann", "Bob", "Cid"), " Cid") == "Cid is a member now."


def test_the_hourly_bounds_on_new_groups_say_whose_count_is_full() -> None:
    """Five an hour per phone, thirty per network (a hall's phones share an address)."""
    assert str(TooManyGroups(600)).startswith("This phone has made 5 groups")
    assert str(TooManyGroups(600, network=True)).startswith("Phones on this network have made")


def test_one_member_is_not_one_members(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    FolderGroups(tmp_path).create("Friday bish", ["Ann"])
    assert main(["group", "list", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "1 member, 0 games" in out and "1 members" not in out


@pytest.mark.parametrize("games", [5, 12, 60, 345, 4000])
def test_the_rating_chart_numbers_its_games_at_any_length(games: int) -> None:
    when = datetime(2026, 11, 27, tzinfo=UTC)
    points = [Point(game=n, when=when, rating=(n % 7) - 3.0, won=n % 2 == 0)
              for n in range(1, games + 1)]
    chart = rating_chart("Ann", points)
    line = chart.content.content  # Semantics > Container > LineChart
    assert isinstance(line, fch.LineChart)
    axis = line.bottom_axis
    assert axis is not None and axis.label_spacing == game_step(games)
    shown = [label.value for label in axis.labels]
    assert 1 <= len(shown) <= 8, shown
    assert all(v % axis.label_spacing == 0 for v in shown)  # where the chart draws labels
