"""Suits, ranks, cards, their orders and point values, and the 162 check."""

from __future__ import annotations

import re
from enum import StrEnum
from functools import cache
from typing import Final

from pydantic import BaseModel, ConfigDict, model_validator

from rules.errors import CardError
from rules.plain_text import shown


class Suit(StrEnum):
    """The four suits, by their one-letter code."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def word(self) -> str:
        return self.name.lower()

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_SUIT_SYMBOLS: Final = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SYMBOL_TO_SUIT: Final = {symbol: suit for suit, symbol in _SUIT_SYMBOLS.items()}


class Rank(StrEnum):
    """The nine ranks of the 36-card deck, in natural (run) order."""

    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    @property
    def word(self) -> str:
        return self.name.lower()

    @property
    def natural_index(self) -> int:
        """Position in the run order 6 7 8 9 10 J Q K A (0 for the six)."""
        return NATURAL_ORDER.index(self)


NATURAL_ORDER: Final[tuple[Rank, ...]] = tuple(Rank)

TRUMP_POINTS: Final[dict[Rank, int]] = {
    Rank.JACK: 20, Rank.NINE: 14, Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4,
    Rank.QUEEN: 3, Rank.EIGHT: 0, Rank.SEVEN: 0, Rank.SIX: 0,
}
PLAIN_POINTS: Final[dict[Rank, int]] = {
    Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2,
    Rank.NINE: 0, Rank.EIGHT: 0, Rank.SEVEN: 0, Rank.SIX: 0,
}
# Dict order above is the trick-taking order, high to low.
TRUMP_ORDER: Final[tuple[Rank, ...]] = tuple(TRUMP_POINTS)
PLAIN_ORDER: Final[tuple[Rank, ...]] = tuple(PLAIN_POINTS)
LAST_TRICK_BONUS: Final = 10


class Card(BaseModel):
    """One physical card. Written `10H`, shown `10♥`."""

    model_config = ConfigDict(frozen=True)

    rank: Rank
    suit: Suit

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, value: object) -> object:
        if isinstance(value, str):
            card = parse_card(value)
            return {"rank": card.rank, "suit": card.suit}
        return value

    def __str__(self) -> str:
        return f"{self.rank.value}{self.suit.value}"

    @property
    def label(self) -> str:
        """Short form with the suit symbol, e.g. `10♥`."""
        return f"{self.rank.value}{self.suit.symbol}"

    @property
    def name(self) -> str:
        """Spoken form, e.g. `ten of hearts`."""
        return f"{self.rank.word} of {self.suit.word}"

    def points(self, trump: Suit | None) -> int:
        """Card points with `trump` as the trump suit (None: no trump)."""
        table = TRUMP_POINTS if self.suit == trump else PLAIN_POINTS
        return table[self.rank]


_CARD_TEXT = re.compile(r"^\s*(10|[6-9tjqka])\s*([shdc♠♥♦♣])\s*$", re.IGNORECASE)


def parse_card(text: str) -> Card:
    """Read a card such as `10H`, `TH`, `th` or `J♥`; raise CardError otherwise."""
    match = _CARD_TEXT.match(text) if isinstance(text, str) else None
    if match is None:
        raise CardError(
            f"{shown(text)} is not a card: write the rank (6 7 8 9 10 J Q K A, T for ten) "
            "then the suit (S H D C or ♠ ♥ ♦ ♣), like 10H or J♠"
        )
    rank_text, suit_text = match.group(1).upper(), match.group(2).upper()
    rank = Rank.TEN if rank_text == "T" else Rank(rank_text)
    suit = _SYMBOL_TO_SUIT.get(suit_text) or Suit(suit_text)
    return Card.model_construct(rank=rank, suit=suit)


@cache
def full_deck() -> tuple[Card, ...]:
    """All 36 cards."""
    return tuple(Card.model_construct(rank=r, suit=s) for s in Suit for r in NATURAL_ORDER)


def _any_trump() -> Suit:
    return Suit.SPADES


@cache
def trick_total(no_trump: bool = False) -> int:
    """Card points of the whole deck plus the last trick: 162, or 130 with no trump."""
    trump = None if no_trump else _any_trump()
    return sum(card.points(trump) for card in full_deck()) + LAST_TRICK_BONUS


@cache
def possible_trick_points(no_trump: bool = False) -> frozenset[int]:
    """Every trick-point figure one team can end a hand with.

    Derived, not listed: any subset of the deck's card values, with or without
    the last-trick ten, whose complement the other team can hold as well.
    """
    trump = None if no_trump else _any_trump()
    sums = {0}
    for card in full_deck():
        value = card.points(trump)
        sums |= {s + value for s in sums}
    total = trick_total(no_trump)
    reachable = sums | {s + LAST_TRICK_BONUS for s in sums}
    return frozenset(p for p in reachable if 0 <= p <= total and total - p in reachable)


def impossible_trick_points(no_trump: bool = False) -> tuple[int, ...]:
    """The figures from 0 to the total that no team can hold (1 and 161 with trump)."""
    possible = possible_trick_points(no_trump)
    return tuple(p for p in range(trick_total(no_trump) + 1) if p not in possible)
