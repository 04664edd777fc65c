"""The one shape of "this phone holds that code" in a community's database: a row
(owner, device hash, seen) in a table of holders, with the phones not seen longest
let go past a bound. Table codes, organiser codes and group keepers all use it."""

from __future__ import annotations

from typing import Any, Final, Literal

from psycopg import sql

Holders = Literal["code_holders", "event_organisers", "group_keepers", "game_viewers"]
"""The tables of holders, and the column naming what each one's phones hold."""
OWNER: Final[dict[str, str]] = {"code_holders": "game_id", "event_organisers": "event_id",
                                "group_keepers": "group_id", "game_viewers": "game_id"}


def hold(conn: Any, table: Holders, owner: str, device: str, keep: int | None = None) -> None:
    """`device` holds `owner`'s code (seen now); past `keep` holders of one owner, those
    not seen longest are let go (a bound on what strangers can make us store)."""
    names = {"t": sql.Identifier(table), "o": sql.Identifier(OWNER[table])}
    conn.execute(sql.SQL("INSERT INTO {t} ({o}, device) VALUES (%s, %s) "
                         "ON CONFLICT ({o}, device) DO UPDATE SET seen = now()").format(**names),
                 (owner, device))
    if keep is not None:
        conn.execute(sql.SQL(
            "DELETE FROM {t} WHERE {o} = %s AND device IN ("
            "SELECT device FROM {t} WHERE {o} = %s "
            "ORDER BY seen DESC, device OFFSET %s FOR UPDATE SKIP LOCKED)").format(**names),
            (owner, owner, keep))


def move_holders(conn: Any, table: Holders, old: str, new: str) -> int:
    """Give device `new` everything device `old` holds in `table` and take it from `old`;
    how many were moved."""
    names = {"t": sql.Identifier(table), "o": sql.Identifier(OWNER[table])}
    moved = conn.execute(sql.SQL(
        "INSERT INTO {t} ({o}, device, seen) SELECT {o}, %s, seen FROM {t} WHERE device = %s "
        "ON CONFLICT ({o}, device) DO UPDATE SET seen = EXCLUDED.seen RETURNING {o}"
    ).format(**names), (new, old)).fetchall()
    conn.execute(sql.SQL("DELETE FROM {t} WHERE device = %s").format(**names), (old,))
    return len(moved)
