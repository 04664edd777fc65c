"""One hand as players read it, line by line, and what differs between two versions
of a hand (an edit, or two phones that recorded the same hand differently)."""

from __future__ import annotations

from typing import Final

from pydantic import BaseModel, ConfigDict

from rules.cards import trick_total
from rules.hands import NO_TRUMP, Hand, MisplayHand, PassedHand, PlayedHand, ThrownHand
from rules.names import TableNames
from rules.table import team_of

FACT_LABELS: Final = ("Called", "Trump", "Runs", "Bella", "Result")
"""The lines of a hand, in the order the table enters them."""


class HandFacts(BaseModel):
    """What was entered for one hand, one short text per line of `FACT_LABELS`."""

    model_config = ConfigDict(frozen=True)

    called: str
    trump: str
    runs: str
    bella: str
    result: str

    def lines(self) -> tuple[tuple[str, str], ...]:
        """(label, text) pairs, in the order of `FACT_LABELS`."""
        values = (self.called, self.trump, self.runs, self.bella, self.result)
        return tuple(zip(FACT_LABELS, values, strict=True))


class Difference(BaseModel):
    """One line that differs between two versions of a hand."""

    model_config = ConfigDict(frozen=True)

    label: str
    before: str
    after: str

    @property
    def text(self) -> str:
        """E.g. `Trump: ♥ → ♠`."""
        return f"{self.label}: {self.before} → {self.after}"


def trump_words(trump: str) -> str:
    """♥ for a suit code, "no trump" for NT."""
    if trump == NO_TRUMP:
        return "no trump"
    return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[trump]


def hand_facts(hand: Hand, names: TableNames) -> HandFacts:
    """The hand's lines in players' words."""
    if isinstance(hand, PassedHand):
        return HandFacts(called="nobody (all passed)", trump="–", runs="none", bella="none",
                         result="all passed")
    runs = "; ".join(f"{names.player(run.seat)} {run.describe()}" for run in hand.runs)
    bella = "none" if hand.bella is None else names.player(hand.bella)
    return HandFacts(called=names.player(hand.caller), trump=trump_words(str(hand.trump)),
                     runs=runs or "none", bella=bella, result=_result(hand, names))


def _result(hand: PlayedHand | MisplayHand | ThrownHand, names: TableNames) -> str:
    if isinstance(hand, PlayedHand):
        a, b = tricks_of(hand)
        return f"{names.team(0)} {a}, {names.team(1)} {b}"
    if isinstance(hand, MisplayHand):
        upheld = "upheld" if hand.misplay.upheld else "not upheld"
        return f"misplay called by {names.team(hand.misplay.called_by)}, {upheld}"
    return f"thrown in by {names.player(hand.thrown_by)}"


def tricks_of(hand: PlayedHand) -> tuple[int, int]:
    """Both teams' trick points as counted."""
    return hand.points.split(trick_total(hand.trump == NO_TRUMP))


def differences(before: Hand, after: Hand, names: TableNames) -> tuple[Difference, ...]:
    """The lines that differ, in table order; for two counted hands the trick points
    are given as the caller's team's figure ("Ann & Cid's tricks: 120 → 130")."""
    old, new = hand_facts(before, names), hand_facts(after, names)
    found = [Difference(label=label, before=was, after=now)
             for (label, was), (_same, now) in zip(old.lines(), new.lines(), strict=True)
             if was != now]
    if isinstance(before, PlayedHand) and isinstance(after, PlayedHand):
        team = team_of(after.caller)
        was, now = tricks_of(before)[team], tricks_of(after)[team]
        found = [d for d in found if d.label != "Result"]
        if was != now:
            found.append(Difference(label=f"{names.team(team)}'s tricks", before=str(was),
                                    after=str(now)))
    return tuple(found)
