"""What `tarabish build-web` keeps between builds: each step's output, by its inputs.

Everything a step makes is kept in the user cache folder (`build/` of
~/.cache/tarabish, or $TARABISH_CACHE), keyed by a digest of exactly what it was
made from: a module's bytecode by its source, name and the phone's Python; the
standard library the app needs by the imports of the app; the memory snapshot by
the runtime, app.zip and the names imported; a compressed copy by the file's
content and the quality. A rebuild with nothing changed makes nothing again; a
changed file remakes only what was made from it. `--clean` reads nothing from it
(and refreshes it). It is bounded and may be deleted at any time (scorer.machine.disk_cache).
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from scorer.machine.disk_cache import DiskCache, digest_of
from scorer.machine.paths import user_cache_dir

BUILD_CACHE_BYTES = 512 * 1024 * 1024
"""About 110 MB per version of the site (compressed copies, snapshot, bytecode)."""


class BuildCache:
    """Outputs by (kind, inputs). `clean`: every get misses (a build from scratch)."""

    def __init__(self, folder: Path | None = None, max_bytes: int = BUILD_CACHE_BYTES,
                 clean: bool = False) -> None:
        self.disk = DiskCache(folder if folder is not None else user_cache_dir() / "build",
                              max_bytes)
        self.clean = clean

    @staticmethod
    def key(kind: str, *inputs: bytes | str) -> str:
        return f"{kind}-{digest_of(*inputs)}"

    def get(self, kind: str, *inputs: bytes | str) -> bytes | None:
        return None if self.clean else self.disk.get(self.key(kind, *inputs))

    def put(self, data: bytes, kind: str, *inputs: bytes | str) -> None:
        self.disk.put(self.key(kind, *inputs), data)


def file_digest(path: Path) -> str:
    """sha256 of a file's content (hex)."""
    return _file_digest(path.resolve(), path.stat().st_mtime_ns, path.stat().st_size)


@cache
def _file_digest(path: Path, _mtime_ns: int, _size: int) -> str:
    # Once per file and version of it per process: the runtime's 10 MB are read once.
    return hashlib.sha256(path.read_bytes()).hexdigest()
