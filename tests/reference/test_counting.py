"""The card counter's pure part: one team's trick points and the other's."""

from __future__ import annotations

import pytest

from rules.cards import Card, Suit, full_deck, parse_card, possible_trick_points
from rules.counting import count_tricks
from rules.errors import CardError


def cards(text: str) -> list[Card]:
    return [parse_card(word) for word in text.split()]


def test_known_pile_with_hearts_trump() -> None:
    # JH 20 + 9H 14 + AS 11 + 10D 10 + KC 4 + QC 3 + JC 2 + 6S 0 = 64, + last 10
    count = count_tricks(cards("JH 9H AS 10D KC QC JC 6S"), Suit.HEARTS, last_trick=True)
    assert (count.card_points, count.points, count.other, count.total) == (64, 74, 88, 162)
    assert count.cards == 8
    assert count.problem is None


def test_same_pile_no_trump_counts_plain() -> None:
    count = count_tricks(cards("JH 9H AS 10D KC QC JC 6S"), None, last_trick=False)
    # JH 2 + 9H 0 + 11 + 10 + 4 + 3 + 2 + 0
    assert (count.points, count.other, count.total) == (32, 98, 130)


@pytest.mark.parametrize("trump", [*Suit, None])
def test_whole_deck_and_last_is_the_total(trump: Suit | None) -> None:
    count = count_tricks(full_deck(), trump, last_trick=True)
    assert count.points == count.total == (130 if trump is None else 162)
    assert count.other == 0


def test_every_count_is_a_possible_figure() -> None:
    deck = full_deck()
    for size in range(0, 37, 4):
        for last in (False, True):
            count = count_tricks(deck[:size], Suit.CLUBS, last)
            assert count.points in possible_trick_points(False)


def test_a_card_twice_is_refused() -> None:
    with pytest.raises(CardError, match="10♦ is counted twice"):
        count_tricks(cards("10D 10D"), Suit.HEARTS, False)


def test_problems_in_a_pile() -> None:
    assert count_tricks(cards("AS KS QS"), Suit.HEARTS, False).problem == (
        "Not whole tricks: 3 cards, and every trick has 4. Is a card missing?")
    assert "last trick has cards" in (count_tricks([], Suit.HEARTS, True).problem or "")
    assert "took the last trick" in (count_tricks(full_deck(), Suit.HEARTS, False).problem or "")
    assert count_tricks([], Suit.HEARTS, False).problem is None
