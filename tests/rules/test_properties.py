"""Property tests of the rules engine (Hypothesis): the invariants of RULES.md
section 7, seat symmetry, replay determinism, the game file's round trip, and
that bad input only ever raises the engine's own errors."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from strategies import (
    NEVER_WON,
    called_hands,
    forced_of,
    game_docs,
    games,
    hands,
    house_rules,
    json_values,
    mutated_docs,
    respelled_docs,
    rotate_doc,
    situations,
    wrapped_junk,
)

from rules.cards import parse_card, possible_trick_points, trick_total
from rules.errors import ForcedCallError, GameFileError, TarabishError
from rules.forced import forced_teams
from rules.game import Game
from rules.game_file import check_game, game_to_doc, parse_game, parse_hand
from rules.hands import PassedHand, PlayedHand, TrickPoints
from rules.house_rules import HouseRules
from rules.names import TableNames
from rules.replay import preview, replay
from rules.ruling import HandRuling, Outcome
from rules.runs import ShownRun
from rules.scoring import rule_hand

NAMES = TableNames.of(("Ann", "Bob", "Cid", "Dee"))
MAX_HAND_SCORE = 162 + 100 + 20
# Under the partner-runs house rule both partners' runs score: two fifties each.
MAX_HAND_SCORE_PARTNER_RUNS = 162 + 200 + 20


# TARABISH_PROPERTY_SCALE=20 runs twenty times the examples (a deeper, slower hunt).
SCALE = int(os.environ.get("TARABISH_PROPERTY_SCALE", "1"))


def fast(max_examples: int) -> Callable[[Any], Any]:
    return settings(
        max_examples=max_examples * SCALE,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def rule(hand: Any, rules: HouseRules, dealer: int) -> HandRuling:
    return rule_hand(hand, rules=rules, dealer=dealer, names=NAMES)


# ------------------------------------------------------------ section 7 invariants


@fast(300)
@given(situations())
def test_hand_scores_follow_the_outcome(situation: Any) -> None:
    rules, dealer, hand = situation
    ruling = rule(hand, rules, dealer)
    event(f"outcome {ruling.outcome.value}")
    event("runs: " + ("cancel" if ruling.runs_cancelled else
                      "none" if ruling.runs_to is None else f"{sum(ruling.run_points)}"))
    event(f"bella {ruling.bella_to is not None}")
    going = hand.caller % 2
    other = 1 - going
    scores = ruling.scores
    trick_sum = trick_total(no_trump=hand.trump == "NT")
    assert ruling.total == trick_sum + sum(ruling.run_points) + sum(ruling.bella_points)
    assert ruling.dealer == dealer
    assert ruling.caller == hand.caller
    if ruling.outcome in (Outcome.MISPLAY, Outcome.THROWN):
        assert sorted(scores) == [0, ruling.total]
        return
    assert ruling.trick_points is not None
    for team in (0, 1):
        assert ruling.hand_points[team] == (
            ruling.trick_points[team] + ruling.run_points[team] + ruling.bella_points[team]
        )
    mine = ruling.hand_points[going]
    if mine * 2 > ruling.total:
        assert ruling.outcome is Outcome.MADE
        assert scores == ruling.hand_points
        assert scores[0] + scores[1] == ruling.total
    elif mine * 2 == ruling.total and not rules.half_bait_is_bait:
        assert ruling.outcome is Outcome.HALF_BAIT
        assert scores[going] == 0
        assert scores[other] * 2 == ruling.total
    else:
        assert ruling.outcome is Outcome.BAIT
        kept = ruling.bella_points[going] if rules.bella_kept_on_bait else 0
        assert scores[going] == kept
        assert scores[other] == ruling.total - kept


@fast(200)
@given(situations(), st.sampled_from([-1, 0, 1]), st.data())
def test_the_threshold_decides_made_half_bait_and_bait(
    situation: Any, offset: int, data: st.DataObject
) -> None:
    """Give the caller's team exactly half the hand total, one more, or one less."""
    rules, dealer, hand = situation
    assume(isinstance(hand, PlayedHand))
    going = hand.caller % 2
    first = rule(hand, rules, dealer)
    extras = first.run_points[going] + first.bella_points[going]
    assert first.total % 2 == 0  # card totals, runs and bella are all even
    tricks = first.total // 2 + offset - extras
    assume(tricks in possible_trick_points(no_trump=hand.trump == "NT"))
    points = TrickPoints(team=going, tricks=tricks)
    ruling = rule(hand.model_copy(update={"points": points}), rules, dealer)
    assert ruling.hand_points[going] * 2 == ruling.total + 2 * offset
    other = 1 - going
    if offset == 1:
        assert ruling.outcome is Outcome.MADE
        assert ruling.hand_points[going] == ruling.needed
        assert sum(ruling.scores) == ruling.total
    elif offset == 0 and not rules.half_bait_is_bait:
        assert ruling.outcome is Outcome.HALF_BAIT
        assert ruling.scores[going] == 0
        assert ruling.scores[other] == ruling.total // 2
    else:
        assert ruling.outcome is Outcome.BAIT
        kept = ruling.bella_points[going] if rules.bella_kept_on_bait else 0
        assert ruling.scores == ((kept, ruling.total - kept) if going == 0
                                 else (ruling.total - kept, kept))


@fast(300)
@given(situations())
def test_scores_are_never_negative_nor_over_the_maximum(situation: Any) -> None:
    rules, dealer, hand = situation
    ruling = rule(hand, rules, dealer)
    ceiling = MAX_HAND_SCORE_PARTNER_RUNS if rules.partner_runs else MAX_HAND_SCORE
    for team in (0, 1):
        assert 0 <= ruling.scores[team] <= ceiling
        assert 0 <= ruling.run_points[team] <= (200 if rules.partner_runs else 100)
    assert ruling.total <= ceiling


@fast(200)
@given(situations(partner_runs=False))
def test_standard_runs_keep_a_team_within_282(situation: Any) -> None:
    rules, dealer, hand = situation
    ruling = rule(hand, rules, dealer)
    assert max(ruling.scores) <= 282
    assert ruling.total <= 282


def test_partner_runs_can_take_a_team_past_282() -> None:
    """RULES.md section 5 gives 282 as the most a team can score in a hand; that
    holds for the standard game only: with `partner_runs` both partners' runs count."""
    rules = HouseRules(partner_runs=True)
    # Ann holds 6-K of trumps (bella inside her run), Cid 6-K of hearts.
    runs = (
        ShownRun(seat=0, cards=tuple(parse_card(f"{r}S") for r in "6789TJQK")),
        ShownRun(seat=2, cards=tuple(parse_card(f"{r}H") for r in "6789TJQK")),
    )
    hand = PlayedHand(caller=0, trump="S", runs=runs, bella=0,
                      points=TrickPoints(team=0, tricks=162))
    ruling = rule(hand, rules, dealer=3)
    assert ruling.scores == (382, 0)


# ------------------------------------------------------------ whole games


def _replay_doc(doc: dict[str, Any]) -> Any:
    return replay(parse_game(doc))


@fast(100)
@given(game_docs())
def test_rotating_every_seat_permutes_the_result(doc: dict[str, Any]) -> None:
    before = _replay_doc(doc)
    after = _replay_doc(rotate_doc(doc))
    assert len(after.hands) == len(before.hands)
    for old, new in zip(before.hands, after.hands, strict=True):
        assert new.dealer == (old.dealer + 1) % 4
        assert (new.error is None) == (old.error is None)
        assert new.forced == tuple(sorted(1 - t for t in old.forced))
        assert new.totals == (old.totals[1], old.totals[0])
        if old.ruling is None or new.ruling is None:
            continue
        assert new.ruling.outcome == old.ruling.outcome
        assert new.ruling.total == old.ruling.total
        assert new.ruling.scores == (old.ruling.scores[1], old.ruling.scores[0])
        assert new.ruling.runs_to == (
            None if old.ruling.runs_to is None else (old.ruling.runs_to + 1) % 4
        )
        assert new.ruling.runs_cancelled == old.ruling.runs_cancelled
    assert after.totals == (before.totals[1], before.totals[0])
    assert after.winner == (None if before.winner is None else 1 - before.winner)
    assert after.next_dealer == (before.next_dealer + 1) % 4
    assert after.forced == tuple(sorted(1 - t for t in before.forced))


@fast(100)
@given(game_docs())
def test_replay_is_deterministic_and_the_file_round_trips(doc: dict[str, Any]) -> None:
    game = parse_game(doc)
    first, second = replay(game), replay(game)
    assert first == second
    assert _replay_doc(doc) == first
    written = json.loads(json.dumps(game_to_doc(game)))
    assert parse_game(written) == game
    assert replay(parse_game(written)) == first
    assert game_to_doc(parse_game(written)) == written


@fast(100)
@given(game_docs(max_hands=6).flatmap(lambda doc: st.tuples(st.just(doc), respelled_docs(doc))))
def test_other_spellings_read_the_same(docs: tuple[dict[str, Any], dict[str, Any]]) -> None:
    canonical, respelled = docs
    assert parse_game(respelled) == parse_game(canonical)


@fast(100)
@given(game_docs())
def test_valid_games_never_raise(doc: dict[str, Any]) -> None:
    result = check_game(doc)
    assert all(hand.error is None and hand.ruling is not None for hand in result.hands)
    assert len(result.hands) == len(doc["hands"])


@fast(100)
@given(games())
def test_totals_are_the_sum_of_the_hand_scores(game: Game) -> None:
    result = replay(game)
    running = (0, 0)
    for hand in result.hands:
        assert hand.ruling is not None
        running = (running[0] + hand.ruling.scores[0], running[1] + hand.ruling.scores[1])
        assert hand.totals == running
    assert result.totals == running
    if result.winner is not None:
        assert max(result.totals) >= game.rules.target
        assert result.forced == ()


@fast(100)
@given(games(min_hands=4, max_hands=10), st.data())
def test_editing_a_hand_equals_a_fresh_replay(game: Game, data: st.DataObject) -> None:
    assume(len(game.hands) >= 2)
    index = data.draw(st.integers(0, len(game.hands) - 2), label="index")
    dealer = (game.first_dealer + index) % 4
    new_hand = data.draw(hands(game.rules, dealer), label="new hand")
    edited = game.replace_hand(index, new_hand)
    hands_after = (*game.hands[:index], new_hand, *game.hands[index + 1 :])
    fresh = Game(players=game.players, teams=game.teams, first_dealer=game.first_dealer,
                 rules=game.rules, hands=hands_after)
    result = replay(edited)
    assert result == replay(fresh)
    assert result == replay(parse_game(game_to_doc(edited)))
    before = replay(game)
    assert result.hands[:index] == before.hands[:index]
    running = (0, 0)
    for hand in result.hands:
        if hand.ruling is not None:
            running = (running[0] + hand.ruling.scores[0], running[1] + hand.ruling.scores[1])
        else:
            assert hand.error is not None
        assert hand.totals == running


@fast(100)
@given(
    games(min_hands=3, max_hands=10,
          rules=house_rules(target=NEVER_WON, forced_at=False)),
    st.data(),
)
def test_editing_an_early_hand_shifts_every_later_total(game: Game, data: st.DataObject) -> None:
    """Without forced-at and with a target nobody reaches, an edit moves every later
    running total by exactly the change in that hand's scores."""
    index = data.draw(st.integers(0, len(game.hands) - 1), label="index")
    dealer = (game.first_dealer + index) % 4
    new_hand = data.draw(hands(game.rules, dealer), label="new hand")
    before = replay(game)
    after = replay(game.replace_hand(index, new_hand))
    old_ruling, new_ruling = before.hands[index].ruling, after.hands[index].ruling
    assert old_ruling is not None and new_ruling is not None
    delta = (new_ruling.scores[0] - old_ruling.scores[0],
             new_ruling.scores[1] - old_ruling.scores[1])
    for old, new in zip(before.hands, after.hands, strict=True):
        shift = delta if old.index >= index else (0, 0)
        assert new.totals == (old.totals[0] + shift[0], old.totals[1] + shift[1])
        if old.index != index:
            assert new.ruling == old.ruling
    assert after.totals == (before.totals[0] + delta[0], before.totals[1] + delta[1])


@fast(100)
@given(games(max_hands=8, rules=house_rules(target=NEVER_WON)), st.data())
def test_preview_is_the_replayed_hand(game: Game, data: st.DataObject) -> None:
    index = data.draw(st.integers(0, len(game.hands)), label="index")
    dealer = (game.first_dealer + index) % 4
    hand = data.draw(called_hands(game.rules, dealer), label="hand")
    expected = replay(game.with_hands((*game.hands[:index], hand))).hands[index]
    assert preview(game, hand, index) == expected
    if index == len(game.hands):
        assert preview(game, hand) == expected


@fast(100)
@given(games(max_hands=14, rules=house_rules(target=300)), st.data())
def test_no_hand_counts_after_the_game_is_won(game: Game, data: st.DataObject) -> None:
    result = replay(game)
    assume(result.winner is not None)
    dealer = (game.first_dealer + len(game.hands)) % 4
    extra = data.draw(hands(game.rules, dealer), label="extra hand")
    after = replay(game.add_hand(extra))
    assert after.hands[-1].error is not None and after.hands[-1].ruling is None
    assert after.totals == result.totals and after.winner == result.winner
    with pytest.raises(GameFileError) as caught:
        check_game(game_to_doc(game.add_hand(extra)))
    assert caught.value.hand == len(game.hands)


@fast(200)
@given(
    st.tuples(st.integers(0, 700), st.integers(0, 700)),
    st.sampled_from([0, 100, 400]),
    st.integers(0, 3),
    st.data(),
)
def test_forced_teams_and_the_dealer_call(
    totals: tuple[int, int], forced_at: int, dealer: int, data: st.DataObject
) -> None:
    """Section 3: over the threshold; the leader if both; both if level. The dealer
    may not call when the team not dealing is forced, and nobody may pass."""
    forced = forced_teams(totals, forced_at)
    assert forced == forced_of(totals, forced_at)
    rules = HouseRules(forced_at=forced_at, dealer_may_pass=True)
    hand = data.draw(called_hands(rules, dealer), label="hand").model_copy(
        update={"caller": dealer}
    )
    not_dealing = (dealer + 1) % 2
    try:
        rule_hand(hand, rules=rules, dealer=dealer, names=NAMES, forced=forced)
        assert not_dealing not in forced
    except ForcedCallError:
        assert not_dealing in forced
    try:
        rule_hand(PassedHand(), rules=rules, dealer=dealer, names=NAMES, forced=forced)
        assert not forced
    except ForcedCallError:
        assert forced


# ------------------------------------------------------------ bad input


def _only_tarabish_errors(doc: Any) -> None:
    for read in (parse_game, check_game):
        with contextlib.suppress(TarabishError):
            read(doc)


@fast(300)
@given(mutated_docs())
def test_broken_game_files_raise_only_tarabish_errors(doc: Any) -> None:
    _only_tarabish_errors(doc)


@fast(100)
@given(json_values | wrapped_junk())
def test_random_json_raises_only_tarabish_errors(doc: Any) -> None:
    _only_tarabish_errors(doc)


@fast(200)
@given(json_values | st.dictionaries(
    st.sampled_from(["caller", "trump", "points", "runs", "bella", "misplay", "thrown_by",
                     "passed", "kind"]),
    json_values, max_size=5,
))
def test_random_hand_entries_raise_only_tarabish_errors(raw: Any) -> None:
    try:
        parse_hand(raw, 0)
    except TarabishError as exc:
        assert getattr(exc, "hand", 0) == 0


@pytest.mark.parametrize("trump", [["S"], {"suit": "S"}, 3])
def test_unhashable_trump_is_a_game_file_error(trump: Any) -> None:
    doc = {
        "format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
        "first_dealer": 0,
        "hands": [{"caller": 0, "trump": trump, "points": {"team": 0, "tricks": 90}}],
    }
    with pytest.raises(TarabishError):
        parse_game(doc)


# ------------------------------------------------------------ card points


def test_possible_trick_points() -> None:
    assert possible_trick_points() == frozenset(range(163)) - {1, 161}
    assert possible_trick_points(no_trump=True) == frozenset(range(131)) - {1, 129}
    assert trick_total() == 162
    assert trick_total(no_trump=True) == 130
