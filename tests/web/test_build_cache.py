"""`tarabish build-web` reuses its steps' work: a rebuild with nothing changed makes
nothing and writes the same bytes; a changed app file remakes only what depends on it.

Built from a tiny fake set of inputs (a web client of a few files, an app of a few
modules, no wheels) and a fake phone's Python in place of Pyodide under Node.js, so
each build takes a moment; the real build goes through the same steps in tests/pwa.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import struct
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from flet_web import get_package_web_dir

from scorer.webbuild.build_cache import BuildCache
from scorer.webbuild.progress import Progress
from scorer.webbuild.site import SiteReport, build_site
from scorer.webbuild.tools import Node, Tools

CACHED_STEPS = ("compile bytecode", "stdlib trim", "snapshot", "compress")
APP_FILE = "scorer/app/main.py"


class FakePython(Node):
    """Stands in for Pyodide under Node.js: 'compiles' by copying the source, lists a
    fixed standard library, makes a snapshot of random bytes (not reproducible, as a
    real one is not)."""

    def __init__(self) -> None:
        super().__init__(exe="fake-node", say=lambda _message: None)
        self.compiled: list[str] = []

    def run(self, script: str, *args: str | Path, failed: str, makes: Path | None = None,
            watch: Callable[[], None] | None = None) -> bool:
        self.runs[script] += 1
        if script == "precompile.mjs":
            _runtime, folder, ddir = (Path(str(a)) for a in args)
            for py in sorted(folder.rglob("*.py")):
                pyc = py.parent / "__pycache__" / f"{py.stem}.cpython-314.pyc"
                pyc.parent.mkdir(exist_ok=True)
                pyc.write_bytes(b"PYC " + str(ddir).encode() + b"\n" + py.read_bytes())
                self.compiled.append(py.relative_to(folder).as_posix())
        elif script == "stdlib_needs.mjs":
            Path(str(args[2])).write_text(json.dumps(["abc", "json", "os"]))
        elif script == "snapshot.mjs":
            heap = os.urandom(4096) + bytes(4096) + os.urandom(4096)
            Path(str(args[-1])).write_bytes(b"PYSN" + struct.pack("<I", 16) + bytes(8) + heap)
        else:
            raise AssertionError(script)
        return True


@pytest.fixture
def inputs(tmp_path: Path) -> tuple[Path, Path]:
    """(a fake web client, fake app sources)."""
    real = Path(get_package_web_dir())
    web = tmp_path / "web"
    (web / "pyodide").mkdir(parents=True)
    for rel in ("index.html", "flutter_bootstrap.js", "main.dart.mjs"):
        shutil.copyfile(real / rel, web / rel)
    (web / "main.dart.wasm").write_bytes(b"(module $main)\n" * 4000)
    (web / "canvaskit").mkdir()
    (web / "canvaskit" / "skwasm.wasm").write_bytes(b"(module $skwasm)\n" * 3000)
    for rel in ("pyodide.asm.wasm", "pyodide.asm.mjs", "pyodide.mjs"):
        (web / "pyodide" / rel).write_bytes(f"// the phone's Python: {rel}\n".encode() * 200)
    (web / "pyodide" / "pyodide-lock.json").write_text('{"info": {}}')
    with zipfile.ZipFile(web / "pyodide" / "python_stdlib.zip", "w") as zf:
        for name in ("abc.py", "os.py", "json/__init__.py", "turtle.py"):
            zf.writestr(name, f"# {name}\n" + "x = 1\n" * 300)
    src = tmp_path / "src"
    files = {
        "rules/__init__.py": "", "rules/score.py": "def total(a, b):\n    return a + b\n",
        "scorer/__init__.py": "", "scorer/app/__init__.py": "",
        APP_FILE: "import json\nimport flet as ft\n\nTITLE = ft.Text('Tarabish')\n",
        "scorer/browser/__init__.py": "", "scorer/browser/start.py": "def run():\n    pass\n",
    }
    for rel, text in files.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text)
    return web, src


def build(tmp_path: Path, inputs: tuple[Path, Path], out: str,
          clean: bool = False) -> tuple[SiteReport, FakePython]:
    web, src = inputs
    python = FakePython()
    tools = Tools(web=web, cache=BuildCache(tmp_path / "cache", clean=clean),
                  progress=Progress(stream=io.StringIO()), node=python)
    return build_site(tmp_path / out, [], tools=tools, sources=src), python


def steps(report: SiteReport) -> dict[str, tuple[int, int]]:
    """Step name -> (units made, units from the cache)."""
    return {s.name: (s.made, s.reused) for s in report.steps}


def contents(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_rebuild_with_nothing_changed_makes_nothing_and_writes_the_same_site(
        tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    first, python = build(tmp_path, inputs, "one")
    assert python.runs == {"precompile.mjs": 2, "stdlib_needs.mjs": 1, "snapshot.mjs": 1}
    assert all(steps(first)[name][0] > 0 for name in CACHED_STEPS)
    again, python = build(tmp_path, inputs, "two")
    assert python.runs == {}  # the phone's Python never started
    for name in CACHED_STEPS:
        made, reused = steps(again)[name]
        assert made == 0 and reused > 0, name
    assert contents(tmp_path / "one") == contents(tmp_path / "two")
    assert any(name.startswith("python-snapshot-") for name in contents(tmp_path / "two"))


def test_a_changed_app_file_remakes_only_what_depends_on_it(
        tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    build(tmp_path, inputs, "site")
    before = contents(tmp_path / "site")
    app = inputs[1] / APP_FILE
    app.write_text(app.read_text() + "SUBTITLE = ft.Text('Score keeper')\n")  # same imports
    report, python = build(tmp_path, inputs, "site")
    assert python.compiled == [APP_FILE]  # one module compiled again, nothing else
    assert python.runs == {"precompile.mjs": 1, "snapshot.mjs": 1}
    assert steps(report)["compile bytecode"][0] == 1
    assert steps(report)["stdlib trim"][0] == 0  # the app imports what it did
    assert steps(report)["snapshot"] == (1, 0)  # made from app.zip
    after = contents(tmp_path / "site")
    changed = {name for name in before.keys() | after.keys()
               if before.get(name) != after.get(name)}
    unchanged_parts = {"main.dart.wasm", "main.dart.wasm.br", "main.dart.wasm.gz",
                       "pyodide/python_stdlib.zip", "index.html"}
    assert not changed & unchanged_parts
    assert {"app.zip", "worker.js", "sw.js"} <= changed
    made, reused = steps(report)["compress"]
    assert made <= 8 < reused  # copies of app.zip, the snapshot, worker.js, sw.js at most

    app.write_text(app.read_text() + "import turtle\n")  # a new import: a new stdlib list
    report, python = build(tmp_path, inputs, "site")
    assert python.runs["stdlib_needs.mjs"] == 1
    assert steps(report)["stdlib trim"][0] == 1


def test_clean_takes_nothing_from_the_cache(tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    build(tmp_path, inputs, "site")
    report, python = build(tmp_path, inputs, "site", clean=True)
    assert python.runs == {"precompile.mjs": 2, "stdlib_needs.mjs": 1, "snapshot.mjs": 1}
    assert all(steps(report)[name][1] == 0 for name in CACHED_STEPS)


def test_the_standard_library_keeps_only_what_the_app_needs(
        tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    build(tmp_path, inputs, "site")
    with zipfile.ZipFile(tmp_path / "site" / "pyodide" / "python_stdlib.zip") as zf:
        names = set(zf.namelist())
    assert names == {"abc.pyc", "os.pyc", "json/__init__.pyc"}


def test_progress_shows_plain_lines_off_a_terminal_and_bars_on_one() -> None:
    plain = io.StringIO()
    with Progress(stream=plain).step("compile bytecode", total=3) as step:
        step.make(2)
        step.reuse()
    text = plain.getvalue()
    assert "build-web: compile bytecode..." in text
    assert "compile bytecode: done in" in text and "2 made, 1 from the cache" in text
    bars = io.StringIO()
    with Progress(stream=bars, bars=True).step("compress", total=10) as step:
        step.make(10)
    assert "compress" in bars.getvalue() and "100%|" in bars.getvalue()


def test_bars_show_on_a_terminal_that_reports_no_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pseudo-terminal nobody sized (0 x 0, as `script` or a CI runner makes): tqdm
    would take it to have no rows and hide every bar."""
    import pty
    import select

    main_fd, side_fd = pty.openpty()  # a new pseudo-terminal reports 0 x 0
    side = os.fdopen(side_fd, "w", encoding="utf-8")
    try:
        monkeypatch.setattr(sys, "stderr", side)  # tqdm sizes only stderr and stdout
        monkeypatch.delenv("COLUMNS", raising=False)
        monkeypatch.delenv("LINES", raising=False)
        with Progress().step("compress", total=4) as step:
            step.make(4)
        side.flush()
        shown = b""
        while select.select([main_fd], [], [], 0.5)[0]:
            shown += os.read(main_fd, 65536)
    finally:
        side.close()
        os.close(main_fd)
    text = shown.decode("utf-8", "replace")
    assert "compress" in text and "100%|" in text and "4 made" in text
