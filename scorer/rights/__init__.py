"""Who may change a game: table codes, the phones that entered them, and a brake
on guessing.

Design (see `codes.TableCodes` and `limiter.Backoff`):

- Every game gets a 6-digit *table code* when it is started. The phone that
  started it holds edit rights at once; any other phone earns them by typing
  the code. Watching needs nothing.
- A phone is known by a random *device token* the app keeps in the browser's
  SharedPreferences (localStorage, per origin). The server keeps, per game,
  the SHA-256 of each token that entered the code, in DATA/table_codes.json
  (written atomically), so rights survive reloads, sleeps and server restarts,
  and the file holds no token that could be replayed. Codes never go into a
  game's `tarabish-game/1` document, so an exported game carries none.
- Wrong codes are slowed down per game and per connection address (as the
  server's socket sees it): three free tries, then a wait that doubles from
  30 s; and per game whoever guesses: ten in all, then the same waits. The
  device token is the client's word, so it never buys new tries.
- Each address may start GAMES_PER_HOUR games an hour.
"""

from __future__ import annotations

import threading
from pathlib import Path

from scorer.rights.codes import CODES_FILE, NotAllowed, TableCodes
from scorer.rights.limiter import Backoff, RateWindow, TooManyTries, WrongCode
from scorer.rights.ports import RightsPort
from scorer.rights.service import TableRights, TooManyGames

__all__ = [
    "CODES_FILE",
    "Backoff",
    "NotAllowed",
    "RateWindow",
    "RightsPort",
    "TableCodes",
    "TableRights",
    "TooManyGames",
    "TooManyTries",
    "WrongCode",
    "get_rights",
    "use_rights",
]

_lock = threading.Lock()
_rights: dict[Path, TableRights] = {}
_community: RightsPort | None = None


def use_rights(rights: RightsPort | None) -> None:
    """Every right is `rights`' from now on (a community's, chosen at start by
    `scorer.backends.install`): `get_rights` gives them, whatever folder it is asked
    for; None: each folder's own."""
    global _community
    with _lock:
        _community = rights


def get_rights(data_dir: Path | None) -> RightsPort:
    """The process's table rights: the community's when a database is in use
    (`use_rights`), else those of the store in `data_dir` (one per folder)."""
    with _lock:
        if _community is not None:
            return _community
    if data_dir is None:
        raise ValueError("no data folder and no database")
    key = Path(data_dir).resolve()
    with _lock:
        rights = _rights.get(key)
        if rights is None:
            rights = _rights[key] = TableRights(TableCodes(key))
        return rights
