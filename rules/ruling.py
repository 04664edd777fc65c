"""A hand's ruling: the outcome, every team's figures, and the reasons."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from rules.hands import TrumpCall
from rules.names import TableNames
from rules.reasons import Reason
from rules.runs import RunBlock
from rules.table import Seat


class Outcome(StrEnum):
    MADE = "made"
    HALF_BAIT = "half_bait"
    BAIT = "bait"
    MISPLAY = "misplay"
    THROWN = "thrown"
    PASSED = "passed"


class HandRuling(BaseModel):
    """Everything decided about one hand. `scores` is what each team adds."""

    model_config = ConfigDict(frozen=True)

    outcome: Outcome
    dealer: Seat
    caller: Seat | None = None
    trump: TrumpCall | None = None
    total: int = 0
    needed: int | None = None
    trick_points: tuple[int, int] | None = None
    run_points: tuple[int, int] = (0, 0)
    bella_points: tuple[int, int] = (0, 0)
    hand_points: tuple[int, int] = (0, 0)
    scores: tuple[int, int] = (0, 0)
    runs_to: Seat | None = None
    runs_cancelled: bool = False
    scoring_runs: tuple[RunBlock, ...] = ()
    bella_to: Seat | None = None
    reasons: tuple[Reason, ...] = ()

    @property
    def explanation(self) -> str:
        """All the reasons as one paragraph."""
        return ". ".join(reason.text for reason in self.reasons)

    @property
    def tags(self) -> tuple[str, ...]:
        """Short marks for the score sheet: BAIT, ½ BAIT, RUN 50, BELLA..."""
        tags: list[str] = []
        special = {
            Outcome.BAIT: "BAIT", Outcome.HALF_BAIT: "½ BAIT", Outcome.MISPLAY: "MISPLAY",
            Outcome.THROWN: "THROWN", Outcome.PASSED: "PASSED",
        }
        if self.outcome in special:
            tags.append(special[self.outcome])
        run_total = sum(self.run_points)
        if run_total:
            tags.append(f"RUN {run_total}")
        if self.runs_cancelled:
            tags.append("RUNS CANCEL")
        if self.bella_to is not None:
            tags.append("BELLA")
        if self.trump == "NT":
            tags.append("NO TRUMP")
        return tuple(tags)

    def named_tags(self, names: TableNames) -> tuple[str, ...]:
        """`tags`, the runs' one saying whose they were: "RUN 50 Bob & Dee" (in a bait
        the runs' team is not always the team that scored them)."""
        if self.runs_to is None:
            return self.tags
        whose = names.team_of_seat(self.runs_to)
        return tuple(f"{tag} {whose}" if tag.startswith("RUN ") else tag for tag in self.tags)
