"""A community's admin code: what the laptop's host code is, for an operator.

Set by `tarabish admin-code` (a new code printed once, the old one replaced) and
shared by every process; never printed at a start. The database keeps only
scrypt(code, random salt): the code has 10 digits, and behind a plain SHA-256
anyone who read the table (a leaked backup) would find it offline in seconds
(10^10 hashes); scrypt with these costs takes tens of milliseconds and 16 MiB
a try, so the same search takes years of a machine. Phones that entered it
are kept as hosts (`hosts`), as on a laptop.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scorer.store.database import Database

ADMIN_CODE_DIGITS = 10
#: scrypt's costs (n = 2^14, r = 8: 16 MiB, about 50 ms a try on one core).
SCRYPT_N = 2 ** 14
SCRYPT_R = 8
SCRYPT_P = 1
_PREFIX = "scrypt"


def new_admin_code() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(ADMIN_CODE_DIGITS))


def hash_code(code: str, *, salt: bytes | None = None, n: int = SCRYPT_N, r: int = SCRYPT_R,
              p: int = SCRYPT_P) -> str:
    """"scrypt$n$r$p$salt$hash" (base64): the parameters travel with the hash, so
    they can be raised later without breaking a stored code."""
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = hashlib.scrypt(code.encode(), salt=salt, n=n, r=r, p=p, maxmem=64 * 1024 * 1024,
                            dklen=32)
    return "$".join([_PREFIX, str(n), str(r), str(p), _b64(salt), _b64(digest)])


def code_matches(code: str, stored: str) -> bool:
    """Whether `code` is the code hashed in `stored` (constant-time compare)."""
    try:
        prefix, n, r, p, salt, digest = stored.split("$")
        if prefix != _PREFIX:
            return False
        again = hash_code(code, salt=base64.b64decode(salt), n=int(n), r=int(r), p=int(p))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(again.rsplit("$", 1)[1].encode(), digest.encode())


class AdminCode:
    """The community's admin code in the `admin_code` table (one row)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def replace(self) -> str:
        """A new admin code: its hash replaces the old one; the code is returned once."""
        code = new_admin_code()
        stored = hash_code(code)
        with self.db.connection() as conn:
            conn.execute("INSERT INTO admin_code (id, hash) VALUES (1, %s) "
                         "ON CONFLICT (id) DO UPDATE SET hash = EXCLUDED.hash, set_at = now()",
                         (stored,))
        return code

    def is_set(self) -> bool:
        return self._stored() is not None

    def matches(self, typed: str) -> bool:
        """Whether `typed` (digits only) is the admin code; False if none is set."""
        stored = self._stored()
        if stored is None or len(typed) != ADMIN_CODE_DIGITS:
            return False
        return code_matches(typed, stored)

    def _stored(self) -> str | None:
        with self.db.connection() as conn:
            row = conn.execute("SELECT hash FROM admin_code WHERE id = 1").fetchone()
        return None if row is None else str(row[0])


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")
