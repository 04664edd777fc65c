"""What the steps of `tarabish build-web` work with: the phone's own Python at build
time, the build cache and the progress shown.

The phone's Python at build time is Pyodide (flet-web's copy) under Node.js. The
build runs three scripts in it: precompile.mjs (bytecode), stdlib_needs.mjs (which
standard library modules the app can import) and snapshot.mjs (the memory
snapshot). Without Node.js the site works the same, only slower to start.
"""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from scorer.machine.disk_cache import digest_of
from scorer.webbuild.build_cache import BuildCache, file_digest
from scorer.webbuild.progress import Progress, run_watched

HERE = Path(__file__).resolve().parent
TIMEOUT_S = 900


class Node:
    """Runs the build's scripts; `runs` counts them by name (tests, the build's report).
    `say` gets what a user should read (a missing Node.js, a script that failed)."""

    def __init__(self, exe: str | None = None, say: Callable[[str], None] = print) -> None:
        self.exe = exe if exe is not None else shutil.which("node")
        self.say = say
        self.runs: Counter[str] = Counter()
        self._told_missing = False

    @property
    def available(self) -> bool:
        if self.exe is None and not self._told_missing:
            self._told_missing = True
            self.say("Node.js not found: the phone will compile the Python at each start "
                     "and start Python from scratch (slower). Install Node.js 20+ for a "
                     "faster app.")
        return self.exe is not None

    def run(self, script: str, *args: str | Path, failed: str, makes: Path | None = None,
            watch: Callable[[], None] | None = None) -> bool:
        """Run `script` (a file beside this one); whether it worked (and wrote `makes`).
        If not, says `failed` with the end of its errors. `watch` is called a few times
        a second while it runs (to move a progress bar)."""
        self.runs[script] += 1
        if self.exe is None:
            return False
        code, _out, errors = run_watched([self.exe, str(HERE / script), *map(str, args)],
                                         TIMEOUT_S, watch)
        if code == 0 and (makes is None or makes.is_file()):
            return True
        self.say(f"{failed}:\n" + errors[-2000:])
        return False


def flet_web_dir() -> Path:
    """The installed flet-web wheel's web client (with the phone's Pyodide inside)."""
    from flet_web import get_package_web_dir

    return Path(get_package_web_dir())


@dataclass
class Tools:
    """One build's tools. `web`: the web client the site is made from (flet-web's by
    default; tests give a small fake one)."""

    web: Path = field(default_factory=flet_web_dir)
    cache: BuildCache = field(default_factory=BuildCache)
    progress: Progress = field(default_factory=Progress)
    node: Node | None = None

    def __post_init__(self) -> None:
        if self.node is None:
            self.node = Node(say=self.progress.say)

    @property
    def python(self) -> Node:
        assert self.node is not None
        return self.node

    @property
    def pyodide(self) -> Path:
        """The Pyodide runtime the phone runs."""
        return self.web / "pyodide"

    @cached_property
    def runtime(self) -> str:
        """What a module's bytecode depends on besides its source and name: the phone's
        CPython (Pyodide's build) and the script that compiles."""
        from scorer.webbuild.wheels import PYODIDE_VERSION

        return digest_of(PYODIDE_VERSION, file_digest(self.pyodide / "pyodide.asm.wasm"),
                         (HERE / "precompile.mjs").read_bytes())
