"""Reading a player's cards: the runs and bella in them, and claims that clash.

Pure functions for the run checker. A player may tap only the runs they
showed, or their whole hand (up to nine cards): either way the runs are the
unbroken same-suit sequences of three or more among the cards, cut at their
longest (so two touching runs are one run, as the rules engine wants them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pydantic import BaseModel, ConfigDict

from rules.cards import Card, Rank, Suit
from rules.errors import RunError
from rules.runs import MAX_HAND_CARDS, ShownRun

MIN_RUN = 3


def _order(card: Card) -> tuple[int, int]:
    return (list(Suit).index(card.suit), card.rank.natural_index)


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Suits in the order ♠ ♥ ♦ ♣, each low to high in run order."""
    return tuple(sorted(set(cards), key=_order))


def sequences(cards: Iterable[Card]) -> tuple[tuple[Card, ...], ...]:
    """The cards cut into maximal unbroken sequences of one suit (any length)."""
    groups: list[tuple[Card, ...]] = []
    current: list[Card] = []
    for card in sort_cards(cards):
        if current and (card.suit != current[-1].suit
                        or card.rank.natural_index != current[-1].rank.natural_index + 1):
            groups.append(tuple(current))
            current = []
        current.append(card)
    if current:
        groups.append(tuple(current))
    return tuple(groups)


def find_runs(cards: Iterable[Card], seat: int = 0) -> tuple[ShownRun, ...]:
    """Every run in the cards: each maximal sequence of three or more of one suit."""
    return tuple(ShownRun(seat=seat, cards=group)
                 for group in sequences(cards) if len(group) >= MIN_RUN)


def loose_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The cards that are in no run (sequences shorter than three)."""
    return tuple(card for group in sequences(cards) if len(group) < MIN_RUN for card in group)


def bella_cards(trump: Suit | None) -> frozenset[Card]:
    """The king and queen of trumps (none without a trump suit)."""
    if trump is None:
        return frozenset()
    return frozenset({Card(rank=Rank.KING, suit=trump), Card(rank=Rank.QUEEN, suit=trump)})


def has_bella(cards: Iterable[Card], trump: Suit | None) -> bool:
    """Whether the cards hold both the king and the queen of trumps."""
    bells = bella_cards(trump)
    return bool(bells) and bells <= set(cards)


class HandAnalysis(BaseModel):
    """What one player's cards hold: runs, bella, and cards that are in no run."""

    model_config = ConfigDict(frozen=True)

    seat: int
    cards: tuple[Card, ...]
    runs: tuple[ShownRun, ...]
    loose: tuple[Card, ...]
    bella: bool


def analyse_hand(cards: Iterable[Card], seat: int, trump: Suit | None) -> HandAnalysis:
    """Find every run and bella in one player's cards (at most nine).

    Raises RunError if there are more cards than a player holds.
    """
    held = sort_cards(cards)
    if len(held) > MAX_HAND_CARDS:
        raise RunError(f"{len(held)} cards is more than one hand: a player holds "
                       f"{MAX_HAND_CARDS}")
    return HandAnalysis(seat=seat, cards=held, runs=find_runs(held, seat),
                        loose=loose_cards(held), bella=has_bella(held, trump))


def shared_cards(hands: Mapping[int, Iterable[Card]]) -> dict[Card, tuple[int, ...]]:
    """Cards entered for more than one player, with the seats that claim them.

    There is one of each card in the deck, so every such card is a mistake.
    """
    claims: dict[Card, list[int]] = {}
    for seat in sorted(hands):
        for card in set(hands[seat]):
            claims.setdefault(card, []).append(seat)
    return {card: tuple(seats) for card, seats in sorted(claims.items(),
                                                         key=lambda item: _order(item[0]))
            if len(seats) > 1}
