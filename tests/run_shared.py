"""What the test workers of one run share (pytest-xdist runs the tests in several
processes): a folder of the run, and work done once in it for all of them.

Without xdist (`-n 0`) the run is one process and the folder is its own.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

try:
    import fcntl
except ImportError:  # Windows: no lock between processes, so each worker works alone
    fcntl = None  # type: ignore[assignment]


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder every worker of this run sees: the parent of the workers' own base
    folders (xdist's documented way); the base folder itself without xdist."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER") and fcntl is not None:
        return base.parent
    return base


@contextlib.contextmanager
def held(lock_file: Path) -> Iterator[None]:
    """An OS lock on `lock_file` (made if missing) for the block: one worker at a time."""
    with lock_file.open("a") as handle:
        if fcntl is not None:
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            if fcntl is not None:
                fcntl.flock(handle, fcntl.LOCK_UN)


def made_once(tmp_path_factory: pytest.TempPathFactory, name: str,
              make: Callable[[Path], None]) -> Path:
    """The folder NAME of this run, filled by `make(folder)` in the first worker that
    asks; the others wait for it (a lock, no polling) and reuse it. A `make` that
    failed leaves no folder: the next worker to ask tries again, and fails alike."""
    root = run_folder(tmp_path_factory)
    folder = root / name
    done = root / f"{name}.done"
    with held(root / f"{name}.lock"):
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            make(folder)
            done.touch()
    return folder
