"""What the table enters for one hand: a played hand or a special ending."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from rules.cards import Suit
from rules.plain_text import shown
from rules.runs import ShownRun
from rules.table import Seat, Team

NO_TRUMP = "NT"
TrumpCall = Suit | Literal["NT"]
_SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def trump_suit(call: TrumpCall) -> Suit | None:
    """The trump suit, or None for a no-trump call."""
    return None if call == NO_TRUMP else Suit(call)


class _Entry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class _Called(_Entry):
    """Shared by every hand in which someone named trump."""

    caller: Seat
    trump: TrumpCall
    runs: tuple[ShownRun, ...] = ()
    bella: Seat | None = None

    @field_validator("trump", mode="before")
    @classmethod
    def _trump_text(cls, value: Any) -> Any:
        if not isinstance(value, str):
            raise ValueError(f"the trump must be written S, H, D or C (or NT), not {shown(value)}")
        text = value.strip().upper()
        text = _SUIT_SYMBOLS.get(text, text)
        if text not in {"S", "H", "D", "C", NO_TRUMP}:
            raise ValueError(
                f"{shown(value)} is not a trump call: use S, H, D or C (or NT for no trump)"
            )
        return text

    @property
    def trump_suit(self) -> Suit | None:
        return trump_suit(self.trump)


class TrickPoints(_Entry):
    """Trick points as counted: one team's figure, or both."""

    team: Team | None = None
    tricks: int | tuple[int, int]

    @model_validator(mode="after")
    def _one_way(self) -> TrickPoints:
        if isinstance(self.tricks, int) and self.team is None:
            raise ValueError("say which team counted the trick points")
        if isinstance(self.tricks, tuple) and self.team is not None:
            raise ValueError("give one team's trick points, or both teams' without a team")
        return self

    def split(self, total: int) -> tuple[int, int]:
        """Both teams' figures (the other follows from the total)."""
        if isinstance(self.tricks, tuple):
            return self.tricks
        other = total - self.tricks
        return (self.tricks, other) if self.team == 0 else (other, self.tricks)


class PlayedHand(_Called):
    """A hand played out and counted."""

    kind: Literal["played"] = "played"
    points: TrickPoints


class Misplay(_Entry):
    called_by: Team
    upheld: bool


class MisplayHand(_Called):
    """A hand stopped by a misplay (renege) call."""

    kind: Literal["misplay"] = "misplay"
    misplay: Misplay


class ThrownHand(_Called):
    """A hand a player conceded by throwing in their cards."""

    kind: Literal["thrown"] = "thrown"
    thrown_by: Seat


class PassedHand(_Entry):
    """All four passed (only under the dealer-may-pass house rule)."""

    kind: Literal["passed"] = "passed"
    passed: Literal[True] = True


Hand = Annotated[PlayedHand | MisplayHand | ThrownHand | PassedHand, Field(discriminator="kind")]
CalledHand = PlayedHand | MisplayHand | ThrownHand
