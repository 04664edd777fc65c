"""The game store of a community: every game a row of PostgreSQL's `games` table.

The same interface as `GameStore` (a folder), so the app never knows which it
has. A row holds the record a game file holds (`scorer.store.records`), so a
game moves between a folder and a database unchanged, and its list row
(`summary`), a cache keyed by the rules engine's fingerprint.

Many processes share the table. Every change is one transaction that locks the
game's row (`SELECT ... FOR UPDATE`), checks the revision the phone saw, and
writes the next record: two processes saving on the same revision give one
saved change and one StaleRevision, as two phones on one laptop do. A new
game's id, Play again's one next game (`follows`) and a phone's sent game
(`origin`) are unique in the table, so two processes at once make one.
"""

from __future__ import annotations

import copy
import logging
import secrets
from collections.abc import Callable, Collection
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

import psycopg
from psycopg.types.json import Jsonb
from pydantic import ValidationError

from scorer.store import changes
from scorer.store.changes import Change
from scorer.store.database.connect import Database
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
)
from scorer.store.models import GameSummary, StoredGame, SyncedGame
from scorer.store.ports import GamesPort
from scorer.store.records import (
    ORIGIN,
    changed_record,
    changes_since,
    checked_record,
    known_change,
    new_record,
    summarize,
    to_stored,
    to_synced,
    utcnow,
    with_mark,
)
from scorer.store.validation import Scoring, check_doc, score_doc, scoring_fingerprint

logger = logging.getLogger(__name__)



_NEXT = "(SELECT n.id FROM games n WHERE n.follows = g.id LIMIT 1)"
"""The game started after `g` with Play again (`follows` is unique), in the same read."""


class PgGameStore(GamesPort):
    """Every game of a community, in `db` (the games port's PostgreSQL adapter). See
    the module docstring."""

    def __init__(self, db: Database, *, data_dir: Path, read_only: bool = False,
                 on_problem: Callable[[str], None] | None = None,
                 on_close: Callable[[], None] | None = None) -> None:
        """`data_dir`: a folder of this machine where what may be kept beside the
        database lives (caches, e.g. the statistics' facts); no game is kept there.
        `on_close`: called once when the store is closed (a command's closes its pool)."""
        self.db = db
        self._on_close = on_close
        self.data_dir = Path(data_dir)
        self.read_only = read_only
        self.problems: list[str] = []
        self.notices: list[str] = []
        self.on_problem = on_problem
        self._reported: set[str] = set()
        self._rules = scoring_fingerprint()

    # -- reading ---------------------------------------------------------

    def get_game(self, game_id: str) -> StoredGame:
        """The game as saved now; raises GameNotFound (or GameDamaged, its subclass)."""
        _check_id(game_id)
        with self.db.connection() as conn:
            row = conn.execute("SELECT record FROM games WHERE id = %s",
                               (game_id,)).fetchone()
        if row is None:
            raise GameNotFound(game_id)
        return to_stored(self._record(game_id, row[0]))

    def list_games(self) -> list[GameSummary]:
        """Every game, newest activity first. Rows summed up by other rules (or
        never) are scored again and their cache written back."""
        # A row's record (every hand) is read only where its list row cannot serve.
        return self._listed("SELECT id, CASE WHEN summary_rules = %s AND summary IS NOT NULL"
                            " THEN NULL ELSE record END, summary, summary_rules FROM games",
                            (self._rules,))

    def _listed(self, query: str, params: tuple[Any, ...]) -> list[GameSummary]:
        """The list rows `query` picks (id, record or NULL, summary, its rules), newest
        activity first; rows of other rules scored again and written back."""
        with self.db.connection() as conn:
            rows = conn.execute(query, params).fetchall()
        summaries: list[GameSummary] = []
        stale: list[tuple[str, GameSummary]] = []
        for game_id, raw, summary, rules in rows:
            got = self._summary(game_id, raw, summary, rules)
            if got is None:
                continue
            summaries.append(got[0])
            if got[1]:
                stale.append((game_id, got[0]))
        if stale and not self.read_only:
            self._cache_summaries(stale)
        summaries.sort(key=lambda s: (s.updated, s.id), reverse=True)
        return summaries

    def list_games_in(self, game_ids: Collection[str]) -> list[GameSummary]:
        """The games among `game_ids` (those that exist), newest activity first: what
        one phone may see (`scorer.app.game_sight`). One query by primary key: only
        these rows are read, however many games the community keeps."""
        wanted = sorted({g for g in game_ids if isinstance(g, str) and len(g) == 8})
        if not wanted:
            return []
        return self._listed("SELECT id, CASE WHEN summary_rules = %s AND summary IS NOT NULL"
                            " THEN NULL ELSE record END, summary, summary_rules FROM games"
                            " WHERE id = ANY(%s)", (self._rules, wanted))

    def next_game(self, game_id: str) -> str | None:
        """The game started from this one with Play again, or None."""
        with self.db.connection() as conn:
            row = conn.execute("SELECT id FROM games WHERE follows = %s",
                               (game_id,)).fetchone()
        return None if row is None else str(row[0])

    def find_games(self, prefix: str) -> list[str]:
        """Ids of the games whose id starts with `prefix`."""
        prefix = prefix.strip().lower()
        if not all(c in "0123456789abcdef" for c in prefix):
            return []
        with self.db.connection() as conn:
            rows = conn.execute("SELECT id FROM games WHERE id LIKE %s ORDER BY id",
                                (prefix + "%",)).fetchall()
        return [str(r[0]) for r in rows]

    def find_origin(self, origin: str) -> str | None:
        """The game sent from a phone alone under `origin`, or None."""
        with self.db.connection() as conn:
            row = conn.execute("SELECT id FROM games WHERE origin = %s",
                               (origin,)).fetchone()
        return None if row is None else str(row[0])

    # -- changing --------------------------------------------------------

    def create_game(self, doc: dict[str, Any], by: str | None = None,
                    follows: str | None = None, origin: str | None = None,
                    phone_at: datetime | None = None) -> StoredGame:
        """Save a new game (see `GameStore.create_game`). `origin`: the key of a game
        sent from a phone alone: a game already saved with it is returned as it is,
        so sending twice never makes two games."""
        self._writer()
        doc = copy.deepcopy(doc)
        doc.setdefault("hands", [])
        scoring = check_doc(doc)
        history = doc.pop("history", None if not doc["hands"] else [])
        if origin is not None and not ORIGIN.match(origin):
            raise InvalidGame("The game's key from the phone is not valid.")
        if origin is not None and (found := self.find_origin(origin)) is not None:
            return self.get_game(found)
        try:
            with self.db.connection() as conn:
                return to_stored(self._insert(conn, doc, scoring, history, by, follows,
                                              origin, phone_at))
        except psycopg.errors.UniqueViolation as exc:
            constraint = exc.diag.constraint_name or ""
            if "follows" in constraint and follows is not None:
                made = self.next_game(follows)
                raise NextGameExists(made or "") from exc
            if "origin" in constraint and origin is not None:
                found = self.find_origin(origin)
                if found is not None:
                    return self.get_game(found)
            raise

    def create_next_game(self, follows: str, doc: dict[str, Any], expected_revision: int,
                         by: str | None = None, origin: str | None = None,
                         phone_at: datetime | None = None) -> StoredGame:
        """Play again (see `GameStore.create_next_game`): one finished game has one
        next game, whichever process asks. The finished game's row is locked from
        the check to the insert, and `follows` is unique besides."""
        self._writer()
        _check_id(follows)
        doc = copy.deepcopy(doc)
        doc.setdefault("hands", [])
        try:
            with self.db.connection() as conn:
                row = conn.execute("SELECT record FROM games WHERE id = %s FOR UPDATE",
                                   (follows,)).fetchone()
                if row is None:
                    raise GameNotFound(follows)
                record = self._record(follows, row[0])
                made = conn.execute("SELECT id FROM games WHERE follows = %s",
                                    (follows,)).fetchone()
                if made is not None:
                    raise NextGameExists(str(made[0]))
                if record["revision"] != expected_revision:
                    raise StaleRevision(to_stored(record), expected_revision,
                                        changes_since(record, expected_revision))
                scoring = check_doc(doc)
                if origin is not None and not ORIGIN.match(origin):
                    raise InvalidGame("The game's key from the phone is not valid.")
                history = doc.pop("history", None if not doc["hands"] else [])
                return to_stored(self._insert(conn, doc, scoring, history, by, follows,
                                              origin, phone_at))
        except psycopg.errors.UniqueViolation as exc:
            raise NextGameExists(self.next_game(follows) or "") from exc

    def create_games(self, docs: list[dict[str, Any]]) -> list[StoredGame]:
        """Several new games, all or none (an import): one transaction."""
        self._writer()
        ready = []
        for doc in docs:
            doc = copy.deepcopy(doc)
            doc.setdefault("hands", [])
            scoring = check_doc(doc)
            ready.append((doc, scoring, doc.pop("history", None if not doc["hands"] else [])))
        with self.db.connection() as conn:
            return [to_stored(self._insert(conn, doc, scoring, history))
                    for doc, scoring, history in ready]

    def add_hand(self, game_id: str, hand: dict[str, Any],
                 expected_revision: int | None = None, by: str | None = None) -> StoredGame:
        """Append a hand; None skips the revision check."""
        return self._mutate(game_id, expected_revision, changes.add_hand(hand), by)

    def replace_hand(self, game_id: str, index: int, hand: dict[str, Any],
                     expected_revision: int, by: str | None = None) -> StoredGame:
        """Replace hand `index` (0-based); later hands are scored again."""
        return self._mutate(game_id, expected_revision, changes.replace_hand(index, hand), by)

    def undo_last_hand(self, game_id: str, expected_revision: int,
                       by: str | None = None) -> StoredGame:
        """Remove the last hand (kept in the trail)."""
        return self._mutate(game_id, expected_revision, changes.undo_last_hand(), by)

    def redo_hand(self, game_id: str, expected_revision: int,
                  by: str | None = None) -> StoredGame:
        """Put back the last hand undone."""
        return self._mutate(game_id, expected_revision, changes.redo_hand(), by)

    def update_game(self, game_id: str, doc: dict[str, Any], expected_revision: int,
                    by: str | None = None) -> StoredGame:
        """Change the game's details (names, house rules, first dealer)."""
        return self._mutate(game_id, expected_revision, changes.update_game(doc), by)

    # -- sync (scorer.sync): the same shape on GameStore ------------------------------

    def get_synced(self, game_id: str) -> SyncedGame:
        """The game as saved now with the synced changes its record keeps."""
        _check_id(game_id)
        with self.db.connection() as conn:
            row = conn.execute(f"SELECT g.record, {_NEXT} FROM games g WHERE g.id = %s",
                               (game_id,)).fetchone()
        if row is None:
            raise GameNotFound(game_id)
        return to_synced(self._record(game_id, row[0]), next_game=row[1])

    def apply_synced(self, game_id: str, change: Change, expected_revision: int,
                     change_id: str, device: str, by: str | None = None,
                     phone_at: datetime | None = None) -> SyncedGame:
        """A change a phone sent through sync (see `GameStore.apply_synced`): its id is
        written in the change's transaction, with the game's row locked."""
        return self._apply(game_id, expected_revision, change, by, (change_id, device),
                           phone_at)

    def delete_game(self, game_id: str) -> None:
        """Delete a game for good; raises GameNotFound if there is none."""
        self._writer()
        _check_id(game_id)
        with self.db.connection() as conn:
            gone = conn.execute("DELETE FROM games WHERE id = %s RETURNING id",
                                (game_id,)).fetchone()
        if gone is None:
            raise GameNotFound(game_id)

    def close(self) -> None:
        """Nothing to write: every change is in the database when its call returns."""
        on_close, self._on_close = self._on_close, None
        if on_close is not None:
            on_close()

    def __enter__(self) -> PgGameStore:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # -- inside ----------------------------------------------------------

    def _writer(self) -> None:
        if self.read_only:
            raise NotSaved("These games are open for reading only: nothing was saved.")

    def _insert(self, conn: psycopg.Connection, doc: dict[str, Any], scoring: Scoring,
                history: list[dict[str, Any]] | None, by: str | None = None,
                follows: str | None = None, origin: str | None = None,
                phone_at: datetime | None = None) -> dict[str, Any]:
        """Insert a new game under a fresh random id (drawn again if taken); its record."""
        for _ in range(20):
            game_id = secrets.token_hex(4)
            record = new_record(game_id, doc, utcnow(), history=history, by=by,
                                follows=follows, origin=origin, phone_at=phone_at)
            inserted = conn.execute(
                "INSERT INTO games (id, revision, record, summary, summary_rules,"
                " follows, origin, created, updated)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (id) DO NOTHING RETURNING id",
                (game_id, record["revision"], Jsonb(record),
                 Jsonb(summarize(record, scoring).model_dump(mode="json")),
                 self._rules, follows, origin, record["created"],
                 record["updated"])).fetchone()
            if inserted is not None:
                return record
        raise NotSaved("No free game id was found: nothing was saved. Try again.")

    def _mutate(self, game_id: str, expected_revision: int | None, change: Change,
                by: str | None) -> StoredGame:
        return self._apply(game_id, expected_revision, change, by, None).game

    def _apply(self, game_id: str, expected_revision: int | None, change: Change,
               by: str | None, mark: tuple[str, str] | None,
               phone_at: datetime | None = None) -> SyncedGame:
        """Apply `change` on `expected_revision` in one transaction; `mark` (change id,
        device mark): a change sent through sync, answered if the record holds it."""
        self._writer()
        _check_id(game_id)
        with self.db.connection() as conn:
            row = conn.execute(f"SELECT g.record, {_NEXT} FROM games g WHERE g.id = %s"
                               " FOR UPDATE OF g", (game_id,)).fetchone()
            if row is None:
                raise GameNotFound(game_id)
            record, following = self._record(game_id, row[0]), row[1]
            if mark is not None and known_change(record, *mark):
                return to_synced(record, already=True, next_game=following)
            if expected_revision is not None and record["revision"] != expected_revision:
                raise StaleRevision(to_stored(record), expected_revision,
                                    changes_since(record, expected_revision))
            changed = changed_record(record, change, utcnow(), by, phone_at)
            if changed is None:  # saved again as it was: nothing for other phones
                return to_synced(record, next_game=following)
            new, scoring = changed
            if mark is not None:
                new = with_mark(new, *mark)
            conn.execute(
                "UPDATE games SET revision = %s, record = %s, summary = %s,"
                " summary_rules = %s, updated = %s WHERE id = %s",
                (new["revision"], Jsonb(new),
                 Jsonb(summarize(new, scoring).model_dump(mode="json")), self._rules,
                 new["updated"], game_id))
        return to_synced(new, next_game=following)

    def _record(self, game_id: str, raw: Any) -> dict[str, Any]:
        """The row's record, checked like a file's; raises GameDamaged or NewerSchema."""
        where = f"game {game_id} in the community's database"
        try:
            record = checked_record(copy.deepcopy(raw) if isinstance(raw, dict) else raw,
                                    where)
        except DamagedFile as e:
            self._report_once(f"{game_id}|{e.reason}",
                              f"The saved game {game_id} could not be read ({e.reason}); "
                              "every other game is fine.",
                              f"The saved game {game_id} could not be read; every other "
                              "game is fine.")
            raise GameDamaged(game_id, e.reason, None, None) from e
        record["id"] = game_id
        return record

    def _summary(self, game_id: str, raw: Any, summary: Any,
                 rules: str | None) -> tuple[GameSummary, bool] | None:
        """The list row, and whether it had to be made again; None for a game that
        cannot be read (reported once)."""
        if rules == self._rules and isinstance(summary, dict):
            try:
                return GameSummary.model_validate(summary), False
            except ValidationError:
                pass
        if raw is None:  # a list row of these rules that does not read: the record then
            with self.db.connection() as conn:
                row = conn.execute("SELECT record FROM games WHERE id = %s",
                                   (game_id,)).fetchone()
            if row is None:
                return None  # deleted meanwhile
            raw = row[0]
        try:
            record = self._record(game_id, raw)
        except GameDamaged:
            return None
        except NewerSchema as e:
            self._report_once(f"{game_id}|newer", str(e), (
                f"The saved game {game_id} was saved by a newer version of Tarabish: "
                "update the app to open it."))
            return None
        return summarize(record, score_doc(record["doc"])), True

    def _cache_summaries(self, rows: list[tuple[str, GameSummary]]) -> None:
        try:
            with self.db.connection() as conn, conn.cursor() as cur:
                cur.executemany(
                    "UPDATE games SET summary = %s, summary_rules = %s"
                    " WHERE id = %s AND revision = %s",
                    [(Jsonb(s.model_dump(mode="json")), self._rules, game_id, s.revision)
                     for game_id, s in rows])
        except StoreError:  # a cache: the list was read, it is only slower next time
            logger.warning("could not keep %d game list rows", len(rows))

    def _report_once(self, key: str, problem: str, notice: str) -> None:
        if key in self._reported:
            return
        self._reported.add(key)
        self.problems.append(problem)
        self.notices.append(notice)
        if self.on_problem is not None:
            self.on_problem(problem)


def _check_id(game_id: object) -> None:
    if not (isinstance(game_id, str) and len(game_id) == 8
            and all(c in "0123456789abcdef" for c in game_id)):
        raise GameNotFound(str(game_id))

