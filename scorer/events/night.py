"""A club night as it is saved: settings, entrants, and every round's tables with
their games, results entered by hand and the clock. Changing it makes a new value.

Scores are not here: each table links an ordinary stored game, replayed by the
rules engine whenever the standings are asked for. The one exception is a final
score entered by hand from a paper sheet, kept as what it is (`PaperScore`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.game_file import FORMAT as GAME_FORMAT
from scorer.events.errors import EntrantError, ResultError, RoundError, TableError
from scorer.events.model import (
    MAX_PLAYERS,
    MAX_TEAMS,
    Draw,
    Entrant,
    EventSpec,
    Format,
    Outcome,
    Seating,
    check_unique,
    clean_name,
    entrant_names,
    rules,
    suggested_rounds,
)
from scorer.events.pairing import (
    Chance,
    byes_so_far,
    met_pairs,
    progressive_draw,
    round_robin_draw,
    seeded_key,
    swiss_draw,
)
from scorer.events.standings import Standing, standings

MAX_POINTS = 1_000_000
"""Far above any game's score; a paper result over it is a typing slip."""

Results = Mapping[tuple[int, int], Outcome]
"""The outcome of each decided table, by (round, table)."""


class PaperScore(BaseModel):
    """A final score entered by hand (from a paper sheet), side 0 first."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["paper"] = "paper"
    points: tuple[int, int]
    entered: datetime
    by: str | None = Field(default=None, max_length=40)


class TableRecord(BaseModel):
    """One table of a round: who sits there and the game that belongs to it."""

    model_config = ConfigDict(frozen=True)

    table: int = Field(ge=1)
    sides: tuple[tuple[int, ...], tuple[int, ...]]
    game: str | None = None
    """The stored game of this table (None for a moment while the round is set up)."""
    earlier_games: tuple[str, ...] = ()
    """Games this table had before (a paper game imported in their place); kept."""
    paper: PaperScore | None = None

    @property
    def seating(self) -> Seating:
        return Seating(table=self.table, sides=self.sides)


class RoundRecord(BaseModel):
    """One round: its tables, byes and clock."""

    model_config = ConfigDict(frozen=True)

    round: int = Field(ge=1)
    tables: tuple[TableRecord, ...]
    byes: tuple[int, ...] = ()
    started: datetime
    clock_ends: datetime | None = None
    time_called: datetime | None = None
    hands_at_call: tuple[tuple[int, int], ...] = ()
    """(table, hands saved) when time was called."""

    @property
    def draw(self) -> Draw:
        return Draw(round=self.round, tables=tuple(t.seating for t in self.tables),
                    byes=self.byes)

    def table(self, number: int) -> TableRecord:
        for table in self.tables:
            if table.table == number:
                return table
        raise TableError(f"round {self.round} has no table {number} (its tables are "
                         f"1 to {len(self.tables)})")

    def hands_when_called(self, number: int) -> int | None:
        """Hands the table had saved when time was called (None: not called)."""
        if self.time_called is None:
            return None
        return dict(self.hands_at_call).get(number, 0)


class Event(BaseModel):
    """A whole club night."""

    model_config = ConfigDict(frozen=True)

    name: str
    format: Format
    rounds: int = Field(ge=1)
    rules: dict[str, Any] = Field(default_factory=dict)
    """The house rules of every table (`HouseRules.changed()`, the target included)."""
    clock_minutes: int | None = None
    seed: int
    group: str | None = None
    """The group the night is for (its games join it); None for most nights."""
    entrants: tuple[Entrant, ...]
    played: tuple[RoundRecord, ...] = ()

    @property
    def current(self) -> RoundRecord | None:
        return self.played[-1] if self.played else None

    @property
    def started(self) -> bool:
        return bool(self.played)

    def entrant(self, entrant_id: int) -> Entrant:
        for entrant in self.entrants:
            if entrant.id == entrant_id:
                return entrant
        raise EntrantError(f"there is no entrant number {entrant_id}")

    def names_of(self, entrant_ids: Sequence[int]) -> list[str]:
        return [name for e in entrant_ids for name in self.entrant(e).names]


def new_event(spec: EventSpec, seed: int) -> Event:
    """The event as set up, before its first round."""
    names = entrant_names(spec)
    return Event(
        name=spec.name, format=spec.format,
        rounds=spec.rounds or suggested_rounds(spec.format, len(names)),
        rules=rules(spec).changed(), clock_minutes=spec.clock_minutes,
        seed=spec.seed if spec.seed is not None else seed, group=spec.group,
        entrants=tuple(Entrant(id=n, names=entrant) for n, entrant in enumerate(names, 1)))


# -- entrants ---------------------------------------------------------------------------------


def add_entrant(event: Event, names: Sequence[str]) -> Event:
    """A team (two names) or a player (one); after round 1 it joins from the next round."""
    wanted = 2 if event.format.teams else 1
    cleaned = [clean_name(n) for n in names if n.strip()]
    if len(cleaned) != wanted:
        raise EntrantError("a team is two names" if wanted == 2 else "type one player's name")
    if event.started and event.format is Format.ROUND_ROBIN:
        raise EntrantError("a round robin's rounds are fixed once it starts: a late team "
                           "cannot join")
    most = MAX_TEAMS if event.format.teams else MAX_PLAYERS
    if len(event.entrants) >= most:
        raise EntrantError(f"an event takes at most {most} "
                           f"{'teams' if event.format.teams else 'players'}")
    check_unique([*(n for e in event.entrants for n in e.names), *cleaned])
    entrant = Entrant(id=max((e.id for e in event.entrants), default=0) + 1,
                      names=(cleaned[0], cleaned[1]) if wanted == 2 else (cleaned[0],),
                      joined=len(event.played) + 1)
    return event.model_copy(update={"entrants": (*event.entrants, entrant)})


def withdraw(event: Event, entrant_id: int) -> Event:
    """Before round 1 the entrant is taken off the list; after, it plays no more rounds
    (its results stand)."""
    entrant = event.entrant(entrant_id)
    if not event.started:
        return event.model_copy(update={
            "entrants": tuple(e for e in event.entrants if e.id != entrant_id)})
    if entrant.withdrawn is not None:
        raise EntrantError(f"{entrant.label} has already withdrawn")
    gone = entrant.model_copy(update={"withdrawn": len(event.played) + 1})
    return event.model_copy(update={
        "entrants": tuple(gone if e.id == entrant_id else e for e in event.entrants)})


# -- rounds -----------------------------------------------------------------------------------


def open_tables(event: Event, results: Results) -> list[int]:
    """Tables of the current round whose game has no result yet."""
    last = event.current
    if last is None:
        return []
    return [t.table for t in last.tables if (last.round, t.table) not in results]


def is_over(event: Event, results: Results) -> bool:
    return len(event.played) >= event.rounds and not open_tables(event, results)


def counted(event: Event, results: Results) -> tuple[list[Outcome], list[int]]:
    """The outcomes and byes of the rounds that count: every round whose tables all
    have a result (a round still being played counts once it is over)."""
    outcomes: list[Outcome] = []
    byes: list[int] = []
    for done in event.played:
        found = [results.get((done.round, t.table)) for t in done.tables]
        if all(found):
            outcomes.extend(o for o in found if o is not None)
            byes.extend(done.byes)
    return outcomes, byes


def table_of_standings(event: Event, results: Results) -> tuple[Standing, ...]:
    outcomes, byes = counted(event, results)
    gone = [e.id for e in event.entrants if e.withdrawn is not None]
    return standings(event.entrants, outcomes, byes, gone)


def next_draw(event: Event, results: Results, chance: Chance | None = None) -> Draw:
    """The tables of the next round, from the standings and the rounds so far.
    `chance` (a night for a group): side 0's chance to win a split of a progressive
    table, so that the fairest split breaks ties (`pairing.split_table`)."""
    number = len(event.played) + 1
    if number > event.rounds:
        raise RoundError(f"all {event.rounds} rounds have been played")
    still = open_tables(event, results)
    if still:
        raise RoundError(f"round {number - 1} is still being played at "
                         f"{_tables_words(still)}: enter or finish "
                         f"{'its result' if len(still) == 1 else 'their results'} first")
    playing = [e.id for e in event.entrants if e.plays_in(number)]
    draws = [done.draw for done in event.played]
    rank = {s.entrant: s.rank for s in table_of_standings(event, results)}
    ranked = sorted(playing, key=lambda e: (rank.get(e, 0), seeded_key(event.seed, e)))
    if event.format is Format.PROGRESSIVE:
        if len(playing) < 4:
            raise RoundError("fewer than four players are left: a table needs four")
        last = draws[-1] if draws else None
        winners = {} if last is None else {
            t.table: results[(last.round, t.table)].winner for t in last.tables}
        return progressive_draw(number, ranked, event.seed, last, winners, draws,
                                list(reversed(ranked)), chance)
    if len(playing) < 2:
        raise RoundError("fewer than two teams are left to play")
    if event.format is Format.ROUND_ROBIN:
        fixed = [e.id for e in event.entrants if e.joined == 1]
        return round_robin_draw(number, fixed, set(playing))
    return swiss_draw(number, ranked, met_pairs(draws), byes_so_far(draws))


def with_round(event: Event, draw: Draw, now: datetime) -> Event:
    """The event with `draw` started now (games are linked one by one after)."""
    ends = None if event.clock_minutes is None else now + timedelta(minutes=event.clock_minutes)
    record = RoundRecord(round=draw.round, byes=draw.byes, started=now, clock_ends=ends,
                         tables=tuple(TableRecord(table=t.table, sides=t.sides)
                                      for t in draw.tables))
    return event.model_copy(update={"played": (*event.played, record)})


def _with_table(event: Event, table: TableRecord) -> Event:
    last = event.current
    assert last is not None
    tables = tuple(table if t.table == table.table else t for t in last.tables)
    return event.model_copy(update={
        "played": (*event.played[:-1], last.model_copy(update={"tables": tables}))})


def current_table(event: Event, number: int) -> TableRecord:
    last = event.current
    if last is None:
        raise TableError("the event has not started: no round has tables yet")
    return last.table(number)


def with_game(event: Event, number: int, game_id: str) -> Event:
    """Link `game_id` as table `number`'s game in the current round; a game it had is
    kept among its earlier games."""
    table = current_table(event, number)
    earlier = table.earlier_games + ((table.game,) if table.game else ())
    return _with_table(event, table.model_copy(update={"game": game_id,
                                                       "earlier_games": earlier[-8:]}))


def with_paper(event: Event, round_number: int, number: int, points: tuple[int, int] | None,
               now: datetime, by: str | None = None) -> Event:
    """A final score entered by hand for a table (side 0 first); None takes it back."""
    if points is not None:
        if any(p < 0 or p > MAX_POINTS for p in points):
            raise ResultError(f"a final score is a number from 0 to {MAX_POINTS:,}")
        if points[0] == points[1]:
            raise ResultError("a final score cannot be level: one side must have won "
                              "(level games play on, one hand at a time)")
    if not 1 <= round_number <= len(event.played):
        raise TableError(f"there is no round {round_number} yet")
    done = event.played[round_number - 1]
    table = done.table(number)
    paper = None if points is None else PaperScore(points=points, entered=now, by=by)
    tables = tuple(table.model_copy(update={"paper": paper}) if t.table == number else t
                   for t in done.tables)
    rounds = list(event.played)
    rounds[round_number - 1] = done.model_copy(update={"tables": tables})
    return event.model_copy(update={"played": tuple(rounds)})


def with_time_called(event: Event, now: datetime, hands: Mapping[int, int]) -> Event:
    """Time is called in the current round: each table finishes the hand in play.
    `hands` is how many hands each table has saved at this moment."""
    last = event.current
    if last is None:
        raise RoundError("no round is being played")
    if last.time_called is not None:
        return event
    record = last.model_copy(update={
        "time_called": now,
        "hands_at_call": tuple((t.table, hands.get(t.table, 0)) for t in last.tables)})
    return event.model_copy(update={"played": (*event.played[:-1], record)})


# -- tables and their games -------------------------------------------------------------------


def seat_names(event: Event, sides: tuple[tuple[int, ...], tuple[int, ...]]
               ) -> tuple[str, str, str, str]:
    """The four names in seat order, partners opposite (side 0 in seats 0 and 2)."""
    a = event.names_of(sides[0])
    b = event.names_of(sides[1])
    return (a[0], b[0], a[1], b[1])


def table_game(event: Event, round_number: int, table: Seating) -> dict[str, Any]:
    """The tarabish-game/1 document a table starts its round with. The deal starts
    one seat further at each table and round, so no seat always deals first."""
    return {"format": GAME_FORMAT, "players": list(seat_names(event, table.sides)),
            "first_dealer": (round_number + table.table) % 4, "rules": dict(event.rules),
            "hands": []}


def flipped(event: Event, sides: tuple[tuple[int, ...], tuple[int, ...]],
            players: Sequence[str]) -> bool:
    """Whether the game's team 0 (seats 0 and 2) is the table's side 1: found by the
    players' names, so a game whose seats were turned round still counts for the right
    side. A game whose names match neither side (renamed) is taken seat by seat."""
    team0 = {players[0].casefold(), players[2].casefold()}
    return (team0 != {n.casefold() for n in event.names_of(sides[0])}
            and team0 == {n.casefold() for n in event.names_of(sides[1])})


def outcome_of(table: TableRecord, points: tuple[int, int], winner: int, flip: bool) -> Outcome:
    """A decided game as the standings take it, from its points and winner by game team."""
    if flip:
        points, winner = (points[1], points[0]), 1 - winner
    return Outcome(kind="game", sides=table.sides, points=points,
                   winner=0 if winner == 0 else 1)


def paper_outcome(table: TableRecord) -> Outcome | None:
    paper = table.paper
    if paper is None:
        return None
    return Outcome(kind="paper", sides=table.sides, points=paper.points,
                   winner=0 if paper.points[0] > paper.points[1] else 1)


def _tables_words(tables: Sequence[int]) -> str:
    if len(tables) == 1:
        return f"table {tables[0]}"
    return f"tables {', '.join(str(t) for t in tables[:-1])} and {tables[-1]}"
