"""What the sheet calls a phone, in a community's database: `PhoneNames`'s interface.

Numbers come from a sequence, so two processes never give one twice; a number is
drawn only for a phone not yet known. At most MAX_PHONES rows, the ones seen last.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.game import MAX_NAME_LENGTH
from rules.plain_text import without_unsafe
from scorer.rights.codes import device_key
from scorer.rights.phones import MAX_PHONES

if TYPE_CHECKING:
    from scorer.store.database import Database


class PgPhoneNames:
    """`scorer.rights.phones.PhoneNames` on PostgreSQL (table `phones`)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def label(self, token: str) -> str:
        """The phone's name, or "phone N" (numbered now if it is new)."""
        key = device_key(token)
        with self.db.connection() as conn:
            row = conn.execute("UPDATE phones SET seen = now() WHERE device = %s "
                               "RETURNING number, name", (key,)).fetchone()
            if row is None:
                conn.execute("INSERT INTO phones (device, number) "
                             "VALUES (%s, nextval('phone_numbers')) "
                             "ON CONFLICT (device) DO NOTHING", (key,))
                row = conn.execute("SELECT number, name FROM phones WHERE device = %s",
                                   (key,)).fetchone()
                conn.execute("DELETE FROM phones WHERE device IN (SELECT device FROM phones "
                             "ORDER BY seen DESC, number DESC OFFSET %s FOR UPDATE SKIP LOCKED)",
                             (MAX_PHONES,))
        assert row is not None
        return str(row[1] or f"phone {row[0]}")

    def name(self, token: str) -> str | None:
        with self.db.connection() as conn:
            row = conn.execute("SELECT name FROM phones WHERE device = %s",
                               (device_key(token),)).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def set_name(self, token: str, name: str) -> str:
        """Keep the name the phone chose (blank: back to its number); its label now."""
        cleaned = " ".join(without_unsafe(name).split())[:MAX_NAME_LENGTH]
        self.label(token)
        with self.db.connection() as conn:
            row = conn.execute("UPDATE phones SET name = %s, seen = now() WHERE device = %s "
                               "RETURNING number, name",
                               (cleaned or None, device_key(token))).fetchone()
        if row is None:  # pushed out between the two statements by 500 new phones
            return cleaned or self.label(token)
        return str(row[1] or f"phone {row[0]}")
