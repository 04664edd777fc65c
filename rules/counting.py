"""Counting one team's tricks: card points plus the last trick, and the other
team's figure from the total (162, or 130 with no trump)."""

from __future__ import annotations

from collections.abc import Collection

from pydantic import BaseModel, ConfigDict

from rules.cards import LAST_TRICK_BONUS, Card, Suit, full_deck, trick_total
from rules.errors import CardError

CARDS_PER_TRICK = 4
DECK_SIZE = len(full_deck())


class TrickCount(BaseModel):
    """One team's pile, counted."""

    model_config = ConfigDict(frozen=True)

    cards: int
    """How many cards were counted."""
    card_points: int
    last_trick: bool
    points: int
    """Card points plus 10 for the last trick: the team's trick points."""
    total: int
    """What all the tricks are worth: 162, or 130 with no trump."""

    @property
    def other(self) -> int:
        """The other team's trick points: the rest of the total."""
        return self.total - self.points

    @property
    def problem(self) -> str | None:
        """Why this pile cannot be a real team's tricks, if it cannot."""
        if self.last_trick and self.cards == 0:
            return "The last trick has cards in it: tap the cards too"
        if self.cards == DECK_SIZE and not self.last_trick:
            return "A team with every card took the last trick too"
        if self.cards % CARDS_PER_TRICK:
            return (f"Not whole tricks: {self.cards} card{'' if self.cards == 1 else 's'}, "
                    f"and every trick has {CARDS_PER_TRICK}. Is a card missing?")
        return None


def count_tricks(cards: Collection[Card], trump: Suit | None, last_trick: bool) -> TrickCount:
    """Card points of the cards (with `trump`; None for no trump) plus the last trick.

    Raises CardError if a card is given twice: there is one of each card.
    """
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise CardError(f"{card.label} is counted twice: there is only one {card.name}")
        seen.add(card)
    card_points = sum(card.points(trump) for card in seen)
    points = card_points + (LAST_TRICK_BONUS if last_trick else 0)
    return TrickCount(cards=len(seen), card_points=card_points, last_trick=last_trick,
                      points=points, total=trick_total(no_trump=trump is None))
