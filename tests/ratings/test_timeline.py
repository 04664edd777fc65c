"""The pages' ratings game by game: the same numbers as `compute_ratings`, a season's
leaderboard, a player's history and records; chances and fair teams."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scorer.ratings import Match, compute_ratings
from scorer.ratings.chances import win_chance
from scorer.ratings.prematch import chances, fair_teams, percent_pair
from scorer.ratings.timeline import (
    DatedMatch,
    history,
    leaderboard,
    rate_in_order,
    records,
    skills_of,
)

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gil", "Hal"]
START = datetime(2026, 1, 1, tzinfo=UTC)

seatings = st.lists(st.permutations(NAMES).map(lambda names: tuple(names[:4])),
                    min_size=1, max_size=25)


def dated(seats: list[tuple[str, ...]]) -> list[DatedMatch]:
    """One game a week; seats 0 and 2 win."""
    return [DatedMatch(game_id=f"{n:08x}", when=START + timedelta(days=7 * n),
                       match=Match(winners=(s[0], s[2]), losers=(s[1], s[3])))
            for n, s in enumerate(seats)]


@settings(max_examples=60, deadline=None)
@given(seatings)
def test_the_leaderboard_of_all_games_is_compute_ratings(seats: list[tuple[str, ...]]) -> None:
    games = dated(seats)
    board = leaderboard(rate_in_order(games))
    rated = compute_ratings(g.match for g in games)
    assert [(r.player, r.rating, r.games, r.wins) for r in board] == \
        [(p.player, p.rating, p.games, p.wins) for p in rated.players]


@settings(max_examples=40, deadline=None)
@given(seatings, st.integers(min_value=0, max_value=25))
def test_a_season_counts_its_games_and_shows_the_rating_now(
    seats: list[tuple[str, ...]], weeks: int,
) -> None:
    games = dated(seats)
    since = START + timedelta(days=7 * weeks)
    timeline = rate_in_order(games)
    everyone = {r.key: r for r in leaderboard(timeline)}
    season = leaderboard(timeline, since)
    in_season = [g for g in games if g.when >= since]
    assert sum(r.games for r in season) == 4 * len(in_season)
    for row in season:
        assert row.rating == everyone[row.key].rating
        assert row.rated_games == everyone[row.key].games
        # The change is over the season: the rating now less the one before it.
        before = [p for p in history(timeline, row.key) if p.when < since]
        start = before[-1].rating if before else 0.0
        assert row.change == pytest.approx(row.rating - start, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(seatings)
def test_a_players_history_and_records_add_up(seats: list[tuple[str, ...]]) -> None:
    timeline = rate_in_order(dated(seats))
    for row in leaderboard(timeline):
        points = history(timeline, row.key)
        assert len(points) == row.games and sum(p.won for p in points) == row.wins
        assert points[-1].rating == row.rating
        partners, opponents = records(timeline, row.key)
        for rows in (partners, opponents):
            assert sum(r.games for r in rows) == row.games
            assert sum(r.wins for r in rows) == row.wins


def test_capitals_make_one_player() -> None:
    timeline = rate_in_order(dated([("Ann", "Bob", "Cid", "Dee"), ("ANN", "bob", "cid", "Dee")]))
    assert [r.games for r in leaderboard(timeline)] == [2, 2, 2, 2]
    assert [p.game for p in history(timeline, "ann")] == [1, 2]


def test_the_chance_is_openskills_own_prediction() -> None:
    timeline = rate_in_order(dated([("Ann", "Bob", "Cid", "Dee")] * 5))
    odds = chances(timeline.now, ("Ann", "Cid"), ("Bob", "Dee"))
    model = PlackettLuce()
    skill = timeline.now
    theirs = model.predict_win([[model.rating(mu=skill[k].mu, sigma=skill[k].sigma)
                                 for k in pair] for pair in (("ann", "cid"), ("bob", "dee"))])
    assert odds == pytest.approx(tuple(theirs))
    assert odds[0] > 0.5 and sum(odds) == pytest.approx(1)
    assert sum(percent_pair(odds)) == 100
    # A newcomer starts from the model's default; nobody rated is an even game.
    assert chances({}, ("X", "Y"), ("Z", "W")) == pytest.approx((0.5, 0.5))
    assert skills_of(timeline, ["ANN", "Zed"])[1] is None


def test_fair_teams_break_up_the_pair_that_always_wins() -> None:
    timeline = rate_in_order(dated([("Ann", "Bob", "Cid", "Dee")] * 6))
    proposal = fair_teams(timeline.now, ["Ann", "Bob", "Cid", "Dee"])
    (table,) = proposal.tables
    assert {"Ann", "Cid"} not in [set(team) for team in table.teams]
    assert abs(table.odds[0] - 0.5) < 0.05 and not proposal.sitting_out


@pytest.mark.parametrize("count", [4, 5, 6, 7, 8])
def test_fair_teams_seat_everyone_they_can(count: int) -> None:
    timeline = rate_in_order(dated([tuple(NAMES[n % 8] for n in range(k, k + 4))
                                     for k in range(12)]))
    present = NAMES[:count]
    proposal = fair_teams(timeline.now, present)
    seated = [name for table in proposal.tables for team in table.teams for name in team]
    assert len(proposal.tables) == (2 if count == 8 else 1)
    assert sorted(seated + list(proposal.sitting_out)) == sorted(present)
    # No other split of the four at a table is more even.
    for table in proposal.tables:
        a, b = table.teams[0]
        c, d = table.teams[1]
        for teams in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
            odds = chances(timeline.now, *teams)
            assert table.unevenness <= abs(odds[0] - 0.5) + 1e-12


@pytest.mark.parametrize("count", [3, 9])
def test_fair_teams_need_four_to_eight(count: int) -> None:
    with pytest.raises(ValueError, match="4 to 8"):
        fair_teams({}, NAMES[:count] if count <= 8 else [*NAMES, "Ida"])


@settings(max_examples=30, deadline=None)
@given(seatings)
def test_the_pages_chance_is_the_group_modules(seats: list[tuple[str, ...]]) -> None:
    """The pages' chance (from the timeline) and `chances.win_chance` (from the
    ratings) agree: one prediction, two ways in (the groups branch's merged)."""
    games = dated(seats)
    timeline = rate_in_order(games)
    rated = compute_ratings(g.match for g in games)
    teams = (("Ann", "Bob"), ("Cid", "Zed"))
    ours = chances(timeline.now, *teams)
    theirs = win_chance(rated, *teams)
    assert ours[0] == pytest.approx(theirs.first) and percent_pair(ours) == theirs.percents()
