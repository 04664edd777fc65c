"""Table codes and the phones that hold edit rights, kept in DATA/table_codes.json.

    {"format": "tarabish-table-codes/1",
     "games": {"3f9a0c12": {"code": "482113",
                            "devices": {"<sha256 of device token>": "2025-06-01T20:15:02Z"}}},
     "hosts": {"<sha256 of device token>": "2025-06-01T19:58:40Z"}}

A game's entry may also have "viewers" (same shape as "devices"): the phones that
opened its own address where games are private (a community, `scorer.app.game_sight`).

Every game has a code: the phone that starts a game holds it, and a game that
came some other way (imported, saved before codes existed, its code lost) gets
one that no phone holds yet. `hosts` are the phones that entered the server's
host code (`scorer.rights.service`): they hold every game.

One small file beside the games (not inside them: a `tarabish-game/1` export
must never carry the code). Every change rewrites it atomically
(`atomic_write_bytes`); an unreadable file is moved to DATA/damaged/ and the
server starts with no codes (the games themselves are untouched, and a game
nobody holds can be taken over from its sheet).

Only one process writes the file: the one holding the data folder's lock
(`scorer.store.folder_lock`). Inside it, every TableCodes on the same file
shares one lock, and picks up what another one saved before it changes
anything (`_SharedLock`), so no change is lost to last-writer-wins. A change
that cannot be written (disk full) raises NotSaved and is forgotten.

Codes have six digits: with the brake in `scorer.rights.service` a guesser gets
about 60 tries a night for a game, 1 chance in 16,000 of a million. Files from
before kept 4-digit codes; they are given a 6-digit code when read (phones that
hold the game keep their rights).
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
from typing import Any

from scorer.store.atomic_storage import (
    atomic_write_bytes,
    move_aside,
    read_json_file,
)
from scorer.store.errors import DamagedFile, StoreError, not_saved
from scorer.text.codes import code_digits

logger = logging.getLogger(__name__)

CODES_FILE = "table_codes.json"
FORMAT = "tarabish-table-codes/1"
CODE_DIGITS = 6
MAX_HOSTS = 50
"""Phones kept as hosts; the one not seen longest goes first (a bound on the file)."""
MAX_VIEWERS = 200
"""Phones kept per game as having opened its address (a bound on the file)."""
_GAME_RE = re.compile(r"^[0-9a-f]{8}$")
_CODE_RE = re.compile(r"^(?:[0-9]{4}|[0-9]{6})$")  # 4 digits: files from before


class NotAllowed(StoreError):
    """This phone may watch the game but not change it (no table code entered)."""

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or "This phone is only watching: enter the table code "
                                    "to record, edit or undo hands.")


def device_key(token: str) -> str:
    """What the file keeps of a device token: its SHA-256, never the token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_code() -> str:
    return f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}"


class TableCodes:
    """The codes file of one data folder. Thread-safe; every change is on disk
    before the call returns."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / CODES_FILE
        self._lock = _SharedLock(self)
        self._generation = -1  # forces the first load, under the shared lock
        self._games: dict[str, dict[str, Any]] = {}
        self._hosts: dict[str, str] = {}
        with self._lock:  # entering the lock loads the file
            pass
        self._lengthen_old_codes()

    # -- reading ---------------------------------------------------------

    def code(self, game_id: str) -> str | None:
        """The game's table code, or None if it never got one."""
        with self._lock:
            entry = self._games.get(game_id)
            return None if entry is None else str(entry["code"])

    def is_host(self, token: str | None) -> bool:
        if not token:
            return False
        with self._lock:
            return device_key(token) in self._hosts

    def holders(self, game_id: str) -> int:
        """How many devices hold edit rights for the game."""
        with self._lock:
            entry = self._games.get(game_id)
            return 0 if entry is None else len(entry["devices"])

    def may_edit(self, game_id: str, token: str | None) -> bool:
        if not token:
            return False
        with self._lock:
            entry = self._games.get(game_id)
            return entry is not None and device_key(token) in entry["devices"]

    def held_by(self, token: str | None) -> set[str]:
        """The games this device holds (started them or entered their code)."""
        if not token:
            return set()
        key = device_key(token)
        with self._lock:
            return {gid for gid, entry in self._games.items() if key in entry["devices"]}

    def opened_by(self, token: str | None) -> set[str]:
        """The games this device opened by their own address (`opened`)."""
        if not token:
            return set()
        key = device_key(token)
        with self._lock:
            return {gid for gid, entry in self._games.items()
                    if key in entry.get("viewers", {})}

    def matches(self, game_id: str, code: str) -> bool:
        """Whether `code` is the game's table code (constant-time compare)."""
        with self._lock:
            entry = self._games.get(game_id)
            if entry is None:
                return False
            return hmac.compare_digest(str(entry["code"]).encode(), code_digits(code).encode())

    # -- changing --------------------------------------------------------

    def start(self, game_id: str, token: str, follows: str | None = None) -> str:
        """Give the game a code if it has none and grant `token`; returns the code.
        With `follows` (Play again), every phone that held that game holds this one
        too, in the same write."""
        _check_game_id(game_id)
        with self._lock:
            entry = self._games.get(game_id)
            if entry is None:
                entry = self._games[game_id] = {"code": new_code(), "devices": {}}
            before = self._games.get(follows) if follows is not None else None
            if before is not None:
                stamp = _now()
                entry["devices"].update(dict.fromkeys(before["devices"], stamp))
            entry["devices"][device_key(token)] = _now()
            self._save()
            return str(entry["code"])

    def give_codes(self, game_ids: list[str]) -> list[str]:
        """Give every game in `game_ids` that has no code one that no phone holds yet
        (the host can show it); returns the ids that got one. One write for all."""
        with self._lock:
            new = [g for g in game_ids if g not in self._games and _GAME_RE.match(g)]
            for game_id in new:
                self._games[game_id] = {"code": new_code(), "devices": {}}
            if new:
                self._save()
            return new

    def opened(self, game_id: str, token: str) -> None:
        """Record that `token` opened the game's own address (`/game/<id>`): on a
        community it may see the game from then on. At most MAX_VIEWERS a game, those
        not seen longest let go. A game with no code yet is given one no phone holds."""
        _check_game_id(game_id)
        key = device_key(token)
        with self._lock:
            entry = self._games.get(game_id)
            if entry is None:
                entry = self._games[game_id] = {"code": new_code(), "devices": {}}
            viewers: dict[str, str] = entry.setdefault("viewers", {})
            if key in viewers:
                return  # known already: no write at every visit
            viewers[key] = _now()
            while len(viewers) > MAX_VIEWERS:
                del viewers[min(viewers, key=viewers.__getitem__)]
            self._save()

    def add_host(self, token: str) -> None:
        """Record that `token` entered the host code."""
        with self._lock:
            self._hosts[device_key(token)] = _now()
            while len(self._hosts) > MAX_HOSTS:
                del self._hosts[min(self._hosts, key=self._hosts.__getitem__)]
            self._save()

    def grant(self, game_id: str, token: str) -> None:
        """Record that `token` entered the right code."""
        _check_game_id(game_id)
        with self._lock:
            entry = self._games.get(game_id)
            if entry is None:
                raise NotAllowed("This game has no table code yet.")
            entry["devices"][device_key(token)] = _now()
            self._save()

    def move(self, old: str, new: str) -> int:
        """Give `new` every right `old` holds (games and host) and take them from `old`;
        how many rights moved. For a phone known for a while by a token made for one
        session, whose stored token then arrived (`scorer.app.actions`)."""
        old_key, new_key = device_key(old), device_key(new)
        if old_key == new_key:
            return 0
        with self._lock:
            moved = 0
            for entry in self._games.values():
                devices: dict[str, str] = entry["devices"]
                if old_key in devices:
                    devices[new_key] = devices.pop(old_key)
                    moved += 1
                viewers: dict[str, str] = entry.get("viewers", {})
                if old_key in viewers:
                    viewers[new_key] = viewers.pop(old_key)
                    moved += 1
            if old_key in self._hosts:
                self._hosts[new_key] = self._hosts.pop(old_key)
                moved += 1
            if moved:
                self._save()
            return moved

    def forget(self, game_id: str) -> None:
        """Drop a deleted game's code and rights (a new game never reuses them)."""
        with self._lock:
            if self._games.pop(game_id, None) is not None:
                self._save()

    # -- inside ----------------------------------------------------------

    def _load(self) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
        try:
            data = read_json_file(self.path)
            return _validated(data, str(self.path)), _hosts(data, str(self.path))
        except FileNotFoundError:
            return {}, {}
        except DamagedFile as exc:
            try:
                kept = f"kept as {move_aside(self.path, self.data_dir / 'damaged')}"
            except OSError:  # full disk, read-only folder: reading must still work
                kept = "left where it is"
            logger.warning("%s; %s. Table codes start afresh.", exc, kept)
            return {}, {}

    def _lengthen_old_codes(self) -> None:
        """Give games with a 4-digit code from before a 6-digit one (10,000 codes
        can be worked through; a million cannot)."""
        with self._lock:
            short = [entry for entry in self._games.values()
                     if len(entry["code"]) != CODE_DIGITS]
            if not short:
                return
            for entry in short:
                entry["code"] = new_code()
            try:
                self._save()
            except StoreError as exc:  # full or read-only: old codes stay, still braked
                logger.warning("could not save the longer table codes: %s", exc)

    def _save(self) -> None:
        """Write the file; the caller holds the lock."""
        doc = {"format": FORMAT, "games": self._games, "hosts": self._hosts}
        data = json.dumps(doc, indent=1, sort_keys=True).encode("utf-8")
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(self.path, data)
        except OSError as exc:
            self._games, self._hosts = self._load()  # forget the change that was not saved
            raise not_saved(exc) from exc
        self._lock.saved()


_shared_files_lock = threading.Lock()
_shared_files: dict[Path, tuple[threading.RLock, list[int]]] = {}


class _SharedLock:
    """The lock of one codes file, shared by every TableCodes on it in this process.

    Entering it first reloads the file if another TableCodes saved since this
    one last read or wrote it (a counter per file, not file times, says so).
    """

    def __init__(self, codes: TableCodes) -> None:
        self.codes = codes
        key = codes.path.resolve()
        with _shared_files_lock:  # one entry per data folder this process opens
            if key not in _shared_files:
                _shared_files[key] = (threading.RLock(), [0])
            self._rlock, self._saves = _shared_files[key]

    def __enter__(self) -> None:
        self._rlock.acquire()
        if self.codes._generation != self._saves[0]:
            try:
                self.codes._games, self.codes._hosts = self.codes._load()
            except BaseException:
                self._rlock.release()
                raise
            self.codes._generation = self._saves[0]

    def __exit__(self, *_exc: object) -> None:
        self._rlock.release()

    def saved(self) -> None:
        """This TableCodes wrote the file: the others must read it again."""
        self._saves[0] += 1
        self.codes._generation = self._saves[0]


def _check_game_id(game_id: str) -> None:
    if not isinstance(game_id, str) or not _GAME_RE.match(game_id):
        raise NotAllowed(f"There is no game {game_id!r}.")


def _validated(data: Any, where: str) -> dict[str, dict[str, Any]]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DamagedFile(where, f"it is not a {FORMAT} file")
    games = data.get("games")
    if not isinstance(games, dict):
        raise DamagedFile(where, "it has no game list")
    out: dict[str, dict[str, Any]] = {}
    for game_id, entry in games.items():
        if (
            not _GAME_RE.match(str(game_id))
            or not isinstance(entry, dict)
            or not _CODE_RE.match(str(entry.get("code", "")))
            or not isinstance(entry.get("devices"), dict)
        ):
            raise DamagedFile(where, f"the entry of game {game_id!r} is not valid")
        out[str(game_id)] = {"code": str(entry["code"]),
                             "devices": {str(k): str(v) for k, v in entry["devices"].items()}}
        viewers = entry.get("viewers")
        if isinstance(viewers, dict) and viewers:  # added later: a file may have none
            out[str(game_id)]["viewers"] = {str(k): str(v) for k, v in viewers.items()}
    return out


def _hosts(data: dict[str, Any], where: str) -> dict[str, str]:
    hosts = data.get("hosts", {})
    if not isinstance(hosts, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                              for k, v in hosts.items()):
        raise DamagedFile(where, "its list of hosts is not valid")
    return dict(hosts)


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
