"""The sync protocol's messages: what a phone and the server say to each other.

Every message is a frozen pydantic model sent as one JSON object whose `type` names
it; a change's `kind` names what it does. Nothing here knows what carries the
messages (a websocket today, phone to phone later) or who keeps the games. The
protocol's version is said once a connection, in `Hello` and `Welcome`: a
connection speaks one version, and a phone of another version (or another rules
engine) is told to `Update`, never left to diverge. docs/SYNC.md is the reference.

Everything a phone sends is untrusted: `decode_client` bounds the size, and the
models bound every field (ids, tokens, lists) before the server reads them.
"""

from __future__ import annotations

import re
from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    model_validator,
)

PROTOCOL = 1
"""This protocol's version; a phone of another version is told to update."""
SYNC_PATH = "/_tarabish/sync"
"""Where a server takes sync connections: a websocket of JSON text frames, one message
each (docs/SYNC.md). Here, so the phone finds it without the server's code."""

MAX_MESSAGE_BYTES = 512 * 1024
"""Longest message a server reads (a game of 1,000 hands is ~250 KB)."""
MAX_PUSH = 32
"""Changes in one Push."""
MAX_WATCHED = 32
"""Games one connection watches at once (a table plays one, a phone keeps a few)."""
MAX_PENDING = 200
"""Changes a phone keeps waiting to be sent, all games together."""

ChangeId = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{32}$")]
"""A change's own id: 128 random bits in hex, made by the phone (`new_change_id`)."""
GameId = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{8}$")]
"""A game's id on the server."""
GameKey = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{32}$")]
"""The key a phone gives a game it starts (the store's `origin`): the game's name on
the phone until the server gives it an id, and what makes a resent start one game."""
DeviceToken = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{16,128}$")]
"""The phone's device token (the one its browser keeps for the table server)."""
Doc = dict[str, Any]
GAME_ID = re.compile(r"[0-9a-f]{8}")
GAME_KEY = re.compile(r"[0-9a-f]{32}")


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# -- what a change does ---------------------------------------------------------------


class AddHand(_Message):
    """Record a hand after the last one."""

    kind: Literal["add_hand"] = "add_hand"
    hand: Doc


class ReplaceHand(_Message):
    """Replace hand `index` (0-based); later hands are scored again."""

    kind: Literal["replace_hand"] = "replace_hand"
    index: int = Field(ge=0, lt=1000)
    hand: Doc


class Undo(_Message):
    """Remove the last hand (kept in the trail)."""

    kind: Literal["undo"] = "undo"


class Redo(_Message):
    """Put back the last hand undone."""

    kind: Literal["redo"] = "redo"


class Details(_Message):
    """Change the game's details (names, house rules, first dealer): `doc` without hands,
    or with exactly the saved ones."""

    kind: Literal["details"] = "details"
    doc: Doc


class Create(_Message):
    """A game started on the phone (a tarabish-game/1 document, its trail if it has one),
    stored once by its key however often it is sent; the phone that sent it holds it."""

    kind: Literal["create"] = "create"
    doc: Doc
    origin: GameKey


class NextGame(_Message):
    """Play again after the finished game `follows`, as the phone saw it (the change's
    `base`): one finished game has one next game, whichever phone starts it."""

    kind: Literal["next_game"] = "next_game"
    follows: GameId
    doc: Doc
    origin: GameKey


Edit = AddHand | ReplaceHand | Undo | Redo | Details
"""The kinds that change a game the server has."""
Start = Create | NextGame
"""The kinds that start a game."""
Kind = Annotated[AddHand | ReplaceHand | Undo | Redo | Details | Create | NextGame,
                 Field(discriminator="kind")]


class Change(_Message):
    """One change a phone made: its own id, the game, the revision it was made on, the
    phone's time, and what it does. Applied once whatever the retries (by `id`), and
    only on the revision it was made on (`base`)."""

    id: ChangeId
    game: str = Field(max_length=32)
    """The game's id; for a Create or NextGame, the new game's key (its `origin`). On the
    phone, a change to a game the server has not answered for yet names its key (it is
    renamed before it is sent; a server refuses it as an unknown game)."""
    base: int = Field(ge=0, le=10**9)
    """The game's revision the change was made on (Create: 0; NextGame: the finished
    game's)."""
    at: AwareDatetime
    """When the phone made it, by the phone's clock (shown beside the server's)."""
    kind: Kind

    @model_validator(mode="after")
    def _names_its_game(self) -> Change:
        if isinstance(self.kind, Create | NextGame):
            if self.game != self.kind.origin:
                raise ValueError("a new game's change names the game by its key")
        elif not (GAME_ID.fullmatch(self.game) or GAME_KEY.fullmatch(self.game)):
            raise ValueError("not a game id")
        return self


# -- phone -> server ------------------------------------------------------------------


class Known(_Message):
    """A game the phone keeps, at the revision the server last confirmed to it."""

    game: GameId
    revision: int = Field(ge=1, le=10**9)


class Hello(_Message):
    """First message of a connection: who the phone is and what it keeps. The server
    answers Welcome (then a GameState for each game that moved, Gone for each it does
    not have; the games are watched), or Update."""

    type: Literal["hello"] = "hello"
    protocol: int
    rules: str = Field(max_length=64)
    """The phone's `kinds.sync_fingerprint()`: its rules engine and change kinds."""
    device: DeviceToken
    games: tuple[Known, ...] = Field(default=(), max_length=MAX_WATCHED)


class Watch(_Message):
    """Follow a game's changes; `revision` is what the phone has (None: nothing)."""

    type: Literal["watch"] = "watch"
    game: GameId
    revision: int | None = Field(default=None, ge=1, le=10**9)


class Unwatch(_Message):
    type: Literal["unwatch"] = "unwatch"
    game: GameId


class Push(_Message):
    """Changes to apply, in order: each is answered Applied or Refused, in order."""

    type: Literal["push"] = "push"
    changes: tuple[Change, ...] = Field(min_length=1)


class Claim(_Message):
    """The table code typed for a game: right, the phone holds the game (GameState)."""

    type: Literal["claim"] = "claim"
    game: GameId
    code: str = Field(max_length=32)


class Ping(_Message):
    type: Literal["ping"] = "ping"
    n: int = Field(default=0, ge=0, le=2**31)


ClientMessage = Annotated[Hello | Watch | Unwatch | Push | Claim | Ping,
                          Field(discriminator="type")]


# -- server -> phone ------------------------------------------------------------------


class Limits(_Message):
    """The server's bounds, told in Welcome (a phone stays under them)."""

    max_message_bytes: int = MAX_MESSAGE_BYTES
    max_push: int = MAX_PUSH
    max_watched: int = MAX_WATCHED
    max_pending: int = MAX_PENDING


class Welcome(_Message):
    type: Literal["welcome"] = "welcome"
    protocol: int = PROTOCOL
    rules: str
    limits: Limits = Limits()
    time: AwareDatetime
    """The server's clock (a phone may show how far its own is off)."""


class GameRecord(_Message):
    """A game as the server keeps it: its document (hands included), edit trail,
    times and the game it followed. Never the phone's key (`origin`): that is the
    starting phone's alone."""

    id: GameId
    revision: int
    created: datetime
    updated: datetime
    doc: Doc
    history: list[Doc] = []
    follows: str | None = None


class AppliedMark(_Message):
    """A change sent through sync that made `revision` (so a phone whose answer was
    lost knows its change is in)."""

    change: ChangeId
    revision: int


class GameState(_Message):
    """A game's whole record at a revision, as this phone may see it: whether it holds
    the game (and then its table code), the changes sent through sync since the
    revision the phone had (`applied`), and the game started after it (Play again)."""

    type: Literal["game"] = "game"
    game: GameRecord
    holds: bool
    code: str | None = None
    applied: tuple[AppliedMark, ...] = ()
    next: GameId | None = None


class Applied(_Message):
    """The change is saved: it made `revision` of `game` (a start: the server's id of the
    new game; `made` False: another phone had started that game first)."""

    type: Literal["applied"] = "applied"
    change: ChangeId
    game: GameId
    revision: int
    made: bool = True


class Reason(StrEnum):
    """Why a change (or a claim) was refused: a closed set."""

    STALE = "stale"
    """Made on an older revision (or after a change of its game refused in the same
    push): nothing stored; `state` is the game now."""
    NOT_ALLOWED = "not_allowed"
    """This phone does not hold the game (no table code), or the code is wrong."""
    INVALID = "invalid"
    """The rules engine refuses it (or the hand it names is not there)."""
    UNKNOWN_GAME = "unknown_game"
    DUPLICATE_FROM_ANOTHER_PHONE = "duplicate_from_another_phone"
    """Its id (or its new game's key) was sent by another phone."""
    TOO_MANY = "too_many"
    """A brake: too many changes, new games or wrong codes; try again after
    `retry_after`."""
    BUSY = "busy"
    """The server cannot save just now (disk full, database away): try again later."""
    TOO_BIG = "too_big"


TRANSIENT = frozenset({Reason.TOO_MANY, Reason.BUSY})
"""Refusals that pass: the change waits and is sent again (after `retry_after`)."""


class Refused(_Message):
    """A change (or a claim: `change` None) was not applied; `words` say why in a
    player's words; `state` is the game now when it helps."""

    type: Literal["refused"] = "refused"
    change: ChangeId | None = None
    game: str | None = None
    reason: Reason
    words: str
    retry_after: float | None = None
    state: GameState | None = None


class Gone(_Message):
    """The server has no such game (never had it, deleted, or unreadable)."""

    type: Literal["gone"] = "gone"
    game: str
    words: str


class Update(_Message):
    """The phone's app speaks another protocol or rules engine: reload it from the
    server (its service worker's update). Nothing is stored meanwhile; the
    connection ends."""

    type: Literal["update"] = "update"
    protocol: int = PROTOCOL
    rules: str
    words: str = ("This app is out of date for the table server: reload it. Nothing "
                  "recorded on this phone is lost.")


class Problem(StrEnum):
    MALFORMED = "malformed"
    TOO_BIG = "too_big"
    TOO_MANY = "too_many"
    HELLO_FIRST = "hello_first"
    BUSY = "busy"


class Error(_Message):
    """A message the server could not take (malformed, too big, out of turn); `fatal`:
    the connection ends. Nothing was stored."""

    type: Literal["error"] = "error"
    problem: Problem
    words: str
    fatal: bool = False


class Pong(_Message):
    type: Literal["pong"] = "pong"
    n: int = 0


ServerMessage = Annotated[Welcome | GameState | Applied | Refused | Gone | Update | Error
                          | Pong, Field(discriminator="type")]

_CLIENT: TypeAdapter[Hello | Watch | Unwatch | Push | Claim | Ping] = TypeAdapter(
    ClientMessage)
_SERVER: TypeAdapter[Welcome | GameState | Applied | Refused | Gone | Update | Error | Pong] = (
    TypeAdapter(ServerMessage))

class ProtocolError(ValueError):
    """A message that cannot be read; `problem` says which way, str() in player words."""

    def __init__(self, problem: Problem, words: str) -> None:
        super().__init__(words)
        self.problem = problem


def encode(message: BaseModel) -> str:
    """A message as sent: compact JSON, fields left at None omitted."""
    return message.model_dump_json(exclude_none=True)


def decode_client(raw: str | bytes, max_bytes: int = MAX_MESSAGE_BYTES
                  ) -> Hello | Watch | Unwatch | Push | Claim | Ping:
    """A phone's message; raises ProtocolError (too big, not JSON, not a message)."""
    if len(raw) > max_bytes:
        raise ProtocolError(Problem.TOO_BIG, f"A message may hold {max_bytes // 1024} KB "
                                             "at most: nothing was stored.")
    try:
        return _CLIENT.validate_json(raw)
    except (ValidationError, ValueError, RecursionError) as exc:
        raise ProtocolError(Problem.MALFORMED, "A message could not be read: nothing was "
                                               "stored.") from exc


def decode_server(raw: str | bytes
                  ) -> Welcome | GameState | Applied | Refused | Gone | Update | Error | Pong:
    """A server's message; raises ProtocolError when it cannot be read."""
    try:
        return _SERVER.validate_json(raw)
    except (ValidationError, ValueError, RecursionError) as exc:
        raise ProtocolError(Problem.MALFORMED, "The server's message could not be read."
                            ) from exc
