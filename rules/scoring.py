"""Ruling on one hand: totals, the caller's threshold, made, half-bait, bait."""

from __future__ import annotations

from collections.abc import Collection

from rules.bella import BELLA_POINTS, validate_bella
from rules.cards import impossible_trick_points, possible_trick_points, trick_total
from rules.errors import ForcedCallError, HandError
from rules.hands import NO_TRUMP, CalledHand, Hand, MisplayHand, PassedHand, PlayedHand
from rules.house_rules import HouseRules
from rules.names import TableNames
from rules.reasons import Reason
from rules.ruling import HandRuling, Outcome
from rules.runs import rule_runs
from rules.table import other_team, right_of, team_of


def needed_to_make(total: int) -> int:
    """The caller's team needs more than half: 82 of 162."""
    return total // 2 + 1


def rule_hand(
    hand: Hand,
    *,
    rules: HouseRules,
    dealer: int,
    names: TableNames,
    forced: Collection[int] = (),
) -> HandRuling:
    """Rule on one hand; raise a HandError (or RunError, BellaError) if it is impossible."""
    if isinstance(hand, PassedHand):
        return _rule_passed(rules, dealer, names, forced)
    return _rule_called(hand, rules, dealer, names, forced)


def _rule_passed(
    rules: HouseRules, dealer: int, names: TableNames, forced: Collection[int]
) -> HandRuling:
    if not rules.dealer_may_pass:
        raise HandError(
            f"Everybody passed, but the dealer ({names.player(dealer)}) must call: "
            "an all-pass hand needs the house rule 'dealer may pass'"
        )
    if forced:
        team = min(forced, key=lambda t: t != other_team(team_of(dealer)))
        seat = right_of(dealer) if team != team_of(dealer) else dealer
        raise ForcedCallError(
            f"{names.team(team)} are forced (over {rules.forced_at}), so the hand cannot "
            f"be passed: {names.player(seat)} had to call"
        )
    return HandRuling(
        outcome=Outcome.PASSED,
        dealer=dealer,
        reasons=(Reason(code="hand.passed", section="calling",
                        text="All passed: nobody scores and the deal moves on"),),
    )


def _check_call(
    hand: CalledHand, rules: HouseRules, dealer: int, names: TableNames, forced: Collection[int]
) -> None:
    if hand.trump == NO_TRUMP and not rules.no_trump:
        raise HandError("No trump was called, but the no-trump house rule is off")
    not_dealing = other_team(team_of(dealer))
    if hand.caller == dealer and not_dealing in forced:
        raise ForcedCallError(
            f"{names.team(not_dealing)} are forced (over {rules.forced_at}): "
            f"{names.player(right_of(dealer))} had to call before it reached the dealer, "
            f"so {names.player(dealer)} (dealing) cannot be the caller"
        )


def _rule_called(
    hand: CalledHand, rules: HouseRules, dealer: int, names: TableNames, forced: Collection[int]
) -> HandRuling:
    _check_call(hand, rules, dealer, names, forced)
    trump = hand.trump_suit
    tricks_total = trick_total(no_trump=trump is None)
    runs = rule_runs(hand.runs, trump, rules, dealer, names)
    validate_bella(hand.bella, trump, hand.runs, names)
    bella = [0, 0]
    reasons = list(runs.reasons)
    if hand.bella is not None:
        bella[team_of(hand.bella)] = BELLA_POINTS
        reasons.append(Reason(
            code="bella", section="bella",
            text=f"Bella: {BELLA_POINTS} to {names.team_of_seat(hand.bella)} "
                 f"({names.player(hand.bella)})",
        ))
    total = tricks_total + sum(runs.points) + sum(bella)
    base = {
        "dealer": dealer, "caller": hand.caller, "trump": hand.trump, "total": total,
        "needed": needed_to_make(total), "run_points": runs.points,
        "bella_points": (bella[0], bella[1]), "runs_to": runs.winner,
        "runs_cancelled": runs.cancelled, "scoring_runs": runs.scoring,
        "bella_to": hand.bella,
    }
    if isinstance(hand, PlayedHand):
        tricks = _trick_split(hand, tricks_total)
        hand_points = tuple(tricks[t] + runs.points[t] + bella[t] for t in (0, 1))
        outcome, scores, verdict = _made_or_bait(
            hand.caller, (hand_points[0], hand_points[1]), (tricks[0], tricks[1]),
            (bella[0], bella[1]), total, rules, names,
        )
        return HandRuling(
            outcome=outcome, trick_points=tricks, hand_points=(hand_points[0], hand_points[1]),
            scores=scores, reasons=(*reasons, *verdict), **base,
        )
    extras = (runs.points[0] + bella[0], runs.points[1] + bella[1])
    if isinstance(hand, MisplayHand):
        caught = hand.misplay.called_by
        winner = caught if hand.misplay.upheld else other_team(caught)
        verdict_text = (
            f"Misplay called by {names.team(caught)}, "
            f"{'upheld' if hand.misplay.upheld else 'not upheld'}: "
            f"{names.team(winner)} take all {total}"
        )
        outcome, code, section = Outcome.MISPLAY, "hand.misplay", "misplay"
    else:
        winner = other_team(team_of(hand.thrown_by))
        verdict_text = (
            f"{names.player(hand.thrown_by)} threw in the cards: "
            f"{names.team(winner)} take all {total}"
        )
        outcome, code, section = Outcome.THROWN, "hand.thrown", "throwing-in"
    scores = (total, 0) if winner == 0 else (0, total)
    return HandRuling(
        outcome=outcome, hand_points=extras, scores=scores,
        reasons=(*reasons, Reason(code=code, section=section, text=verdict_text)), **base,
    )


def _trick_split(hand: PlayedHand, total: int) -> tuple[int, int]:
    no_trump = hand.trump == NO_TRUMP
    possible = possible_trick_points(no_trump)
    impossible = " and ".join(str(p) for p in impossible_trick_points(no_trump))
    figures = hand.points.tricks if isinstance(hand.points.tricks, tuple) else (hand.points.tricks,)
    for figure in figures:
        if figure not in possible:
            raise HandError(
                f"{figure} in trick points is impossible: a team takes from 0 to {total}, "
                f"but never {impossible}"
            )
    split = hand.points.split(total)
    if sum(split) != total:
        raise HandError(
            f"The trick points {split[0]} and {split[1]} add up to {sum(split)}, "
            f"but the tricks of a hand are worth {total}"
        )
    return split


def _made_or_bait(
    caller: int,
    hand_points: tuple[int, int],
    tricks: tuple[int, int],
    bella: tuple[int, int],
    total: int,
    rules: HouseRules,
    names: TableNames,
) -> tuple[Outcome, tuple[int, int], list[Reason]]:
    going = team_of(caller)
    other = other_team(going)
    mine = hand_points[going]
    parts = [tricks[going]] + [p for p in (hand_points[going] - tricks[going],) if p]
    sum_text = " + ".join(str(p) for p in parts) + (f" = {mine}" if len(parts) > 1 else "")
    needed = needed_to_make(total)
    called = f"{names.team(going)} called: {sum_text} of {total}, needed {needed}"
    scores = [0, 0]
    if mine * 2 > total:
        scores = list(hand_points)
        return Outcome.MADE, (scores[0], scores[1]), [Reason(
            code="hand.made", section="making-it",
            text=f"{called}: made. {names.team(other)} keep their {hand_points[other]}",
        )]
    reasons: list[Reason] = []
    if mine * 2 == total and not rules.half_bait_is_bait:
        scores[other] = hand_points[other]
        reasons.append(Reason(
            code="hand.half_bait", section="bait",
            text=f"{called}: exactly half, half-bait. {names.team(going)} score nothing; "
                 f"{names.team(other)} keep their {hand_points[other]}",
        ))
        return Outcome.HALF_BAIT, (scores[0], scores[1]), reasons
    if mine * 2 == total:
        reasons.append(Reason(
            code="hand.half_bait_is_bait", section="house-half-bait-is-bait",
            text=f"{called}: exactly half, which counts as bait by house rule",
        ))
    else:
        reasons.append(Reason(code="hand.bait", section="bait", text=f"{called}: short"))
    kept = bella[going] if rules.bella_kept_on_bait else 0
    scores[going] = kept
    scores[other] = total - kept
    if kept:
        reasons.append(Reason(
            code="hand.bella_kept", section="house-bella-kept-on-bait",
            text=f"Bait: {names.team(other)} take {total - kept}; {names.team(going)} keep "
                 f"their bella ({kept}) by house rule",
        ))
    else:
        reasons.append(Reason(
            code="hand.bait_all", section="bait",
            text=f"Bait: {names.team(other)} take all {total}",
        ))
    return Outcome.BAIT, (scores[0], scores[1]), reasons
