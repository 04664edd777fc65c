"""The phone's side of sync: its own copy of each game, and the changes waiting to go.

`SyncClient` is pure: no browser, no socket, no clock of its own. It keeps, per
game, the record the server last confirmed and the outbox of changes made on this
phone since; what the screens show (`view`) is the confirmed record with the
waiting changes applied by the same functions the server runs (`kinds`). The
carrier hands it the server's messages (`receive`) and sends what it asks
(`outgoing`); `connected`/`disconnected` say when the carrier can send. What it
keeps goes through a `Keeper` (the phone's storage), so a closed tab loses nothing.

How the outbox meets the server (docs/SYNC.md):

- Changes go out in order, one Push at a time; one game's changes are never
  reordered. Each keeps its own id: sent again after a lost answer or a reconnect,
  it is answered, never applied twice.
- Applied: the change is in; it stays in the view until the game's state comes.
  A GameState newer than the confirmed record replaces it; the changes it names as
  applied (`applied` marks) leave the outbox.
- A waiting change made on an older revision than the server's (a GameState, or
  Refused(stale)) is judged against the server's game as the record screen judges
  a draft (`recording.conflicts.assess_hand`): its place untouched, it is made again
  on the new revision (a new id); the same hand already there, it is dropped ("already
  recorded"); another hand there, or its place undone, it is a clash kept for the
  player's choice (keep theirs, use mine, record mine as the next hand), and the
  game's later changes wait for that choice. Undo, put back and details that no
  longer fit are dropped with a notice in player words.
- Other refusals: a passing one (busy, too many) keeps the change for later; a final
  one (not allowed, invalid...) drops it with its reason for the player; the rest go on.
"""

from __future__ import annotations

import copy
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, ValidationError

from rules.errors import TarabishError
from rules.game_file import header_of, parse_game
from rules.hand_file import parse_hand
from rules.replay import replay
from scorer.recording.conflicts import Clash as Place
from scorer.recording.conflicts import DraftPlace, Situation, assess_hand
from scorer.store.errors import InvalidGame, StoreError
from scorer.store.models import StoredGame
from scorer.store.records import to_stored
from scorer.store.schema import GAME_SCHEMA
from scorer.sync.kinds import apply_edit, start_record, sync_fingerprint
from scorer.sync.messages import (
    MAX_PENDING,
    MAX_WATCHED,
    PROTOCOL,
    TRANSIENT,
    AddHand,
    Applied,
    Change,
    Claim,
    Create,
    Details,
    Error,
    GameState,
    Gone,
    Hello,
    Known,
    Limits,
    NextGame,
    Ping,
    Pong,
    Problem,
    Push,
    Reason,
    Redo,
    Refused,
    ReplaceHand,
    Undo,
    Unwatch,
    Update,
    Watch,
    Welcome,
    encode,
)

Record = dict[str, Any]
EditKind = AddHand | ReplaceHand | Undo | Redo | Details
ClientMessage = Hello | Watch | Unwatch | Push | Claim | Ping
ServerMessage = Welcome | GameState | Applied | Refused | Gone | Update | Error | Pong

MAX_NOTICES = 50
"""Notices kept for the player (the oldest go first)."""
_CLIENT_KEY = "client"


class Keeper(Protocol):
    """Where the client keeps its state across a closed tab: text by key."""

    def load(self) -> dict[str, str]: ...

    def keep(self, key: str, text: str) -> None: ...

    def forget(self, key: str) -> None: ...


class MemoryKeeper:
    """A Keeper in memory (tests, and a phone whose storage refused)."""

    def __init__(self) -> None:
        self.kept: dict[str, str] = {}

    def load(self) -> dict[str, str]:
        return dict(self.kept)

    def keep(self, key: str, text: str) -> None:
        self.kept[key] = text

    def forget(self, key: str) -> None:
        self.kept.pop(key, None)


class OutboxFull(StoreError):
    """Too many changes wait on this phone: nothing more is kept until some are sent."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"{limit} changes are waiting on this phone: connect to the table "
                         "server before recording more.")


class NotHeld(StoreError):
    """This phone does not hold the game (it is watching: no table code entered)."""

    def __init__(self) -> None:
        super().__init__("This phone is only watching: enter the table code to record, "
                         "edit or undo hands.")


class ClashFirst(StoreError):
    """A waiting hand clashes with another phone's: the player chooses before going on."""

    def __init__(self, number: int) -> None:
        super().__init__(f"Another phone saved hand {number} too: choose which one the "
                         "table played before recording more.")


class Choice(StrEnum):
    """What the player may choose for a clash (the conflict screen's buttons)."""

    KEEP_THEIRS = "keep_theirs"
    """Theirs stays; mine is dropped ("Drop mine" when my hand's place is gone)."""
    USE_MINE = "use_mine"
    """Mine replaces theirs in its place, as an edit (theirs stays in the trail)."""
    RECORD_NEXT = "record_next"
    """Mine is recorded as the next hand (the table really played another)."""


class Noted(StrEnum):
    """Why a notice was given (besides a server's refusal, whose `Reason` it carries)."""

    ALREADY = "already_recorded"
    """Another phone had saved the same: dropped, the sheet has it once."""
    KEPT_THEIRS = "kept_theirs"
    NOT_APPLICABLE = "not_applicable"
    """An undo, put back or detail that no longer fits the game: dropped."""
    ON_ITS_OWN = "on_its_own"
    """Play again after a game that changed since: kept as a game of its own."""
    GONE = "gone"


class Notice(BaseModel):
    """Something the player should read about a change: why it was refused or dropped."""

    model_config = ConfigDict(frozen=True)

    game: str
    change: str | None
    """The first id of the change (`Pending.first`)."""
    reason: str
    """A `Reason` (the server refused it) or a `Noted`."""
    words: str
    kind: str | None = None
    hand: dict[str, Any] | None = None
    """The hand of a dropped or refused hand change, so nothing vanishes unseen."""


class Pending(BaseModel):
    """A change made on this phone, waiting for the server, with what its judge needs:
    the hand's number on the phone and what was there before (replaced or undone hand,
    or the details before)."""

    model_config = ConfigDict(frozen=True)

    change: Change
    first: str = ""
    """The id the change had when the player made it (a change made again gets a new
    id): what ties a notice or a clash to the player's tap."""
    number: int | None = None
    before: dict[str, Any] | None = None
    applied: int | None = None
    """The revision the server said the change made (kept in the view until the game's
    state shows it)."""


class SyncClash(BaseModel):
    """A waiting hand that clashes with what another phone saved: for the player."""

    model_config = ConfigDict(frozen=True)

    change: str
    situation: Situation
    is_new: bool
    """A new hand (else an edit of hand `situation.number`)."""
    choices: tuple[Choice, ...]


class GameSync(BaseModel):
    """One game as the phone keeps it: what the server confirmed, what waits."""

    key: str
    """The game's name on this phone: the server's id, or its own key until then."""
    origin: str | None = None
    confirmed: Record | None = None
    holds: bool = True
    code: str | None = None
    next: str | None = None
    pending: list[Pending] = []
    clash: SyncClash | None = None
    gone: str | None = None
    """Why the server no longer has the game (or never took it): nothing is sent."""
    adopted: bool = False
    """Started here, but another phone's game of the same table was taken instead: the
    waiting changes are judged against it when its state comes."""

    @property
    def server_id(self) -> str | None:
        return self.key if len(self.key) == 8 else None


class ClientState(BaseModel):
    renamed: dict[str, str] = {}
    notices: list[Notice] = []


class Status(BaseModel):
    """What the screens say about sync: connected or recording alone, how many
    changes wait, clashes to choose, whether the app must be updated."""

    model_config = ConfigDict(frozen=True)

    connected: bool
    waiting: int
    clashes: int
    update: bool = False
    problem: str | None = None


def _utcnow() -> datetime:
    return datetime.now(UTC)


class SyncClient:
    """A phone's games and outbox. See the module docstring."""

    def __init__(self, device: str, keeper: Keeper | None = None, *,
                 now: Callable[[], datetime] = _utcnow,
                 clock: Callable[[], float] | None = None,
                 new_id: Callable[[], str] = lambda: secrets.token_hex(16),
                 rules: str | None = None, label: str | None = None) -> None:
        self.device = device
        self.keeper = keeper or MemoryKeeper()
        self.now = now
        self.clock = clock or time.monotonic
        self.new_id = new_id
        self.rules = rules or sync_fingerprint()
        self.label = label
        self.limits = Limits()
        self.games: dict[str, GameSync] = {}
        self.state = ClientState()
        self._online = False
        self._hello_sent = False
        self._welcomed = False
        self._in_flight: list[str] = []
        self._controls: list[Watch | Unwatch | Claim] = []
        self._retry_at = 0.0
        self._views: dict[str, StoredGame | None] = {}
        self.update_needed = False
        self.problem: str | None = None
        self._load()

    # -- the app's side ---------------------------------------------------------------

    def key_of(self, game: str) -> str:
        """The game's current key: a game started here is renamed to its server id."""
        return self.state.renamed.get(game, game)

    def view(self, game: str) -> StoredGame | None:
        """The game as this phone shows it: confirmed, with the waiting changes applied
        (not those waiting behind a clash). None for a game not known yet."""
        key = self.key_of(game)
        if key not in self._views:
            self._views[key] = self._build_view(key)
        return self._views[key]

    def status(self) -> Status:
        return Status(connected=self._welcomed, waiting=self.waiting(),
                      clashes=sum(1 for g in self.games.values() if g.clash is not None),
                      update=self.update_needed, problem=self.problem)

    def waiting(self, game: str | None = None) -> int:
        """Changes not yet saved by the server (of one game, or all)."""
        games = self.games.values() if game is None else [self.games[self.key_of(game)]]
        return sum(1 for g in games for p in g.pending if p.applied is None)

    def clash(self, game: str) -> SyncClash | None:
        sync = self.games.get(self.key_of(game))
        return None if sync is None else sync.clash

    def notices(self) -> list[Notice]:
        return list(self.state.notices)

    def dismiss(self, count: int) -> None:
        """The player read the first `count` notices."""
        self.state.notices = self.state.notices[count:]
        self._keep_client()

    def dismiss_game(self, game: str) -> None:
        """The player read the notices of one game."""
        key = self.key_of(game)
        self.state.notices = [n for n in self.state.notices if self.key_of(n.game) != key]
        self._keep_client()

    def record(self, game: str, kind: EditKind) -> str | None:
        """Make a change on this phone now: applied to its copy at once, sent when it
        can be. Returns the change's id, or None if it changes nothing. Raises what
        the store raises for it (InvalidGame, HandNotFound), NotHeld or OutboxFull;
        then nothing is kept."""
        key = self.key_of(game)
        sync = self.games[key]
        if not sync.holds:
            raise NotHeld()
        if sync.clash is not None:
            raise ClashFirst(sync.clash.situation.number)
        if sync.gone is not None:
            raise StoreError(sync.gone)
        self._room()
        view = self._view_record(key)
        if view is None:
            raise InvalidGame("This game is not on this phone yet.")
        number, before = _context(kind, view)
        if apply_edit(view, kind, self.now(), self.label) is None:
            return None
        change = Change(id=self.new_id(), game=key, base=view["revision"], at=self.now(),
                        kind=kind)
        sync.pending.append(Pending(change=change, first=change.id, number=number,
                                    before=before))
        self._changed(key)
        return change.id

    def start(self, doc: dict[str, Any]) -> str:
        """A game started on this phone (raises InvalidGame); its key (renamed to the
        server's id once the server has it: `key_of`)."""
        origin = self.new_id()
        return self._start(Create(doc=doc, origin=origin), origin)

    def play_again(self, follows: str, doc: dict[str, Any]) -> str:
        """The game after the finished `follows`, started on this phone: the table's one
        next game (another phone's, if it started one first)."""
        follows = self.key_of(follows)
        view = self._view_record(follows)
        if view is None or len(follows) != 8:
            return self.start(doc)  # a game the server has not seen: no table to follow
        origin = self.new_id()
        return self._start(NextGame(follows=follows, doc=doc, origin=origin), origin,
                           base=view["revision"])

    def follow(self, game: str) -> None:
        """Keep and follow a game of the server (opened by its address)."""
        key = self.key_of(game)
        if key in self.games:
            return
        self.games[key] = GameSync(key=key, holds=False)
        self._keep(key)
        if self._welcomed:
            self._controls.append(Watch(game=key))

    def forget(self, game: str) -> None:
        """Stop following a game and forget it (nothing waiting is kept: the app asks)."""
        key = self.key_of(game)
        if self.games.pop(key, None) is not None:
            self.keeper.forget(key)
            self._views.pop(key, None)
            if self._welcomed and len(key) == 8:
                self._controls.append(Unwatch(game=key))

    def claim(self, game: str, code: str) -> None:
        """Send the table code typed for a game: its GameState says if it now holds it,
        a notice if not."""
        key = self.key_of(game)
        if key not in self.games:
            self.follow(key)
        self._controls.append(Claim(game=key, code=code))

    def choose(self, game: str, choice: Choice) -> None:
        """The player's choice for the game's clash (one of its `choices`)."""
        key = self.key_of(game)
        sync = self.games[key]
        clash = sync.clash
        if clash is None or choice not in clash.choices:
            raise ValueError(f"no such choice now: {choice}")
        at = next(i for i, p in enumerate(sync.pending) if p.change.id == clash.change)
        entry = sync.pending[at]
        situation = clash.situation
        sync.clash = None
        if choice is Choice.KEEP_THEIRS:
            del sync.pending[at]
            self._notice(entry, Noted.KEPT_THEIRS,
                         f"Hand {situation.number} is kept as saved; yours was dropped.")
        else:
            mine = _hand_of(entry)
            theirs = (None if situation.theirs is None
                      else _hand_doc(sync, situation.number - 1))
            if choice is Choice.USE_MINE:
                kind: EditKind = ReplaceHand(index=situation.number - 1, hand=mine)
                made = Pending(change=self._again(entry, kind), first=entry.first,
                               number=situation.number, before=theirs)
            else:
                made = Pending(change=self._again(entry, AddHand(hand=mine)),
                               first=entry.first, number=situation.next_number)
                # The hands this phone recorded after it move along with it.
                sync.pending[at + 1:] = [_shifted(p, situation.number,
                                                  situation.next_number - situation.number)
                                         for p in sync.pending[at + 1:]]
            sync.pending[at] = made
        self._settle(key, diverged_from=at)

    # -- the carrier's side ------------------------------------------------------------

    def connected(self) -> None:
        """A connection is open: `outgoing` starts it with Hello."""
        self._online = True
        self._hello_sent = False
        self._welcomed = False
        self._in_flight = []
        self._controls = []

    def disconnected(self) -> None:
        """The connection ended: what was sent and not answered goes again next time."""
        self._online = False
        self._hello_sent = False
        self._welcomed = False
        self._in_flight = []
        self._controls = []

    def outgoing(self) -> list[ClientMessage]:
        """What to send now, in order (call after anything happened)."""
        if not self._online or self.update_needed:
            return []
        if not self._hello_sent:
            self._hello_sent = True
            return [self._hello()]
        if not self._welcomed:
            return []
        out: list[ClientMessage] = list(self._controls)
        self._controls = []
        if not self._in_flight and self.clock() >= self._retry_at and self.problem is None:
            push = self._next_push()
            if push is not None:
                self._in_flight = [c.id for c in push.changes]
                out.append(push)
        return out

    def wake_at(self) -> float | None:
        """When (by `clock`) changes held back by a passing refusal may go again: the
        carrier calls `outgoing` then. None when nothing is held back."""
        return self._retry_at if self._retry_at > self.clock() and self.waiting() else None

    def receive(self, message: ServerMessage) -> None:
        """A message from the server."""
        if isinstance(message, Welcome):
            self._welcomed = True
            self.limits = message.limits
            self.problem = None
            self._controls.extend(
                Watch(game=g.key) for g in self.games.values()
                if g.server_id is not None and g.confirmed is None and g.gone is None)
        elif isinstance(message, GameState):
            self._take_state(message)
        elif isinstance(message, Applied):
            self._applied(message)
        elif isinstance(message, Refused):
            self._refused(message)
        elif isinstance(message, Gone):
            self._gone(message.game, message.words)
        elif isinstance(message, Update):
            self.update_needed = True
        elif isinstance(message, Error):
            self._error(message)

    # -- answers ----------------------------------------------------------------------

    def _answered(self, change: str) -> None:
        if change in self._in_flight:
            self._in_flight.remove(change)

    def _find(self, change: str) -> tuple[GameSync, int] | None:
        for sync in self.games.values():
            for at, entry in enumerate(sync.pending):
                if entry.change.id == change:
                    return sync, at
        return None

    def _applied(self, answer: Applied) -> None:
        self._answered(answer.change)
        found = self._find(answer.change)
        if found is None:
            return  # a copy already settled (its state came first)
        sync, at = found
        entry = sync.pending[at]
        sync.pending[at] = entry.model_copy(update={"applied": answer.revision})
        if isinstance(entry.change.kind, Create | NextGame) and sync.key != answer.game:
            self._rename(sync, answer.game, mine=answer.made)
        self._changed(sync.key)

    def _rename(self, sync: GameSync, game_id: str, *, mine: bool) -> None:
        """A game started here has its server id now (or, `mine` False, another phone
        started the table's next game first: this phone's waiting changes go to it)."""
        old = sync.key
        self.games.pop(old)
        self._views.pop(old, None)
        self.keeper.forget(old)
        existing = self.games.get(game_id)
        sync.key = game_id
        sync.adopted = not mine
        sync.pending = [p.model_copy(update={"change": p.change.model_copy(
            update={"game": game_id})}) if not isinstance(p.change.kind, Create | NextGame)
            else p for p in sync.pending]
        self.games[game_id] = sync
        self.state.renamed[old] = game_id
        for name, to in list(self.state.renamed.items()):
            if to == old:
                self.state.renamed[name] = game_id
        self._keep_client()
        if existing is not None and existing.confirmed is not None:
            # The table's game was followed here already: no new state will come for it.
            sync.confirmed, sync.holds, sync.code = (existing.confirmed, existing.holds,
                                                     existing.code)
            sync.pending = [p for p in sync.pending
                            if not isinstance(p.change.kind, Create | NextGame)]
            sync.adopted = False
            self._settle(game_id, diverged_from=0)

    def _refused(self, answer: Refused) -> None:
        if answer.change is None:  # a claim
            if answer.game is not None:
                self._add_notice(Notice(game=answer.game, change=None,
                                        reason=answer.reason, words=answer.words))
            return
        self._answered(answer.change)
        if answer.state is not None:
            self._take_state(answer.state)
        found = self._find(answer.change)
        if found is None:
            return
        sync, at = found
        entry = sync.pending[at]
        if entry.applied is not None:
            return
        if answer.reason in TRANSIENT or (answer.reason is Reason.STALE
                                          and answer.state is None):
            # It waits (or waited behind a refused change): sent again later.
            if answer.retry_after is not None:
                self._retry_at = max(self._retry_at, self.clock() + answer.retry_after)
            return
        kind = entry.change.kind
        if isinstance(kind, NextGame) and answer.reason is Reason.STALE:
            # The finished game changed since (a hand undone): no next game of it now;
            # this one is kept as a game of its own, nothing recorded in it lost.
            own = Create(doc=kind.doc, origin=kind.origin)
            sync.pending[at] = Pending(change=self._again(entry, own), first=entry.first)
            self._notice(entry, Noted.ON_ITS_OWN, (
                "The finished game changed on another phone: this game was kept as a "
                "game of its own."))
            self._changed(sync.key)
            return
        if answer.reason is Reason.STALE:
            self._settle(sync.key, diverged_from=at)
            return
        if isinstance(kind, Create | NextGame):
            sync.gone = answer.words  # the game stays on this phone, not sent
            self._notice(entry, answer.reason, answer.words)
            self._changed(sync.key)
            return
        del sync.pending[at]
        self._notice(entry, answer.reason, answer.words)
        self._settle(sync.key, diverged_from=at)

    def _gone(self, game: str, words: str) -> None:
        sync = self.games.get(self.key_of(game))
        if sync is None:
            return
        sync.gone = words
        for entry in sync.pending:
            if entry.applied is None and entry.change.id in self._in_flight:
                self._in_flight.remove(entry.change.id)
        self._add_notice(Notice(game=sync.key, change=None, reason=Noted.GONE, words=words))
        self._changed(sync.key)

    def _error(self, error: Error) -> None:
        if error.problem is Problem.HELLO_FIRST:
            self._hello_sent = False
            self._welcomed = False
            self._in_flight = []
            return
        if error.problem is Problem.TOO_MANY and self._in_flight:
            self.limits = self.limits.model_copy(
                update={"max_push": max(1, len(self._in_flight) // 2)})
            self._in_flight = []
            return
        if error.problem is Problem.TOO_BIG and self._in_flight:
            # Progress over a loop: the first change sent cannot go, whatever it is.
            found = self._find(self._in_flight[0])
            self._in_flight = []
            if found is not None:
                sync, at = found
                entry = sync.pending.pop(at)
                self._notice(entry, Reason.TOO_BIG, "This change is too big to send.")
                self._settle(sync.key, diverged_from=at)
            return
        if error.fatal:  # the connection ends; a new one starts afresh
            self.problem = error.words
            self._in_flight = []

    # -- the server's state, and judging waiting changes against it ------------------------

    def _take_state(self, state: GameState) -> None:
        key = self.key_of(state.game.id)
        sync = self.games.get(key)
        if sync is None:
            return  # not a game this phone keeps (a late answer)
        confirmed = sync.confirmed
        if confirmed is not None and state.game.revision < confirmed["revision"]:
            return
        sync.confirmed = _record_of(state, sync.origin)
        sync.holds, sync.code, sync.next, sync.gone = state.holds, state.code, state.next, None
        done = {m.change for m in state.applied}
        kept = []
        for entry in sync.pending:
            if entry.change.id in done or (entry.applied is not None
                                           and entry.applied <= state.game.revision):
                self._answered(entry.change.id)
                continue
            kept.append(entry)
        sync.pending = kept
        adopted, sync.adopted = sync.adopted, False
        self._settle(key, diverged_from=0 if adopted else None)

    def _settle(self, key: str, diverged_from: int | None = None) -> None:
        """Walk the game's waiting changes over its confirmed record: those made on the
        revision before them stay; from the first that is not (or `diverged_from`, or a
        clash waiting for the player), each is judged against the game as it stands
        (`_judge`): once one moved, those after it were made on a game the server never
        had, whatever their revision number says."""
        sync = self.games[key]
        record = sync.confirmed
        if record is None:
            self._changed(key)
            return
        if sync.clash is not None:
            at = next((i for i, p in enumerate(sync.pending)
                       if p.change.id == sync.clash.change), 0)
            diverged_from = at if diverged_from is None else min(at, diverged_from)
            sync.clash = None
        diverged = False
        kept: list[Pending] = []
        for at, entry in enumerate(sync.pending):
            if diverged_from is not None and at >= diverged_from:
                diverged = True
            if isinstance(entry.change.kind, Create | NextGame):
                kept.append(entry)  # answered: the confirmed record is the game it made
                continue
            if entry.applied is not None:  # in the server's game already, never judged
                record = _applied_to(record, entry, self.now(), self.label)
                kept.append(entry)
                continue
            if sync.clash is not None:
                kept.append(entry)  # waits for the player's choice
                continue
            if not diverged and entry.change.base == record["revision"]:
                after = _apply(record, entry, self.now(), self.label)
                if after is not None:
                    record = after
                    kept.append(entry)
                    continue
            diverged = True
            verdict = self._judge(sync, entry, record)
            if isinstance(verdict, Pending):
                verdict = verdict.model_copy(update={"change": verdict.change.model_copy(
                    update={"base": record["revision"]})})
                after = _apply(record, verdict, self.now(), self.label)
                if after is None:  # the rules refuse it where it now goes
                    self._refuse_here(entry, record, verdict)
                    continue
                record = after
                self._forget_sent(entry)
                kept.append(verdict)
            elif isinstance(verdict, SyncClash):
                sync.clash = verdict
                kept.append(entry)
            else:
                self._forget_sent(entry)
                self._notice(entry, *verdict)
        sync.pending = kept
        self._changed(key)

    def _judge(self, sync: GameSync, entry: Pending, record: Record
               ) -> Pending | SyncClash | tuple[str, str]:
        """A waiting change made on another revision, against the game as it stands: made
        again here (a new Pending), a clash, or dropped (reason, words)."""
        kind = entry.change.kind
        doc = record["doc"]
        hands: list[Any] = doc.get("hands", [])
        if isinstance(kind, AddHand | ReplaceHand):
            try:
                game = parse_game(doc, saved=True)
                mine = parse_hand(kind.hand)
            except TarabishError:
                return Noted.NOT_APPLICABLE, "This hand could not be read: it was not saved."
            number = entry.number or (len(hands) + 1)
            base = None if isinstance(kind, AddHand) else entry.before
            place = DraftPlace(number=number, revision=-1, base=base)
            found = assess_hand(place, mine, game, record["revision"])
            if found.clash is Place.SAME:
                return Noted.ALREADY, (f"Hand {number} was already recorded by another "
                                       "phone, exactly as you entered it: the sheet has it "
                                       "once.")
            if found.clash is Place.ELSEWHERE:
                return entry.model_copy(update={"change": self._again(entry, kind)})
            return SyncClash(change=entry.change.id, situation=found,
                             is_new=isinstance(kind, AddHand),
                             choices=_choices(found, isinstance(kind, AddHand), game))
        if isinstance(kind, Undo):
            n = entry.number or 0
            if len(hands) == n and entry.before is not None and hands[-1] == entry.before:
                return entry.model_copy(update={"change": self._again(entry, kind)})
            if len(hands) < n:
                return Noted.ALREADY, f"Hand {n} was already undone on another phone."
            return Noted.NOT_APPLICABLE, (f"Hand {n} was not undone: the game changed on "
                                          "another phone meanwhile.")
        if isinstance(kind, Redo):
            n = entry.number or 0
            if len(hands) >= n and hands[n - 1] == entry.before:
                return Noted.ALREADY, f"Hand {n} was already put back on another phone."
            if len(hands) == n - 1:
                return entry.model_copy(update={"change": self._again(entry, kind)})
            return Noted.NOT_APPLICABLE, (f"Hand {n} was not put back: the game changed on "
                                          "another phone meanwhile.")
        if isinstance(kind, Details):
            before = entry.before or {}
            theirs = header_of(doc)
            ours = {k: v for k, v in header_of({**before, **kind.doc}).items()
                    if before.get(k) != v}
            if all(theirs.get(k) == v for k, v in ours.items()):
                return Noted.ALREADY, "The game's details were already changed the same way."
            if all(theirs.get(k) == before.get(k) for k in ours):
                merged = Details(doc={**{k: v for k, v in doc.items() if k != "hands"},
                                      **ours})
                return entry.model_copy(update={"change": self._again(entry, merged),
                                                "before": theirs})
            return Noted.NOT_APPLICABLE, ("The game's details were changed on another phone "
                                          "meanwhile: yours were not saved.")
        return Noted.NOT_APPLICABLE, "This change no longer fits the game."

    def _refuse_here(self, entry: Pending, record: Record, verdict: Pending) -> None:
        try:
            apply_edit(record, _edit(verdict), self.now(), self.label)
            words = "This change no longer fits the game."
        except StoreError as exc:
            words = str(exc)
        self._forget_sent(entry)
        self._notice(entry, Reason.INVALID, words)

    def _again(self, entry: Pending, kind: Any) -> Change:
        """The change made again (a new id: the old one may still reach the server,
        where its old revision refuses it)."""
        return Change(id=self.new_id(), game=entry.change.game, base=0, at=entry.change.at,
                      kind=kind)

    def _forget_sent(self, entry: Pending) -> None:
        self._answered(entry.change.id)

    # -- what goes out ------------------------------------------------------------------

    def _hello(self) -> Hello:
        games = [g for g in self.games.values()
                 if g.server_id is not None and g.confirmed is not None and g.gone is None]
        games.sort(key=lambda g: not g.pending)  # games with changes waiting first
        limit = min(self.limits.max_watched, MAX_WATCHED)
        return Hello(protocol=PROTOCOL, rules=self.rules, device=self.device,
                     games=tuple(Known(game=g.key, revision=g.confirmed["revision"])
                                 for g in games[:limit] if g.confirmed is not None))

    def _next_push(self) -> Push | None:
        """The next changes to send: each game's waiting changes in order, up to a clash,
        a game not started on the server yet, or the bounds."""
        changes: list[Change] = []
        size = 200
        for sync in self.games.values():
            if sync.gone is not None:
                continue
            for entry in sync.pending:
                if entry.applied is not None:
                    continue
                if sync.clash is not None and entry.change.id == sync.clash.change:
                    break
                started = isinstance(entry.change.kind, Create | NextGame)
                if not started and sync.server_id is None:
                    break  # its game's start is not answered yet
                change = entry.change
                length = len(encode(change)) + 1
                if length + 200 > self.limits.max_message_bytes:
                    self._too_big(sync, entry)
                    return self._next_push()
                if (len(changes) >= self.limits.max_push
                        or size + length > self.limits.max_message_bytes):
                    break
                changes.append(change)
                size += length
            if len(changes) >= self.limits.max_push:
                break
        return Push(changes=tuple(changes)) if changes else None

    def _too_big(self, sync: GameSync, entry: Pending) -> None:
        at = sync.pending.index(entry)
        del sync.pending[at]
        self._notice(entry, Reason.TOO_BIG, "This change is too big to send.")
        self._settle(sync.key, diverged_from=at)

    # -- keeping -----------------------------------------------------------------------

    def _room(self) -> None:
        limit = min(self.limits.max_pending, MAX_PENDING)
        if self.waiting() >= limit:
            raise OutboxFull(limit)

    def _start(self, kind: Create | NextGame, origin: str, base: int = 0) -> str:
        self._room()
        start_record(kind, origin, self.now(), self.label)  # raises InvalidGame
        change = Change(id=self.new_id(), game=origin, base=base, at=self.now(), kind=kind)
        self.games[origin] = GameSync(key=origin, origin=origin,
                                      pending=[Pending(change=change, first=change.id)])
        self._changed(origin)
        return origin

    def _view_record(self, key: str) -> Record | None:
        sync = self.games.get(key)
        if sync is None:
            return None
        record = sync.confirmed
        for entry in sync.pending:
            if sync.clash is not None and entry.change.id == sync.clash.change:
                break
            kind = entry.change.kind
            if isinstance(kind, Create | NextGame):
                if record is None:
                    record = start_record(kind, key, entry.change.at, self.label)
                continue
            if record is None:
                break
            if entry.applied is not None:
                record = _applied_to(record, entry, entry.change.at, self.label)
                continue
            after = _apply(record, entry, entry.change.at, self.label)
            if after is not None:
                record = after
        return record

    def _build_view(self, key: str) -> StoredGame | None:
        record = self._view_record(key)
        return None if record is None else to_stored(record)

    def _notice(self, entry: Pending, reason: str, words: str) -> None:
        kind = entry.change.kind
        hand = kind.hand if isinstance(kind, AddHand | ReplaceHand) else None
        self._add_notice(Notice(game=entry.change.game, change=entry.first or entry.change.id,
                                reason=str(reason), words=words, kind=kind.kind, hand=hand))

    def _add_notice(self, notice: Notice) -> None:
        self.state.notices = [*self.state.notices, notice][-MAX_NOTICES:]
        self._keep_client()

    def _changed(self, key: str) -> None:
        self._views.pop(key, None)
        if key in self.games:
            self._keep(key)

    def _keep(self, key: str) -> None:
        self.keeper.keep(key, self.games[key].model_dump_json())

    def _keep_client(self) -> None:
        self.keeper.keep(_CLIENT_KEY, self.state.model_dump_json())

    def _load(self) -> None:
        for key, text in self.keeper.load().items():
            try:
                if key == _CLIENT_KEY:
                    self.state = ClientState.model_validate_json(text)
                else:
                    sync = GameSync.model_validate_json(text)
                    self.games[sync.key] = sync
            except (ValidationError, ValueError):
                continue  # a damaged entry costs that game's sync state, not the phone's


# -- helpers ---------------------------------------------------------------------------


def _edit(entry: Pending) -> EditKind:
    kind = entry.change.kind
    assert not isinstance(kind, Create | NextGame)
    return kind


def _apply(record: Record, entry: Pending, now: datetime, by: str | None) -> Record | None:
    """The record after a waiting change, or None when the rules refuse it here. A
    change that changes nothing still counts a revision, as the server will not
    (its answer then sets it right)."""
    try:
        after = apply_edit(record, _edit(entry), now, by)
    except (StoreError, TarabishError):
        return None
    if after is None:
        return {**record, "revision": record["revision"] + 1}
    return after


def _applied_to(record: Record, entry: Pending, now: datetime, by: str | None) -> Record:
    after = _apply(record, entry, now, by)
    after = record if after is None else after
    return {**after, "revision": entry.applied}


def _context(kind: EditKind, record: Record) -> tuple[int | None, dict[str, Any] | None]:
    """What the judge of a change needs from the game it was made on."""
    hands: list[Any] = record["doc"].get("hands", [])
    if isinstance(kind, AddHand):
        return len(hands) + 1, None
    if isinstance(kind, ReplaceHand):
        return kind.index + 1, (copy.deepcopy(hands[kind.index])
                                if kind.index < len(hands) else None)
    if isinstance(kind, Undo):
        return len(hands), copy.deepcopy(hands[-1]) if hands else None
    if isinstance(kind, Redo):
        after = apply_edit(record, kind, datetime.now(UTC))
        put = after["doc"]["hands"][-1] if after is not None else None
        return len(hands) + 1, put
    return None, header_of(record["doc"])


def _choices(found: Situation, is_new: bool, game: Any) -> tuple[Choice, ...]:
    """The conflict screen's choices (`views.conflict`): keep theirs, use mine (theirs
    there), record mine as the next hand (a new hand, or an edit whose place is next)."""
    over = replay(game).is_over
    choices = [Choice.KEEP_THEIRS]
    if found.clash is Place.THEIRS and found.mine is not None:
        choices.append(Choice.USE_MINE)
    if not over and found.mine is not None and (
            is_new or (found.clash is Place.GONE and found.next_number == found.number)):
        choices.append(Choice.RECORD_NEXT)
    return tuple(choices)


def _hand_of(entry: Pending) -> dict[str, Any]:
    kind = entry.change.kind
    assert isinstance(kind, AddHand | ReplaceHand)
    return copy.deepcopy(kind.hand)


def _hand_doc(sync: GameSync, index: int) -> dict[str, Any] | None:
    record = sync.confirmed
    hands = [] if record is None else record["doc"].get("hands", [])
    return copy.deepcopy(hands[index]) if index < len(hands) else None


def _shifted(entry: Pending, number: int, by: int) -> Pending:
    """A waiting change made after a hand that moved `by` places from `number`: the
    hands it names from there move too."""
    kind = entry.change.kind
    if by == 0 or entry.number is None or entry.number < number:
        return entry
    if isinstance(kind, ReplaceHand):
        kind = kind.model_copy(update={"index": kind.index + by})
    return entry.model_copy(update={"number": entry.number + by, "change":
                                    entry.change.model_copy(update={"kind": kind})})


def _record_of(state: GameState, origin: str | None) -> Record:
    """The server's record in the store's shape (`scorer.store.records`)."""
    g = state.game
    record: Record = {"schema": GAME_SCHEMA, "id": g.id, "revision": g.revision,
                      "created": g.created.isoformat(), "updated": g.updated.isoformat(),
                      "changes": [], "history": copy.deepcopy(g.history),
                      "doc": copy.deepcopy(g.doc)}
    if g.follows is not None:
        record["follows"] = g.follows
    if origin is not None:
        record["origin"] = origin
    return record


