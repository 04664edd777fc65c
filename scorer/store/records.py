"""The game file: one TinyDB file per game, holding one record.

Layout of `games/<id>.json` (a TinyDB database, written by AtomicJSONStorage):

    {"game": {"1": {"schema": 2, "id": "...", "revision": 7,
                    "created": "<ISO UTC>", "updated": "<ISO UTC>",
                    "changes": [{"revision": 7, "what": "hand 4 was edited"}, ...],
                    "history": [{"revision": 7, "at": "<ISO UTC>", "by": "phone 2",
                                 "change": "edited", "hand": 4,
                                 "before": {<hand>}, "after": {<hand>}}, ...],
                    "follows": "<id>",   (only in a game started with Play again)
                    "origin": "<key>",   (only in a game sent from a phone alone)
                    "synced": [["<change id>", 7, "<device mark>"], ...],
                                         (only in a game changed through sync)
                    "doc": {<the tarabish-game/1 document, without its history>}}}}

`changes` are short notes in player words (why a stale save was refused);
`history` is the game's edit trail (`rules.history`), which an exported game
carries as its `"history"`. The whole record is one TinyDB document so that
every save is exactly one atomic file write: revision, notes, trail and hands
can never disagree.

`follows` names the finished game this one was started from with Play again
(the same table going on: `GameStore.create_next_game`). It belongs to this
server's games, not to the game itself: an exported game does not carry it (an
imported game gets a new id), and older files have none.

`origin` is the random key a phone alone gave the game when it first kept it: a game
sent from that phone (`scorer.web.send`) is stored once, however often it is sent.
Like `follows` it is this store's, not the game's: an export does not carry it.

`synced` holds the last MAX_MARKS changes phones sent through sync (`scorer.sync`):
each change's own id, the revision it made and a short hash of the phone that sent it
(`device_mark`). It is written with the change, in the same atomic write (the same
transaction on a database), so a change sent again after a lost answer, a reconnect or
a server restart is answered with its revision and never applied twice, and an id
sent by another phone is refused (`ChangeReplayed`). Like `origin` it is the store's:
an export does not carry it. Compact rows keep a game of 256 synced changes ~16 KB.
"""

from __future__ import annotations

import copy
import hashlib
import re
import secrets
from collections.abc import MutableMapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.table import Document

from rules.history import MAX_ENTRIES
from scorer.store.atomic_storage import AtomicJSONStorage
from scorer.store.changes import Change
from scorer.store.errors import ChangeReplayed, DamagedFile
from scorer.store.models import GameSummary, StoredGame, SyncedGame, SyncMark
from scorer.store.schema import GAME_SCHEMA, upgrade_game_record
from scorer.store.validation import Scoring, check_doc

TABLE = "game"
DOC_ID = 1
_GAME_ID = re.compile(r"^[0-9a-f]{8}$")
ORIGIN = re.compile(r"^[0-9a-f]{32}$")
"""A phone's key for one game: 128 random bits in hex (`new_origin`)."""
MAX_CHANGES = 50  # enough to explain any stale edit; bounded so files stay small
MAX_MARKS = 256
"""Changes sent through sync a record remembers by id (`synced`): far more than a phone
can have waiting (`scorer.sync.limits`), so a retry is always recognised."""
_CHANGE_ID = re.compile(r"^[0-9a-f]{32}$")


def utcnow() -> datetime:
    return datetime.now(UTC)


def _open(path: Path) -> TinyDB:
    # AtomicJSONStorage holds no handle, so a short-lived TinyDB per call is cheap.
    return TinyDB(path, storage=AtomicJSONStorage)


def read_record(path: Path) -> dict[str, Any]:
    """The record in `path`, in the current schema.

    Raises FileNotFoundError, DamagedFile (does not parse, or is not a game)
    or NewerSchema.
    """
    if not path.exists():
        raise FileNotFoundError(path)
    raw = _open(path).table(TABLE).get(doc_id=DOC_ID)
    if not isinstance(raw, dict):
        if not path.exists():
            raise FileNotFoundError(path)
        raise DamagedFile(str(path), "it holds no game")
    record = upgrade_game_record(dict(raw), str(path))
    problem = _record_problem(record)
    if problem:
        raise DamagedFile(str(path), problem)
    return record


def checked_record(raw: Any, where: str) -> dict[str, Any]:
    """A record read from anywhere (a database row), in the current schema; raises
    DamagedFile or NewerSchema, naming `where`, as `read_record` does for a file."""
    if not isinstance(raw, dict):
        raise DamagedFile(where, "it holds no game")
    record = upgrade_game_record(dict(raw), where)
    problem = _record_problem(record)
    if problem:
        raise DamagedFile(where, problem)
    return record


def _record_problem(r: dict[str, Any]) -> str | None:
    if not isinstance(r.get("id"), str):
        return "it has no game id"
    rev = r.get("revision")
    if not isinstance(rev, int) or isinstance(rev, bool) or rev < 1:
        return "it has no revision number"
    for key in ("created", "updated"):
        try:
            datetime.fromisoformat(r[key])
        except (KeyError, TypeError, ValueError):
            return f"its {key} time is missing"
    doc = r.get("doc")
    if not isinstance(doc, dict):
        return "it holds no game document"
    players = doc.get("players")
    if not (isinstance(players, list) and len(players) == 4
            and all(isinstance(p, str) for p in players)):
        return "its game has no four players"
    if not isinstance(doc.get("hands", []), list):
        return "its hands are not a list"
    if not isinstance(r.get("changes", []), list):
        return "its change notes are not a list"
    history = r.get("history", [])
    if not (isinstance(history, list) and all(isinstance(e, dict) for e in history)):
        return "its edit history is not a list"
    return None


def write_record(path: Path, record: dict[str, Any], *, create: bool) -> None:
    """Save `record` durably: when this returns, the change survives a crash.

    Raises FileNotFoundError when updating a game whose file is gone.
    """
    table = _open(path).table(TABLE)
    if create:
        table.insert(Document(record, doc_id=DOC_ID))
        return

    def replace(doc: MutableMapping[Any, Any]) -> None:
        doc.clear()
        doc.update(record)

    try:
        table.update(replace, doc_ids=[DOC_ID])
    except KeyError:  # the file vanished since it was read (deleted by another process)
        raise FileNotFoundError(path) from None


def new_record(game_id: str, doc: dict[str, Any], now: datetime, *,
               history: list[dict[str, Any]] | None = None,
               by: str | None = None, follows: str | None = None,
               origin: str | None = None, phone_at: datetime | None = None,
               ) -> dict[str, Any]:
    """A new game's record. A game read from a file keeps the trail it came with (and
    its revision goes on from the trail's last); a new one starts its trail here
    (`phone_at`: when the phone started it, by its clock)."""
    stamp = now.isoformat()
    if history is None:
        history = [_entry({"change": "started"}, 1, stamp, by, phone_at)]
    revision = max([1, *(e["revision"] for e in history)])
    created, updated = trail_times(history, now)
    record = {
        "schema": GAME_SCHEMA,
        "id": game_id,
        "revision": revision,
        "created": created.isoformat(),
        "updated": updated.isoformat(),
        "changes": [{"revision": revision, "what": "the game was started"}],
        "history": history[-MAX_ENTRIES:],
        "doc": doc,
    }
    if follows is not None:
        record["follows"] = follows
    if origin is not None:
        record["origin"] = origin
    return record


PLAYED = frozenset({"added", "edited", "undone", "redone"})
"""The changes of a trail that are play at the table (not a renamed player)."""


def trail_times(history: list[dict[str, Any]], now: datetime) -> tuple[datetime, datetime]:
    """When a game read from a file was started and last played, by its trail: an
    imported game is as old as its hands, not its import. The first entry is the
    start (or the oldest change known); the last change to a hand is the last play.
    A time missing, unreadable, without its zone or still to come counts as `now`."""

    def at(entry: dict[str, Any]) -> datetime:
        try:
            when = datetime.fromisoformat(str(entry.get("at")))
        except ValueError:
            return now
        return when if when.tzinfo is not None and when <= now else now

    if not history:
        return now, now
    played = [e for e in history if e.get("change") in PLAYED] or history
    started, last = at(history[0]), at(played[-1])
    return min(started, last), last


def next_record(
    record: dict[str, Any], doc: dict[str, Any], what: str, now: datetime,
    entry: dict[str, Any] | None = None, by: str | None = None,
    phone_at: datetime | None = None,
) -> dict[str, Any]:
    """The record after one more change to the game; `entry` (its `change` and what it
    names) goes into the trail with the revision, the time, `by` and `phone_at` (when
    the phone made it, by its own clock: a change sent through sync)."""
    revision = record["revision"] + 1
    stamp = now.isoformat()
    changes = [*record.get("changes", []), {"revision": revision, "what": what}]
    history = list(record.get("history", []))
    if entry is not None:
        history.append(_entry(entry, revision, stamp, by, phone_at))
    return {
        **record,
        "schema": GAME_SCHEMA,
        "revision": revision,
        "updated": stamp,
        "changes": changes[-MAX_CHANGES:],
        "history": history[-MAX_ENTRIES:],
        "doc": doc,
    }


def _entry(entry: dict[str, Any], revision: int, stamp: str, by: str | None,
           phone_at: datetime | None = None) -> dict[str, Any]:
    made = {"revision": revision, "at": stamp, **entry}
    if by:
        made["by"] = by
    if phone_at is not None:
        made["phone_at"] = phone_at.isoformat()
    return made


def changes_since(record: dict[str, Any], revision: int) -> list[str]:
    """What happened to the game after `revision`, in order, in player words."""
    later = [c for c in record.get("changes", []) if c.get("revision", 0) > revision]
    kept = record.get("changes", [])
    first_kept = kept[0]["revision"] if kept else record["revision"] + 1
    missing = min(first_kept - 1, record["revision"]) - revision
    notes = [str(c.get("what", "it was changed")) for c in later]
    if missing > 0:
        notes.insert(0, f"{missing} earlier change{'s were' if missing > 1 else ' was'} made")
    return notes


def to_stored(record: dict[str, Any]) -> StoredGame:
    return StoredGame(
        id=record["id"],
        revision=record["revision"],
        created=datetime.fromisoformat(record["created"]),
        updated=datetime.fromisoformat(record["updated"]),
        doc=copy.deepcopy(record["doc"]),
        history=copy.deepcopy(record.get("history", [])),
        follows=followed(record),
        origin=origin_of(record),
    )


def followed(record: dict[str, Any]) -> str | None:
    """The id of the game the record's game followed; None for none, or for a value
    that names no game (a hand-edited file keeps its game, not the link)."""
    follows = record.get("follows")
    return follows if isinstance(follows, str) and _GAME_ID.match(follows) else None


def new_origin() -> str:
    """A fresh key for a game a phone alone keeps."""
    return secrets.token_hex(16)


def origin_of(record: dict[str, Any]) -> str | None:
    """The key of the phone alone the game was sent from; None for none or a bad value."""
    origin = record.get("origin")
    return origin if isinstance(origin, str) and ORIGIN.match(origin) else None


def team_names(doc: dict[str, Any]) -> tuple[str, str]:
    teams = doc.get("teams")
    if isinstance(teams, list) and len(teams) == 2 and all(isinstance(t, str) for t in teams):
        return teams[0], teams[1]
    p = doc["players"]
    return f"{p[0]} & {p[2]}", f"{p[1]} & {p[3]}"


def summarize(record: dict[str, Any], scoring: Scoring) -> GameSummary:
    doc = record["doc"]
    invalid_from = scoring.invalid_from
    if invalid_from is None and scoring.error is not None:
        invalid_from = 0  # the header itself is refused: no hand can be trusted
    p = doc["players"]
    return GameSummary(
        id=record["id"],
        revision=record["revision"],
        players=(p[0], p[1], p[2], p[3]),
        teams=team_names(doc),
        created=datetime.fromisoformat(record["created"]),
        updated=datetime.fromisoformat(record["updated"]),
        hand_count=len(doc.get("hands", [])),
        totals=scoring.totals,
        winner=scoring.winner,
        finished=scoring.winner is not None,
        invalid_from=invalid_from,
        follows=followed(record),
        origin=origin_of(record),
    )


# -- changes sent through sync --------------------------------------------------------


def device_mark(token: str) -> str:
    """What a record keeps of the phone that sent a change: 64 bits of its token's
    SHA-256 (enough to tell a table's phones apart; never the token itself)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()[:16]


def marks_of(record: dict[str, Any]) -> tuple[SyncMark, ...]:
    """The synced changes a record keeps, oldest first; rows that do not read (a
    hand-edited file) are skipped: they only cost a retry its recognition."""
    marks = []
    for row in record.get("synced", []) if isinstance(record.get("synced"), list) else []:
        if (isinstance(row, list) and len(row) == 3 and isinstance(row[0], str)
                and isinstance(row[1], int) and isinstance(row[2], str)):
            marks.append(SyncMark(change=row[0], revision=row[1], device=row[2]))
    return tuple(marks)


def to_synced(record: dict[str, Any], *, already: bool = False,
              next_game: str | None = None) -> SyncedGame:
    return SyncedGame(game=to_stored(record), marks=marks_of(record), already=already,
                      next=next_game)


def known_change(record: dict[str, Any], change_id: str, device: str) -> bool:
    """Whether the record holds the change `change_id` (True: sent again, answer it);
    raises ChangeReplayed when another phone (by `device_mark`) sent that id."""
    if not _CHANGE_ID.match(change_id):
        raise ChangeReplayed(change_id)  # never stored: no phone makes such an id
    for mark in marks_of(record):
        if mark.change == change_id:
            if mark.device != device:
                raise ChangeReplayed(change_id)
            return True
    return False


def with_mark(record: dict[str, Any], change_id: str, device: str) -> dict[str, Any]:
    """The record with its latest revision marked as made by the synced `change_id`."""
    kept = record.get("synced")
    rows: list[Any] = list(kept) if isinstance(kept, list) else []
    rows.append([change_id, record["revision"], device])
    return {**record, "synced": rows[-MAX_MARKS:]}


def changed_record(record: dict[str, Any], change: Change, now: datetime,
                   by: str | None = None, phone_at: datetime | None = None,
                   ) -> tuple[dict[str, Any], Scoring] | None:
    """The record after `change` (`scorer.store.changes`), checked by the rules engine
    (raises InvalidGame / HandNotFound), with its scoring; None when the change leaves
    the game as it was (nothing to save). What both stores do under their lock or
    transaction, and what a phone does to its own copy (`scorer.sync`)."""
    trail = copy.deepcopy(record.get("history", []))
    doc, allow_invalid_after, what, entry = change(copy.deepcopy(record["doc"]), trail)
    if doc == record["doc"]:
        return None
    scoring = check_doc(doc, allow_invalid_after=allow_invalid_after)
    return next_record(record, doc, what, now, entry, by, phone_at), scoring
