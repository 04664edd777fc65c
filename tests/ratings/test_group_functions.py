"""Group ratings, seasons, chances to win and fair teams (pure functions, issue 33)."""

from __future__ import annotations

import itertools
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scorer.ratings.chances import fair_teams, win_chance
from scorer.ratings.groups import GroupGame, group_ratings
from scorer.ratings.model import Match, Rater, compute_ratings
from scorer.ratings.seasons import ALL_GAMES, Season, season_lines, this_month, this_year

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gil", "Hal"]
START = datetime(2026, 1, 1, 20, tzinfo=UTC)

played = st.lists(st.permutations(NAMES).map(lambda n: tuple(n[:4])), min_size=1, max_size=20)


def group_games(tables: list[tuple[str, ...]]) -> list[GroupGame]:
    return [GroupGame(id=f"{i:08x}", match=Match(winners=(t[0], t[2]), losers=(t[1], t[3])),
                      finished=START + timedelta(days=9 * i), points=(500 + i, 300))
            for i, t in enumerate(tables)]


@settings(max_examples=40, deadline=None)
@given(played)
def test_incremental_equals_recomputed(tables: list[tuple[str, ...]]) -> None:
    rater = Rater()
    matches = [g.match for g in group_games(tables)]
    for n, match in enumerate(matches, start=1):
        rater.add(match)
        assert rater.ratings() == compute_ratings(matches[:n])


@settings(max_examples=40, deadline=None)
@given(played, st.randoms(use_true_random=False))
def test_capitals_in_names_change_nothing(tables: list[tuple[str, ...]], rng: object) -> None:
    shouted = [tuple(n.upper() if i % 2 else f" {n.lower()}" for i, n in enumerate(t))
               for t in tables]
    plain = group_ratings(group_games(tables), NAMES)
    loud = group_ratings(group_games(shouted), [n.lower() for n in NAMES])
    assert [(p.mu, p.sigma, p.games) for p in plain.players] == [
        (p.mu, p.sigma, p.games) for p in loud.players]
    assert {p.player for p in loud.players} <= {n.lower() for n in NAMES}
    plain_season = season_lines(group_games(tables), ALL_GAMES, NAMES)
    loud_season = season_lines(group_games(shouted), ALL_GAMES, NAMES)
    assert [(s.player.casefold(), s.games, s.wins, s.rating_change) for s in plain_season] == [
        (s.player.casefold(), s.games, s.wins, s.rating_change) for s in loud_season]


def test_group_keeps_members_only_and_in_their_spelling() -> None:
    games = group_games([("ann", "Bob", "CID", "Zed")])
    ratings = group_ratings(games, ["Ann", "bob", "Cid"])
    assert sorted(p.player for p in ratings.players) == ["Ann", "Cid", "bob"]
    assert ratings.games == 1


@settings(max_examples=40, deadline=None)
@given(played, st.sampled_from(NAMES), st.sampled_from(NAMES), st.sampled_from(NAMES),
       st.sampled_from(NAMES))
def test_two_chances_sum_to_100(tables: list[tuple[str, ...]], a: str, b: str, c: str,
                                d: str) -> None:
    if len({a, b, c, d}) < 4:
        return
    chance = win_chance(compute_ratings(g.match for g in group_games(tables)), (a, b), (c, d))
    assert sum(chance.percents()) == 100
    assert chance.first + chance.second == pytest.approx(1.0)


def test_chance_is_openskills_own_and_labelled() -> None:
    ratings = compute_ratings(g.match for g in group_games([("Ann", "Bob", "Cid", "Dee")] * 3))
    chance = win_chance(ratings, ("Ann", "Cid"), ("Bob", "Dee"))
    model = PlackettLuce()
    by = {p.player: model.rating(mu=p.mu, sigma=p.sigma) for p in ratings.players}
    expected = model.predict_win([[by["Ann"], by["Cid"]], [by["Bob"], by["Dee"]]])
    assert chance.first == pytest.approx(expected[0])
    first, _second = chance.labels()
    assert first.startswith("Ann & Cid ") and first.endswith("\u00a0%")
    assert chance.percents()[0] > 50 and chance.provisional


@settings(max_examples=25, deadline=None)
@given(played, st.integers(min_value=4, max_value=8))
def test_fair_teams_are_the_closest_to_even(tables: list[tuple[str, ...]], n: int) -> None:
    ratings = compute_ratings(g.match for g in group_games(tables))
    present = NAMES[:n]
    best = fair_teams(ratings, present)[0]
    # brute force: every way to seat them, scored by the least even table
    scores = []
    for order in itertools.permutations(present):
        seats = [order[i:i + 4] for i in range(0, 8 if n == 8 else 4, 4)]
        scores.append(max(win_chance(ratings, (s[0], s[2]), (s[1], s[3])).unevenness
                          for s in seats))
    assert best.unevenness == pytest.approx(min(scores))
    seated = [n for t in best.tables for team in t.teams for n in team]
    assert sorted(seated + list(best.sitting_out)) == sorted(present)


def test_fair_teams_refuse_too_few_or_too_many_or_twice() -> None:
    ratings = compute_ratings([])
    for present in (NAMES[:3], [*NAMES, "Ivy"], ["Ann", "ann", "Bob", "Cid"]):
        with pytest.raises(ValueError):
            fair_teams(ratings, present)


def test_seasons_count_their_games_and_the_change_counts_earlier_games() -> None:
    tables = [("Ann", "Bob", "Cid", "Dee")] * 6  # nine days apart from 1 January
    games = group_games(tables)
    january = this_month(date(2026, 1, 15))
    assert (january.start, january.end) == (date(2026, 1, 1), date(2026, 1, 31))
    assert this_year(date(2026, 5, 2)).end == date(2026, 12, 31)
    lines = {s.player: s for s in season_lines(games, january, NAMES)}
    assert lines["Ann"].games == 4 and lines["Ann"].wins == 4 and lines["Bob"].wins == 0
    assert lines["Ann"].win_rate == 1.0 and lines["Ann"].points_for == 500 + 501 + 502 + 503
    assert lines["Bob"].points_against == lines["Ann"].points_for
    later = Season(name="February", start=date(2026, 2, 1), end=date(2026, 2, 28))
    feb = {s.player: s for s in season_lines(games, later, NAMES)}
    rater = Rater()
    for g in games[:4]:
        rater.add(g.match)
    before = rater.rating_of("Ann")
    for g in games[4:]:
        rater.add(g.match)
    assert feb["Ann"].games == 2
    assert feb["Ann"].rating_change == pytest.approx(rater.rating_of("Ann") - before)
    with pytest.raises(ValueError):
        Season(name="Backwards", start=date(2026, 2, 1), end=date(2026, 1, 1))


GOLDEN_NAMES = ["changing_partners.json", "newcomers.json", "one_table.json"]


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_golden_sequences_match_openskill_for_a_group_and_its_season(name: str) -> None:
    from ratings_docs import by_hand, load_golden

    golden = [g for g in load_golden(name) if g["winner"] is not None]
    tables = [tuple(g["players"][s] for s in (g["winner"], 1 - g["winner"],
                                               g["winner"] + 2, 3 - g["winner"]))
              for g in golden]
    games = group_games(tables)
    members = sorted({n for g in golden for n in g["players"]})
    expected = by_hand(golden)
    got = group_ratings(games, members)
    assert {p.player.casefold(): (p.mu, p.sigma, p.games, p.wins) for p in got.players} == {
        k: (v["mu"], v["sigma"], v["games"], v["wins"]) for k, v in expected.items()}
    lines = season_lines(games, ALL_GAMES, members)
    assert {s.player.casefold(): s.rating_change for s in lines} == pytest.approx(
        {k: v["rating"] for k, v in expected.items()})  # from the start, rating 0


@settings(max_examples=40, deadline=None)
@given(played, st.randoms(use_true_random=False))
def test_the_order_given_is_the_order_used_in_a_group(tables: list[tuple[str, ...]],
                                                      rng: object) -> None:
    from ratings_docs import by_hand

    order = list(tables)
    rng.shuffle(order)  # type: ignore[attr-defined]
    got = group_ratings(group_games(order), NAMES)
    expected = by_hand({"players": [t[0], t[1], t[2], t[3]], "winner": 0} for t in order)
    assert {p.player.casefold(): p.mu for p in got.players} == {
        k: v["mu"] for k, v in expected.items()}
