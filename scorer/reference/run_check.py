"""The run checker's verdict for what has been tapped: no Flet, so it is testable.

Each player's cards are either the runs they showed, or their whole hand
(the checker then finds the runs in it). Claims that cannot be true are
pointed at card by card: a card tapped for two players, cards shown as a run
that are not three in a row, more cards than a hand holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules.cards import Card, Suit
from rules.errors import TarabishError
from rules.hand_analysis import bella_cards, find_runs, loose_cards, shared_cards, sort_cards
from rules.house_rules import HouseRules
from rules.names import TableNames
from rules.reasons import Reason
from rules.runs import MAX_HAND_CARDS, RunsRuling, ShownRun, rule_runs, split_run
from rules.table import team_of


@dataclass(frozen=True)
class SeatCheck:
    """One player's tapped cards, read."""

    seat: int
    whole_hand: bool
    cards: tuple[Card, ...]
    runs: tuple[ShownRun, ...]
    loose: tuple[Card, ...]
    """Cards in no run: a problem when only runs were shown, fine in a whole hand."""
    bella: bool
    problems: tuple[str, ...] = ()


@dataclass(frozen=True)
class Verdict:
    """What the checker says about the whole table."""

    seats: tuple[SeatCheck, ...]
    clashes: dict[Card, tuple[int, ...]] = field(default_factory=dict)
    ruling: RunsRuling | None = None
    error: str | None = None
    """The rules engine's refusal, if it refused."""
    bella_seat: int | None = None
    needs_trump: bool = False

    @property
    def bad_cards(self) -> frozenset[tuple[int, Card]]:
        """(seat, card) chips to highlight: clashing cards and stray shown cards."""
        bad = {(seat, card) for card, seats in self.clashes.items() for seat in seats}
        bad |= {(s.seat, card) for s in self.seats if not s.whole_hand for card in s.loose}
        return frozenset(bad)

    @property
    def problems(self) -> tuple[str, ...]:
        listed = [p for s in self.seats for p in s.problems]
        if self.error:
            listed.append(self.error)
        return tuple(listed)

    @property
    def ok(self) -> bool:
        return not self.problems and not self.needs_trump

    @property
    def runs(self) -> tuple[ShownRun, ...]:
        return tuple(run for s in self.seats for run in s.runs)

    @property
    def run_cards(self) -> frozenset[tuple[int, Card]]:
        """The run cards as the hand draft keeps them: (seat, card)."""
        return frozenset((run.seat, card) for run in self.runs for card in run.cards)

    @property
    def reasons(self) -> tuple[Reason, ...]:
        return self.ruling.reasons if self.ruling else ()


def describe_runs(runs: tuple[ShownRun, ...], trump: Suit | None, rules: HouseRules) -> str:
    """E.g. `fifty to the queen + twenty to the eight`."""
    blocks = [block for run in runs for block in split_run(run, rules.long_runs)]
    return " + ".join(block.describe(trump) for block in blocks)


def _card_list(cards: tuple[Card, ...]) -> str:
    return " ".join(card.label for card in cards)


def check_table(
    hands: Mapping[int, frozenset[Card]],
    whole: Mapping[int, bool],
    trump: Suit | None,
    trump_known: bool,
    rules: HouseRules,
    dealer: int,
    names: TableNames,
) -> Verdict:
    """Read every player's cards and rule on the runs, as `rule_runs` would."""
    clashes = shared_cards({seat: cards for seat, cards in hands.items() if cards})
    seats: list[SeatCheck] = []
    bella_seat: int | None = None
    for seat in sorted(hands):
        cards = sort_cards(hands[seat])
        if not cards:
            continue
        is_whole = whole.get(seat, False)
        who = names.player(seat)
        problems: list[str] = []
        for card, holders in clashes.items():
            if card in cards and holders[0] == seat:
                others = " and ".join(f"{names.player(s)}'s" for s in holders)
                problems.append(f"{card.label} is in both {others} cards: "
                                f"there is only one {card.name}")
        loose = loose_cards(cards)
        if len(cards) > MAX_HAND_CARDS:
            problems.append(f"{who} has {len(cards)} cards: a hand is {MAX_HAND_CARDS}")
        if loose and not is_whole:
            problems.append(f"{who}: {_card_list(loose)} "
                            f"{'is' if len(loose) == 1 else 'are'} in no run "
                            "(a run is three or more in a row of one suit)")
        bella = bool(bella_cards(trump)) and bella_cards(trump) <= set(cards)
        if bella:
            bella_seat = seat
        seats.append(SeatCheck(seat=seat, whole_hand=is_whole, cards=cards,
                               runs=find_runs(cards, seat), loose=loose, bella=bella,
                               problems=tuple(problems)))
    verdict = Verdict(seats=tuple(seats), clashes=clashes, bella_seat=bella_seat,
                      needs_trump=not trump_known)
    if any(s.problems for s in seats):
        return verdict
    try:
        ruling = rule_runs(verdict.runs, trump, rules, dealer, names)
    except TarabishError as exc:
        return Verdict(seats=verdict.seats, clashes=clashes, error=str(exc),
                       bella_seat=bella_seat, needs_trump=not trump_known)
    return Verdict(seats=verdict.seats, clashes=clashes, ruling=ruling, bella_seat=bella_seat,
                   needs_trump=not trump_known)


def headline(verdict: Verdict, names: TableNames) -> str:
    """The verdict in one line: whose runs count and for how much."""
    if verdict.problems:
        return "Something cannot be right: see the cards marked in red"
    ruling = verdict.ruling
    if not verdict.runs:
        return "No runs yet" if not verdict.seats else "No runs in these cards"
    if ruling is None:
        return "No verdict"
    if ruling.cancelled:
        return "Equal plain runs cancel: nobody scores runs"
    if ruling.winner is None:
        return "No runs score"
    team = team_of(ruling.winner)
    return (f"{names.player(ruling.winner)}'s runs count: {ruling.points[team]} to "
            f"{names.team(team)}")


def bella_line(verdict: Verdict, trump: Suit | None, names: TableNames) -> str | None:
    if verdict.bella_seat is None or trump is None:
        return None
    seat = verdict.bella_seat
    cards = " ".join(card.label for card in sort_cards(bella_cards(trump)))
    return (f"{names.player(seat)} holds bella ({cards}): 20 to {names.team_of_seat(seat)} "
            "when called")
