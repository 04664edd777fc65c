"""What a club night is made of: its format, its entrants, and each round's tables.

Values only (frozen pydantic models); what changes an event is in `night.py`.
An *entrant* is a team of two (Swiss, round robin) or one player (progressive).
A table has two *sides*, side 0 in seats 0 and 2 and side 1 in seats 1 and 3
(partners sit opposite, as in a game file): a side is one team, or two players
who partner each other for that round.
"""

from __future__ import annotations

import math
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from rules.errors import GameFileError
from rules.game import MAX_NAME_LENGTH, check_plain
from rules.hand_file import as_json
from rules.house_rules import HouseRules
from rules.messages import explain
from rules.plain_text import shown
from scorer.events.errors import EntrantError, SpecError

MAX_EVENT_NAME = 60
MAX_TEAMS = 64
"""Thirty-two tables of teams: the largest hall the issue speaks of has thirty."""
MAX_PLAYERS = 128
"""Thirty-two tables of four single players."""
MAX_ROUNDS = 20
MAX_ROUND_ROBIN_TEAMS = 12
"""Everyone meets everyone: eleven or twelve rounds already make a long night."""
CLOCK_MINUTES = (5, 240)
GROUP_ID = r"^[0-9a-f]{8}$"
"""A group's id (as `scorer.groups.model.check_id` checks it; that module reads files)."""


class Format(StrEnum):
    """How tables are drawn each round."""

    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"
    PROGRESSIVE = "progressive"

    @property
    def teams(self) -> bool:
        """Fixed partners (entrants are teams), or single players."""
        return self is not Format.PROGRESSIVE


FORMAT_LINES: dict[Format, tuple[str, str]] = {
    Format.SWISS: (
        "Teams, Swiss rounds",
        "Fixed partners. Round 1 is drawn at random; then teams with the same record "
        "meet, never the same team twice if it can be helped."),
    Format.ROUND_ROBIN: (
        "Teams, round robin",
        "Fixed partners. Every team meets every other team once (up to 12 teams)."),
    Format.PROGRESSIVE: (
        "Progressive (single players)",
        "Four a table, new partners every round. Winners move up a table, losers move "
        "down."),
}
"""A title and one line on how each format works, for the app and the docs."""

RANKING_RULE = ("Ranked by wins, then point difference (points for minus points against), "
                "then points for. A bye counts as a win with no points. Entrants equal on "
                "all three share a rank.")


class Entrant(BaseModel):
    """A team (two names) or a single player (one name). `id` counts from 1."""

    model_config = ConfigDict(frozen=True)

    id: int = Field(ge=1)
    names: tuple[str] | tuple[str, str]
    joined: int = Field(default=1, ge=1)
    """The first round this entrant plays (a late team joins between rounds)."""
    withdrawn: int | None = Field(default=None, ge=1)
    """The first round this entrant no longer plays, if it withdrew."""

    @property
    def label(self) -> str:
        return " & ".join(self.names)

    def plays_in(self, round_number: int) -> bool:
        return self.joined <= round_number and (
            self.withdrawn is None or round_number < self.withdrawn)


class Seating(BaseModel):
    """One table of one round: its number and its two sides (entrant ids)."""

    model_config = ConfigDict(frozen=True)

    table: int = Field(ge=1)
    sides: tuple[tuple[int, ...], tuple[int, ...]]

    @property
    def entrants(self) -> tuple[int, ...]:
        return (*self.sides[0], *self.sides[1])


class Draw(BaseModel):
    """A round's pairings: the tables in order, and who sits the round out."""

    model_config = ConfigDict(frozen=True)

    round: int = Field(ge=1)
    tables: tuple[Seating, ...]
    byes: tuple[int, ...] = ()


class Outcome(BaseModel):
    """How one table's game came out, for the standings: points per side and the
    winning side. `kind` says where it comes from: a game replayed by the rules
    engine, or a final score entered by hand from a paper sheet."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["game", "paper"]
    sides: tuple[tuple[int, ...], tuple[int, ...]]
    points: tuple[int, int]
    winner: Literal[0, 1]

    def swapped(self) -> Outcome:
        """The same result with the sides the other way round."""
        return self.model_copy(update={
            "sides": (self.sides[1], self.sides[0]),
            "points": (self.points[1], self.points[0]),
            "winner": 1 - self.winner,
        })


def plural(count: int, noun: str) -> str:
    """`1 hand`, `2 hands`: every count the club night shows."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def rounds_line(rounds: int, playing: int, over: bool) -> str:
    """Where the night is: `round 2 of 4`, `3 rounds, not started`, `all 4 rounds played`."""
    if over:
        return "all rounds played" if rounds > 1 else "round 1 of 1 played"
    if playing:
        return f"round {playing} of {rounds}"
    return f"{plural(rounds, 'round')}, not started"


def suggested_rounds(fmt: Format, entrants: int) -> int:
    """Swiss: ceil(log2(teams)) + 1; round robin: every team meets every other;
    progressive: enough for a player to climb from the foot table towards the head."""
    if fmt is Format.ROUND_ROBIN:
        return round_robin_rounds(entrants)
    if fmt is Format.SWISS:
        return max(1, math.ceil(math.log2(max(2, entrants))) + 1)
    return max(3, math.ceil(math.log2(max(2, entrants))))


def round_robin_rounds(teams: int) -> int:
    """Rounds for everyone to meet everyone: one team sits out each round when the
    count is odd."""
    return max(1, teams - 1 if teams % 2 == 0 else teams)


class EventSpec(BaseModel):
    """An event as the organiser sets it up (`tarabish event new FILE.json`):

        {"name", "format", "rounds", "target", "house_rules",
         "teams": [[name, name], ...]}   or   "players": [name, ...] (progressive)

    plus, optionally, "clock_minutes" (rounds on the clock), "seed" (the draw
    of round 1; random when left out) and "group" (the id of the group the night is
    for: its games join the group, and a progressive night's partners are fair)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(max_length=MAX_EVENT_NAME)
    format: Format = Format.SWISS
    rounds: int | None = Field(default=None, ge=1, le=MAX_ROUNDS)
    target: int = Field(default=500, ge=1, le=1_000_000_000)
    house_rules: dict[str, Any] = Field(default_factory=dict)
    teams: tuple[tuple[str, ...], ...] | None = Field(default=None, max_length=MAX_TEAMS)
    players: tuple[str, ...] | None = Field(default=None, max_length=MAX_PLAYERS)
    clock_minutes: int | None = Field(default=None, ge=CLOCK_MINUTES[0], le=CLOCK_MINUTES[1])
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    group: str | None = Field(default=None, pattern=GROUP_ID)

    @field_validator("name")
    @classmethod
    def _name(cls, name: str) -> str:
        name = name.strip()
        if not name:
            raise ValueError("the event needs a name")
        check_plain(name, "the event's name")
        return name


def parse_spec(data: Any) -> EventSpec:
    """Read an event's settings (a decoded JSON object); SpecError or EntrantError
    with one sentence a player can read."""
    if not isinstance(data, dict):
        raise SpecError("an event file must be one JSON object")
    try:
        spec = EventSpec.model_validate_json(as_json(data), strict=True)
    except (ValidationError, GameFileError) as exc:
        raise SpecError(explain(exc) if isinstance(exc, ValidationError) else str(exc)) from None
    rules(spec)
    entrant_names(spec)
    return spec


def rules(spec: EventSpec) -> HouseRules:
    """The house rules of every table: the standard game changed by `house_rules`,
    with the event's target."""
    if "target" in spec.house_rules:
        raise SpecError('give the target as "target", not among the house rules')
    try:
        return HouseRules.model_validate_json(
            as_json({**spec.house_rules, "target": spec.target}), strict=True)
    except ValidationError as exc:
        raise SpecError(f"house rules: {explain(exc)}") from None


def entrant_names(spec: EventSpec) -> list[tuple[str] | tuple[str, str]]:
    """The entrants as typed, checked: teams of exactly two (or single players in a
    progressive event), at least two teams or four players, no name twice."""
    if spec.format.teams:
        if spec.players is not None:
            raise EntrantError('a team event lists "teams" (pairs of names), not "players"')
        teams = spec.teams or ()
        entrants: list[tuple[str] | tuple[str, str]] = []
        for n, team in enumerate(teams, start=1):
            names = [clean_name(name) for name in team]
            if len(names) != 2:
                what = "one player" if len(names) == 1 else f"{len(names)} players"
                raise EntrantError(f"team {n} has {what}: a team is two names")
            entrants.append((names[0], names[1]))
        if len(entrants) < 2:
            raise EntrantError("an event needs at least two teams")
        if spec.format is Format.ROUND_ROBIN and len(entrants) > MAX_ROUND_ROBIN_TEAMS:
            raise EntrantError(f"a round robin takes at most {MAX_ROUND_ROBIN_TEAMS} teams "
                               f"(this one has {len(entrants)}): choose Swiss rounds")
    else:
        if spec.teams is not None:
            raise EntrantError('a progressive event lists "players" (single names), not "teams"')
        entrants = [(clean_name(name),) for name in spec.players or ()]
        if len(entrants) < 4:
            raise EntrantError("a progressive event needs at least four players")
    check_unique([name for entrant in entrants for name in entrant])
    planned = spec.rounds
    if spec.format is Format.ROUND_ROBIN and planned is not None:
        most = round_robin_rounds(len(entrants))
        if planned > most:
            raise SpecError(f"a round robin of {len(entrants)} teams takes {most} rounds: "
                            f"{planned} is too many")
    return entrants


def clean_name(name: str) -> str:
    """A player's name, trimmed and checked as a game file checks one."""
    name = name.strip()
    if not name:
        raise EntrantError("a player needs a name: one of the names is blank")
    if len(name) > MAX_NAME_LENGTH:
        raise EntrantError(f"{shown(name)} is too long: keep names to {MAX_NAME_LENGTH} letters")
    try:
        check_plain(name, f"the name {shown(name)}")
    except ValueError as exc:
        raise EntrantError(str(exc)) from None
    return name


def check_unique(names: list[str]) -> None:
    """No two players of one event share a name (capitals do not count), or a table
    could not tell them apart."""
    seen: set[str] = set()
    for name in names:
        key = name.casefold()
        if key in seen:
            raise EntrantError(f"two players are called {shown(name)}: give each a "
                               "different name (a surname's initial will do)")
        seen.add(key)
