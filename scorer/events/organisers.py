"""Organiser codes: only a phone that holds a club night's code may change it.

    DATA/event_codes.json
    {"format": "tarabish-event-codes/1",
     "events": {"<event id>": {"code": "48211390",
                               "devices": {"<sha256 of device token>": "<when>"}}}}

An organiser code is separate from the table codes: it changes the event
(entrants, rounds, results) and opens every game of it, so it is longer (eight
digits) and braked like a table code, per event and connection address and per
event from everyone (`scorer.rights.limiter.Backoff`: three tries an address, ten
in all, then waits doubling to 15 min). About 60 guesses a night at an event:
1 chance in 1.6 million. The phone that creates an event holds its code; the host
(`scorer.rights`) holds every event. Codes never go into an event's file or its
export. The file is written atomically by the one process holding the data
folder's lock; an unreadable one is set aside and the codes start afresh (the
host can still open every event and read its new code).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re
import secrets
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorer.rights.limiter import Backoff, TooManyTries, WrongCode
from scorer.rights.service import ADDRESS_FREE_TRIES, GAME_FREE_TRIES, WAIT_CAP_S
from scorer.store.atomic_storage import atomic_write_bytes, move_aside, read_json_file
from scorer.store.errors import DamagedFile, StoreError, not_saved
from scorer.text.codes import code_digits

if TYPE_CHECKING:
    from scorer.rights.pg_limiter import PgBackoff

logger = logging.getLogger(__name__)

CODES_FILE = "event_codes.json"
FORMAT = "tarabish-event-codes/1"
CODE_DIGITS = 8
MAX_DEVICES = 20
"""Phones kept per event (the organiser and a few helpers); the one not seen longest
goes first."""
_ID_RE = re.compile(r"^[0-9a-f]{8}$")
_CODE_RE = re.compile(r"^[0-9]{8}$")


class NotOrganiser(StoreError):
    """This phone may watch the event but not change it."""

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or "Only the organiser can change this club night: enter "
                                    "the organiser code first.")


def _key(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class OrganiserCodes:
    """The organiser codes of one data folder, and the brake on guessing them."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / CODES_FILE
        self._lock = threading.Lock()
        self._events = self._load()
        self.backoff: Backoff | PgBackoff = Backoff(free=ADDRESS_FREE_TRIES, cap=WAIT_CAP_S,
                                                    forget_after=3600.0)
        self.event_backoff: Backoff | PgBackoff = Backoff(free=GAME_FREE_TRIES, cap=WAIT_CAP_S,
                                     forget_after=6 * 3600.0)

    def code(self, event_id: str) -> str | None:
        with self._lock:
            entry = self._events.get(event_id)
            return None if entry is None else str(entry["code"])

    def holds(self, event_id: str, token: str | None) -> bool:
        if not token:
            return False
        with self._lock:
            entry = self._events.get(event_id)
            return entry is not None and _key(token) in entry["devices"]

    def held_by(self, token: str | None) -> set[str]:
        """The events whose organiser code this phone holds."""
        if not token:
            return set()
        key = _key(token)
        with self._lock:
            return {eid for eid, entry in self._events.items() if key in entry["devices"]}

    def start(self, event_id: str, token: str | None) -> str:
        """Give the event a code (if it has none) and to `token` (None: to nobody yet,
        for an event made on the command line); returns the code."""
        with self._lock:
            entry = self._events.get(event_id)
            if entry is None:
                code = f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}"
                entry = self._events[event_id] = {"code": code, "devices": {}}
            if token:
                self._hold(entry, token)
            self._save()
            return str(entry["code"])

    def enter(self, event_id: str, token: str, address: str, code: str) -> None:
        """Make `token` an organiser of the event for its right code; raises WrongCode
        or TooManyTries (the wait) otherwise. `address` is the connection's, as the
        server's socket saw it: a new token buys no new tries."""
        with self.event_backoff.turn(event_id):  # across processes: one guess at a time
            self._enter(event_id, token, address, code)

    def _enter(self, event_id: str, token: str, address: str, code: str) -> None:
        here = f"{event_id}|addr|{address}"
        wait = max(self.backoff.wait_left(here), self.event_backoff.wait_left(event_id))
        if wait > 0:
            raise TooManyTries(wait)
        typed = code_digits(code)
        right = self.code(event_id)
        if right is None or not hmac.compare_digest(typed.encode(), right.encode()):
            wait = max(self.backoff.failed(here), self.event_backoff.failed(event_id))
            if wait > 0:
                raise TooManyTries(wait)
            left = min(self.backoff.tries_left(here), self.event_backoff.tries_left(event_id))
            raise WrongCode(f"That is not this club night's organiser code ({left} more "
                            f"{'try' if left == 1 else 'tries'} before a wait).")
        self.backoff.succeeded(here)
        self._grant(event_id, token)

    def move(self, old: str, new: str) -> int:
        """Give `new` the events `old` organises and take them from `old`; how many
        (`TableRights.move_device`)."""
        old_key, new_key = _key(old), _key(new)
        if old_key == new_key:
            return 0
        with self._lock:
            moved = 0
            for entry in self._events.values():
                devices: dict[str, str] = entry["devices"]
                if old_key in devices:
                    devices[new_key] = devices.pop(old_key)
                    moved += 1
            if moved:
                self._save()
            return moved

    # -- inside ----------------------------------------------------------------------------

    def _grant(self, event_id: str, token: str) -> None:
        """`token` entered the event's right code: it organises the event now."""
        with self._lock:
            self._hold(self._events[event_id], token)
            self._save()

    @staticmethod
    def _hold(entry: dict[str, Any], token: str) -> None:
        devices: dict[str, str] = entry["devices"]
        devices[_key(token)] = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        while len(devices) > MAX_DEVICES:
            del devices[min(devices, key=devices.__getitem__)]

    def _load(self) -> dict[str, dict[str, Any]]:
        try:
            return _valid(read_json_file(self.path), str(self.path))
        except FileNotFoundError:
            return {}
        except DamagedFile as exc:
            try:
                kept = f"kept as {move_aside(self.path, self.data_dir / 'damaged')}"
            except OSError:
                kept = "left where it is"
            logger.warning("%s; %s. Organiser codes start afresh.", exc, kept)
            return {}

    def _save(self) -> None:
        data = json.dumps({"format": FORMAT, "events": self._events}, indent=1,
                          sort_keys=True).encode("utf-8")
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(self.path, data)
        except OSError as exc:
            self._events = self._load()  # forget what could not be saved
            raise not_saved(exc) from exc


def _valid(data: Any, where: str) -> dict[str, dict[str, Any]]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DamagedFile(where, f"it is not a {FORMAT} file")
    events = data.get("events")
    if not isinstance(events, dict):
        raise DamagedFile(where, "it has no list of events")
    out: dict[str, dict[str, Any]] = {}
    for event_id, entry in events.items():
        if not (_ID_RE.match(str(event_id)) and isinstance(entry, dict)
                and _CODE_RE.match(str(entry.get("code", "")))
                and isinstance(entry.get("devices"), dict)):
            raise DamagedFile(where, f"the entry of event {str(event_id)[:20]!r} is not valid")
        out[str(event_id)] = {"code": str(entry["code"]),
                              "devices": {str(k): str(v) for k, v in entry["devices"].items()}}
    return out


__all__ = ["NotOrganiser", "OrganiserCodes", "TooManyTries", "WrongCode"]
