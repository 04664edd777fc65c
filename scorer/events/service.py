"""What is done to a club night, for the app, the board and the command line alike:
create it, change its entrants, start rounds (each table an ordinary stored game),
call time, take results, and read it back with every table's result and the
standings. Who may do it is checked by the callers (`scorer.app`: the organiser
code; the command line: whoever may write the data folder).

Crash safety of a round start: the round's tables are saved first, then each
table's game is created and linked in a write of its own. A server killed in
between leaves a round whose last tables have no game yet; the next read of the
event gives them one (`_seat_tables`), so no pairing is lost and no table gets two.
"""

from __future__ import annotations

import contextlib
import copy
import os
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from rules.errors import GameFileError
from rules.game_file import parse_game
from scorer.events import night
from scorer.events.errors import TableError
from scorer.events.model import EventSpec, Format
from scorer.events.organisers import OrganiserCodes
from scorer.events.pairing import Chance
from scorer.events.ports import EventsPort
from scorer.events.results import TableResult, decided, table_result
from scorer.events.standings import Standing
from scorer.events.store import EventStore, StoredEvent
from scorer.rights import get_rights
from scorer.store.errors import StoreError
from scorer.store.game_store import GameStore
from scorer.store.ports import GamesPort
from scorer.store.validation import validate_doc

if TYPE_CHECKING:  # a community's, groups, ratings: never imported by the phone-alone app
    from scorer.groups.ports import GroupsPort
    from scorer.store.database import Database

RESULTS_KEPT = 1024
"""Table results kept between readings (thirty tables of a few events at once)."""
BY = "club night"
"""How the edit trail names the changes the event makes to its games."""

Signature = tuple[int, int, int]


@dataclass(frozen=True)
class EventView:
    """An event as it is now: its record, every table's result and the standings."""

    stored: StoredEvent
    results: dict[tuple[int, int], TableResult]
    standings: tuple[Standing, ...]
    open_tables: tuple[int, ...]
    over: bool

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def night(self) -> night.Event:
        return self.stored.night

    @property
    def rounds_played(self) -> int:
        """Rounds that count: every table has a result."""
        played = len(self.night.played)
        return played - 1 if self.open_tables else played


class EventService:
    """Club nights beside one process's games: by default in their data folder (the
    folder's adapters), or in a community's database (`on_database`); which is chosen
    once, at start (`scorer.backends`)."""

    def __init__(self, games: GamesPort, events: EventsPort | None = None,
                 codes: OrganiserCodes | None = None, groups: GroupsPort | None = None,
                 make_groups: Callable[[], GroupsPort] | None = None) -> None:
        """`make_groups`: the groups beside these games, made at their first use (a
        phone alone, which has none, never uses them); by default the folder's."""
        self.games = games
        self._groups = groups
        self._make_groups = make_groups
        self.events: EventsPort = events or EventStore(
            games.data_dir, read_only=games.read_only)
        self.codes = codes or OrganiserCodes(games.data_dir)
        self._lock = threading.RLock()
        self._owner: dict[str, str] = {}
        """Game id -> the event it belongs to (earlier games of a table included)."""
        self._clocks: dict[str, datetime] = {}
        """Events whose round is on the clock and time not yet called: when it ends."""
        self._results: OrderedDict[tuple[Any, ...], TableResult] = OrderedDict()
        self._listeners: list[Callable[[str], None]] = []
        for stored in self.events.list_events():
            self._learn(stored)

    @classmethod
    def on_database(cls, games: GamesPort, db: Database) -> EventService:
        """A community's club nights, organiser codes and groups, in its database
        (shared by every process), beside `games`."""
        from scorer.events.pg_organisers import PgOrganiserCodes
        from scorer.events.pg_store import PgEventStore

        def groups() -> GroupsPort:
            from scorer.groups.pg import PgGroups

            return PgGroups(db)

        return cls(games, events=PgEventStore(db, read_only=games.read_only),
                   codes=PgOrganiserCodes(db), make_groups=groups)

    @property
    def groups(self) -> GroupsPort:
        """The groups beside the games (the app hands in its one per process: `use_groups`)."""
        if self._groups is None:
            if self._make_groups is not None:
                self._groups = self._make_groups()
            else:
                from scorer.groups.folder import FolderGroups  # left out of a phone alone

                self._groups = FolderGroups(self.games.data_dir)
        return self._groups

    def use_groups(self, groups: GroupsPort) -> None:
        """Share the app's store of groups (its keeper-code brakes are one per process)."""
        self._groups = groups

    # -- listening ---------------------------------------------------------------------------

    def listen(self, listener: Callable[[str], None]) -> None:
        """Call `listener(event_id)` after every change to an event or one of its games."""
        self._listeners.append(listener)

    def _changed(self, event_id: str) -> None:
        for listener in list(self._listeners):
            listener(event_id)

    def heard(self, event_id: str) -> None:
        """Another process changed this event (a community's feed): keep its games and
        clock in step here, then tell the listeners."""
        with self._lock, contextlib.suppress(StoreError):  # gone: nothing to learn
            self._learn(self.events.get(event_id))
        self._changed(event_id)

    def game_changed(self, game_id: str) -> str | None:
        """A game was saved: tell the listeners if it belongs to an event (its id)."""
        event_id = self._owner.get(game_id)
        if event_id is not None:
            self._changed(event_id)
        return event_id

    def event_of_game(self, game_id: str) -> str | None:
        return self._owner.get(game_id)

    # -- reading -----------------------------------------------------------------------------

    def get(self, event_id: str) -> StoredEvent:
        return self.events.get(event_id)

    def find(self, prefix: str) -> list[str]:
        return self.events.find(prefix)

    def list_events(self) -> list[StoredEvent]:
        return self.events.list_events()

    def view(self, event_id: str) -> EventView:
        """The event with every table's result (games replayed, cached per file)."""
        stored = self._seat_tables(self.events.get(event_id))
        results = self._table_results(stored)
        outcomes = decided(results)
        ev = stored.night
        return EventView(stored=stored, results=results,
                         standings=night.table_of_standings(ev, outcomes),
                         open_tables=tuple(night.open_tables(ev, outcomes)),
                         over=night.is_over(ev, outcomes))

    def may_organise(self, event_id: str, device: str | None) -> bool:
        """The phone holds the event's organiser code, or is the server's host."""
        return self.codes.holds(event_id, device) or get_rights(self.games.data_dir).is_host(
            device)

    def organises_game(self, game_id: str, device: str | None) -> bool:
        """The phone organises the event this game belongs to (it may edit the game)."""
        event_id = self._owner.get(game_id)
        return event_id is not None and self.codes.holds(event_id, device)

    def organised_games(self, device: str | None) -> set[str]:
        """Every game of the events this phone organises (their tables' games, earlier
        ones of a table included): one read of the phone's events."""
        held = self.codes.held_by(device)
        if not held:
            return set()
        with self._lock:
            return {game for game, event in self._owner.items() if event in held}

    def organised_events(self, device: str | None) -> set[str]:
        """The events whose organiser code this phone holds."""
        return self.codes.held_by(device)

    # -- changing ----------------------------------------------------------------------------

    def create(self, spec: EventSpec, device: str | None = None) -> tuple[StoredEvent, str]:
        """A new event from its settings; its organiser code, held by `device` (the phone
        that made it; None on the command line: printed for whoever runs it).

        A night for a group: the group must exist, and a phone must keep it
        (NotKeeper); the command line is the operator."""
        if spec.group is not None:
            self.groups.get(spec.group)
            if device is not None:
                self.groups.must_keep(spec.group, device)
        stored = self.events.create(night.new_event(spec, secrets.randbelow(2**31)))
        try:
            code = self.codes.start(stored.id, device)
        except StoreError:
            with contextlib.suppress(OSError, StoreError):
                self.events.delete(stored.id)
            raise
        self._learn(stored)
        self._changed(stored.id)
        return stored, code

    def add_entrant(self, event_id: str, names: list[str],
                    revision: int | None = None) -> StoredEvent:
        return self._update(event_id, lambda ev: night.add_entrant(ev, names), revision)

    def withdraw(self, event_id: str, entrant: int, revision: int | None = None) -> StoredEvent:
        return self._update(event_id, lambda ev: night.withdraw(ev, entrant), revision)

    def start_round(self, event_id: str, now: datetime | None = None) -> StoredEvent:
        """Draw the next round from the standings, save its tables, then give each
        table its game (RoundError while a table of the last round is still open)."""
        with self._lock:
            view = self.view(event_id)
            draw = night.next_draw(view.night, decided(view.results),
                                   self._fairness(view.night))
            when = now or datetime.now(UTC)
            stored = self.events.update(event_id, lambda ev: night.with_round(ev, draw, when),
                                        expected_revision=view.stored.revision)
            stored = self._seat_tables(stored)
            self._join_group(stored)
        self._learn(stored)
        self._changed(event_id)
        return stored

    def call_time(self, event_id: str, now: datetime | None = None) -> StoredEvent:
        """Time is called in the current round: every table finishes the hand in play."""
        with self._lock:
            stored = self.events.get(event_id)
            current = stored.night.current
            hands = {} if current is None else {
                t.table: self._hands(t.game) for t in current.tables if t.game}
            when = now or datetime.now(UTC)
            stored = self.events.update(event_id,
                                        lambda ev: night.with_time_called(ev, when, hands))
        self._learn(stored)
        self._changed(event_id)
        return stored

    def enter_result(self, event_id: str, round_number: int, table: int,
                     points: tuple[int, int] | None, by: str | None = None) -> StoredEvent:
        """A final score from a paper sheet (side 0 first), or None to take it back."""
        now = datetime.now(UTC)
        return self._update(event_id, lambda ev: night.with_paper(
            ev, round_number, table, points, now, by))

    def import_game(self, event_id: str, table: int, doc: dict[str, Any]) -> str:
        """Store a finished paper game (a tarabish-game/1 document) as the table's game
        of the current round; the game it had is kept. Returns the new game's id."""
        with self._lock:
            stored = self.events.get(event_id)
            record = night.current_table(stored.night, table)
            current = stored.night.current
            assert current is not None
            try:
                players = parse_game(doc).players
            except GameFileError as exc:
                raise TableError(f"that is not a game file: {exc.message}") from None
            seats = night.seat_names(stored.night, record.sides)
            if sorted(p.casefold() for p in players) != sorted(s.casefold() for s in seats):
                raise TableError(f"the game's players are {', '.join(players)}, but table "
                                 f"{table} seats {', '.join(seats)}")
            validate_doc(doc)
            found = table_result(stored.night, current, record, doc)
            if found.score is None or found.score.winner is None:
                raise TableError("that game is not finished: no team has won it yet")
            game = self.games.create_game(doc, by=BY)
            stored = self.events.update(event_id, lambda ev: night.with_game(ev, table, game.id))
            get_rights(self.games.data_dir).give_codes([game.id])
            self._join_group(stored)
        self._learn(stored)
        self._changed(event_id)
        return game.id

    def check_clocks(self, now: datetime | None = None) -> list[str]:
        """Call time in every event whose clock has run out; the ids."""
        when = now or datetime.now(UTC)
        due = [e for e, ends in list(self._clocks.items()) if ends <= when]
        for event_id in due:
            self._clocks.pop(event_id, None)
            with contextlib.suppress(StoreError):
                self.call_time(event_id, when)
        return due

    def export(self, event_id: str) -> dict[str, Any]:
        """The results, one row a game, and every game file of the event."""
        view = self.view(event_id)
        ev = view.night
        rows: list[dict[str, Any]] = []
        files: dict[str, dict[str, Any]] = {}
        for played in ev.played:
            for t in played.tables:
                found = view.results[(played.round, t.table)]
                outcome = found.outcome
                points = (outcome.points if outcome is not None
                          else found.side_points or (0, 0))
                rows.append({
                    "round": played.round, "table": t.table,
                    "team_1": ev.names_of(t.sides[0]), "team_2": ev.names_of(t.sides[1]),
                    "score_1": points[0], "score_2": points[1],
                    "winner": None if outcome is None else outcome.winner + 1,
                    "result": "none" if outcome is None else (
                        "entered by hand" if outcome.kind == "paper" else "game"),
                    "game": t.game})
                for game_id in (*t.earlier_games, *((t.game,) if t.game else ())):
                    with contextlib.suppress(StoreError):
                        files[game_id] = self.games.get_game(game_id).file_doc()
            for bye in played.byes:
                rows.append({"round": played.round, "table": None,
                             "team_1": ev.names_of([bye]), "team_2": [], "score_1": 0,
                             "score_2": 0, "winner": 1, "result": "bye", "game": None})
        return {"format": "tarabish-event-export/1", "event": view.id, "name": ev.name,
                "event_format": ev.format.value, "rounds": ev.rounds,
                "rules": ev.rules, "results": rows, "games": files}

    # -- inside ------------------------------------------------------------------------------

    def _fairness(self, ev: night.Event) -> Chance | None:
        """For a night of a group: side 0's chance to win by player ids, from the
        group's ratings as they are now. Used once, when a round is drawn: the round's
        tables are saved, so later games never change a draw already made."""
        if ev.group is None or ev.format is not Format.PROGRESSIVE:
            return None
        # Imported here: a phone alone has no groups nor ratings (and no night for one).
        from scorer.groups.model import GroupNotFound
        from scorer.ratings.chances import win_chance
        from scorer.ratings.model import compute_ratings
        from scorer.ratings.sources import stored_matches

        try:
            games = self.groups.get(ev.group).games
        except GroupNotFound:
            return None
        ratings = compute_ratings(stored_matches(self.games, games))

        def chance(side0: tuple[int, ...], side1: tuple[int, ...]) -> float:
            a, b = ev.names_of(side0), ev.names_of(side1)
            return win_chance(ratings, (a[0], a[1]), (b[0], b[1])).first

        return chance

    def _join_group(self, stored: StoredEvent) -> None:
        """Every game of the night's tables joins its group (again is harmless: a game
        already in it stays as it is)."""
        ev = stored.night
        if ev.group is None:
            return
        from scorer.groups.model import BadGroup, GroupNotFound

        games = [(t.game, night.seat_names(ev, t.sides)) for played in ev.played
                 for t in played.tables if t.game]
        # A group gone or full (its members or games at their bound): the night's games
        # stand on their own, and the round it drew is not undone by a failed join.
        with contextlib.suppress(GroupNotFound, BadGroup):
            self.groups.add_games(ev.group, games)

    def _update(self, event_id: str, change: Callable[[night.Event], night.Event],
                revision: int | None = None) -> StoredEvent:
        with self._lock:
            stored = self.events.update(event_id, change, revision)
        self._learn(stored)
        self._changed(event_id)
        return stored

    def _seat_tables(self, stored: StoredEvent) -> StoredEvent:
        """Give every table of the current round without a game its game (a round just
        drawn, or one whose start a crash cut short). Only a writer does it."""
        current = stored.night.current
        if current is None or self.events.read_only or all(t.game for t in current.tables):
            return stored
        with self._lock:
            stored = self.events.get(stored.id)
            current = stored.night.current
            assert current is not None
            rights = get_rights(self.games.data_dir)
            for t in current.tables:
                if t.game:
                    continue
                doc = night.table_game(stored.night, current.round, t.seating)
                game = self.games.create_game(doc, by=BY)
                # Its code first (no phone holds it yet: the organiser's cards show it),
                # so whoever reads the round once it is linked reads the code too.
                rights.give_codes([game.id])
                self._owner[game.id] = stored.id
                stored = self.events.update(stored.id, _linking_once(t.table, game.id))
                if night.current_table(stored.night, t.table).game != game.id:
                    # Another process of a community seated this table meanwhile: its
                    # game stands, ours goes.
                    self._owner.pop(game.id, None)
                    with contextlib.suppress(StoreError):
                        self.games.delete_game(game.id)
                        rights.forget(game.id)
            # A round whose start a crash cut short: its games join the group too.
            self._join_group(stored)
        return stored

    def _learn(self, stored: StoredEvent) -> None:
        """Keep the game -> event map and the running clocks in step with a saved event."""
        for played in stored.night.played:
            for t in played.tables:
                for game_id in (*t.earlier_games, *((t.game,) if t.game else ())):
                    self._owner[game_id] = stored.id
        current = stored.night.current
        if current is not None and current.clock_ends and current.time_called is None:
            self._clocks[stored.id] = current.clock_ends
        else:
            self._clocks.pop(stored.id, None)

    def _hands(self, game_id: str) -> int:
        try:
            hands = self.games.get_game(game_id).doc.get("hands", [])
        except StoreError:
            return 0
        return len(hands) if isinstance(hands, list) else 0

    def _table_results(self, stored: StoredEvent) -> dict[tuple[int, int], TableResult]:
        """Every table's result, worked out again only for games whose file changed."""
        ev = stored.night
        out: dict[tuple[int, int], TableResult] = {}
        for played in ev.played:
            for t in played.tables:
                sig = self._signature(t.game)
                key = (stored.id, stored.revision, played.round, t.table, t.game, sig)
                found = self._results.get(key)
                if found is None:
                    doc = self._doc(t.game)
                    found = table_result(ev, played, t, doc)
                    self._results[key] = found
                    while len(self._results) > RESULTS_KEPT:
                        self._results.popitem(last=False)
                else:
                    self._results.move_to_end(key)
                out[(played.round, t.table)] = found
        return out

    def _signature(self, game_id: str | None) -> Signature | None:
        if not game_id:
            return None
        if not isinstance(self.games, GameStore):
            # A community's database: the game's revision says it changed.
            try:
                return (-1, self.games.get_game(game_id).revision, 0)
            except StoreError:
                return None
        try:
            st = os.stat(self.games.games_dir / f"{game_id}.json")
        except (OSError, ValueError):
            return None
        return (st.st_ino, st.st_mtime_ns, st.st_size)

    def _doc(self, game_id: str | None) -> dict[str, Any] | None:
        if not game_id:
            return None
        try:
            return copy.deepcopy(self.games.get_game(game_id).doc)
        except StoreError:
            return None


def _linking_once(table: int, game_id: str) -> Callable[[night.Event], night.Event]:
    """Link the game unless the table has one by now (another process seated it)."""
    def change(ev: night.Event) -> night.Event:
        if night.current_table(ev, table).game:
            return ev
        return night.with_game(ev, table, game_id)

    return change
