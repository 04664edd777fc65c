"""The run checker's pure part: runs and bella found in a player's cards."""

from __future__ import annotations

import pytest

from rules.cards import Card, Suit, full_deck, parse_card
from rules.errors import RunError
from rules.hand_analysis import (
    analyse_hand,
    find_runs,
    has_bella,
    loose_cards,
    sequences,
    shared_cards,
)
from rules.house_rules import HouseRules
from rules.names import TableNames
from rules.runs import rule_runs


def cards(text: str) -> list[Card]:
    return [parse_card(word) for word in text.split()]


def shown(runs: tuple) -> list[str]:
    return [run.describe() for run in runs]


def test_a_whole_hand_yields_each_maximal_sequence() -> None:
    hand = cards("6H 7H 8H 9H  JS QS KS  10D AC")
    found = analyse_hand(hand, seat=2, trump=Suit.SPADES)
    assert shown(found.runs) == ["J♠ Q♠ K♠", "6♥ 7♥ 8♥ 9♥"]
    assert all(run.seat == 2 for run in found.runs)
    assert [c.label for c in found.loose] == ["10♦", "A♣"]
    assert found.bella is True


def test_touching_runs_come_out_as_one_run() -> None:
    assert shown(find_runs(cards("6C 7C 8C 9C 10C JC"))) == [
        "6♣ 7♣ 8♣ 9♣ 10♣ J♣"]


def test_no_run_across_suits_or_gaps() -> None:
    assert find_runs(cards("8H 9H 10S")) == ()
    assert find_runs(cards("8H 9H JH QH")) == ()
    assert [len(g) for g in sequences(cards("8H 9H JH QH"))] == [2, 2]


def test_trump_order_does_not_make_runs() -> None:
    # J 9 A are next to each other in the trump order, not in a run.
    assert find_runs(cards("JH 9H AH")) == ()


def test_ace_is_high_only() -> None:
    assert find_runs(cards("KD AD 6D")) == ()
    assert shown(find_runs(cards("QD KD AD"))) == ["Q♦ K♦ A♦"]


def test_nine_in_a_row_is_one_run() -> None:
    hand = [card for card in full_deck() if card.suit is Suit.CLUBS]
    found = analyse_hand(hand, 0, Suit.CLUBS)
    assert len(found.runs) == 1 and len(found.runs[0].cards) == 9
    assert found.loose == ()
    assert found.bella


def test_more_than_nine_cards_is_refused() -> None:
    with pytest.raises(RunError, match="10 cards is more than one hand"):
        analyse_hand(cards("6S 7S 8S 9S 10S JS QS KS AS 6H"), 0, None)


def test_bella_needs_both_and_a_trump() -> None:
    assert has_bella(cards("KH QH"), Suit.HEARTS)
    assert not has_bella(cards("KH QH"), Suit.SPADES)
    assert not has_bella(cards("KH"), Suit.HEARTS)
    assert not has_bella(cards("KH QH"), None)


def test_loose_cards_of_a_shown_claim() -> None:
    assert [c.label for c in loose_cards(cards("7S 8S 9S JS"))] == ["J♠"]


def test_shared_cards_name_every_claimant() -> None:
    clash = shared_cards({0: cards("9H 10H JH"), 1: cards("JH QH KH"), 3: cards("JH 6S")})
    assert clash == {parse_card("JH"): (0, 1, 3)}
    assert shared_cards({0: cards("9H"), 1: cards("9S")}) == {}


def test_found_runs_are_accepted_by_the_engine() -> None:
    names = TableNames.of(("A", "B", "C", "D"))
    runs = (*find_runs(cards("6H 7H 8H 9H 10H JH QH"), 0), *find_runs(cards("QS KS AS"), 1))
    ruling = rule_runs(runs, Suit.SPADES, HouseRules(), 3, names)
    assert ruling.winner == 0
    assert ruling.points == (70, 0)
