"""The parts of the phone-alone app that run without a browser: the durable sender,
game files picked on a phone, the phone's rights, and the build's pins and archive."""

from __future__ import annotations

import asyncio
import io
import json
import re
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path
from typing import Any

import pytest
from in_thread import run_async

from scorer.app.game_files import MAX_FILE_BYTES, NotAGameFile, read_game_file
from scorer.browser.durable import DurableSender
from scorer.rights.owner import PHONE_DEVICE, OwnerRights
from scorer.webbuild.build_cache import BuildCache
from scorer.webbuild.bytecode import stdlib_needs
from scorer.webbuild.copies import precompress
from scorer.webbuild.progress import Progress
from scorer.webbuild.site import (
    APP_SKIPPED,
    APP_SOURCES,
    NATIVE,
    WHEEL_SKIPPED,
    BuildError,
    _prepare,
    _write_worker,
    app_archive,
    app_members,
    compiled_modules,
    lift_wheels,
    metadata_headers,
    snapshot_imports,
)
from scorer.webbuild.stdlib_needs import imports_of
from scorer.webbuild.tools import Node, Tools
from scorer.webbuild.wheels import BROWSER_PACKAGES, PLATFORM, read_pins

REPO = Path(__file__).resolve().parents[2]
GAME = {"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
        "first_dealer": 3, "rules": {},
        "hands": [{"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 100}}]}


# -- the durable sender ------------------------------------------------------------------------


def run_sender(script: Any) -> tuple[list[str], list[str]]:
    """Run `script(sender, gate)` on a loop; what was sent, in order, and the events."""
    sent: list[str] = []
    events: list[str] = []

    async def main() -> None:
        gate = asyncio.Event()

        async def commit() -> str | None:
            events.append("commit started")
            await gate.wait()
            events.append("committed")
            return None

        sender = DurableSender(commit)
        sender.wrap(lambda m: sent.append(m))
        await script(sender, gate, sent)

    run_async(main())
    return sent, events


def test_messages_with_no_write_before_them_go_at_once() -> None:
    async def script(sender: DurableSender, gate: asyncio.Event, sent: list[str]) -> None:
        sender.send("tap 1")
        sender.send("tap 0")
        assert sent == ["tap 1", "tap 0"]

    _sent, events = run_sender(script)
    assert events == []


def test_what_follows_a_write_waits_for_its_commit_in_order() -> None:
    async def script(sender: DurableSender, gate: asyncio.Event, sent: list[str]) -> None:
        sender.send("before")
        sender.changed()  # the hand is written to the in-memory folder
        sender.send("Saved")
        sender.send("the sheet")
        await asyncio.sleep(0.01)
        assert sent == ["before"]  # not yet committed: the screen must not say saved
        gate.set()
        await sender.flush()
        assert sent == ["before", "Saved", "the sheet"]
        sender.send("after")
        assert sent[-1] == "after"

    _sent, events = run_sender(script)
    assert events == ["commit started", "committed"]


def test_start_up_writes_are_committed_without_holding_the_screen() -> None:
    async def script(sender: DurableSender, gate: asyncio.Event, sent: list[str]) -> None:
        sender.changed(hold=False)  # the game list rebuilt at start-up
        sender.send("the first screen")
        assert sent == ["the first screen"]  # not held for that commit
        await asyncio.sleep(0.01)  # that commit is under way
        sender.changed()  # then a hand is saved while that commit is still running
        sender.send("Saved")
        await asyncio.sleep(0.01)
        assert sent == ["the first screen"]
        gate.set()
        await sender.flush()
        assert sent == ["the first screen", "Saved"]
        sender.send("a tap")
        assert sent[-1] == "a tap"

    _sent, events = run_sender(script)
    # The hand is committed by a commit that began after it was written.
    assert events == ["commit started", "committed", "commit started", "committed"]


def test_a_failed_commit_is_reported_and_the_screen_goes_on() -> None:
    reported: list[str] = []
    sent: list[str] = []

    async def main() -> None:
        async def commit() -> str | None:
            return "the phone's storage for this page is full"

        sender = DurableSender(commit, reported.append)
        sender.wrap(sent.append)
        sender.changed()
        sender.send("Saved")
        await sender.flush()

    run_async(main())
    assert reported == ["the phone's storage for this page is full"]
    assert sent == ["Saved"]


# -- game files picked on a phone ----------------------------------------------------------------


def test_a_good_game_file_is_read() -> None:
    assert read_game_file(json.dumps(GAME).encode())["hands"] == GAME["hands"]


@pytest.mark.parametrize(("data", "words"), [
    (b"\xff\xfe\x00", "not UTF-8 text"),
    (b"{not json", "not valid JSON"),
    (b"[1, 2]", "not a Tarabish game file"),
    (json.dumps({**GAME, "players": ["Ann"]}).encode(), "cannot be used"),
    (b" " * (MAX_FILE_BYTES + 1), "too big"),
    # Hostile files get the same bounded reading as `tarabish import`.
    (b"[" * 1_000 + b"]" * 1_000, "more than 20 deep"),
    (b'{"first_dealer": ' + b"9" * 5_000 + b"}", "digits"),
    (json.dumps({**GAME, "players": ["Ann\u001b[2J", "Bob", "Cid", "Dee"]}).encode(),
     "control character"),
])
def test_a_bad_file_is_refused_in_a_players_words(data: bytes, words: str) -> None:
    with pytest.raises(NotAGameFile, match=words):
        read_game_file(data)


# -- rights on one phone -------------------------------------------------------------------------


def test_the_only_phone_may_edit_every_game_and_has_no_code() -> None:
    rights = OwnerRights()
    assert rights.may_edit("0123abcd", PHONE_DEVICE)
    assert rights.code("0123abcd") is None
    assert rights.give_codes(["0123abcd"]) == []  # no codes on one phone: nothing to show
    # Starting, importing and deleting games: nobody to slow down, no code to keep.
    rights.check_new_game("anywhere")
    rights.game_started("anywhere")
    assert rights.start("0123abcd", PHONE_DEVICE) == ""
    rights.forget("0123abcd")


# -- the build -----------------------------------------------------------------------------------


def test_every_browser_package_is_pinned_with_a_wheel_for_the_phone() -> None:
    pins = {p.name: p for p in read_pins(REPO / "uv.lock")}
    assert set(pins) == set(BROWSER_PACKAGES)
    lock = (REPO / "uv.lock").read_text(encoding="utf-8")
    for compiled in ("pydantic-core", "msgpack"):
        wheel = f"{compiled.replace('-', '_')}-{pins[compiled].version}-cp314-cp314-{PLATFORM}.whl"
        assert wheel in lock, f"uv.lock has no {PLATFORM} wheel of {compiled}: {wheel}"


def test_the_app_archive_holds_the_app_but_not_the_server() -> None:
    archive = app_archive([], precompile=False)
    with zipfile.ZipFile(io.BytesIO(archive)) as zf:
        names = set(zf.namelist())
    assert "main.py" in names
    assert {"scorer/browser/start.py", "scorer/app/views/sheet.py", "rules/replay.py"} <= names
    assert not any(n.startswith(("scorer/server.py", "scorer/webbuild/", "scorer/commands/"))
                   for n in names)
    # A community's PostgreSQL classes are a server's (psycopg is no browser package).
    assert "scorer/rights/service.py" in names and "scorer/events/service.py" in names
    assert not any(n.startswith(("scorer/store/database/", "scorer/rights/pg_",
                                 "scorer/events/pg_")) for n in names)
    assert not any("__pycache__" in n for n in names)  # no bytecode of this machine's Python
    assert app_archive([], precompile=False) == archive  # reproducible: same files, same version


def test_build_web_never_empties_a_folder_it_did_not_write(tmp_path: Path) -> None:
    mine = tmp_path / "photos"
    mine.mkdir()
    (mine / "holiday.jpg").write_bytes(b"x")
    with pytest.raises(BuildError, match="not empty"):
        _prepare(mine)
    assert (mine / "holiday.jpg").exists()


PHONE_IMPORTS = """
import importlib.abc, importlib.metadata, sys
vendored = set(sys.argv[1].split(","))
owners = importlib.metadata.packages_distributions()

class NotOnThePhone(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        top = name.split(".")[0]
        dists = {d.lower().replace("_", "-") for d in owners.get(top, [])}
        if dists and not dists & vendored:
            raise ImportError(f"{name} is not on the phone")
        return None

sys.meta_path.insert(0, NotOnThePhone())
import scorer.browser.start, scorer.app.router
scorer.app.router.import_views()  # every screen, as the phone imports them once started
for m in list(sys.modules.values()):
    f = getattr(m, "__file__", None)
    if f:
        print(f)
"""


def test_everything_the_phone_imports_is_in_the_site() -> None:
    """The phone's entry point imports only the app archive (no skipped server file)
    and the wheels the build vendors; with every other package hidden, as on the
    phone, it still imports. A server-only import would leave the phone on its
    splash screen."""
    vendored = ",".join(name.lower().replace("_", "-") for name in BROWSER_PACKAGES)
    done = subprocess.run([sys.executable, "-c", PHONE_IMPORTS, vendored],
                          capture_output=True, text=True, cwd=REPO, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    stdlib = Path(sysconfig.get_paths()["stdlib"]).resolve()
    outside: set[str] = set()
    for name in done.stdout.split():
        path = Path(name).resolve()
        if path.is_relative_to(REPO / ".venv"):
            # A vendored wheel (others cannot be imported), but none of its skipped files.
            wheel_file = path.as_posix().partition("/site-packages/")[2]
            if wheel_file.startswith(WHEEL_SKIPPED):
                outside.add(wheel_file)
            continue
        if path.is_relative_to(stdlib):
            continue
        if path.is_relative_to(REPO):
            rel = path.relative_to(REPO).as_posix()
            if rel.startswith(APP_SKIPPED) or not rel.startswith(APP_SOURCES):
                outside.add(rel)
        else:
            outside.add(str(path))
    assert not outside, f"imported on the phone but not in the site: {sorted(outside)}"


# -- what the phone downloads -------------------------------------------------------------------


def test_a_wheels_metadata_keeps_its_headers_not_its_long_description() -> None:
    metadata = (b"Metadata-Version: 2.4\r\nName: pydantic\r\nVersion: 2.14.3\r\n"
                b"Requires-Dist: typing-extensions>=4.14\r\n\r\n# Pydantic\r\n\nChanges\n")
    assert metadata_headers(metadata) == (b"Metadata-Version: 2.4\nName: pydantic\n"
                                          b"Version: 2.14.3\nRequires-Dist: "
                                          b"typing-extensions>=4.14\n")
    assert metadata_headers(b"Name: x\nVersion: 1\n") == b"Name: x\nVersion: 1\n"


def test_wheels_are_imported_from_the_zip_and_compiled_modules_are_files_of_their_own() -> None:
    so = "_pydantic_core.cpython-314-wasm32-emscripten.so"
    members = {
        "main.py": b"", "scorer/app/main.py": b"",
        f"{NATIVE}flet/__init__.pyc": b"", f"{NATIVE}flet-1.0.5.dist-info/METADATA": b"",
        f"{NATIVE}pydantic_core/{so}": b"\0asm-core",
        f"{NATIVE}pydantic_core/__init__.pyc": b"",
        f"{NATIVE}pydantic_core-2.50.4.dist-info/METADATA": b"",
        f"{NATIVE}top_level.cpython-314-wasm32-emscripten.so": b"\0asm-top",
    }
    assert set(lift_wheels(members)) == {
        "main.py", "scorer/app/main.py", "flet/__init__.pyc", "flet-1.0.5.dist-info/METADATA",
        "pydantic_core/__init__.pyc", "pydantic_core-2.50.4.dist-info/METADATA",
    }
    assert compiled_modules(members) == {
        "natives/pydantic_core._pydantic_core.wasm": ("pydantic_core._pydantic_core",
                                                      b"\0asm-core"),
        "natives/top_level.wasm": ("top_level", b"\0asm-top"),
    }
    with pytest.raises(BuildError, match="replace the app's own"):
        lift_wheels({"scorer/x.py": b"", f"{NATIVE}scorer/x.py": b""})


def test_imports_are_found_wherever_they_are_written() -> None:
    source = """
import json, xml.dom.minidom as md
from . import sibling
from ..other import thing
from email import message
def later():
    import csv
    importlib.import_module("zipfile")
    __import__("gzip")
if TYPE_CHECKING:
    import tkinter
if __name__ == "__main__":
    import argparse
"""
    found = imports_of(source, "pkg.sub.mod", is_package=False)
    assert {"json", "xml", "xml.dom", "xml.dom.minidom", "pkg.sub", "pkg.sub.sibling",
            "pkg.other", "pkg.other.thing", "email", "email.message", "csv", "zipfile",
            "gzip"} <= found
    assert not {"tkinter", "argparse"} & found  # never run when the module is imported
    assert imports_of("from . import a", "pkg", is_package=True) == {"pkg", "pkg.a"}


STDLIB_IMPORTS = PHONE_IMPORTS.split("import scorer.browser.start")[0] + """
before = set(sys.modules)
import scorer.browser.start, scorer.app.router
scorer.app.router.import_views()
print(" ".join(sorted(set(sys.modules) - before)))
"""


@pytest.mark.slow
def test_the_phones_standard_library_keeps_every_module_the_app_imports(
        tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """The trimmed python_stdlib.zip (build-web with Node.js) holds every standard
    library module the app imports here, on every screen: a missing one would stop
    the phone with an ImportError."""
    import shutil

    from flet_web import get_package_web_dir

    if shutil.which("node") is None:
        pytest.skip("Node.js is not installed: build-web ships the whole standard library")
    needed = stdlib_needs(app_members(request.getfixturevalue("phone_wheels")),
                          Tools(cache=BuildCache(tmp_path / "cache"),  # not the user's
                                progress=Progress(stream=io.StringIO())))
    assert needed is not None
    with zipfile.ZipFile(Path(get_package_web_dir()) / "pyodide" / "python_stdlib.zip") as zf:
        phone_stdlib = {n.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
                        for n in zf.namelist() if n.endswith(".py")}
    vendored = ",".join(name.lower().replace("_", "-") for name in BROWSER_PACKAGES)
    done = subprocess.run([sys.executable, "-c", STDLIB_IMPORTS, vendored],
                          capture_output=True, text=True, cwd=REPO, check=True)
    imported = {name for name in done.stdout.split() if name in phone_stdlib}
    assert "asyncio" in needed and "encodings.utf_8" in needed
    assert imported - needed == set()
    assert not {"tkinter", "idlelib", "turtledemo", "unittest.mock"} & needed


def test_compressed_copies_come_from_the_cache_when_a_file_is_unchanged(tmp_path: Path) -> None:
    import gzip
    import hashlib

    import brotli

    site = tmp_path / "site"
    site.mkdir()
    page = b"<html>" + b"tarabish " * 500 + b"</html>"
    (site / "index.html").write_bytes(page)
    (site / "tiny.js").write_bytes(b"x")  # too small to be worth it
    tools = Tools(web=tmp_path, cache=BuildCache(tmp_path / "cache"),
                  progress=Progress(stream=io.StringIO()), node=Node(exe=None))
    precompress(sorted(site.iterdir()), 5, tools)
    assert brotli.decompress((site / "index.html.br").read_bytes()) == page
    assert gzip.decompress((site / "index.html.gz").read_bytes()) == page
    assert not (site / "tiny.js.br").exists()
    tools.cache.put(b"from the cache", "br5", hashlib.sha256(page).hexdigest())
    (site / "index.html.br").unlink()
    precompress([site / "index.html"], 5, tools)
    assert (site / "index.html.br").read_bytes() == b"from the cache"


def test_without_a_snapshot_the_worker_starts_python_from_scratch(tmp_path: Path) -> None:
    """A build without Node.js has no memory snapshot: worker.js names none (and never
    asks the cache for one); with one, it names that file."""
    _write_worker(tmp_path, None)
    worker = (tmp_path / "worker.js").read_text(encoding="utf-8")
    assert "const SNAPSHOT = null;" in worker
    assert not re.search(r'"__[A-Z_]+__"', worker)  # every placeholder filled
    assert "const NATIVES = [];" in worker
    assert '"/home/pyodide/natives/"' in worker  # the compiled modules' names for the loader
    _write_worker(tmp_path, "python-snapshot-0123.bin",
                  {"natives/msgpack._cmsgpack.wasm": "msgpack._cmsgpack"})
    worker = (tmp_path / "worker.js").read_text(encoding="utf-8")
    assert 'const SNAPSHOT = "python-snapshot-0123.bin";' in worker
    assert 'const NATIVES = [["natives/msgpack._cmsgpack.wasm", "msgpack._cmsgpack"]];' in worker


def test_the_snapshot_holds_the_app_and_every_screen() -> None:
    """With the compiled modules loaded as libraries (same place at every start), the
    snapshot imports the whole app, not only Flet: the phone then runs none of it."""
    from scorer.app.router import VIEW_MODULES

    wanted = snapshot_imports({"scorer/app/x.py": b"import json\nft.Text('a')\n"
                                                  b"ft.Icon(ft.Icons.ADD)\nft.run(main)\n"})
    assert ("flet", None) in wanted and ("flet", "Text") in wanted and ("json", None) in wanted
    assert ("flet", "run") in wanted  # flet.app, imported when ft.run is first named
    assert ("flet", "Icons.ADD") in wanted  # the icon table, read at the first icon
    assert ("scorer.browser.start", None) in wanted
    assert {(f"scorer.app.views.{m}", None) for m in VIEW_MODULES} <= set(wanted)
