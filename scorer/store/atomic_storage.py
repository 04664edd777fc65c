"""Crash-safe file writes, and the TinyDB storage built on them.

TinyDB's JSONStorage rewrites its file in place, so a crash mid-write leaves a
torn file. Here every write goes to a temp file in the same folder, is flushed
and fsynced, then `os.replace`d over the old file (atomic on POSIX and
Windows), and the folder is fsynced so the rename itself survives power loss.
A reader therefore sees either the old file or the new one, never a mix.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tinydb.storages import Storage

from scorer.store.errors import DamagedFile

logger = logging.getLogger(__name__)

TEMP_SUFFIX = ".tmp"


def _fsync_file(fd: int) -> None:
    # On macOS plain fsync does not flush the drive's cache; F_FULLFSYNC does.
    if sys.platform == "darwin":
        import fcntl

        full = getattr(fcntl, "F_FULLFSYNC", None)
        if full is not None:
            with contextlib.suppress(OSError):
                fcntl.fcntl(fd, full)
                return
    os.fsync(fd)


def fsync_dir(folder: Path) -> None:
    """Make a rename or unlink in `folder` durable (a no-op where folders can't be opened)."""
    if os.name == "nt":  # Windows cannot open a directory; NTFS journals the rename.
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """os.write until all of `data` is written (a short write is not an error)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:  # never seen on a regular file; do not spin if it happens
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[written:]


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Replace `path` with `data` so that a crash leaves the old or the new file, whole.

    Raises OSError (disk full, read-only folder...) with `path` untouched and
    no temp file left behind.
    """
    folder = path.parent
    fd, tmp_name = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
    tmp = Path(tmp_name)
    try:
        try:
            write_all(fd, data)
            _fsync_file(fd)
        finally:
            os.close(fd)
        _replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    try:
        fsync_dir(folder)
    except OSError:
        # The new file is already in place and every reader sees it: saying
        # "nothing was saved" now would be false. Only its durability across
        # a power cut is in doubt.
        logger.warning("could not fsync %s after replacing %s", folder, path.name, exc_info=True)


def _replace(src: Path, dst: Path) -> None:
    # Windows refuses to replace a file another thread has open for reading at
    # that instant; readers hold files for microseconds, so retry briefly.
    for attempt in range(20):
        try:
            os.replace(src, dst)
            return
        except PermissionError:
            if os.name != "nt" or attempt == 19:
                raise
            time.sleep(0.005)


def remove_stale_temp_files(folder: Path, older_than_s: float = 600.0) -> int:
    """Delete temp files left by writes that crashed; returns how many.

    Only old ones: a young temp file may belong to a write in progress in
    another process (e.g. `tarabish import` while the server runs).
    """
    removed = 0
    now = time.time()
    with contextlib.suppress(FileNotFoundError):
        for entry in os.scandir(folder):
            if not (entry.name.startswith(".") and entry.name.endswith(TEMP_SUFFIX)):
                continue
            with contextlib.suppress(OSError):
                if now - entry.stat().st_mtime > older_than_s:
                    os.unlink(entry.path)
                    removed += 1
    return removed


def move_aside(path: Path, damaged_dir: Path, when: datetime | None = None) -> Path:
    """Move an unreadable file into `damaged_dir`, stamped with the time; returns the new path.

    The file is kept (not deleted) so a person can still recover what is in it.
    """
    stamp = (when or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    damaged_dir.mkdir(parents=True, exist_ok=True)
    target = damaged_dir / f"{path.stem}.{stamp}{path.suffix}"
    n = 1
    while target.exists():
        n += 1
        target = damaged_dir / f"{path.stem}.{stamp}-{n}{path.suffix}"
    os.replace(path, target)
    with contextlib.suppress(OSError):
        fsync_dir(path.parent)
        fsync_dir(damaged_dir)
    return target


def read_json_file(path: Path) -> Any:
    """Parse a JSON file; raises FileNotFoundError, or DamagedFile if it does not parse."""
    raw = path.read_bytes()
    if not raw.strip():
        raise DamagedFile(str(path), "the file is empty")
    try:
        return json.loads(raw)
    except UnicodeDecodeError as e:
        raise DamagedFile(str(path), f"it is not text ({e.reason})") from e
    except json.JSONDecodeError as e:
        raise DamagedFile(
            str(path), f"it is not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})"
        ) from e


class AtomicJSONStorage(Storage):
    """A TinyDB storage that never leaves a torn file behind.

    Holds no file handle between calls, so many TinyDB instances (threads) can
    point at the same path; callers serialize writes with their own lock.
    `read` raises DamagedFile for a file that exists but does not parse.
    """

    def __init__(self, path: str | Path, *, indent: int | None = None) -> None:
        super().__init__()
        self.path = Path(path)
        self.indent = indent

    def read(self) -> dict[str, dict[str, Any]] | None:
        try:
            data = read_json_file(self.path)
        except FileNotFoundError:
            return None
        if not isinstance(data, dict) or not all(isinstance(t, dict) for t in data.values()):
            raise DamagedFile(str(self.path), "it is not a table file")
        return data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        seps = (",", ":") if self.indent is None else (",", ": ")
        text = json.dumps(data, ensure_ascii=False, indent=self.indent, separators=seps)
        atomic_write_bytes(self.path, text.encode("utf-8"))
