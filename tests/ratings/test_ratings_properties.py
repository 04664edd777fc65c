"""Properties of the ratings model: the order of games given is the order used, the
same order gives the same numbers, capitals in names change nothing."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ratings_docs import by_hand

from scorer.ratings import Match, Ratings, compute_ratings, match_of

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gil", "Hal"]

games = st.lists(
    st.tuples(st.permutations(NAMES).map(lambda names: tuple(names[:4])),
              st.sampled_from([0, 1, None])),
    max_size=25,
)


def matches_of(played: list[tuple[tuple[str, str, str, str], int | None]]) -> list[Match]:
    return [m for players, winner in played if (m := match_of(players, winner)) is not None]


def numbers(ratings: Ratings) -> dict[str, tuple[float, float, int, int]]:
    return {p.player.casefold(): (p.mu, p.sigma, p.games, p.wins) for p in ratings.players}


def as_games(played: list[tuple[tuple[str, str, str, str], int | None]]) -> list[dict[str, Any]]:
    return [{"players": list(players), "winner": winner} for players, winner in played]


@settings(max_examples=60, deadline=None)
@given(games, st.randoms(use_true_random=False))
def test_the_order_given_is_the_order_used(
    played: list[tuple[tuple[str, str, str, str], int | None]], rng: Any
) -> None:
    shuffled = list(played)
    rng.shuffle(shuffled)
    for order in (played, shuffled):
        ours = numbers(compute_ratings(matches_of(order)))
        theirs = by_hand(as_games(order))
        assert ours == {k: (v["mu"], v["sigma"], v["games"], v["wins"]) for k, v in theirs.items()}


@settings(max_examples=60, deadline=None)
@given(games)
def test_the_same_order_gives_the_same_numbers(
    played: list[tuple[tuple[str, str, str, str], int | None]],
) -> None:
    assert compute_ratings(matches_of(played)) == compute_ratings(matches_of(played))


@settings(max_examples=60, deadline=None)
@given(games, st.data())
def test_capitals_change_nothing(
    played: list[tuple[tuple[str, str, str, str], int | None]], data: st.DataObject
) -> None:
    def recase(name: str) -> str:
        flips = data.draw(st.lists(st.booleans(), min_size=len(name), max_size=len(name)))
        spaced = data.draw(st.sampled_from(["", " "]))
        return spaced + "".join(c.upper() if f else c.lower() for c, f in zip(name, flips, strict=True))

    recased = [(tuple(recase(n) for n in players), winner) for players, winner in played]
    plain = compute_ratings(matches_of(played))
    other = compute_ratings(matches_of(recased))  # type: ignore[arg-type]
    assert numbers(plain) == numbers(other)
    assert [p.player.casefold() for p in plain.players] == [
        p.player.casefold() for p in other.players
    ]


def test_another_order_gives_other_numbers() -> None:
    """Order matters in general: Ann's second game is rated from what her first taught."""
    first = Match(winners=("Ann", "Cid"), losers=("Bob", "Dee"))
    second = Match(winners=("Ann", "Eve"), losers=("Fay", "Gil"))
    assert numbers(compute_ratings([first, second])) != numbers(compute_ratings([second, first]))


def test_shown_rating_is_cautious_and_new_players_are_provisional() -> None:
    ratings = compute_ratings([Match(winners=("Ann", "Cid"), losers=("Bob", "Dee"))])
    for player in ratings.players:
        assert player.rating == pytest.approx(player.mu - 3 * player.sigma)
        assert player.provisional
    assert ratings.players[0].rating > ratings.players[-1].rating
    assert [p.player for p in ratings.players] == ["Ann", "Cid", "Bob", "Dee"]


def test_a_match_needs_four_different_players() -> None:
    with pytest.raises(ValueError):
        Match(winners=("Ann", "ann"), losers=("Bob", "Dee"))


def test_unfinished_games_are_left_out() -> None:
    assert match_of(("Ann", "Bob", "Cid", "Dee"), None) is None
    assert compute_ratings([]).players == ()
