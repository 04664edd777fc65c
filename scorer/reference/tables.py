"""Figures in the rules reference that come from the rules engine, never typed in:
the card-points table, the suit totals and the impossible trick-point figures."""

from __future__ import annotations

from typing import NamedTuple

from rules.cards import (
    LAST_TRICK_BONUS,
    PLAIN_ORDER,
    PLAIN_POINTS,
    TRUMP_ORDER,
    TRUMP_POINTS,
    Rank,
    impossible_trick_points,
    trick_total,
)
from rules.scoring import needed_to_make

SUITS = 4

RANK_NAMES = {
    Rank.JACK: "jack", Rank.NINE: "nine", Rank.ACE: "ace", Rank.TEN: "ten", Rank.KING: "king",
    Rank.QUEEN: "queen", Rank.EIGHT: "eight", Rank.SEVEN: "seven", Rank.SIX: "six",
}


class PointsRow(NamedTuple):
    """One line of the table: the n-th highest card in trumps and in a plain suit."""

    trump_rank: Rank
    trump_points: int
    plain_rank: Rank
    plain_points: int


def card_points_rows() -> tuple[PointsRow, ...]:
    """Trumps and plain suits side by side, each high to low (the trick-taking order)."""
    return tuple(PointsRow(t, TRUMP_POINTS[t], p, PLAIN_POINTS[p])
                 for t, p in zip(TRUMP_ORDER, PLAIN_ORDER, strict=True))


def trump_suit_points() -> int:
    return sum(TRUMP_POINTS.values())


def plain_suit_points() -> int:
    return sum(PLAIN_POINTS.values())


def figures() -> dict[str, str]:
    """Numbers the reference text quotes, by placeholder name."""
    trump_total = trick_total(no_trump=False)
    nt_total = trick_total(no_trump=True)
    never = impossible_trick_points(no_trump=False)
    nt_never = impossible_trick_points(no_trump=True)
    cheapest = min(v for v in PLAIN_POINTS.values() if v)
    cheapest_rank = next(r for r, v in PLAIN_POINTS.items() if v == cheapest)
    return {
        "trump_suit": str(trump_suit_points()),
        "plain_suit": str(plain_suit_points()),
        "plain_suits": str((SUITS - 1) * plain_suit_points()),
        "last": str(LAST_TRICK_BONUS),
        "total": str(trump_total),
        "nt_total": str(nt_total),
        "nt_cards": str(SUITS * plain_suit_points()),
        "needed": str(needed_to_make(trump_total)),
        "nt_needed": str(needed_to_make(nt_total)),
        "never": " and ".join(str(n) for n in never),
        "nt_never": " and ".join(str(n) for n in nt_never),
        "cheapest": str(cheapest),
        "cheapest_card": f"plain {RANK_NAMES[cheapest_rank]}",
    }


def card_points_text() -> str:
    """The table as plain lines (for search and for screen readers)."""
    lines = ["Trumps, high to low: " + ", ".join(
        f"{r.trump_rank.value} {r.trump_points}" for r in card_points_rows()),
        "Plain suits, high to low: " + ", ".join(
            f"{r.plain_rank.value} {r.plain_points}" for r in card_points_rows())]
    return "\n".join(lines)
