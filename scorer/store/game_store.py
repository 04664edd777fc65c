"""The game store: every game in its own crash-safe TinyDB file, plus a game list.

    DATA/games/<id>.json   one game (see records.py), rewritten whole by each save
    DATA/index.json        the game list, a self-checking cache (see index.py)
    DATA/damaged/          files that could not be read, kept with a time stamp

A save reads and rewrites only its own game's file, so its cost does not grow
with the number of games stored. Every mutating call returns only after the
change is on disk (file and folder fsynced).

Thread safety: one process serves every phone at the table. Each game has its
own lock (saves to different games run side by side; saves to one game queue
up, each seeing the one before), and a store lock guards the game list. Lock
order is always game lock, then store lock.

Processes: a store opened for writing holds the data folder's lock
(folder_lock.py), so a second server, or `tarabish import` while a server
runs, is refused (FolderBusy) instead of overwriting what the first one
saves. A store opened `read_only` (`games`, `export`) takes no lock and never
writes: it works beside a running server, on a full disk and in a read-only
folder; the game list notices files changed by the writer by signature.

Full disk, read-only folder: reading never needs to write. The game list file
is only a cache and unreadable files are only moved aside when the folder
allows it. A save that cannot be written raises NotSaved ("The disk is full:
nothing was saved.") and leaves every file as it was.
"""

from __future__ import annotations

import contextlib
import copy
import logging
import os
import re
import secrets
import threading
from collections.abc import Callable, Collection, Iterator
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from scorer.store import changes, folder_lock
from scorer.store.atomic_storage import (
    fsync_dir,
    move_aside,
    remove_stale_temp_files,
)
from scorer.store.changes import Change
from scorer.store.errors import (
    DamagedFile,
    GameDamaged,
    GameNotFound,
    InvalidGame,
    NewerSchema,
    NextGameExists,
    NotSaved,
    StaleRevision,
    StoreError,
    not_saved,
)
from scorer.store.index import GameIndex, Signature, file_signature
from scorer.store.models import GameSummary, StoredGame, SyncedGame
from scorer.store.ports import GamesPort
from scorer.store.records import (
    ORIGIN,
    changed_record,
    changes_since,
    known_change,
    new_record,
    read_record,
    summarize,
    to_stored,
    to_synced,
    utcnow,
    with_mark,
    write_record,
)
from scorer.store.validation import Scoring, check_doc, score_doc, scoring_fingerprint

logger = logging.getLogger(__name__)

_ID_RE = re.compile(r"^[0-9a-f]{8}$")

class GameStore(GamesPort):
    """All saved games in `data_dir` (the games port's folder adapter). See the module
    docstring for the layout."""

    def __init__(self, data_dir: Path, *, read_only: bool = False,
                 on_problem: Callable[[str], None] | None = None) -> None:
        """Open the games in `data_dir`.

        For writing (the default) this takes the folder's lock (raises
        FolderBusy while another process writes there, OSError if the folder
        cannot be made). `read_only` takes no lock and writes nothing.
        """
        self.data_dir = Path(data_dir)
        self.games_dir = self.data_dir / "games"
        self.damaged_dir = self.data_dir / "damaged"
        self.read_only = read_only
        # Files moved aside (or skipped) since start-up: `problems` names them by
        # full path (the CLI prints these, `on_problem` gets each one: the server
        # logs it); `notices` says the same in player words with no server path
        # (every phone sees them).
        self.problems: list[str] = []
        self.notices: list[str] = []
        self.on_problem = on_problem
        self._lock = threading.RLock()
        self._origin_lock = threading.Lock()
        # Locks of the games being read or changed now, dropped when the last user
        # lets go: every guest can ask for any id, so a table per id ever asked
        # would grow without end.
        self._game_locks: dict[str, _GameLock] = {}
        self._reported: set[str] = set()
        # Game files that do not parse and could not be moved aside, by the
        # signature they had: not read again until they change.
        self._unreadable: dict[str, Signature] = {}
        self._lease: folder_lock.FolderLease | None = None
        if not read_only:
            self._lease = folder_lock.acquire(self.data_dir)
            self.games_dir.mkdir(parents=True, exist_ok=True)
            remove_stale_temp_files(self.games_dir)
            remove_stale_temp_files(self.data_dir)
        self._index = GameIndex(self.data_dir / "index.json", scoring_fingerprint())
        with self._lock:
            self._load_index()
            self._refresh()
            self._save_index()

    # -- reading ---------------------------------------------------------

    def get_game(self, game_id: str) -> StoredGame:
        """The game as saved now; raises GameNotFound (or GameDamaged, its subclass)."""
        with self._game_lock(game_id):
            return to_stored(self._read(game_id))

    def list_games(self) -> list[GameSummary]:
        """Every game, newest activity first. Reads only game files changed behind our back."""
        with self._lock:
            self._refresh()
            rows = [row.summary for row in self._index.rows.values()]
        rows.sort(key=lambda s: (s.updated, s.id), reverse=True)
        return rows

    def list_games_in(self, game_ids: Collection[str]) -> list[GameSummary]:
        """The games among `game_ids` (those that exist), newest activity first: what
        one phone may see on a community (`scorer.app.game_sight`)."""
        wanted = set(game_ids)
        if not wanted:
            return []
        with self._lock:
            self._refresh()
            rows = [row.summary for gid, row in self._index.rows.items() if gid in wanted]
        rows.sort(key=lambda s: (s.updated, s.id), reverse=True)
        return rows

    def next_game(self, game_id: str) -> str | None:
        """The game started from this one with Play again (`create_next_game`), or None.
        Read from the games' own `follows` (via the game list), so every phone, and a
        restart, finds the same one. The list is not checked against the folder
        first (21 ms over 1,000 games, on every finished sheet drawn): only this
        process, the folder's one writer, makes next games, and it lists each one
        as it saves it."""
        with self._lock:
            after = [row.summary for row in self._index.rows.values()
                     if row.summary.follows == game_id]
        return min(after, key=lambda s: (s.created, s.id)).id if after else None

    def find_games(self, prefix: str) -> list[str]:
        """Ids of the games whose id starts with `prefix` (lets people type a short id)."""
        prefix = prefix.strip().lower()
        with self._lock:
            self._refresh()
            return sorted(g for g in self._index.rows if g.startswith(prefix))

    # -- changing --------------------------------------------------------

    def create_game(self, doc: dict[str, Any], by: str | None = None,
                    follows: str | None = None, origin: str | None = None,
                    phone_at: datetime | None = None) -> StoredGame:
        """Save a new game (a tarabish-game/1 document, all hands valid, its edit trail
        true if it has one); returns it with its id. `by` names the phone for the trail;
        `follows` the game it was started from (use `create_next_game` for that);
        `origin` the key a phone alone gave it (`records.ORIGIN`): if a game with that
        key is stored, that game is returned and nothing is saved. The origin lock is
        held from the lookup to the save, so two sends at once make one game."""
        if origin is None:
            return self._create(doc, by, follows, None, phone_at)
        if not ORIGIN.match(origin):
            raise InvalidGame("The game's key from the phone is not valid.")
        with self._origin_lock:  # taken before any game or store lock
            with self._lock:
                made = next((gid for gid, row in self._index.rows.items()
                             if row.summary.origin == origin), None)
            if made is not None:
                return self.get_game(made)
            return self._create(doc, by, follows, origin, phone_at)

    def _create(self, doc: dict[str, Any], by: str | None, follows: str | None,
                origin: str | None, phone_at: datetime | None = None) -> StoredGame:
        doc = copy.deepcopy(doc)
        doc.setdefault("hands", [])
        scoring = check_doc(doc)
        # A file's trail goes on; a game read with hands and no trail has none before now.
        history = doc.pop("history", None if not doc["hands"] else [])
        self._writer()
        with self._lock:
            game_id = secrets.token_hex(4)
            while game_id in self._game_locks or self._path(game_id).exists():
                game_id = secrets.token_hex(4)
            held = self._use_lock(game_id)
        with self._holding(game_id, held):
            record = new_record(game_id, doc, utcnow(), history=history, by=by,
                                follows=follows, origin=origin, phone_at=phone_at)
            try:
                write_record(self._path(game_id), record, create=True)
            except OSError as e:
                raise not_saved(e) from e
            finally:
                self._wrote()
            self._saved(record, scoring)
            return to_stored(record)

    def create_next_game(self, follows: str, doc: dict[str, Any], expected_revision: int,
                         by: str | None = None, origin: str | None = None,
                         phone_at: datetime | None = None) -> StoredGame:
        """Play again: save the game that follows `follows`, as the phone saw it at
        `expected_revision`. One finished game has one next game: if another phone
        made it first, raises NextGameExists (naming it); if the game changed since
        the phone saw it (a hand undone), StaleRevision. The finished game's lock
        is held from the check to the save, so two taps at once make one game.
        `origin`: the key the phone gave the game (sync's Play again made on a phone;
        `records.ORIGIN`), kept as `create_game` keeps it."""
        self._writer()
        with self._game_lock(follows):
            record = self._read(follows)
            made = self.next_game(follows)
            if made is not None:
                raise NextGameExists(made)
            if record["revision"] != expected_revision:
                raise StaleRevision(to_stored(record), expected_revision,
                                    changes_since(record, expected_revision))
            if origin is not None and not ORIGIN.match(origin):
                raise InvalidGame("The game's key from the phone is not valid.")
            # Lock order: the new game's lock is fresh, nobody waits on it for this one.
            # Not through create_game's origin lock, taken before any game lock: the
            # one next game is this lock's (a second ask finds it above).
            return self._create(doc, by, follows, origin, phone_at)

    def create_games(self, docs: list[dict[str, Any]]) -> list[StoredGame]:
        """Save several new games, all or none (an import): every document is checked
        first; if one cannot be written, those already written are deleted again."""
        for doc in docs:
            check_doc({"hands": [], **doc})
        made: list[StoredGame] = []
        try:
            for doc in docs:
                made.append(self.create_game(doc))
        except BaseException:
            for game in made:
                with contextlib.suppress(StoreError):
                    self.delete_game(game.id)
            raise
        return made

    def add_hand(
        self, game_id: str, hand: dict[str, Any], expected_revision: int | None = None,
        by: str | None = None,
    ) -> StoredGame:
        """Append a hand; the whole game must stay valid. None skips the revision check."""
        return self._mutate(game_id, expected_revision, changes.add_hand(hand), by)

    def replace_hand(
        self, game_id: str, index: int, hand: dict[str, Any], expected_revision: int,
        by: str | None = None,
    ) -> StoredGame:
        """Replace hand `index` (0-based). Hands up to it must be valid; later ones are
        re-scored and may become invalid (the summary's `invalid_from` flags them)."""
        return self._mutate(game_id, expected_revision, changes.replace_hand(index, hand), by)

    def undo_last_hand(self, game_id: str, expected_revision: int,
                       by: str | None = None) -> StoredGame:
        """Remove the last hand (kept in the trail, from where it can be put back)."""
        return self._mutate(game_id, expected_revision, changes.undo_last_hand(), by)

    def redo_hand(self, game_id: str, expected_revision: int,
                  by: str | None = None) -> StoredGame:
        """Put back the last hand undone, while no hand has been recorded after it
        (`rules.history.redoable`); it must still be valid where it goes."""
        return self._mutate(game_id, expected_revision, changes.redo_hand(), by)

    def update_game(
        self, game_id: str, doc: dict[str, Any], expected_revision: int,
        by: str | None = None,
    ) -> StoredGame:
        """Change the game's details (team or player names, house rules, first dealer).

        Hands are changed one at a time with add_hand/replace_hand/undo_last_hand:
        `doc` may omit "hands"; if it has them they must equal the saved ones.
        """
        return self._mutate(game_id, expected_revision, changes.update_game(doc), by)

    # -- sync (scorer.sync): the same shape on PgGameStore ----------------------------

    def get_synced(self, game_id: str) -> SyncedGame:
        """The game as saved now with the synced changes its record keeps."""
        with self._game_lock(game_id):
            return to_synced(self._read(game_id), next_game=self.next_game(game_id))

    def apply_synced(self, game_id: str, change: Change, expected_revision: int,
                     change_id: str, device: str, by: str | None = None,
                     phone_at: datetime | None = None) -> SyncedGame:
        """Apply a change a phone sent through sync (`scorer.store.changes`), made on
        `expected_revision`, under its own `change_id`, by the phone `device` (its
        `records.device_mark`). Its id is written with it, in the same write: sent
        again, the game as it is now comes back with `already` and nothing is saved;
        an id another phone sent raises ChangeReplayed. Then as `add_hand` & co.:
        StaleRevision, InvalidGame, HandNotFound, GameNotFound, NotSaved."""
        return self._apply(game_id, expected_revision, change, by, (change_id, device),
                           phone_at)

    def delete_game(self, game_id: str) -> None:
        """Delete a game for good; raises GameNotFound if there is none."""
        path = self._path(game_id)
        self._writer()
        with self._game_lock(game_id):
            try:
                path.unlink()
            except FileNotFoundError:
                raise GameNotFound(game_id) from None
            except OSError as e:
                raise not_saved(e, "the game was not deleted") from e
            finally:
                self._wrote()
            with self._lock:
                self._index.drop(game_id)
            try:
                fsync_dir(self.games_dir)
            except OSError:  # it is gone for every reader already
                logger.warning("could not fsync %s after deleting %s", self.games_dir, game_id)

    def close(self) -> None:
        """Write the game list so the next start-up is quick (games are already
        saved), and let go of the folder's lock (a later change takes it again)."""
        with self._lock:
            self._save_index()
            if self._lease is not None:
                self._lease.release()
                self._lease = None

    def __enter__(self) -> GameStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- inside ----------------------------------------------------------

    def _path(self, game_id: str) -> Path:
        # Ids are checked so that a typed or sent id can never name another file.
        if not isinstance(game_id, str) or not _ID_RE.match(game_id):
            raise GameNotFound(str(game_id))
        return self.games_dir / f"{game_id}.json"

    @contextlib.contextmanager
    def _game_lock(self, game_id: str) -> Iterator[None]:
        self._path(game_id)
        with self._lock:
            held = self._use_lock(game_id)
        with self._holding(game_id, held):
            yield

    def _writer(self) -> None:
        """Refuse to change a read-only store; take the folder's lock again after close()."""
        if self.read_only:
            raise NotSaved("These games are open for reading only: nothing was saved.")
        with self._lock:
            if self._lease is None:
                self._lease = folder_lock.acquire(self.data_dir)

    def _save_index(self) -> None:
        """Write the game list cache if it changed, if it can be written. The caller
        holds the store lock."""
        if self.read_only:
            return
        try:
            self._index.save_if_dirty()
        except OSError as e:  # a cache: a full disk must not stop anyone reading
            logger.warning("could not write the game list %s (%s)", self._index.path,
                           e.strerror or e)

    def _use_lock(self, game_id: str) -> _GameLock:
        """The game's lock, counted as used; the caller holds the store lock."""
        held = self._game_locks.get(game_id)
        if held is None:
            held = self._game_locks[game_id] = _GameLock()
        held.users += 1
        return held

    @contextlib.contextmanager
    def _holding(self, game_id: str, held: _GameLock) -> Iterator[None]:
        try:
            with held.lock:
                yield
        finally:
            with self._lock:
                held.users -= 1
                if held.users == 0 and self._game_locks.get(game_id) is held:
                    del self._game_locks[game_id]

    def _mutate(self, game_id: str, expected_revision: int | None, change: Change,
                by: str | None = None) -> StoredGame:
        return self._apply(game_id, expected_revision, change, by, None).game

    def _apply(self, game_id: str, expected_revision: int | None, change: Change,
               by: str | None, mark: tuple[str, str] | None,
               phone_at: datetime | None = None) -> SyncedGame:
        """Apply `change` on `expected_revision`; `mark` (change id, device mark): a
        change sent through sync, answered (`already`) if the record holds it."""
        self._writer()
        with self._game_lock(game_id):
            record = self._read(game_id)
            following = self.next_game(game_id) if mark is not None else None
            if mark is not None and known_change(record, *mark):
                return to_synced(record, already=True, next_game=following)
            if expected_revision is not None and record["revision"] != expected_revision:
                raise StaleRevision(
                    to_stored(record), expected_revision, changes_since(record, expected_revision)
                )
            changed = changed_record(record, change, utcnow(), by, phone_at)
            if changed is None:  # saved again as it was: nothing for other phones
                return to_synced(record, next_game=following)
            new, scoring = changed
            if mark is not None:
                new = with_mark(new, *mark)
            try:
                write_record(self._path(game_id), new, create=False)
            except FileNotFoundError:
                raise GameNotFound(game_id) from None
            except OSError as e:
                raise not_saved(e) from e
            finally:
                self._wrote()
            self._saved(new, scoring)
            return to_synced(new, next_game=following)

    def _wrote(self) -> None:
        """Called after every write, done or failed (the phone alone commits its folder)."""

    def _read(self, game_id: str) -> dict[str, Any]:
        """The game's record; the caller holds its game lock."""
        path = self._path(game_id)
        try:
            record = read_record(path)
        except FileNotFoundError:
            with self._lock:
                self._index.drop(game_id)
            raise GameNotFound(game_id) from None
        except DamagedFile as e:
            with self._lock:
                moved = self._quarantine(path, game_id, e)
            raise GameDamaged(game_id, e.reason, None if moved is None else str(moved),
                              None if moved is None else self._shown(moved)) from e
        except NewerSchema as e:  # its message reaches phones: no server path in it
            raise NewerSchema(self._shown(path), e.found, e.supported) from e
        if record["id"] != game_id:
            # A copied or renamed file: the file name is what every caller uses.
            record["id"] = game_id
        return record

    def _saved(self, record: dict[str, Any], scoring: Scoring) -> None:
        """Update the game list row after a save; the caller holds the game lock."""
        game_id = record["id"]
        st = os.stat(self._path(game_id))
        with self._lock:
            self._index.put(game_id, file_signature(st), summarize(record, scoring))

    def _load_index(self) -> None:
        try:
            self._index.load()
        except DamagedFile as e:
            self._index.rows = {}
            self._index.dirty = True
            moved = self._move_aside(self._index.path)
            kept = "" if moved is None else f" The old file was kept as {moved}."
            self._report(
                f"The list of games could not be read ({e.reason}) and was rebuilt from "
                f"the games themselves; no game was lost.{kept}",
                "The list of games could not be read and was rebuilt from the games "
                "themselves; no game was lost.")
        except OSError as e:  # unreadable (permissions...): a cache, rebuilt in memory
            logger.warning("could not read the game list (%s)", e.strerror or e)
            self._index.rows = {}
            self._index.dirty = True

    def _move_aside(self, path: Path) -> Path | None:
        """Move an unreadable file to damaged/, if this store may and the folder lets it."""
        if self.read_only:
            return None
        try:
            return move_aside(path, self.damaged_dir)
        except OSError as e:
            logger.warning("could not move %s aside (%s)", path, e.strerror or e)
            return None

    def _refresh(self) -> None:
        """Bring the game list in line with the game files. The caller holds the store lock."""
        seen: set[str] = set()
        try:
            with os.scandir(self.games_dir) as listing:
                entries = list(listing)
        except FileNotFoundError:  # a read-only store on a folder never written to
            entries = []
        for entry in entries:
            game_id = entry.name.removesuffix(".json")
            if entry.name == game_id or not _ID_RE.match(game_id):
                continue  # temp files, and anything a person put there
            try:
                sig = file_signature(entry.stat())
            except FileNotFoundError:
                continue
            if self._unreadable.get(game_id) == sig:
                continue  # damaged, left in place, unchanged since
            seen.add(game_id)
            row = self._index.rows.get(game_id)
            if row is not None and row.sig == sig:
                continue
            path = Path(entry.path)
            try:
                record = read_record(path)
            except FileNotFoundError:
                seen.discard(game_id)
                continue
            except NewerSchema as e:
                seen.discard(game_id)
                self._report_once(str(path), str(e), (
                    f"The saved game {game_id} was saved by a newer version of Tarabish: "
                    "update the app to open it. Its file was left as it is."))
                continue
            except DamagedFile as e:
                seen.discard(game_id)
                if self._quarantine(path, game_id, e) is None:
                    self._unreadable[game_id] = sig
                continue
            record["id"] = game_id
            self._index.put(game_id, sig, summarize(record, score_doc(record["doc"])))
        for game_id in set(self._index.rows) - seen:
            self._index.drop(game_id)

    def _quarantine(self, path: Path, game_id: str, error: DamagedFile) -> Path | None:
        """Move an unreadable game file aside (if it can be) and report it; returns
        where it went, None if it was left in place. The caller holds the store lock."""
        moved = self._move_aside(path)
        self._index.drop(game_id)
        kept = "was left where it is" if moved is None else f"was kept as {moved}"
        shown = ("was left where it is" if moved is None
                 else f"was set aside as {self._shown(moved)}")
        self._report_once(
            f"{path}|{error.reason}|{moved}",
            f"The saved game {game_id} could not be read ({error.reason}). "
            f"Its file {kept}; every other game is fine.",
            f"The saved game {game_id} could not be read; its file {shown}. "
            "Every other game is fine.",
        )
        return moved

    def _shown(self, path: Path) -> str:
        """`path` as a phone may see it: relative to the data folder, whose place on
        the server is no guest's business."""
        try:
            return f"{path.relative_to(self.data_dir).as_posix()} in the data folder"
        except ValueError:
            return f"{path.name} in the data folder"

    def _report(self, problem: str, notice: str) -> None:
        self.problems.append(problem)
        self.notices.append(notice)
        if self.on_problem is not None:
            self.on_problem(problem)

    def _report_once(self, key: str, problem: str, notice: str) -> None:
        if key not in self._reported:
            self._reported.add(key)
            self._report(problem, notice)


class _GameLock:
    """One game's lock and how many callers hold it or wait for it."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.users = 0
