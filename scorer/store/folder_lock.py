"""One writer per data folder: an OS lock on DATA/tarabish.lock.

Two servers on one folder each keep their own picture of the games and of
`table_codes.json` in memory, so each overwrites what the other saved. So
every process that writes (the table server, `tarabish import`, any GameStore
opened for writing) holds an exclusive lock on the lock file for as long as it
may write: `flock` on POSIX, `msvcrt.locking` on Windows. The OS drops it when
the process ends, however it ends, so a lock file left behind by a killed
server blocks nobody: only a live holder does. The holder writes who it is
into the file (process id, what it is, its address, since when) so that a
refused process can name it. Readers (`games`, `export`, `check`) take no
lock and write nothing.

Inside one process the lock is counted: every GameStore opened for writing on
the folder shares the one lock, which is released with the last of them. A
forked child does not inherit it (it is another process, with its own store).
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import sys
import threading
import time
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from scorer.store.atomic_storage import write_all
from scorer.store.errors import StoreError

logger = logging.getLogger(__name__)

LOCK_FILE = "tarabish.lock"
_MAX_HOLDER_BYTES = 4096  # the holder note is ~200 bytes; never read a huge file
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
# The folder cannot take a lock file; then nothing can be written there either.
_CANNOT_WRITE = frozenset({errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOSPC,
                           getattr(errno, "EDQUOT", errno.ENOSPC)})
# Windows locks are mandatory: lock a byte far past the note so it stays readable.
_WINDOWS_LOCK_OFFSET = 1 << 30


class Holder(BaseModel):
    """Who holds a data folder's lock, as written in the lock file."""

    model_config = ConfigDict(frozen=True)

    pid: int
    what: str
    since: datetime
    address: str | None = None
    key: str | None = None
    """Secret that lets `tarabish import` hand its games to this server
    (the lock file is readable by its owner only)."""

    def describe(self) -> str:
        """E.g. the table server at http://localhost:8550/ (process 42, since 2025-06-01 20:15)."""
        at = f" at {self.address}" if self.address else ""
        since = self.since.astimezone().strftime("%Y-%m-%d %H:%M")
        return f"{self.what}{at} (process {self.pid}, since {since})"


class FolderBusy(StoreError):
    """Another process holds the data folder's lock; nothing was changed."""

    def __init__(self, folder: Path, holder: Holder | None) -> None:
        who = holder.describe() if holder is not None else "another Tarabish program"
        super().__init__(f"The games in {folder} are in use by {who}.")
        self.folder = folder
        self.holder = holder


@dataclass
class _Held:
    fd: int | None  # None: the folder could not take a lock file (read-only)
    count: int
    holder: Holder


_registry_lock = threading.Lock()
_held: dict[Path, _Held] = {}
# Leases the garbage collector dropped while the registry was busy. The
# collector runs a finalizer on whatever thread allocates, possibly inside
# acquire() on this very thread: waiting for the registry there would wait for
# ever, so such a release is queued and done by whoever holds the registry next.
_dropped: list[tuple[Path, _Held]] = []


@contextlib.contextmanager
def _registry() -> Iterator[None]:
    """The registry, held; leases dropped meanwhile are released before it is let go."""
    with _registry_lock:
        try:
            yield
        finally:
            _release_dropped()
    if _dropped:  # dropped after the last look: take them now if nobody else will
        _release_dropped_if_free()


def _release_dropped() -> None:
    while _dropped:
        folder, held = _dropped.pop()
        _release_held(folder, held)


def _release_dropped_if_free() -> None:
    if _registry_lock.acquire(blocking=False):
        try:
            _release_dropped()
        finally:
            _registry_lock.release()


class FolderLease:
    """This process's share of a folder's lock. `release()` it, or drop the last
    reference; the lock itself ends with the last lease of the process."""

    def __init__(self, folder: Path, held: _Held) -> None:
        self.folder = folder
        self._held = held
        self._finalizer = weakref.finalize(self, _dropped_by_collector, folder, held)

    @property
    def locked(self) -> bool:
        """False when the folder could not take a lock file (it is read-only)."""
        with _registry():
            held = _held.get(self.folder)
            return held is not None and held.fd is not None

    @property
    def holder(self) -> Holder | None:
        with _registry():
            held = _held.get(self.folder)
            return None if held is None else held.holder

    def describe(self, *, what: str | None = None, address: str | None = None,
                 key: str | None = None) -> None:
        """Change what the lock file says about this process (e.g. the server's
        address once it listens)."""
        with _registry():
            held = _held.get(self.folder)
            if held is None:
                return
            changes = {k: v for k, v in (("what", what), ("address", address), ("key", key))
                       if v is not None}
            held.holder = held.holder.model_copy(update=changes)
            if held.fd is not None:
                _write_note(held.fd, held.holder)

    def release(self) -> None:
        if self._finalizer.detach() is not None:
            with _registry():
                _release_held(self.folder, self._held)


def acquire(folder: Path, what: str = "another Tarabish program", *,
            address: str | None = None, key: str | None = None) -> FolderLease:
    """Take (or share, inside this process) the folder's lock; creates the folder.

    Raises FolderBusy if another process holds it, OSError if the folder
    cannot be made.
    """
    folder = Path(folder).resolve()
    with _registry():
        held = _held.get(folder)
        if held is None:
            fd = _lock(folder)
            holder = Holder(pid=os.getpid(), what=what, since=datetime.now(UTC),
                            address=address, key=key)
            held = _held[folder] = _Held(fd, 0, holder)
            if fd is not None:
                _write_note(fd, holder)
        held.count += 1
    return FolderLease(folder, held)


def current_holder(folder: Path) -> Holder | None:
    """Who the lock file says holds the folder (None if unreadable or not said yet).

    Only meaningful after the lock was found taken: a note left by a process
    that has ended stays in the file, and means nothing.
    """
    path = Path(folder) / LOCK_FILE
    for _attempt in range(10):  # the holder writes its note just after locking
        try:
            fd = os.open(path, os.O_RDONLY | _O_CLOEXEC)
        except OSError:
            return None
        try:
            raw = os.read(fd, _MAX_HOLDER_BYTES)
        except OSError:
            return None
        finally:
            os.close(fd)
        if raw.strip():
            try:
                return Holder.model_validate(json.loads(raw))
            except (ValueError, ValidationError):
                return None
        time.sleep(0.02)
    return None


def _dropped_by_collector(folder: Path, lease_of: _Held) -> None:
    _dropped.append((folder, lease_of))  # never waits: see _dropped
    _release_dropped_if_free()


def _release_held(folder: Path, lease_of: _Held) -> None:
    """One lease fewer; the registry is held."""
    held = _held.get(folder)
    if held is not lease_of:  # a lease from before a fork: not this process's lock
        return
    held.count -= 1
    if held.count > 0:
        return
    del _held[folder]
    if held.fd is not None:
        with contextlib.suppress(OSError):
            os.ftruncate(held.fd, 0)  # a tidy file; the lock is what counts
        os.close(held.fd)  # closing the descriptor drops the OS lock


def _lock(folder: Path) -> int | None:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | _O_CLOEXEC, 0o600)
    except OSError as exc:
        if exc.errno not in _CANNOT_WRITE:
            raise
        try:  # an existing lock file can be locked through a read-only descriptor
            fd = os.open(path, os.O_RDONLY | _O_CLOEXEC)
        except OSError:
            logger.warning("no lock file in %s (%s): saving will fail there anyway",
                           folder, exc.strerror)
            return None
    try:
        _os_lock(fd)
    except OSError as exc:
        os.close(fd)
        if exc.errno not in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES, errno.EDEADLK):
            raise
        raise FolderBusy(folder, current_holder(folder)) from None
    if hasattr(os, "fchmod"):
        with contextlib.suppress(OSError):
            os.fchmod(fd, 0o600)  # the note holds the import key
    return fd


def _os_lock(fd: int) -> None:
    """Lock without waiting; raises OSError (EAGAIN/EACCES) if another process holds it."""
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _write_note(fd: int, holder: Holder) -> None:
    """Write who holds the lock; best effort (a full disk must not stop the server)."""
    data = holder.model_dump_json().encode("utf-8")
    try:
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        write_all(fd, data)
    except OSError as exc:
        logger.warning("could not write who holds the data folder (%s)", exc.strerror)


def _forget_after_fork() -> None:
    # The child shares the parent's lock descriptors; closing them (never
    # unlocking, which would free the parent's lock) makes the child a process
    # of its own that must take the lock itself.
    global _registry_lock
    _registry_lock = threading.Lock()
    _dropped.clear()
    for held in _held.values():
        if held.fd is not None:
            with contextlib.suppress(OSError):
                os.close(held.fd)
    _held.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)
