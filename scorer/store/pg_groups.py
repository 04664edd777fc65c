"""Groups kept in a community server's PostgreSQL database (migration 0004_groups).

The same public interface as `FolderGroups`: the app never knows which it has.
Each change is one transaction that locks its group's row first, so two
processes adding to one group cannot pass its bounds together.
"""

from __future__ import annotations

import hmac
from typing import Any

from scorer.store.database import Database
from scorer.store.group_models import (
    MAX_GAMES,
    MAX_GROUPS,
    MAX_KEEPERS,
    MAX_MEMBERS,
    Group,
    GroupNotFound,
    GroupRefused,
    check_game_id,
    clean_name,
    code_hash,
    device_key,
    key,
    new_code,
    new_group_id,
)

_NEW_GROUP_LOCK = 0x7461_7267  # advisory lock: one group made at a time (the count bound)


class PgGroups:
    """The groups of one community database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # reading
    def list_groups(self) -> list[Group]:
        """Every group, by name (capitals ignored)."""
        with self.db.connection() as conn:
            ids = [row[0] for row in conn.execute(
                "SELECT id FROM groups ORDER BY name_key, id").fetchall()]
            return [self._read(conn, gid) for gid in ids]

    def get_group(self, wanted: str) -> Group:
        """The group with this id, else the one with this name (capitals ignored)."""
        with self.db.connection() as conn:
            return self._read(conn, self._find(conn, wanted))

    # changing
    def new_group(self, name: str, token: str | None = None) -> tuple[Group, str]:
        """Make a group; returns it and its keeper code (shown this once)."""
        text = clean_name(name, "group")
        with self.db.connection() as conn:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_NEW_GROUP_LOCK,))
            row = conn.execute("SELECT count(*) FROM groups").fetchone()
            if row is not None and row[0] >= MAX_GROUPS:
                raise GroupRefused(f"There can be at most {MAX_GROUPS} groups.")
            if conn.execute("SELECT 1 FROM groups WHERE name_key = %s",
                            (key(text),)).fetchone():
                raise GroupRefused(f"There is already a group called {text!r}.")
            gid = new_group_id()
            while conn.execute("SELECT 1 FROM groups WHERE id = %s", (gid,)).fetchone():
                gid = new_group_id()
            code = new_code()
            conn.execute("INSERT INTO groups (id, name, name_key, code) VALUES (%s, %s, %s, %s)",
                         (gid, text, key(text), code_hash(gid, code)))
            if token:
                self._hold(conn, gid, token)
            return self._read(conn, gid), code

    def add_member(self, wanted: str, name: str) -> Group:
        """Add a member (no change if the name is there already, capitals ignored)."""
        text = clean_name(name, "player")
        with self.db.connection() as conn:
            gid = self._find(conn, wanted, lock=True)
            if not conn.execute("SELECT 1 FROM group_members WHERE group_id = %s "
                                "AND name_key = %s", (gid, key(text))).fetchone():
                if self._count(conn, "group_members", gid) >= MAX_MEMBERS:
                    raise GroupRefused(f"A group can have at most {MAX_MEMBERS} members.")
                conn.execute("INSERT INTO group_members (group_id, name, name_key) "
                             "VALUES (%s, %s, %s)", (gid, text, key(text)))
            return self._read(conn, gid)

    def remove_member(self, wanted: str, name: str) -> Group:
        with self.db.connection() as conn:
            gid = self._find(conn, wanted, lock=True)
            conn.execute("DELETE FROM group_members WHERE group_id = %s AND name_key = %s",
                         (gid, key(name)))
            return self._read(conn, gid)

    def add_game(self, wanted: str, game_id: str) -> Group:
        """Add a game by id (no change if it is there already)."""
        game = check_game_id(game_id)
        with self.db.connection() as conn:
            gid = self._find(conn, wanted, lock=True)
            if not conn.execute("SELECT 1 FROM group_games WHERE group_id = %s "
                                "AND game_id = %s", (gid, game)).fetchone():
                if self._count(conn, "group_games", gid) >= MAX_GAMES:
                    raise GroupRefused(f"A group can have at most {MAX_GAMES} games.")
                conn.execute("INSERT INTO group_games (group_id, game_id) VALUES (%s, %s)",
                             (gid, game))
            return self._read(conn, gid)

    def remove_game(self, wanted: str, game_id: str) -> Group:
        with self.db.connection() as conn:
            gid = self._find(conn, wanted, lock=True)
            conn.execute("DELETE FROM group_games WHERE group_id = %s AND game_id = %s",
                         (gid, game_id))
            return self._read(conn, gid)

    # the keeper code
    def code_matches(self, group_id: str, code: str) -> bool:
        """Whether `code` is the group's keeper code (unbraked: use the brake in rights)."""
        with self.db.connection() as conn:
            gid = self._find(conn, group_id)
            row = conn.execute("SELECT code FROM groups WHERE id = %s", (gid,)).fetchone()
            return row is not None and hmac.compare_digest(code_hash(gid, code), str(row[0]))

    def grant(self, group_id: str, token: str) -> None:
        """Let the phone `token` keep the group from now on."""
        with self.db.connection() as conn:
            self._hold(conn, self._find(conn, group_id, lock=True), token)

    def holds(self, group_id: str, token: str | None) -> bool:
        if not token:
            return False
        with self.db.connection() as conn:
            return conn.execute("SELECT 1 FROM group_keepers WHERE group_id = %s "
                                "AND device = %s", (group_id, device_key(token))).fetchone() \
                is not None

    # inside
    def _find(self, conn: Any, wanted: str, *, lock: bool = False) -> str:
        lock_sql = " FOR UPDATE" if lock else ""
        row = conn.execute(f"SELECT id FROM groups WHERE id = %s{lock_sql}",
                           (str(wanted),)).fetchone()
        if row is None:
            row = conn.execute(f"SELECT id FROM groups WHERE name_key = %s{lock_sql}",
                               (key(str(wanted)),)).fetchone()
        if row is None:
            raise GroupNotFound(str(wanted)[:40])
        return str(row[0])

    def _read(self, conn: Any, gid: str) -> Group:
        row = conn.execute("SELECT name FROM groups WHERE id = %s", (gid,)).fetchone()
        if row is None:
            raise GroupNotFound(gid)
        members = conn.execute("SELECT name FROM group_members WHERE group_id = %s "
                               "ORDER BY added", (gid,)).fetchall()
        games = conn.execute("SELECT game_id FROM group_games WHERE group_id = %s "
                             "ORDER BY added", (gid,)).fetchall()
        return Group(id=gid, name=row[0], members=tuple(m[0] for m in members),
                     games=tuple(g[0] for g in games))

    def _count(self, conn: Any, table: str, gid: str) -> int:
        row = conn.execute(f"SELECT count(*) FROM {table} WHERE group_id = %s",
                           (gid,)).fetchone()
        return int(row[0]) if row else 0

    def _hold(self, conn: Any, gid: str, token: str) -> None:
        conn.execute("INSERT INTO group_keepers (group_id, device) VALUES (%s, %s) "
                     "ON CONFLICT (group_id, device) DO UPDATE SET seen = now()",
                     (gid, device_key(token)))
        conn.execute("DELETE FROM group_keepers WHERE group_id = %s AND device IN ("
                     "SELECT device FROM group_keepers WHERE group_id = %s "
                     "ORDER BY seen DESC OFFSET %s)", (gid, gid, MAX_KEEPERS))
