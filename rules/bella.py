"""Bella: the king and queen of trumps in one hand, 20 to the holder's team."""

from __future__ import annotations

from collections.abc import Sequence

from rules.cards import Card, Rank, Suit
from rules.errors import BellaError
from rules.names import TableNames
from rules.runs import MAX_HAND_CARDS, ShownRun

BELLA_POINTS = 20


def validate_bella(
    seat: int | None, trump: Suit | None, runs: Sequence[ShownRun], names: TableNames
) -> None:
    """Raise BellaError if `seat` cannot have held the king and queen of trumps."""
    if seat is None:
        return
    who = names.player(seat)
    if trump is None:
        raise BellaError(f"{who} cannot have bella: there is no bella without a trump suit")
    bells = {Card(rank=Rank.KING, suit=trump), Card(rank=Rank.QUEEN, suit=trump)}
    own = {card for run in runs if run.seat == seat for card in run.cards}
    # Runs entered by their worth may hold the king and queen themselves: the fewest
    # cards the claim can take.
    unknown = sum(run.card_count for run in runs if run.seat == seat and run.declared)
    count = max(len(own | bells), len(own) + unknown)
    if count > MAX_HAND_CARDS:
        raise BellaError(
            f"{who} cannot have bella: the king and queen of trumps with the {len(own)} "
            f"cards of {who}'s runs make {count} cards, but a player holds only {MAX_HAND_CARDS}"
        )
    for run in runs:
        if run.seat == seat:
            continue
        held = sorted(bells & set(run.cards), key=lambda c: c.rank.natural_index)
        if held:
            raise BellaError(
                f"{who} cannot have bella: {names.player(run.seat)}'s run holds the "
                f"{held[0].name}, and bella needs both king and queen of trumps in one hand"
            )
