"""House rules: one model whose defaults are the standard game."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.plain_text import listed


class LongRuns(StrEnum):
    """How a sequence of five or more cards scores."""

    SPLIT = "split"
    SINGLE = "single"


class RunTies(StrEnum):
    """What happens when two players' best runs are equal plain runs."""

    CANCEL = "cancel"
    TURN_ORDER = "turn_order"


class TargetTie(StrEnum):
    """What happens when both teams reach the target level."""

    PLAY_ON = "play_on"
    CALLER_WINS = "caller_wins"


class HouseRules(BaseModel):
    """The table's house rules; the defaults are the standard game."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    target: int = Field(default=500, ge=1, le=1_000_000_000)
    dealer_may_pass: bool = False
    forced_at: int | None = Field(default=None, ge=0, le=1_000_000_000)
    long_runs: LongRuns = LongRuns.SPLIT
    run_ties: RunTies = RunTies.CANCEL
    partner_runs: bool = False
    first_of_bells: bool = False
    half_bait_is_bait: bool = False
    bella_kept_on_bait: bool = False
    no_trump: bool = False
    target_tie: TargetTie = TargetTie.PLAY_ON

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(str(k) for k in data if k not in cls.model_fields)
            if unknown:
                known = ", ".join(cls.model_fields)
                raise ValueError(
                    f"unknown house rule {listed(unknown)}; "
                    f"the house rules are: {known}"
                )
        return data

    def changed(self) -> dict[str, Any]:
        """Only the rules that differ from standard, as the game file writes them."""
        return self.model_dump(mode="json", exclude_defaults=True)
