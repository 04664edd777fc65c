"""Replaying a game: every score is derived here, hand by hand, never stored."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from rules.errors import GameFileError, GameOverError, TarabishError
from rules.forced import forced_teams
from rules.game import Game
from rules.hands import Hand, PassedHand
from rules.house_rules import HouseRules, TargetTie
from rules.names import TableNames
from rules.reasons import Reason
from rules.ruling import HandRuling
from rules.scoring import rule_hand
from rules.table import dealer_of_hand, eldest_of, team_of


class HandResult(BaseModel):
    """One hand in its place in the game: who dealt, who was forced, the ruling or the error."""

    model_config = ConfigDict(frozen=True)

    index: int
    dealer: int
    eldest: int
    forced: tuple[int, ...]
    hand: Hand
    ruling: HandRuling | None
    error: str | None = None
    totals: tuple[int, int]

    @property
    def number(self) -> int:
        """Counting from 1, as players do."""
        return self.index + 1


class GameReplay(BaseModel):
    """The game as the rules see it after the last hand."""

    model_config = ConfigDict(frozen=True)

    hands: tuple[HandResult, ...]
    totals: tuple[int, int]
    winner: int | None
    winner_reason: Reason | None
    next_dealer: int
    forced: tuple[int, ...]
    target: int

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def invalid_hands(self) -> tuple[HandResult, ...]:
        return tuple(result for result in self.hands if result.error is not None)

    @property
    def first_error(self) -> GameFileError | None:
        """The first impossible hand as an error naming its 0-based index."""
        for result in self.hands:
            if result.error is not None:
                return GameFileError(result.error, hand=result.index)
        return None

    def to_go(self, team: int) -> int:
        """Points still needed to reach the target (0 once there)."""
        return max(0, self.target - self.totals[team])


def replay(game: Game) -> GameReplay:
    """Rule every hand in order. Impossible hands score nothing and are reported, not dropped."""
    names = game.names
    rules = game.rules
    totals = (0, 0)
    winner: int | None = None
    winner_reason: Reason | None = None
    won_after: int | None = None
    results: list[HandResult] = []
    for index, hand in enumerate(game.hands):
        dealer = dealer_of_hand(game.first_dealer, index)
        forced = forced_teams(totals, rules.forced_at)
        ruling: HandRuling | None = None
        error: str | None = None
        try:
            if winner is not None and won_after is not None:
                raise GameOverError(
                    f"The game was already won by {names.team(winner)} after hand "
                    f"{won_after + 1}: no more hands can be recorded"
                )
            ruling = rule_hand(hand, rules=rules, dealer=dealer, names=names, forced=forced)
        except TarabishError as exc:
            error = str(exc)
        if ruling is not None:
            totals = (totals[0] + ruling.scores[0], totals[1] + ruling.scores[1])
            winner, winner_reason = decide_winner(totals, hand, rules, names)
            if winner is not None:
                won_after = index
        results.append(HandResult(
            index=index, dealer=dealer, eldest=eldest_of(dealer), forced=forced, hand=hand,
            ruling=ruling, error=error, totals=totals,
        ))
    if winner is None and results and results[-1].ruling is not None:
        # "play on" after a level finish is worth saying on the sheet.
        winner_reason = _level_reason(totals, rules, names)
    return GameReplay(
        hands=tuple(results),
        totals=totals,
        winner=winner,
        winner_reason=winner_reason,
        next_dealer=dealer_of_hand(game.first_dealer, len(game.hands)),
        forced=forced_teams(totals, rules.forced_at) if winner is None else (),
        target=rules.target,
    )


def decide_winner(
    totals: tuple[int, int], last_hand: Hand, rules: HouseRules, names: TableNames
) -> tuple[int | None, Reason | None]:
    """After a hand: has a team reached the target with more points than the other?"""
    if max(totals) < rules.target:
        return None, None
    if totals[0] != totals[1]:
        team = 0 if totals[0] > totals[1] else 1
        return team, Reason(
            code="game.won", section="winning",
            text=f"{names.team(team)} win, {totals[team]} to {totals[1 - team]} "
                 f"(target {rules.target})",
        )
    if rules.target_tie is TargetTie.CALLER_WINS and not isinstance(last_hand, PassedHand):
        team = team_of(last_hand.caller)
        return team, Reason(
            code="game.caller_wins", section="house-target-tie",
            text=f"Both teams have {totals[0]}: {names.team(team)} called the last hand "
                 "and win by house rule",
        )
    return None, None


def _level_reason(totals: tuple[int, int], rules: HouseRules, names: TableNames) -> Reason | None:
    if totals[0] == totals[1] and totals[0] >= rules.target:
        return Reason(
            code="game.play_on", section="winning",
            text=f"Both teams have {totals[0]}, level at or over {rules.target}: play another hand",
        )
    return None


def preview(game: Game, hand: Hand, index: int | None = None) -> HandResult:
    """Rule a hand that is being entered, as hand `index` (default: the next one)."""
    position = len(game.hands) if index is None else index
    trial = game.with_hands((*game.hands[:position], hand))
    return replay(trial).hands[position]
