"""Runs: checking what was shown, splitting long sequences, and whose runs score."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from rules.cards import Card, Rank, Suit
from rules.errors import RunError, RunsNeedCards
from rules.house_rules import HouseRules, LongRuns, RunTies
from rules.names import TableNames
from rules.reasons import Reason
from rules.table import Seat, calling_order, partner_of, team_of

MAX_HAND_CARDS = 9
SECTION = "runs"


class RunKind(StrEnum):
    TWENTY = "twenty"
    FIFTY = "fifty"

    @property
    def points(self) -> int:
        return 50 if self is RunKind.FIFTY else 20


class ShownRun(BaseModel):
    """One sequence a player showed: its cards (kept low to high), or, entered the
    quick way as paper does ("+50"), only what it was worth (`run`). The cards are
    needed only when two equal runs must be told apart (`RunsNeedCards`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: Seat
    cards: tuple[Card, ...] = ()
    run: RunKind | None = None

    @field_validator("cards")
    @classmethod
    def _sorted(cls, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        return tuple(sorted(cards, key=lambda c: (c.suit.value, c.rank.natural_index)))

    @model_validator(mode="after")
    def _cards_or_worth(self) -> ShownRun:
        if self.cards and self.run is not None:
            raise ValueError("give a run's cards or what it was worth ('twenty' or 'fifty'), "
                             "not both")
        if not self.cards and self.run is None:
            raise ValueError("a run needs its cards, or what it was worth: 'twenty' or 'fifty'")
        return self

    @property
    def declared(self) -> bool:
        """Entered by its worth only: its cards are not known."""
        return not self.cards

    @property
    def card_count(self) -> int:
        """Cards the run takes from its player's hand (known or not)."""
        if self.run is not None:
            return 4 if self.run is RunKind.FIFTY else 3
        return len(self.cards)

    def describe(self) -> str:
        if self.run is not None:
            return f"a {self.run.value} (cards not entered)"
        return " ".join(card.label for card in self.cards)


class RunBlock(BaseModel):
    """A scoring piece of a run: a twenty (three cards) or a fifty (four)."""

    model_config = ConfigDict(frozen=True)

    seat: Seat
    suit: Suit | None
    kind: RunKind
    top: Rank | None
    """None (and `suit` None) for a run entered by its worth only."""
    cards: tuple[Card, ...]

    @property
    def points(self) -> int:
        return self.kind.points

    @property
    def known(self) -> bool:
        return self.top is not None

    def is_trump(self, trump: Suit | None) -> bool:
        return self.suit is not None and self.suit == trump

    def strength(self, trump: Suit | None) -> tuple[int, int, bool]:
        """Sort key: fifty over twenty, then the higher top card, then trump over plain
        (a run whose cards are not known sorts below its known equals: `rule_runs` asks
        for its cards before it lets that decide anything)."""
        top = -1 if self.top is None else self.top.natural_index
        return (self.points, top, self.is_trump(trump))

    def describe(self, trump: Suit | None) -> str:
        """E.g. `fifty to the king`, `twenty to the ace of trumps`, `fifty`."""
        if self.top is None:
            return self.kind.value
        base = f"{self.kind.value} to the {self.top.word}"
        return f"{base} of trumps" if self.is_trump(trump) else base


class RunsRuling(BaseModel):
    """Whose runs score this hand, how much each team gets, and why."""

    model_config = ConfigDict(frozen=True)

    winner: Seat | None = None
    cancelled: bool = False
    scoring: tuple[RunBlock, ...] = ()
    points: tuple[int, int] = (0, 0)
    reasons: tuple[Reason, ...] = ()


def split_run(run: ShownRun, long_runs: LongRuns = LongRuns.SPLIT) -> tuple[RunBlock, ...]:
    """Cut a checked sequence into scoring blocks.

    `split`: blocks of four from the top, then one of three if three remain.
    `single`: four or more cards are one fifty.
    """
    if run.run is not None:
        return (RunBlock(seat=run.seat, suit=None, kind=run.run, top=None, cards=()),)
    high_first = list(reversed(run.cards))
    if long_runs is LongRuns.SINGLE:
        kind = RunKind.FIFTY if len(high_first) >= 4 else RunKind.TWENTY
        return (_block(run.seat, kind, high_first),)
    blocks: list[RunBlock] = []
    while len(high_first) >= 4:
        blocks.append(_block(run.seat, RunKind.FIFTY, high_first[:4]))
        high_first = high_first[4:]
    if len(high_first) >= 3:
        blocks.append(_block(run.seat, RunKind.TWENTY, high_first[:3]))
    return tuple(blocks)


def _block(seat: int, kind: RunKind, high_first: Sequence[Card]) -> RunBlock:
    return RunBlock(
        seat=seat,
        suit=high_first[0].suit,
        kind=kind,
        top=high_first[0].rank,
        cards=tuple(reversed(high_first)),
    )


def validate_runs(runs: Sequence[ShownRun], names: TableNames) -> None:
    """Raise RunError, naming the cards, for any claim that cannot be true (runs entered
    by their worth only are checked for what a hand can hold)."""
    for run in runs:
        if not run.declared:
            _check_sequence(run, names)
    owner: dict[Card, int] = {}
    for run in runs:
        for card in run.cards:
            if card in owner:
                other = owner[card]
                if other == run.seat:
                    msg = (f"{names.player(run.seat)} shows {card.label} in two runs: "
                           "a card can only be in one run")
                else:
                    msg = (f"{card.label} cannot be in both {names.player(other)}'s and "
                           f"{names.player(run.seat)}'s runs: there is only one {card.name}")
                raise RunError(msg)
            owner[card] = run.seat
    for seat in sorted({run.seat for run in runs}):
        mine = [run for run in runs if run.seat == seat]
        count = sum(run.card_count for run in mine)
        if count > MAX_HAND_CARDS:
            raise RunError(
                f"{names.player(seat)} shows {count} cards in runs, "
                f"but a player holds only {MAX_HAND_CARDS}"
            )
        _check_not_touching([run for run in mine if not run.declared], names)


def _check_sequence(run: ShownRun, names: TableNames) -> None:
    who = names.player(run.seat)
    cards = run.cards
    if len(cards) < 3:
        raise RunError(
            f"{who}'s run {run.describe() or '(no cards)'} is too short: "
            "a run needs three or more cards in a row"
        )
    suits = {card.suit for card in cards}
    if len(suits) > 1:
        raise RunError(f"{who}'s run {run.describe()} mixes suits: a run is all one suit")
    for low, high in itertools.pairwise(cards):
        gap = high.rank.natural_index - low.rank.natural_index
        if gap == 0:
            raise RunError(f"{who}'s run shows {low.label} twice")
        if gap > 1:
            missing = Card(rank=Rank(_rank_after(low.rank)), suit=low.suit)
            raise RunError(
                f"{who}'s run {run.describe()} is not in a row: {missing.label} is missing "
                "(runs go 6 7 8 9 10 J Q K A)"
            )


def _rank_after(rank: Rank) -> Rank:
    order = list(Rank)
    return order[order.index(rank) + 1]


def _check_not_touching(mine: Sequence[ShownRun], names: TableNames) -> None:
    """Two entries of one player that continue each other are really one run."""
    for a in mine:
        for b in mine:
            if a is b or a.cards[0].suit != b.cards[0].suit:
                continue
            if a.cards[-1].rank.natural_index + 1 == b.cards[0].rank.natural_index:
                length = len(a.cards) + len(b.cards)
                raise RunError(
                    f"{names.player(a.seat)}'s runs {a.describe()} and {b.describe()} "
                    f"join up: that is one run of {length} cards, enter it once"
                )


def rule_runs(
    runs: Sequence[ShownRun],
    trump: Suit | None,
    rules: HouseRules,
    dealer: int,
    names: TableNames,
) -> RunsRuling:
    """Decide whose runs score: one player's (and, by house rule, their partner's)."""
    validate_runs(runs, names)
    blocks: dict[int, list[RunBlock]] = {}
    for run in runs:
        pieces = split_run(run, rules.long_runs)
        if pieces:
            blocks.setdefault(run.seat, []).extend(pieces)
    if not blocks:
        return RunsRuling()
    best = {seat: max(mine, key=lambda b: b.strength(trump)) for seat, mine in blocks.items()}
    _cards_needed(best, trump, names)
    ranked = sorted(best, key=lambda seat: best[seat].strength(trump), reverse=True)
    top_strength = best[ranked[0]].strength(trump)
    tied = [seat for seat in ranked if best[seat].strength(trump) == top_strength]

    def says(seat: int) -> str:
        return f"{names.player(seat)}'s {best[seat].describe(trump)}"

    reasons: list[Reason] = []
    if len(tied) > 1:
        tied_text = " and ".join(says(seat) for seat in tied)
        if rules.run_ties is RunTies.CANCEL:
            reasons.append(Reason(
                code="runs.cancel",
                text=f"{tied_text} are equal plain runs: they cancel, nobody scores runs",
                section=SECTION,
            ))
            return RunsRuling(cancelled=True, reasons=tuple(reasons))
        order = calling_order(dealer)
        winner = min(tied, key=order.index)
        reasons.append(Reason(
            code="runs.turn_order",
            text=(f"{tied_text} are equal plain runs; by the turn-order house rule "
                  f"{names.player(winner)} speaks first, so {names.player(winner)}'s runs count"),
            section="house-run-ties",
        ))
    else:
        winner = ranked[0]
        if len(ranked) > 1:
            runner_up = ranked[1]
            reasons.append(Reason(
                code=_beats_code(best[winner], best[runner_up], trump),
                text=f"{says(winner)} beats {says(runner_up)}"
                f" ({_beats_why(best[winner], best[runner_up], trump)})",
                section=SECTION,
            ))

    scorers = [winner]
    partner = partner_of(winner)
    if rules.partner_runs and partner in blocks:
        scorers.append(partner)
    scoring = tuple(block for seat in scorers for block in blocks[seat])
    team = team_of(winner)
    total = sum(block.points for block in scoring)
    points = (total, 0) if team == 0 else (0, total)
    detail = " + ".join(str(block.points) for block in scoring)
    sum_text = f"{detail} = {total}" if len(scoring) > 1 else str(total)
    who = names.player(winner)
    if rules.partner_runs and partner in blocks:
        who = f"{who} and partner {names.player(partner)}"
    reasons.append(Reason(
        code="runs.score",
        text=f"Runs: {sum_text} to {names.team(team)} ({who})",
        section=SECTION,
    ))
    if not rules.partner_runs and partner in blocks:
        reasons.append(Reason(
            code="runs.partner_nothing",
            text=f"{names.player(partner)}'s runs score nothing: only one player's runs count",
            section=SECTION,
        ))
    return RunsRuling(winner=winner, scoring=scoring, points=points, reasons=tuple(reasons))


def _cards_needed(best: dict[int, RunBlock], trump: Suit | None, names: TableNames) -> None:
    """Runs entered by their worth decide nothing between equals: ask for their cards,
    and say why (only the higher top card, or a trump run, tells equal runs apart)."""
    top = max(block.points for block in best.values())
    equal = [seat for seat, block in best.items() if block.points == top]
    missing = [seat for seat in equal if not best[seat].known]
    if len(equal) < 2 or not missing:
        return
    kind = best[equal[0]].kind.value
    who = " and ".join(names.player(seat) for seat in equal)
    need = " and ".join(f"{names.player(seat)}'s" for seat in missing)
    runs = "run" if len(missing) == 1 else "runs"
    raise RunsNeedCards(
        f"{who} each show a {kind}: equal runs are told apart by the higher top card "
        f"(then a trump run wins), so enter the cards of {need} {runs}",
        seats=tuple(missing),
    )


def _beats_code(win: RunBlock, lose: RunBlock, trump: Suit | None) -> str:
    if win.points != lose.points:
        return "runs.longer"
    if win.top != lose.top:
        return "runs.higher_top"
    return "runs.trump_wins"


def _beats_why(win: RunBlock, lose: RunBlock, trump: Suit | None) -> str:
    code = _beats_code(win, lose, trump)
    if code == "runs.longer":
        return "a fifty beats a twenty"
    if code == "runs.higher_top":
        return "same length, higher top card"
    return "same length and top card: the trump run wins"
