"""The hand draft: what the record-a-hand screen builds tap by tap."""

from __future__ import annotations

import warnings

import pytest

from rules.cards import Suit, parse_card
from rules.game import Game
from rules.hands import MisplayHand, PassedHand, PlayedHand, ThrownHand
from rules.house_rules import HouseRules
from rules.replay import replay
from scorer.recording.draft import (
    DraftIncomplete,
    Ending,
    HandDraft,
    caller_options,
    preview_draft,
    trump_options,
)

GAME = Game(players=("Ann", "Bob", "Cid", "Dee"), first_dealer=3)


def tap(draft: HandDraft, seat: int, *cards: str) -> HandDraft:
    for text in cards:
        draft = draft.toggle_card(seat, parse_card(text))
    return draft


def digits(draft: HandDraft, text: str) -> HandDraft:
    for d in text:
        draft = draft.press_digit(d)
    return draft


def test_plain_hand_previews_the_ruling_from_the_rules() -> None:
    draft = digits(HandDraft(caller=0, trump="H", bella=2), "78")
    shown = preview_draft(GAME, draft)
    assert shown.ready
    assert "Ann & Cid called: 78 + 20 = 98 of 182, needed 92: made" in shown.text
    assert shown.result is not None and shown.result.ruling is not None
    assert shown.result.ruling.scores == (98, 84)


@pytest.mark.parametrize(
    ("draft", "says"),
    [
        (HandDraft(), "Tap the player who called"),
        (HandDraft(caller=1), "Tap the trump suit"),
        (HandDraft(caller=1, trump="S"), "Enter the trick points"),
        (HandDraft(caller=1, trump="S", ending=Ending.THROWN), "threw in"),
        (HandDraft(caller=1, trump="S", ending=Ending.MISPLAY), "misplay"),
    ],
)
def test_incomplete_drafts_say_what_to_tap_next(draft: HandDraft, says: str) -> None:
    with pytest.raises(DraftIncomplete, match=says):
        draft.build()
    assert not preview_draft(GAME, draft).ready


@pytest.mark.parametrize("figure", ["1", "161", "163"])
def test_impossible_trick_points_are_refused_with_the_reason(figure: str) -> None:
    draft = digits(HandDraft(caller=0, trump="H"), figure)
    assert draft.points_problem() is not None
    assert draft.other_tricks() is None
    assert not preview_draft(GAME, draft).ready


def test_number_pad_keeps_three_digits_and_backspaces() -> None:
    draft = digits(HandDraft(), "0912")
    assert draft.digits == "912"  # the leading zero is dropped, a fourth digit ignored
    assert draft.tricks == 912
    assert draft.backspace().tricks == 91
    assert digits(HandDraft(trump="H"), "70").other_tricks() == 92
    assert digits(HandDraft(trump="NT"), "70").other_tricks() == 60


def test_tapped_cards_become_runs_split_by_gaps() -> None:
    draft = tap(HandDraft(caller=0, trump="H"), 1, "6S", "7S", "8S", "10S", "JS", "QS")
    assert [len(run.cards) for run in draft.runs] == [3, 3]
    assert draft.short_groups() == ()
    draft = tap(draft, 0, "9H", "10H")
    assert [c.label for c in draft.short_groups()[0][1]] == ["9♥", "10♥"]
    with pytest.raises(DraftIncomplete, match="not a run"):
        draft.build()


def test_a_card_tapped_for_a_second_player_moves_to_them() -> None:
    draft = tap(HandDraft(), 1, "9S", "10S", "JS")
    draft = tap(draft, 3, "JS")
    assert [c.label for c in draft.cards_of(1)] == ["9♠", "10♠"]
    assert [c.label for c in draft.cards_of(3)] == ["J♠"]
    assert tap(draft, 3, "JS").cards_of(3) == ()


@pytest.mark.parametrize(
    "hand",
    [
        PlayedHand(caller=0, trump="H", points={"team": 1, "tricks": 70}, bella=0,
                   runs=[{"seat": 1, "cards": ["9S", "10S", "JS"]}]),
        MisplayHand(caller=1, trump="S", misplay={"called_by": 0, "upheld": False}),
        ThrownHand(caller=2, trump="C", thrown_by=2),
        PassedHand(),
    ],
)
def test_editing_a_recorded_hand_rebuilds_it_unchanged(hand: object) -> None:
    assert HandDraft.from_hand(hand).build() == hand  # type: ignore[arg-type]


def test_forced_rule_disables_the_dealer_with_the_reason() -> None:
    game = Game(
        players=("Ann", "Bob", "Cid", "Dee"), first_dealer=0, rules=HouseRules(forced_at=400),
        hands=(
            PlayedHand(caller=1, trump="H", points={"team": 1, "tricks": 162}),
            PlayedHand(caller=1, trump="H", points={"team": 1, "tricks": 162}),
            PlayedHand(caller=1, trump="H", points={"team": 1, "tricks": 162}),
        ),
    )
    before = replay(game)
    assert before.totals == (0, 486) and before.forced == (1,)
    options = caller_options(game, before, len(game.hands))
    dealer = 3  # hand 4 is dealt by seat 3 (Dee), whose team is forced: no restriction
    assert all(o.allowed for o in options), dealer
    game4 = game.add_hand(PlayedHand(caller=0, trump="S", points={"team": 0, "tricks": 162}))
    options = caller_options(game4, replay(game4), len(game4.hands))
    assert [o.allowed for o in options] == [False, True, True, True]
    assert "Bob & Dee are forced" in options[0].reason and "Dee must call" in options[0].reason


def test_no_trump_is_offered_only_under_its_house_rule() -> None:
    assert "NT" not in trump_options(GAME)
    assert trump_options(GAME.model_copy(update={"rules": HouseRules(no_trump=True)}))[-1] == "NT"


def test_a_trump_tapped_by_its_code_is_kept_as_the_suit() -> None:
    """The trump buttons give their code ("H"); the draft's kept copy is dumped as JSON
    on every tap, and a str where a Suit belongs drew pydantic's serializer warning."""
    draft = HandDraft().with_(trump="H")
    assert draft.trump is Suit.HEARTS
    assert HandDraft().with_(trump="NT").trump == "NT"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kept = draft.model_dump_json()
    assert HandDraft.model_validate_json(kept) == draft
