"""Seats, teams and the deal rotation around a table of four."""

from __future__ import annotations

from typing import Annotated, Final

from pydantic import Field

Seat = Annotated[int, Field(ge=0, le=3)]
Team = Annotated[int, Field(ge=0, le=1)]
SEATS: Final = (0, 1, 2, 3)
TEAMS: Final = (0, 1)


def team_of(seat: int) -> int:
    """Partners sit opposite: seats 0 and 2 are team 0, seats 1 and 3 team 1."""
    return seat % 2


def partner_of(seat: int) -> int:
    return (seat + 2) % 4


def other_team(team: int) -> int:
    return 1 - team


def dealer_of_hand(first_dealer: int, hand_index: int) -> int:
    """The deal passes clockwise, one seat per hand (passed hands included)."""
    return (first_dealer + hand_index) % 4


def eldest_of(dealer: int) -> int:
    """The player after the dealer speaks and leads first."""
    return (dealer + 1) % 4


def right_of(seat: int) -> int:
    """The player before `seat` in turn order (to their right)."""
    return (seat + 3) % 4


def calling_order(dealer: int) -> tuple[int, ...]:
    """Seats in the order they speak: eldest first, the dealer last."""
    return tuple((dealer + 1 + i) % 4 for i in range(4))
