"""The server's side of sync: judge what phones send, answer, and tell watchers.

`SyncService` does no I/O of its own beyond the store and the rights it is given:
the carrier (a websocket endpoint, a test's in-memory network) hands it each
connection's messages and sends what it returns. Per message:

    conn = service.connect(address)              # the address the socket saw
    outcome = service.receive(conn, raw)         # -> Outcome(replies, changed, close)
    send each of outcome.replies to conn, in order
    for game in outcome.changed:                 # and when another process saved
        for other, state in service.game_changed(game):
            send state to other
    if outcome.close: end the connection
    service.disconnect(conn)                     # when it ends, whichever side

It is thread-safe: a carrier may run `receive` in worker threads (the store blocks);
one connection's messages must be handed over one at a time, in order.

What the server judges, for every change, in this order: the phone said Hello with
this protocol and rules; the push is within bounds and the connection's brake; a
change of a game whose earlier change in the same push was refused waits; the
phone holds the game (`TableRights.may_edit`; a start: the new-game brake per
address); the change id is new for the game, or it is answered again (same phone)
or refused (another phone); the revision it was made on is the game's; then the
rules engine, through the store's own checks. The id is written with the change.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from scorer.rights.codes import NotAllowed
from scorer.rights.limiter import TooManyTries, WrongCode
from scorer.rights.ports import RightsPort
from scorer.rights.service import TooManyGames
from scorer.store.errors import (
    ChangeReplayed,
    GameNotFound,
    HandNotFound,
    InvalidGame,
    NewerSchema,
    NextGameExists,
    NotSaved,
    StaleRevision,
    StoreError,
)
from scorer.store.models import StoredGame, SyncedGame
from scorer.store.ports import GamesPort
from scorer.store.records import device_mark
from scorer.sync.kinds import change_of, sync_fingerprint
from scorer.sync.messages import (
    PROTOCOL,
    Applied,
    AppliedMark,
    Change,
    Claim,
    Create,
    Error,
    GameRecord,
    GameState,
    Gone,
    Hello,
    Limits,
    NextGame,
    Ping,
    Pong,
    Problem,
    ProtocolError,
    Push,
    Reason,
    Refused,
    Unwatch,
    Update,
    Watch,
    Welcome,
    decode_client,
)

ServerMessage = Welcome | GameState | Applied | Refused | Gone | Update | Error | Pong
ClientMessage = Hello | Watch | Unwatch | Push | Claim | Ping

BUSY_RETRY_S = 5.0
"""When a phone tries again after the server could not save."""
MAX_ERRORS = 20
"""Unreadable messages a connection may send before it is ended."""
WAITS = "Not saved yet: the change before it on this phone was not saved."




@dataclass(frozen=True)
class Brake:
    """Changes one connection may push: `burst` at once (a phone back from offline
    sends all it kept), then `per_second`."""

    burst: float = 240.0
    per_second: float = 2.0


@dataclass
class Watching:
    """A game a connection follows: what it was last sent, and its rights (rights
    are only ever granted while a game lives: kept here, not asked at every save)."""

    revision: int
    holds: bool
    code: str | None
    next: str | None = None


@dataclass(eq=False)
class Connection:
    """One phone's connection, as the core keeps it (made by `SyncService.connect`)."""

    number: int
    address: str
    """The address the server's socket saw: the brakes count by it, never by the
    client's word."""
    tokens: float
    refilled: float
    device: str | None = None
    mark: str = ""
    label: str | None = None
    watched: dict[str, Watching] = field(default_factory=dict)
    errors: int = 0
    closed: bool = False

    @property
    def greeted(self) -> bool:
        return self.device is not None


@dataclass(frozen=True)
class Outcome:
    """What one message led to: the replies to its connection (in order), the games it
    changed (call `game_changed` for each), and whether to end the connection."""

    replies: tuple[ServerMessage, ...] = ()
    changed: tuple[str, ...] = ()
    close: bool = False


class SyncService:
    """Judges phones' changes against `store` and `rights`. See the module docstring."""

    def __init__(self, store: GamesPort, rights: RightsPort, *, limits: Limits | None = None,
                 brake: Brake | None = None, clock: Callable[[], float] = time.monotonic,
                 rules: str | None = None) -> None:
        self.store = store
        self.rights = rights
        self.limits = limits or Limits()
        self.brake = brake or Brake()
        self.clock = clock
        self.rules = rules or sync_fingerprint()
        self._lock = threading.Lock()
        self._starting = threading.Lock()
        """New-game brake checked, game stored, brake counted: one start at a time."""
        self._numbers = itertools.count(1)
        self._watchers: dict[str, set[Connection]] = {}
        self._fresh: dict[str, SyncedGame] = {}
        """Games just changed here, as saved: `game_changed` tells them without reading
        them again (a change from another process is read)."""

    # -- connections ------------------------------------------------------------------

    def connect(self, address: str) -> Connection:
        return Connection(number=next(self._numbers), address=address,
                          tokens=self.brake.burst, refilled=self.clock())

    def disconnect(self, conn: Connection) -> None:
        """The connection ended: it watches nothing more."""
        with self._lock:
            conn.closed = True
            for game_id in conn.watched:
                self._unwatch_locked(conn, game_id)
            conn.watched.clear()

    def watchers(self, game_id: str) -> int:
        with self._lock:
            return len(self._watchers.get(game_id, ()))

    def watched_games(self) -> list[str]:
        """Every game some connection watches (to tell them all, after a feed lost
        notices)."""
        with self._lock:
            return list(self._watchers)

    # -- messages ---------------------------------------------------------------------

    def receive(self, conn: Connection, raw: str | bytes) -> Outcome:
        """A message as it came off the wire."""
        try:
            message = decode_client(raw, self.limits.max_message_bytes)
        except ProtocolError as exc:
            conn.errors += 1
            fatal = conn.errors > MAX_ERRORS
            return Outcome((Error(problem=exc.problem, words=str(exc), fatal=fatal),),
                           close=fatal)
        return self.handle(conn, message)

    def handle(self, conn: Connection, message: ClientMessage) -> Outcome:
        """A message already read (`messages.decode_client`)."""
        if conn.closed:
            return Outcome(close=True)
        if isinstance(message, Hello):
            return self._hello(conn, message)
        if isinstance(message, Ping):
            return Outcome((Pong(n=message.n),))
        if not conn.greeted:
            return Outcome((Error(problem=Problem.HELLO_FIRST, fatal=True,
                                  words="The app must say hello first."),), close=True)
        if isinstance(message, Push):
            return self._push(conn, message)
        if isinstance(message, Watch):
            return Outcome(tuple(self._watch(conn, message.game, message.revision)))
        if isinstance(message, Unwatch):
            with self._lock:
                self._unwatch_locked(conn, message.game)
                conn.watched.pop(message.game, None)
            return Outcome()
        return self._claim(conn, message)

    def game_changed(self, game_id: str) -> list[tuple[Connection, GameState | Gone]]:
        """What every connection watching `game_id` must be told now that it changed
        (here, or in another process: the database's notice): its GameState, once per
        revision and connection, or Gone. Call it after a change's replies are sent."""
        with self._lock:
            watching = list(self._watchers.get(game_id, ()))
            fresh = self._fresh.pop(game_id, None)
        if not watching:
            return []
        try:
            synced = fresh or self.store.get_synced(game_id)
        except GameNotFound as exc:
            with self._lock:
                for conn in watching:
                    self._unwatch_locked(conn, game_id)
                    conn.watched.pop(game_id, None)
            return [(conn, Gone(game=game_id, words=str(exc))) for conn in watching]
        except StoreError:  # unreadable now (the database away): the next change tells
            return []
        follows = synced.next
        record = _record(synced.game)
        out: list[tuple[Connection, GameState | Gone]] = []
        with self._lock:
            for conn in watching:
                seen = conn.watched.get(game_id)
                if seen is None or (seen.revision >= synced.game.revision
                                    and seen.next == follows):
                    continue
                out.append((conn, self._state(record, synced, seen, follows)))
        return out

    # -- hello, watch, claim -------------------------------------------------------------

    def _hello(self, conn: Connection, hello: Hello) -> Outcome:
        if hello.protocol != PROTOCOL or hello.rules != self.rules:
            return Outcome((Update(rules=self.rules),), close=True)
        if conn.greeted:
            return Outcome((Error(problem=Problem.MALFORMED,
                                  words="This connection has said hello already."),))
        if len(hello.games) > self.limits.max_watched:
            return Outcome((Error(problem=Problem.TOO_MANY, fatal=True, words=(
                f"A phone may follow {self.limits.max_watched} games at once.")),), close=True)
        conn.device = hello.device
        conn.mark = device_mark(hello.device)
        try:
            conn.label = self.rights.phone_label(hello.device)
        except StoreError:  # a name is not worth refusing a phone for
            conn.label = None
        replies: list[ServerMessage] = [Welcome(rules=self.rules, limits=self.limits,
                                                time=datetime.now(UTC))]
        for known in hello.games:
            replies.extend(self._watch(conn, known.game, known.revision))
        return Outcome(tuple(replies))

    def _watch(self, conn: Connection, game_id: str, revision: int | None,
               force: bool = False) -> list[ServerMessage]:
        """Follow `game_id`; its GameState unless the phone has it at `revision`."""
        with self._lock:
            if game_id not in conn.watched and len(conn.watched) >= self.limits.max_watched:
                return [Error(problem=Problem.TOO_MANY, words=(
                    f"A phone may follow {self.limits.max_watched} games at once: "
                    "stop following one first."))]
        try:
            synced = self.store.get_synced(game_id)
        except (GameNotFound, NewerSchema) as exc:
            return [Gone(game=game_id, words=str(exc))]
        except StoreError as exc:
            return [Error(problem=Problem.BUSY, words=_busy_words(exc))]
        holds = self.rights.may_edit(game_id, conn.device)
        seen = Watching(revision=0 if revision is None else revision, holds=holds,
                        code=self.rights.code(game_id) if holds else None)
        follows = synced.next
        with self._lock:
            if conn.closed:
                return []
            conn.watched[game_id] = seen
            self._watchers.setdefault(game_id, set()).add(conn)
            if (not force and revision == synced.game.revision and follows is None):
                return []
            return [self._state(_record(synced.game), synced, seen, follows)]

    def _claim(self, conn: Connection, claim: Claim) -> Outcome:
        assert conn.device is not None
        try:
            self.store.get_synced(claim.game)
        except (GameNotFound, NewerSchema) as exc:
            return Outcome((Gone(game=claim.game, words=str(exc)),))
        except StoreError as exc:
            return Outcome((_refused(None, claim.game, Reason.BUSY, _busy_words(exc),
                                     retry_after=BUSY_RETRY_S),))
        try:
            self.rights.enter_code(claim.game, conn.device, conn.address, claim.code)
        except TooManyTries as exc:
            return Outcome((_refused(None, claim.game, Reason.TOO_MANY, str(exc),
                                     retry_after=float(exc.seconds)),))
        except WrongCode as exc:
            return Outcome((_refused(None, claim.game, Reason.NOT_ALLOWED, str(exc)),))
        except StoreError as exc:
            return Outcome((_refused(None, claim.game, Reason.BUSY, _busy_words(exc),
                                     retry_after=BUSY_RETRY_S),))
        with self._lock:
            self._unwatch_locked(conn, claim.game)
            conn.watched.pop(claim.game, None)
        return Outcome(tuple(self._watch(conn, claim.game, None, force=True)))

    # -- changes ------------------------------------------------------------------------

    def _push(self, conn: Connection, push: Push) -> Outcome:
        if len(push.changes) > self.limits.max_push:
            return Outcome((Error(problem=Problem.TOO_MANY, words=(
                f"At most {self.limits.max_push} changes may be sent at once: nothing "
                "was stored.")),))
        replies: list[ServerMessage] = []
        changed: list[str] = []
        stopped: set[str] = set()  # games whose earlier change in this push was refused
        for change in push.changes:
            if change.game in stopped:
                replies.append(_refused(change.id, change.game, Reason.STALE, WAITS))
                continue
            wait = self._take_token(conn)
            if wait > 0:
                answer: Applied | Refused = _refused(
                    change.id, change.game, Reason.TOO_MANY,
                    "Too many changes from this phone at once: they wait and go out "
                    "again in a moment.", retry_after=wait)
            else:
                answer, touched = self._one(conn, change)
                changed.extend(g for g in touched if g not in changed)
            if isinstance(answer, Refused):
                stopped.add(change.game)
            replies.append(answer)
        for game_id in changed:
            self._follow(conn, game_id, min((c.base for c in push.changes
                                             if c.game == game_id), default=0))
        return Outcome(tuple(replies), tuple(changed))

    def _follow(self, conn: Connection, game_id: str, since: int) -> None:
        """A phone follows the games it changes or starts (within bounds): `game_changed`
        then sends it the state its change made, with the marks since `since`."""
        with self._lock:
            if game_id in conn.watched or len(conn.watched) >= self.limits.max_watched:
                return
        holds = self.rights.may_edit(game_id, conn.device)
        seen = Watching(revision=since, holds=holds,
                        code=self.rights.code(game_id) if holds else None)
        with self._lock:
            if not conn.closed and game_id not in conn.watched:
                conn.watched[game_id] = seen
                self._watchers.setdefault(game_id, set()).add(conn)

    def _take_token(self, conn: Connection) -> float:
        """0 if the connection may push one more change now, else the seconds to wait."""
        with self._lock:
            now = self.clock()
            conn.tokens = min(self.brake.burst,
                              conn.tokens + (now - conn.refilled) * self.brake.per_second)
            conn.refilled = now
            if conn.tokens >= 1:
                conn.tokens -= 1
                return 0.0
            return max(0.1, (1 - conn.tokens) / self.brake.per_second)

    def _one(self, conn: Connection, change: Change) -> tuple[Applied | Refused, list[str]]:
        kind = change.kind
        try:
            if isinstance(kind, Create):
                return self._create(conn, change, kind)
            if isinstance(kind, NextGame):
                return self._next_game(conn, change, kind)
            return self._edit(conn, change)
        except NotSaved as exc:
            return _refused(change.id, change.game, Reason.BUSY, str(exc),
                            retry_after=BUSY_RETRY_S), []
        except StoreError as exc:  # the database away (DatabaseUnavailable), mostly
            return _refused(change.id, change.game, Reason.BUSY, _busy_words(exc),
                            retry_after=BUSY_RETRY_S), []

    def _holds(self, conn: Connection, game_id: str) -> bool:
        seen = conn.watched.get(game_id)
        if seen is not None and seen.holds:
            return True
        return self.rights.may_edit(game_id, conn.device)

    def _edit(self, conn: Connection, change: Change) -> tuple[Applied | Refused, list[str]]:
        game_id = change.game
        assert not isinstance(change.kind, Create | NextGame)
        if len(game_id) != 8:
            return _refused(change.id, game_id, Reason.UNKNOWN_GAME,
                            "This game is not on the server yet: its start goes first."), []
        if not self._holds(conn, game_id):
            try:
                synced = self.store.get_synced(game_id)
            except GameNotFound as exc:
                return _refused(change.id, game_id, Reason.UNKNOWN_GAME, str(exc)), []
            return _refused(change.id, game_id, Reason.NOT_ALLOWED, str(NotAllowed()),
                            state=self._state_for(conn, synced)), []
        try:
            synced = self.store.apply_synced(game_id, change_of(change.kind), change.base,
                                             change.id, conn.mark, by=conn.label,
                                             phone_at=change.at)
        except GameNotFound as exc:
            return _refused(change.id, game_id, Reason.UNKNOWN_GAME, str(exc)), []
        except ChangeReplayed as exc:
            return _refused(change.id, game_id, Reason.DUPLICATE_FROM_ANOTHER_PHONE,
                            str(exc)), []
        except StaleRevision as exc:
            return _refused(change.id, game_id, Reason.STALE, str(exc),
                            state=self._fresh_state(conn, game_id, exc.current)), []
        except (InvalidGame, HandNotFound, NewerSchema) as exc:
            return _refused(change.id, game_id, Reason.INVALID, str(exc),
                            state=self._fresh_state(conn, game_id, None)), []
        mark = synced.mark_of(change.id)
        revision = mark.revision if mark is not None else synced.game.revision
        changed = [] if synced.already else [game_id]
        if changed:
            with self._lock:
                if len(self._fresh) < 1024:  # `game_changed` takes them; bounded anyway
                    self._fresh[game_id] = synced
        return Applied(change=change.id, game=game_id, revision=revision), changed

    def _create(self, conn: Connection, change: Change, kind: Create | NextGame,
                ) -> tuple[Applied | Refused, list[str]]:
        """A game started on the phone (or a watcher's Play again: a game of its own)."""
        assert conn.device is not None
        with self._starting:
            try:
                self.rights.check_new_game(conn.address)
            except TooManyGames as exc:
                wait = self.rights.new_game_wait(conn.address)
                return _refused(change.id, change.game, Reason.TOO_MANY, str(exc),
                                retry_after=max(1.0, wait)), []
            try:
                game = self.store.create_game(kind.doc, by=conn.label, origin=kind.origin,
                                              phone_at=change.at)
            except (InvalidGame, HandNotFound) as exc:
                return _refused(change.id, change.game, Reason.INVALID, str(exc)), []
            if self.rights.code(game.id) is None:
                self._give(conn, game.id, None)
                self.rights.game_started(conn.address)
            elif not self.rights.may_edit(game.id, conn.device):
                return _refused(change.id, change.game, Reason.DUPLICATE_FROM_ANOTHER_PHONE,
                                "This game was already sent by another phone."), []
        return Applied(change=change.id, game=game.id, revision=game.revision), [game.id]

    def _next_game(self, conn: Connection, change: Change, kind: NextGame,
                   ) -> tuple[Applied | Refused, list[str]]:
        """Play again: the table's one next game (a watcher's: a game of its own)."""
        assert conn.device is not None
        try:
            if not self._holds(conn, kind.follows):
                self.store.get_synced(kind.follows)  # an unknown game is said so
                return self._create(conn, change, kind)
            made = self.store.next_game(kind.follows)
            if made is None:
                with self._starting:
                    try:
                        self.rights.check_new_game(conn.address)
                    except TooManyGames as exc:
                        wait = self.rights.new_game_wait(conn.address)
                        return _refused(change.id, change.game, Reason.TOO_MANY, str(exc),
                                        retry_after=max(1.0, wait)), []
                    game = self.store.create_next_game(kind.follows, kind.doc, change.base,
                                                       by=conn.label, origin=kind.origin,
                                                       phone_at=change.at)
                    self.rights.game_started(conn.address)
                    self._give(conn, game.id, kind.follows)
                with self._lock:  # the finished game's saved state no longer names its next
                    self._fresh.pop(kind.follows, None)
                return (Applied(change=change.id, game=game.id, revision=game.revision),
                        [game.id, kind.follows])
        except NextGameExists as exc:
            made = exc.game_id
        except GameNotFound as exc:
            return _refused(change.id, change.game, Reason.UNKNOWN_GAME, str(exc)), []
        except StaleRevision as exc:
            return _refused(change.id, kind.follows, Reason.STALE, str(exc),
                            state=self._fresh_state(conn, kind.follows, exc.current)), []
        except (InvalidGame, HandNotFound) as exc:
            return _refused(change.id, change.game, Reason.INVALID, str(exc)), []
        game = self.store.get_game(made)
        return (Applied(change=change.id, game=made, revision=game.revision,
                        made=game.origin == kind.origin), [made])

    def _give(self, conn: Connection, game_id: str, follows: str | None) -> None:
        """The starting phone holds the new game; a code that cannot be kept takes the
        game away again (the phone is told nothing was saved)."""
        assert conn.device is not None
        try:
            if follows is None:
                self.rights.start(game_id, conn.device)
            else:
                self.rights.start_next(game_id, conn.device, follows)
        except StoreError:
            with contextlib.suppress(StoreError):
                self.store.delete_game(game_id)
            raise

    # -- game states ----------------------------------------------------------------------

    def _next_of(self, game_id: str) -> str | None:
        try:
            return self.store.next_game(game_id)
        except StoreError:
            return None

    def _state(self, record: GameRecord, synced: SyncedGame, seen: Watching,
               follows: str | None) -> GameState:
        """The state sent to one watcher; the caller holds the lock."""
        state = GameState(game=record, holds=seen.holds, code=seen.code, next=follows,
                          applied=tuple(AppliedMark(change=m.change, revision=m.revision)
                                        for m in synced.marks_after(seen.revision)))
        seen.revision = max(seen.revision, synced.game.revision)
        seen.next = follows
        return state

    def _state_for(self, conn: Connection, synced: SyncedGame) -> GameState:
        """The game as this phone may see it, for a refusal (it watches nothing by it)."""
        holds = self.rights.may_edit(synced.game.id, conn.device)
        code = self.rights.code(synced.game.id) if holds else None
        seen = conn.watched.get(synced.game.id)
        since = seen.revision if seen is not None else 0
        return GameState(game=_record(synced.game), holds=holds, code=code,
                         next=self._next_of(synced.game.id),
                         applied=tuple(AppliedMark(change=m.change, revision=m.revision)
                                       for m in synced.marks_after(since)))

    def _fresh_state(self, conn: Connection, game_id: str,
                     current: StoredGame | None) -> GameState | None:
        try:
            synced = self.store.get_synced(game_id)
        except StoreError:
            if current is None:
                return None
            synced = SyncedGame(game=current)
        return self._state_for(conn, synced)

    def _unwatch_locked(self, conn: Connection, game_id: str) -> None:
        watchers = self._watchers.get(game_id)
        if watchers is not None:
            watchers.discard(conn)
            if not watchers:
                del self._watchers[game_id]


def _record(game: StoredGame) -> GameRecord:
    return GameRecord(id=game.id, revision=game.revision, created=game.created,
                      updated=game.updated, doc=game.doc, history=game.history,
                      follows=game.follows)


def _refused(change: str | None, game: str | None, reason: Reason, words: str, *,
             retry_after: float | None = None, state: GameState | None = None) -> Refused:
    return Refused(change=change, game=game, reason=reason, words=words,
                   retry_after=retry_after, state=state)


def _busy_words(exc: StoreError) -> str:
    """A store's failure in words a phone may read: a database's own words name its
    host, so those stay in the server's log."""
    if isinstance(exc, NotSaved):
        return str(exc)
    return "The server cannot save just now: the change waits on this phone and goes out again."
