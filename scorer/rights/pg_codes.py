"""Table codes, the phones holding each game and the hosts, in a community's
database: `TableCodes`'s interface, shared by every process of the community.

Rows keep the SHA-256 of device tokens (`device_key`), never a token. Each
change is one transaction, so two processes granting the same game at once
both hold (a holder is a row, not a rewritten document).
"""

from __future__ import annotations

import hmac
import re
from typing import TYPE_CHECKING, Any

import psycopg

from scorer.rights.codes import MAX_HOSTS, MAX_VIEWERS, NotAllowed, device_key, new_code
from scorer.rights.pg_grants import hold, move_holders
from scorer.text.codes import code_digits

if TYPE_CHECKING:
    from scorer.store.database import Database

_GAME_RE = re.compile(r"^[0-9a-f]{8}$")
MAX_OPENED = 2_000
"""Games kept per phone as opened by their address (those not seen longest go first):
a bound on what one stranger can make the database keep."""


class PgTableCodes:
    """`scorer.rights.codes.TableCodes` on PostgreSQL (tables of 0002_rights)."""

    data_dir = None
    """No folder: phone names live in the database too (`PgPhoneNames`)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # -- reading ---------------------------------------------------------

    def code(self, game_id: str) -> str | None:
        row = self._one("SELECT code FROM table_codes WHERE game_id = %s", (game_id,))
        return None if row is None else str(row[0])

    def is_host(self, token: str | None) -> bool:
        if not token:
            return False
        return self._one("SELECT 1 FROM hosts WHERE device = %s", (device_key(token),)) \
            is not None

    def holders(self, game_id: str) -> int:
        row = self._one("SELECT count(*) FROM code_holders WHERE game_id = %s", (game_id,))
        return 0 if row is None else int(row[0])

    def may_edit(self, game_id: str, token: str | None) -> bool:
        if not token:
            return False
        return self._one("SELECT 1 FROM code_holders WHERE game_id = %s AND device = %s",
                         (game_id, device_key(token))) is not None

    def held_by(self, token: str | None) -> set[str]:
        """The games this device holds (started them or entered their code)."""
        if not token:
            return set()
        with self.db.connection() as conn:
            rows = conn.execute("SELECT game_id FROM code_holders WHERE device = %s",
                                (device_key(token),)).fetchall()
        return {str(r[0]) for r in rows}

    def opened_by(self, token: str | None) -> set[str]:
        """The games this device opened by their own address (`opened`)."""
        if not token:
            return set()
        with self.db.connection() as conn:
            rows = conn.execute("SELECT game_id FROM game_viewers WHERE device = %s",
                                (device_key(token),)).fetchall()
        return {str(r[0]) for r in rows}

    def matches(self, game_id: str, code: str) -> bool:
        """Whether `code` is the game's table code (constant-time compare)."""
        expected = self.code(game_id)
        return expected is not None and hmac.compare_digest(expected.encode(),
                                                            code_digits(code).encode())

    # -- changing --------------------------------------------------------

    def start(self, game_id: str, token: str, follows: str | None = None) -> str:
        """Give the game a code if it has none and grant `token`; returns the code.
        With `follows`, every phone holding that game holds this one too."""
        _check_game_id(game_id)
        with self.db.connection() as conn:
            conn.execute("INSERT INTO table_codes (game_id, code) VALUES (%s, %s) "
                         "ON CONFLICT (game_id) DO NOTHING", (game_id, new_code()))
            if follows is not None:
                conn.execute("INSERT INTO code_holders (game_id, device) "
                             "SELECT %s, device FROM code_holders WHERE game_id = %s "
                             "ON CONFLICT (game_id, device) DO UPDATE SET seen = now()",
                             (game_id, follows))
            hold(conn, "code_holders", game_id, device_key(token))
            row = conn.execute("SELECT code FROM table_codes WHERE game_id = %s",
                               (game_id,)).fetchone()
        assert row is not None
        return str(row[0])

    def give_codes(self, game_ids: list[str]) -> list[str]:
        """A code, held by no phone yet, for each game in `game_ids` without one;
        the ids that got one."""
        wanted = list(dict.fromkeys(g for g in game_ids if isinstance(g, str)
                                    and _GAME_RE.match(g)))
        if not wanted:
            return []
        with self.db.connection() as conn:
            rows = conn.execute(
                "INSERT INTO table_codes (game_id, code) "
                "SELECT g, c FROM unnest(%s::text[], %s::text[]) AS u(g, c) "
                "ON CONFLICT (game_id) DO NOTHING RETURNING game_id",
                (wanted, [new_code() for _ in wanted])).fetchall()
        got = {str(r[0]) for r in rows}
        return [g for g in wanted if g in got]

    def opened(self, game_id: str, token: str) -> None:
        """Record that `token` opened the game's own address: it may see the game from
        then on. At most MAX_VIEWERS phones a game and MAX_OPENED games a phone."""
        _check_game_id(game_id)
        key = device_key(token)
        try:
            with self.db.connection() as conn:
                hold(conn, "game_viewers", game_id, key, keep=MAX_VIEWERS)
                conn.execute(
                    "DELETE FROM game_viewers WHERE device = %s AND game_id IN ("
                    "SELECT game_id FROM game_viewers WHERE device = %s "
                    "ORDER BY seen DESC, game_id OFFSET %s FOR UPDATE SKIP LOCKED)",
                    (key, key, MAX_OPENED))
        except psycopg.errors.ForeignKeyViolation:
            return  # the game was deleted meanwhile: nothing to see

    def add_host(self, token: str) -> None:
        """Record that `token` entered the host (admin) code; at most MAX_HOSTS kept."""
        with self.db.connection() as conn:
            conn.execute("INSERT INTO hosts (device) VALUES (%s) "
                         "ON CONFLICT (device) DO UPDATE SET seen = now()", (device_key(token),))
            conn.execute("DELETE FROM hosts WHERE device IN (SELECT device FROM hosts "
                         "ORDER BY seen DESC, device OFFSET %s FOR UPDATE SKIP LOCKED)",
                         (MAX_HOSTS,))

    def grant(self, game_id: str, token: str) -> None:
        """Record that `token` entered the right code."""
        _check_game_id(game_id)
        with self.db.connection() as conn:
            if conn.execute("SELECT 1 FROM table_codes WHERE game_id = %s FOR SHARE",
                            (game_id,)).fetchone() is None:
                raise NotAllowed("This game has no table code yet.")
            hold(conn, "code_holders", game_id, device_key(token))

    def move(self, old: str, new: str) -> int:
        """Give `new` every right `old` holds (games and host) and take them from `old`;
        how many rights moved."""
        old_key, new_key = device_key(old), device_key(new)
        if old_key == new_key:
            return 0
        with self.db.connection() as conn:
            games = move_holders(conn, "code_holders", old_key, new_key)
            games += move_holders(conn, "game_viewers", old_key, new_key)
            host = conn.execute(
                "INSERT INTO hosts (device, seen) SELECT %s, seen FROM hosts WHERE device = %s "
                "ON CONFLICT (device) DO UPDATE SET seen = EXCLUDED.seen RETURNING device",
                (new_key, old_key)).fetchall()
            conn.execute("DELETE FROM hosts WHERE device = %s", (old_key,))
        return games + len(host)

    def forget(self, game_id: str) -> None:
        """Drop a deleted game's code and holders."""
        with self.db.connection() as conn:
            conn.execute("DELETE FROM table_codes WHERE game_id = %s", (game_id,))

    def _one(self, sql: str, params: tuple[Any, ...]) -> tuple[Any, ...] | None:
        with self.db.connection() as conn:
            return conn.execute(sql, params).fetchone()


def _check_game_id(game_id: str) -> None:
    if not isinstance(game_id, str) or not _GAME_RE.match(game_id):
        raise NotAllowed(f"There is no game {game_id!r}.")
