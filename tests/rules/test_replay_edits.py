"""Editing a past hand re-rules every later hand; a later hand the edit makes
impossible is reported by its number, never dropped."""

from __future__ import annotations

from rules.game import Game
from rules.hands import PlayedHand
from rules.house_rules import HouseRules
from rules.replay import replay


def full(caller: int) -> PlayedHand:
    return PlayedHand(caller=caller, trump="H", points={"team": caller % 2, "tricks": 162})


def test_an_edit_that_forces_a_team_flags_the_later_dealer_call() -> None:
    # First dealer Ann (0): hands are dealt by Ann, Bob, Cid, Dee, Ann...
    # Hand 5 is Ann's deal and Ann calls it herself.
    hands = (full(0), full(0), full(3), full(1), full(0))
    game = Game(players=("Ann", "Bob", "Cid", "Dee"), first_dealer=0,
                rules=HouseRules(forced_at=400), hands=hands)
    before = replay(game)
    assert before.first_error is None
    assert before.totals == (486, 324)

    # Hand 2 was really Bob & Dee's: now they pass 400 before hand 5, and the
    # dealer's own call (Ann) is one the forced rule forbids.
    edited = game.replace_hand(1, full(1))
    after = replay(edited)
    assert [h.error is None for h in after.hands] == [True, True, True, True, False]
    bad = after.hands[4]
    assert bad.number == 5 and bad.ruling is None
    assert "Bob & Dee are forced (over 400)" in (bad.error or "")
    assert "Dee had to call" in (bad.error or "")
    assert after.first_error is not None and after.first_error.hand == 4
    assert len(after.hands) == 5  # reported, not dropped
    assert after.totals == (162, 486)  # the invalid hand scores nothing
    assert after.next_dealer == 1


def test_removing_a_hand_moves_the_deal_for_every_later_hand() -> None:
    hands = (full(0), full(1), full(2))
    game = Game(players=("Ann", "Bob", "Cid", "Dee"), first_dealer=2, hands=hands)
    assert [h.dealer for h in replay(game).hands] == [2, 3, 0]
    shorter = replay(game.remove_hand(0))
    assert [h.dealer for h in shorter.hands] == [2, 3]
    assert shorter.totals == (162, 162)
