"""A full disk or a read-only folder, by injection (tests run as root, where
chmod does not stop writes): the calls that write under one folder fail the
way the OS fails them; everything else on the machine works as usual."""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


@contextmanager
def failing_writes(monkeypatch: pytest.MonkeyPatch, folder: Path, code: int = errno.ENOSPC,
                   calls: tuple[str, ...] = ("open", "write", "fsync", "replace", "mkdir",
                                             "unlink")) -> Iterator[list[str]]:
    """While inside, `calls` that write under `folder` raise OSError(`code`); yields the
    list of refused calls (so a test can check the store really tried)."""
    folder = folder.resolve()
    refused: list[str] = []
    real = {name: getattr(os, name) for name in calls}

    def under(path: Any) -> bool:
        try:
            return Path(os.fsdecode(path)).resolve().is_relative_to(folder)
        except (TypeError, ValueError):
            return False

    def fd_under(fd: int) -> bool:
        try:
            return under(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            return False

    def fail(name: str, what: Any) -> None:
        refused.append(f"{name} {what}")
        raise OSError(code, os.strerror(code), str(what))

    def fake_open(path: Any, flags: int, mode: int = 0o777, *a: Any, **k: Any) -> int:
        if flags & WRITE_FLAGS and under(path):
            fail("open", path)
        return int(real["open"](path, flags, mode, *a, **k))

    def fake_write(fd: int, data: Any) -> int:
        if fd_under(fd):
            fail("write", fd)
        return int(real["write"](fd, data))

    def fake_fsync(fd: Any) -> None:
        if not isinstance(fd, int):
            fd = fd.fileno()
        if fd_under(fd) and not Path(os.readlink(f"/proc/self/fd/{fd}")).is_dir():
            fail("fsync", fd)
        real["fsync"](fd)

    def fake_replace(src: Any, dst: Any, *a: Any, **k: Any) -> None:
        if under(src) or under(dst):
            fail("replace", dst)
        real["replace"](src, dst, *a, **k)

    def fake_mkdir(path: Any, *a: Any, **k: Any) -> None:
        if under(path) and not os.path.isdir(path):
            fail("mkdir", path)
        real["mkdir"](path, *a, **k)

    def fake_unlink(path: Any, *a: Any, **k: Any) -> None:
        # Deleting needs no space; only a read-only folder refuses it.
        if code != errno.ENOSPC and under(path):
            fail("unlink", path)
        real["unlink"](path, *a, **k)

    fakes = {"open": fake_open, "write": fake_write, "fsync": fake_fsync,
             "replace": fake_replace, "mkdir": fake_mkdir, "unlink": fake_unlink}
    with monkeypatch.context() as m:
        for name in calls:
            m.setattr(os, name, fakes[name])
        yield refused


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (names relative), with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}
