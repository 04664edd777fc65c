"""Groups kept in a community's PostgreSQL database (migration 0004_groups).

The same `Groups` interface as a data folder's. A change locks the group's row
(`SELECT ... FOR UPDATE`) for its transaction, so two processes changing one
group at once each see the other's change.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import psycopg

from scorer.groups.model import (
    MAX_GROUPS,
    MAX_KEEPERS,
    BadGroup,
    Group,
    GroupNotFound,
    device_key,
    member_key,
)
from scorer.groups.service import ADDRESS_FREE_TRIES, GROUP_FREE_TRIES, WAIT_CAP_S, Groups
from scorer.rights.limiter import Backoff
from scorer.rights.pg_grants import hold
from scorer.rights.pg_limiter import PgBackoff
from scorer.store.database.connect import Database

_GROUP = "SELECT id, name, created, members, games FROM groups"


class PgGroups(Groups):
    """The groups of one community."""

    def __init__(self, db: Database, backoff: Backoff | PgBackoff | None = None,
                 group_backoff: Backoff | PgBackoff | None = None) -> None:
        # The brakes live in the database: wrong codes count across processes.
        super().__init__(
            backoff or PgBackoff(db, "group-address", free=ADDRESS_FREE_TRIES,
                                 cap=WAIT_CAP_S, forget_after=3600.0),
            group_backoff or PgBackoff(db, "group-all", free=GROUP_FREE_TRIES,
                                       cap=WAIT_CAP_S, forget_after=6 * 3600.0))
        self.db = db

    def _all(self) -> list[Group]:
        with self.db.connection() as conn:
            rows = conn.execute(_GROUP).fetchall()
        return [_group(row) for row in rows]

    def groups_of_game(self, game_id: str) -> list[Group]:
        """The groups holding a game, found by the database: every phone showing a
        sheet asks at each redraw, so the groups' game lists stay where they are."""
        with self.db.connection() as conn:
            rows = conn.execute(f"{_GROUP} WHERE %s = ANY(games)", (game_id,)).fetchall()
        return [_group(row) for row in rows]

    def _insert(self, group: Group, code_hash: str, keeper: str | None) -> None:
        try:
            with self.db.connection() as conn:
                count = conn.execute("SELECT count(*) FROM groups").fetchone()
                if count is not None and count[0] >= MAX_GROUPS:
                    raise BadGroup(f"A community can hold at most {MAX_GROUPS} groups.")
                conn.execute(
                    "INSERT INTO groups (id, name, name_key, created, members, games, code)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s)",
                    (group.id, group.name, member_key(group.name), group.created,
                     list(group.members), list(group.games), code_hash))
                if keeper is not None:
                    hold(conn, "group_keepers", group.id, keeper)
        except psycopg.errors.UniqueViolation as exc:
            raise BadGroup(f"There is already a group named {group.name}.") from exc

    def _change(self, group_id: str, change: Callable[[Group], Group]) -> Group:
        try:
            with self.db.connection() as conn:
                row = conn.execute(f"{_GROUP} WHERE id = %s FOR UPDATE",
                                   (group_id,)).fetchone()
                if row is None:
                    raise GroupNotFound(group_id)
                new = change(_group(row))
                conn.execute("UPDATE groups SET name = %s, name_key = %s, members = %s,"
                             " games = %s WHERE id = %s",
                             (new.name, member_key(new.name), list(new.members),
                              list(new.games), group_id))
                return new
        except psycopg.errors.UniqueViolation as exc:
            raise BadGroup("There is already a group with that name.") from exc

    def _code_hash(self, group_id: str) -> str | None:
        with self.db.connection() as conn:
            row = conn.execute("SELECT code FROM groups WHERE id = %s", (group_id,)).fetchone()
        return None if row is None else row[0]

    def _set_code_hash(self, group_id: str, code_hash: str) -> None:
        with self.db.connection() as conn:
            done = conn.execute("UPDATE groups SET code = %s WHERE id = %s RETURNING id",
                                (code_hash, group_id)).fetchone()
        if done is None:
            raise GroupNotFound(group_id)

    def _is_keeper(self, group_id: str, device: str) -> bool:
        with self.db.connection() as conn:
            row = conn.execute("SELECT 1 FROM group_keepers WHERE group_id = %s AND device = %s",
                               (group_id, device)).fetchone()
        return row is not None

    def _kept_ids(self, device: str) -> set[str]:
        with self.db.connection() as conn:
            rows = conn.execute("SELECT group_id FROM group_keepers WHERE device = %s",
                                (device,)).fetchall()
        return {row[0] for row in rows}

    def kept_games(self, token: str | None) -> set[str]:
        """The games of every group this phone keeps: one query, no group read whole."""
        if not token:
            return set()
        with self.db.connection() as conn:
            rows = conn.execute(
                "SELECT DISTINCT unnest(g.games) FROM groups g JOIN group_keepers k "
                "ON k.group_id = g.id WHERE k.device = %s", (device_key(token),)).fetchall()
        return {str(r[0]) for r in rows}

    def _keepers(self, group_id: str) -> dict[str, datetime]:
        with self.db.connection() as conn:
            rows = conn.execute("SELECT device, seen FROM group_keepers WHERE group_id = %s",
                                (group_id,)).fetchall()
        return {row[0]: row[1] for row in rows}

    def _drop_keepers(self, group_id: str, keep: set[str]) -> None:
        with self.db.connection() as conn:
            conn.execute("DELETE FROM group_keepers WHERE group_id = %s"
                         " AND NOT (device = ANY(%s))", (group_id, sorted(keep)))

    def _add_keeper(self, group_id: str, device: str) -> None:
        with self.db.connection() as conn:
            hold(conn, "group_keepers", group_id, device, keep=MAX_KEEPERS)


def _group(row: tuple[Any, ...]) -> Group:
    gid, name, created, members, games = row
    return Group(id=gid, name=name, created=created, members=tuple(members),
                 games=tuple(games))
