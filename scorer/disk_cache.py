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
  working, only slower.

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
from pathlib import Path

logger = logging.getLogger(__name__)

MAGIC = b"TBC1"
_DIGEST_SIZE = 16
_HEAD = len(MAGIC) + _DIGEST_SIZE
_TMP = ".tmp-"
"""Temporary files start with this; one older than STALE_TMP_S was left by a crash."""
STALE_TMP_S = 3600
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
        """Bytes in the folder as this process last counted them (None: not yet)."""
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
            os.replace(tmp, path)
        except OSError as exc:
            logger.info("could not keep %s in the cache: %s", key, exc)
            with contextlib.suppress(OSError):
                tmp.unlink()
            return False
        with self._lock:
            self.writes += 1
            if self._size is not None:
                self._size += size
            over = self._size is None or self._size > self.max_bytes
        if over:
            self.trim()
        return True

    def size(self) -> int:
        """Bytes of every entry in the folder now (temporary files included)."""
        return sum(size for _p, size, _t in self._entries())

    def trim(self) -> None:
        """Delete the least recently used entries until the folder holds at most
        `max_bytes`, and temporary files left by a crash."""
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
        with self._lock:
            self._size = total

    def _entries(self) -> list[tuple[Path, int, float]]:
        found: list[tuple[Path, int, float]] = []
        try:
            with os.scandir(self.folder) as it:
                for entry in it:
                    with contextlib.suppress(OSError):
                        if entry.is_file(follow_symlinks=False):
                            st = entry.stat(follow_symlinks=False)
                            found.append((Path(entry.path), st.st_size, st.st_mtime))
        except OSError:
            return []
        return found
