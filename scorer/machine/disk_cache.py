"""Work worth keeping between runs, on disk by key: compressed page files, build steps.

A `DiskCache` is one folder of entries, one file each, at most `max_bytes` in all
(the least recently used go first). It is only ever a cache: the folder may be
deleted at any time, and anything wrong with an entry makes it a miss, never an
error:

- an entry is written to a temporary file in the same folder and renamed into
  place, so a reader (another server, another build) sees a whole entry or none;
- an entry carries a checksum of its bytes: a damaged or truncated one is a miss
  (and the caller makes it again, which replaces it);
- a folder that cannot be written (read-only, disk full) leaves the caller
  working, only slower;
- the bound holds for every process sharing the folder (two servers, a server and
  a build): each put adds its size to a ledger in the folder (`.size`) under an OS
  lock (flock; without one, as on Windows, each process counts only what it has
  seen, and the folder may hold up to the bound per process), and the ledger over
  the bound, missing or unreadable makes the folder counted again and trimmed.

Not shipped to phones (scorer.webbuild.site.APP_SKIPPED).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
import secrets
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

try:
    import fcntl
except ImportError:  # Windows: no lock between processes (see the module docstring)
    fcntl = None  # type: ignore[assignment]

logger = logging.getLogger(__name__)

MAGIC = b"TBC1"
_DIGEST_SIZE = 16
_HEAD = len(MAGIC) + _DIGEST_SIZE
_TMP = ".tmp-"
"""Temporary files start with this; one older than STALE_TMP_S was left by a crash."""
STALE_TMP_S = 3600
LEDGER = ".size"
"""The folder's bytes in all, as the processes sharing it counted them (ASCII digits)."""
_KEY = re.compile(r"[0-9A-Za-z][0-9A-Za-z._-]{0,159}")


class CacheKeyError(ValueError):
    """A key that cannot be a file name of the cache (a bug of the caller)."""


def digest_of(*parts: bytes | str) -> str:
    """A key made of `parts` (32 hex digits): each part is length-prefixed, so
    ("ab", "c") and ("a", "bc") differ."""
    h = hashlib.blake2b(digest_size=16)
    for part in parts:
        raw = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(raw).to_bytes(8, "little"))
        h.update(raw)
    return h.hexdigest()


class DiskCache:
    """See the module docstring. Counters (`hits`, `misses`, `damaged`, `writes`) are
    for tests and benchmarks."""

    def __init__(self, folder: Path, max_bytes: int) -> None:
        self.folder = Path(folder)
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._size: int | None = None
        """Bytes in the folder as this process last counted them (None: not yet); used
        only where there is no lock between processes."""
        self._scanned = False
        """Whether this process has counted the folder (and removed what crashed
        writers left) since it opened it."""
        self.hits = 0
        self.misses = 0
        self.damaged = 0
        self.writes = 0

    def _path(self, key: str) -> Path:
        if not _KEY.fullmatch(key):
            raise CacheKeyError(f"not a cache key: {key!r}")
        return self.folder / key

    def get(self, key: str) -> bytes | None:
        """The bytes put under `key`, or None (never put, evicted, damaged)."""
        path = self._path(key)
        try:
            raw = path.read_bytes()
        except OSError:
            with self._lock:
                self.misses += 1
            return None
        body = memoryview(raw)[_HEAD:]
        if (len(raw) < _HEAD or raw[:len(MAGIC)] != MAGIC
                or hashlib.blake2b(body, digest_size=_DIGEST_SIZE).digest()
                != raw[len(MAGIC):_HEAD]):
            logger.info("ignoring a damaged cache entry: %s", path)
            with self._lock:
                self.damaged += 1
                self.misses += 1
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: evicted last
        with self._lock:
            self.hits += 1
        return bytes(body)

    def put(self, key: str, data: bytes) -> bool:
        """Keep `data` under `key` (replacing what was there); False if it could not
        be kept (too big for the cache, or the folder cannot be written)."""
        path = self._path(key)
        size = _HEAD + len(data)
        if size > self.max_bytes:
            return False
        tmp = self.folder / f"{_TMP}{key}.{os.getpid()}.{secrets.token_hex(4)}"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with tmp.open("wb") as f:
                f.write(MAGIC)
                f.write(hashlib.blake2b(data, digest_size=_DIGEST_SIZE).digest())
                f.write(data)
            with self._ledger() as ledger:
                try:
                    replaced = path.stat().st_size
                except FileNotFoundError:
                    replaced = 0
                os.replace(tmp, path)
                total = self._read_total(ledger)
                if total is not None:
                    total += size - replaced
                if total is None or total > self.max_bytes or not self._scanned:
                    total = self._trim()  # the first put of a process too: a crash's leftovers
                self._write_total(ledger, total)
        except OSError as exc:
            logger.info("could not keep %s in the cache: %s", key, exc)
            with contextlib.suppress(OSError):
                tmp.unlink()
            return False
        with self._lock:
            self.writes += 1
        return True

    def names(self) -> list[str]:
        """The keys of the entries now (not the ledger, nor files being written)."""
        return sorted(p.name for p, _size, _t in self._entries()
                      if not p.name.startswith(_TMP))

    def size(self) -> int:
        """Bytes of every entry in the folder now (temporary files included)."""
        return sum(size for _p, size, _t in self._entries())

    def trim(self) -> None:
        """Delete the least recently used entries until the folder holds at most
        `max_bytes`, and temporary files left by a crash."""
        try:
            with self._ledger() as ledger:
                self._write_total(ledger, self._trim())
        except OSError as exc:
            logger.info("could not trim the cache %s: %s", self.folder, exc)

    def _trim(self) -> int:
        """trim() with the ledger held: the bytes left."""
        entries = sorted(self._entries(), key=lambda e: e[2])
        total = sum(size for _p, size, _t in entries)
        now = time.time()
        for path, size, mtime in entries:
            stale = path.name.startswith(_TMP) and now - mtime > STALE_TMP_S
            if total <= self.max_bytes and not stale:
                continue
            if path.name.startswith(_TMP) and not stale:
                continue  # being written by someone now
            try:
                path.unlink()
            except FileNotFoundError:
                pass  # another process trimmed it
            except OSError:
                continue
            total -= size
        self._scanned = True
        return total

    @contextlib.contextmanager
    def _ledger(self) -> Iterator[IO[bytes] | None]:
        """The ledger, locked against every other process and thread, for the time of
        a change of the folder; None (and a lock between this process's threads only)
        where the OS has no flock."""
        if fcntl is None:
            with self._lock:
                yield None
            return
        with open(self.folder / LEDGER, "a+b") as ledger:
            fcntl.flock(ledger, fcntl.LOCK_EX)
            yield ledger  # the lock goes with the file's closing

    def _read_total(self, ledger: IO[bytes] | None) -> int | None:
        if ledger is None:
            return self._size
        ledger.seek(0)
        text = ledger.read(32)
        return int(text) if text.isdigit() else None

    def _write_total(self, ledger: IO[bytes] | None, total: int) -> None:
        if ledger is None:
            self._size = total
            return
        ledger.seek(0)
        ledger.truncate()
        ledger.write(b"%d" % total)
        ledger.flush()

    def _entries(self) -> list[tuple[Path, int, float]]:
        found: list[tuple[Path, int, float]] = []
        try:
            with os.scandir(self.folder) as it:
                for entry in it:
                    with contextlib.suppress(OSError):
                        if entry.name != LEDGER and entry.is_file(follow_symlinks=False):
                            st = entry.stat(follow_symlinks=False)
                            found.append((Path(entry.path), st.st_size, st.st_mtime))
        except OSError:
            return []
        return found
