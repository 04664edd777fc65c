"""Assemble the static site: Flet's web client, the Python runtime, the app.

Assembled from the installed flet-web wheel directly (not `flet publish`,
which needs the internet for a build manifest and a Pyodide download): the
wheel already holds the prebuilt client and the Pyodide runtime its worker
expects. What is added:

    index.html        Flet's page, set up to run Python in the page (hash routes,
                      every URL local), with the manifest and boot.js
    boot.js, sw.js    the service worker (offline, updates) and its start-up;
                      boot.js also starts the Python worker at once, beside Flutter,
                      and holds the rules engine's fingerprint the app was built from
    version.json      {"site": the site's version, "rules": that fingerprint}: what a
                      phone compares its own with (a table server answers its own at
                      this address); never kept by the service worker
    worker.js         the Python worker (in place of Flet's python.js and
                      python-worker.js): Pyodide, then the app from app.zip
    manifest.json     name, icons, colours, `display: standalone`
    app.zip           the app and every wheel it needs, unpacked at build time:
                      Python imports it as it is (zipimport, one file on sys.path),
                      nothing unpacked, nothing pip-installed when the phone starts.
                      Stored, not deflated: the host's brotli/gzip compresses across
                      files (smaller) and the phone does not inflate twice
    natives/          the wheels' compiled modules (pydantic-core, msgpack), one
                      .wasm file each, loaded with the runtime before it starts (so
                      the memory snapshot can hold them imported: see snapshot.mjs)
    *.gz, *.br        precompressed copies, for hosts that serve them

Flet-web details relied on (checked by the tests in tests/pwa/): the
`<!-- fletAppConfig -->` marker, the `python.js` and `flutter_bootstrap.js`
<script>s in index.html, `serviceWorkerSettings` in flutter_bootstrap.js, the
page's bridge to the Python worker (`jsConnect`, `jsSend`, `jsDisconnect`, as
python.js defines them) and Flet's `flet_js` module (`start_connection`,
`send`, `documentUrl`).

The standard library zip keeps only what the app can import (stdlib_needs.py),
compiled like the app.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from scorer.web.frame_hold import with_frame_hold
from scorer.webbuild import snapshot_file
from scorer.webbuild.bytecode import NATIVE, compile_stdlib, stored_zip, with_bytecode
from scorer.webbuild.copies import downloaded, every_file
from scorer.webbuild.copies import precompress as precompress_copies
from scorer.webbuild.docstrings import without_docstrings
from scorer.webbuild.progress import Step, StepResult
from scorer.webbuild.tools import Tools

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
HERE = Path(__file__).resolve().parent
MARKER = ".tarabish-site"
"""Written into every built site: build-web only ever empties a folder holding it."""
VERSION_FILE = "version.json"
"""The site's version and the rules it was built from (`write_version`)."""

APP_ARCHIVE = "app.zip"
THEME_COLOUR = "#2E7D32"  # the felt green of the icons (Material green 800)
BACKGROUND = "#FFFFFF"

SKIPPED_FILES = frozenset({
    # Flet-web files a phone never loads: the Pyodide command line, micropip
    # (nothing is installed at run time), Flutter's self-removing service
    # worker, a source map, the licence page's text.
    "pyodide/python", "pyodide/python.bat", "pyodide/python.exe",
    "pyodide/python_cli_entry.mjs", "pyodide/package.json",
    "pyodide/micropip-0.11.1-py3-none-any.whl", "pyodide/packaging-26.1-py3-none-any.whl",
    "flutter_service_worker.js", "flutter.js.map", "assets/NOTICES",
    # Flet's Python bridge and worker: worker.js and boot.js take their place. Pyodide's
    # classic-script loader (the worker imports pyodide.mjs).
    "python.js", "python-worker.js", "pyodide/pyodide.js",
})
SKIPPED_DIRS = ("assets/packages/flutter_math_fork/", "assets/packages/cupertino_icons/")
"""Fonts the trimmed font manifest drops (see scorer.server.UNUSED_FONT_PREFIXES)."""
SKIPPED_SUFFIXES = (".symbols", ".d.ts")
LAZY = ("canvaskit/", "main.dart.", "assets/packages/media_kit/")
"""Renderer files: a browser loads one of several builds; the service worker keeps
the ones this browser loaded rather than every variant."""

APP_SOURCES = ("rules", "scorer")
APP_SKIPPED = ("scorer/server.py", "scorer/cli.py", "scorer/commands/", "scorer/web/",
               "scorer/machine/disk_cache.py", "scorer/webbuild/", "scorer/ratings/",
               "scorer/store/database/", "scorer/store/pg_", "scorer/rights/pg_",
               "scorer/events/pg_", "scorer/groups/")
"""Server and build code: never imported in the browser (the import contracts in
pyproject.toml keep the app and `scorer.browser` from importing them), and a
community's database (PostgreSQL is a server's). The ratings
too, until a screen shows them: then they and `openskill` (BROWSER_PACKAGES) go in."""
WHEEL_SKIPPED = ("flet/testing/", "flet/fastapi/", "flet/cli.py", "flet/pytest_plugin.py",
                 "pydantic/v1/", "pydantic/mypy.py", "pydantic/experimental/")
WHEEL_SKIPPED_SUFFIXES = (".pyi", ".dist-info/RECORD")
WHEEL_SKIPPED_PARTS = (".dist-info/sboms/",)
"""Never read by the app: test helpers, the server side, pydantic's v1 API, its mypy
plugin and experimental API, type stubs, and what only an installer reads (the list of
files, software bills of materials). Licences stay."""


class BuildError(RuntimeError):
    """The site cannot be built; the message says why in plain words."""


@dataclass(frozen=True)
class SiteReport:
    out: Path
    files: int
    size: int
    """Bytes of the site's files (precompressed copies not counted)."""
    first_visit: int
    """Bytes a Chromium phone downloads on its first visit before its first screen (brotli
    copies of what it loads)."""
    rest: int
    """Bytes the service worker then fetches in the background (the rest of the site but
    the renderers this browser does not use)."""
    on_disk: int
    """Bytes of the whole folder, copies included."""
    version: str
    steps: tuple[StepResult, ...]


def build_site(out: Path, wheels: list[Path], base: str = "/", precompress: bool = True,
               brotli_quality: int = 11, precompile: bool = True,
               snapshot: bool | None = None, tools: Tools | None = None,
               sources: Path = REPO_ROOT) -> SiteReport:
    """Write the whole site to `out` (emptied first if it holds an earlier build).
    `snapshot`: make a memory snapshot of the phone's Python (needs Node.js); by default
    only with precompressed copies: it is 27 MB as it is (7.5 MB brotli), and a host that
    compresses on its own may not compress it.
    `tools`: the web client, build cache, progress and Node.js to use (default: flet-web's
    client, the user cache folder, bars on a terminal). Whatever a step made before from
    the same inputs comes from the build cache (bytecode, the standard library trimmed,
    the snapshot, the compressed copies). `sources`: where rules/ and scorer/ are read."""
    tools = tools if tools is not None else Tools()
    progress = tools.progress
    base = "/" + base.strip("/") + "/" if base.strip("/") else "/"
    _prepare(out)
    with progress.step("copy web client", done="copied") as step:
        client = [p for p in sorted(tools.web.rglob("*"))
                  if p.is_file() and not _skipped(p.relative_to(tools.web).as_posix())]
        step.grow(len(client))
        for path in client:
            _copy(path, out / path.relative_to(tools.web))
            step.make()
        _add_assets(out)
        _write_index(out, base)
        _patch_bootstrap(out)
        _write_manifest(out)
        (out / "boot.js").write_text(with_frame_hold((HERE / "boot.js").read_text(
            encoding="utf-8")).replace("__RULES__", built_rules(sources)), encoding="utf-8")
    deflate = not precompress  # no .br/.gz copies: the archives compress themselves
    with progress.step("unpack", done="read") as step:
        members = app_members(wheels, sources, step)
    with progress.step("compile bytecode", unit="modules", done="compiled") as step:
        (out / APP_ARCHIVE).write_bytes(app_archive(wheels, precompile, deflate, members,
                                                    tools, step))
    compiled = compiled_modules(members)
    for site_path, (_module, data) in compiled.items():
        (out / site_path).parent.mkdir(parents=True, exist_ok=True)
        (out / site_path).write_bytes(data)
    natives = {site_path: module for site_path, (module, _data) in compiled.items()}
    if precompile:
        with progress.step("stdlib trim", total=1, unit="modules") as step:
            compile_stdlib(out / "pyodide" / "python_stdlib.zip", tools, step, deflate, members)
    if snapshot is None:
        snapshot = precompress
    snapshot_name = None
    if snapshot and precompile:
        with progress.step("snapshot", total=1) as step:
            snapshot_name = make_snapshot(out, members, natives, tools, step)
    _write_worker(out, snapshot_name, natives)
    version = write_service_worker(out)
    write_version(out, version, built_rules(sources))
    files = site_files(out)
    if precompress:
        with progress.step("compress", unit="B", done="compressed", unit_scale=True) as step:
            precompress_copies(_site_paths(out), brotli_quality, tools, step)
    (out / MARKER).write_text(version + "\n", encoding="utf-8")
    first, rest = download_sizes(out, files)
    return SiteReport(out=out, files=len(files) + 1,
                      size=sum(p.stat().st_size for p in _site_paths(out)),
                      first_visit=first, rest=rest,
                      on_disk=sum(p.stat().st_size for p in every_file(out)),
                      version=version, steps=tuple(progress.results))


# -- the pieces -------------------------------------------------------------------------------


def _prepare(out: Path) -> None:
    if out.exists():
        if not out.is_dir():
            raise BuildError(f"{out} is a file, not a folder")
        if any(out.iterdir()) and not (out / MARKER).is_file():
            raise BuildError(f"{out} is not empty and holds no earlier Tarabish site: "
                             "choose an empty or new folder")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / MARKER).write_text("building\n", encoding="utf-8")  # ours from now on


def _skipped(rel: str) -> bool:
    return rel in SKIPPED_FILES or rel.startswith(SKIPPED_DIRS) or rel.endswith(SKIPPED_SUFFIXES)


def _copy(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)


def _add_assets(out: Path) -> None:
    """Our fonts and icons, the trimmed font manifest and the icon font subset, as
    the table server serves them (scorer.server)."""
    from scorer.app import FONTS
    from scorer.server import ASSETS_DIR, ICON_FONT_SUBSET, ICON_FONT_URL, trimmed_font_manifest

    for rel in FONTS.values():
        _copy(ASSETS_DIR / rel, out / rel)
    _copy(ASSETS_DIR / "fonts" / "LICENSE-DejaVu.txt", out / "fonts" / "LICENSE-DejaVu.txt")
    (out / "assets").mkdir(exist_ok=True)
    (out / "assets" / "FontManifest.json").write_bytes(trimmed_font_manifest())
    _copy(ASSETS_DIR / "fonts" / ICON_FONT_SUBSET, out / ICON_FONT_URL.lstrip("/"))
    for icon in sorted((ASSETS_DIR / "icons").glob("*.png")):
        _copy(icon, out / "icons" / icon.name)


def _write_index(out: Path, base: str) -> None:
    from flet.controls.types import RouteUrlStrategy
    from flet_web import patch_index_html

    from scorer.server import APP_DESCRIPTION, APP_NAME
    from scorer.web.page_script import HEAD_END, PAGE_SCRIPT
    from scorer.webbuild.wheels import PYODIDE_VERSION

    index = out / "index.html"
    patch_index_html(
        str(index), base_href=base, app_name=APP_NAME, app_description=APP_DESCRIPTION,
        pyodide=True, pyodide_script_path="main.py", pyodide_version=PYODIDE_VERSION,
        app_package_url=APP_ARCHIVE, route_url_strategy=RouteUrlStrategy.HASH, no_cdn=True,
    )
    html = index.read_text(encoding="utf-8")
    # A module worker cannot import a bare specifier ("pyodide/pyodide.mjs").
    html = _replace_once(html, 'flet.pyodideUrl="pyodide/pyodide.mjs";',
                         f'flet.pyodideUrl="{base}pyodide/pyodide.mjs";')
    html = _replace_once(html, '<script src="flutter_bootstrap.js" async></script>',
                         '<script src="boot.js"></script>')
    html = _replace_once(html, '<script src="python.js"></script>\n', "")  # boot.js bridges
    html = _replace_once(
        html, '<link rel="apple-touch-icon" href="icons/apple-touch-icon-192.png">',
        '<link rel="apple-touch-icon" href="icons/apple-touch-icon-180.png">\n'
        f'  <meta name="theme-color" content="{THEME_COLOUR}">')
    html = _replace_once(html, '<link rel="icon" type="image/png" href="favicon.png" />',
                         '<link rel="icon" type="image/png" href="icons/icon-192.png" />')
    html = _replace_once(html, "#loading img {", "#loading img { display: none;")
    # Flet's client would ask a CDN for the Rive runtime (scorer.web.page_script).
    html = _replace_once(html, HEAD_END, PAGE_SCRIPT + HEAD_END)
    index.write_text(html, encoding="utf-8")


def _write_worker(out: Path, snapshot: str | None, natives: dict[str, str] | None = None) -> None:
    """worker.js with this site's names: the snapshot's file (or null) and the compiled
    modules' files (site path -> module name, see `compiled_modules`)."""
    worker = (HERE / "worker.js").read_text(encoding="utf-8")
    worker = (worker.replace("__APP_PATH__", PHONE_APP_PATH)
              .replace("__APP_ARCHIVE__", APP_ARCHIVE)
              .replace('"__SNAPSHOT__"', json.dumps(snapshot))
              .replace('"__NATIVES__"', json.dumps(sorted((natives or {}).items())))
              .replace("__NATIVES_PATH__", PHONE_NATIVES_PATH))
    (out / "worker.js").write_text(worker, encoding="utf-8")


def _patch_bootstrap(out: Path) -> None:
    """Flutter's loader would register its own (self-removing) service worker in the
    scope of ours and so remove ours: start Flutter without it."""
    path = out / "flutter_bootstrap.js"
    text = path.read_text(encoding="utf-8")
    patched, count = re.subn(r"serviceWorkerSettings:\s*\{[^}]*\},", "", text)
    if count != 1:
        raise BuildError("flutter_bootstrap.js changed shape (flet-web version?): "
                         "cannot turn off Flutter's service worker")
    path.write_text(patched, encoding="utf-8")


def _write_manifest(out: Path) -> None:
    from scorer.server import APP_DESCRIPTION, APP_NAME

    manifest = {
        "name": APP_NAME,
        "short_name": APP_NAME,
        "description": APP_DESCRIPTION,
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "orientation": "portrait",
        "background_color": BACKGROUND,
        "theme_color": THEME_COLOUR,
        "prefer_related_applications": False,
        "icons": [
            {"src": "icons/icon-192.png", "sizes": "192x192", "type": "image/png",
             "purpose": "any maskable"},
            {"src": "icons/icon-512.png", "sizes": "512x512", "type": "image/png",
             "purpose": "any maskable"},
        ],
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")


def _replace_once(text: str, old: str, new: str) -> str:
    if text.count(old) != 1:
        raise BuildError(f"Flet's index.html changed shape: {old!r} not found once")
    return text.replace(old, new)


# -- the app archive --------------------------------------------------------------------------

PHONE_APP_PATH = "/home/pyodide/app.zip"
"""Where worker.js puts app.zip in the phone's file system (and the name in tracebacks)."""
MAIN_PY = ('"""Tarabish on one phone: see scorer.browser (worker.js puts this zip on '
           'sys.path)."""\n'
           "from scorer.browser.start import run\n\nrun()\n")


def app_members(wheels: list[Path], sources: Path = REPO_ROOT,
                step: Step | None = None) -> dict[str, bytes]:
    """main.py, rules/ and scorer/ (from `sources`), and every wheel unpacked under
    __pypackages__/."""
    members: dict[str, bytes] = {"main.py": MAIN_PY.encode()}
    for name in APP_SOURCES:
        for path in sorted((sources / name).rglob("*")):
            rel = path.relative_to(sources).as_posix()
            if (path.is_file() and "__pycache__" not in rel and not rel.startswith(APP_SKIPPED)
                    and path.suffix != ".pyc"):
                members[rel] = path.read_bytes()
    if step is not None:
        step.grow(len(members) + len(wheels))
        step.make(len(members))
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as zf:
            for entry in zf.infolist():
                if (entry.is_dir() or entry.filename.startswith(WHEEL_SKIPPED)
                        or entry.filename.endswith(WHEEL_SKIPPED_SUFFIXES)
                        or any(part in entry.filename for part in WHEEL_SKIPPED_PARTS)):
                    continue
                data = zf.read(entry)
                if entry.filename.endswith(".dist-info/METADATA"):
                    data = metadata_headers(data)
                members[f"{NATIVE}{entry.filename}"] = data
        if step is not None:
            step.make()
    return members


def metadata_headers(metadata: bytes) -> bytes:
    """A wheel's METADATA without its long description (the text after the first blank
    line: pydantic's is its whole changelog, 140 KB): importlib.metadata reads only the
    headers (name, version, requirements)."""
    end = metadata.replace(b"\r\n", b"\n").find(b"\n\n")
    return metadata if end < 0 else metadata.replace(b"\r\n", b"\n")[:end + 1]


APP_SOURCELESS = (NATIVE, *(f"{name}/" for name in APP_SOURCES))
"""Where the app archive keeps only bytecode: everything but main.py (which the page
runs by name) and the `fingerprinted` sources. A phone's traceback then names the file
and line but shows no source line; the sources were a fifth of the archive (240 KB of
its 2 MB, compressed)."""
FINGERPRINTED_FILES = ("scorer/store/changes.py", "scorer/sync/kinds.py")
"""Read as data on the phone, with the rules engine's own sources (`fingerprinted`):
the phone hashes them to find it judges changes as the server does
(`scorer.sync.kinds.sync_fingerprint`, `scorer.store.validation.scoring_fingerprint`),
so they ship as they are: no docstring left out, source kept beside the bytecode."""


def fingerprinted(name: str) -> bool:
    """Whether the phone reads this member as data (see FINGERPRINTED_FILES)."""
    return name in FINGERPRINTED_FILES or (
        name.startswith("rules/") and name.endswith(".py") and name.count("/") == 1)


def app_archive(wheels: list[Path], precompile: bool = True, deflate: bool = False,
                members: dict[str, bytes] | None = None, tools: Tools | None = None,
                step: Step | None = None) -> bytes:
    """`app_members`, compiled to bytecode when Node.js is at hand (see `with_bytecode`),
    wheels moved to the top of the zip and their compiled modules left out (see
    `lift_wheels`, `compiled_modules`)."""
    if members is None:
        members = app_members(wheels)
    if precompile:
        members = with_bytecode(without_docstrings(members, skip=fingerprinted),
                                sourceless=APP_SOURCELESS, ddir=PHONE_APP_PATH,
                                tools=tools if tools is not None else Tools(), step=step,
                                keep=fingerprinted)
    return stored_zip(lift_wheels(members), deflate)


NATIVES_DIR = "natives/"
"""Where the site keeps the wheels' compiled modules (one .wasm file each)."""
PHONE_NATIVES_PATH = "/home/pyodide/natives/"
"""Their names for the phone's dynamic loader (as worker.js names them)."""


def compiled_modules(members: dict[str, bytes]) -> dict[str, tuple[str, bytes]]:
    """The wheels' compiled modules (pydantic-core's, msgpack's): site path ->
    (module name, wasm bytes). They are files of the site of their own, not in app.zip:
    the phone compiles them while its Python runtime loads (and, as files the browser
    fetched, their compiled code is cached), then imports them from memory."""
    found: dict[str, tuple[str, bytes]] = {}
    for name, data in members.items():
        if name.startswith(NATIVE) and name.endswith(".so"):
            folder, _, file = name[len(NATIVE):].rpartition("/")
            module = ".".join([*filter(None, folder.split("/")), file.split(".")[0]])
            found[f"{NATIVES_DIR}{module}.wasm"] = (module, data)
    return found


def lift_wheels(members: dict[str, bytes]) -> dict[str, bytes]:
    """The wheels go to the top of the zip, which the phone imports from as it is
    (zipimport: nothing unpacked at start), less their compiled modules (files of their
    own, see `compiled_modules`)."""
    kept: dict[str, bytes] = {}
    for name, data in members.items():
        if not name.startswith(NATIVE):
            kept[name] = data
        elif not name.endswith(".so"):
            lifted = name[len(NATIVE):]
            if lifted in members:
                raise BuildError(f"a wheel's {lifted} would replace the app's own")
            kept[lifted] = data
    return kept


# -- the memory snapshot ------------------------------------------------------------------------

SNAPSHOT_PREFIX = "python-snapshot-"


def snapshot_imports(app: dict[str, bytes]) -> list[tuple[str, str | None]]:
    """What the snapshot imports: flet and each Flet name the app uses (`ft.Text`, `ft.run`:
    Flet imports its modules when first named; `ft.Icons.ADD`: its icon table is read at
    the first icon), the standard library modules the app
    imports, then the app itself: its entry point and every screen. Whatever cannot be
    imported without the page is left out (snapshot.mjs)."""
    import ast

    from scorer.app.router import VIEW_MODULES
    from scorer.web.flet_names import flet_names

    names: set[str] = set()
    stdlib: set[str] = set()
    for rel, data in app.items():
        if not rel.endswith(".py") or rel.startswith(NATIVE):
            continue
        source = data.decode("utf-8", "replace")
        # Flet imports a control's module when first named, and reads its icon table
        # (~50 ms on the phone) at the first icon: in the snapshot, all the app names.
        names |= flet_names([source])
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                stdlib.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                stdlib.add(node.module)
    stdlib = {m for m in stdlib if m.split(".")[0] in sys.stdlib_module_names}
    wanted: list[tuple[str, str | None]] = [("flet", None)]
    wanted += [("flet", n) for n in sorted(names)]
    wanted += [(m, None) for m in sorted(stdlib)]
    wanted += [("scorer.browser.start", None)]
    wanted += [(f"scorer.app.views.{m}", None) for m in (*VIEW_MODULES, "reference_routes")]
    return wanted


def make_snapshot(out: Path, app: dict[str, bytes], natives: dict[str, str] | None,
                  tools: Tools, step: Step | None = None) -> str | None:
    """A Pyodide memory snapshot (snapshot.mjs) as `out`/python-snapshot-<hash>.bin (its
    heap's nonzero pages only: snapshot_file.py), made
    with the site's own runtime, standard library and app.zip; its name, or None
    without Node.js (the phone then starts Python from scratch, as on a first visit).
    Kept in the build cache by what it was made from: a rebuild of the same site gives
    the same file (a snapshot is not byte-for-byte reproducible)."""
    imports = json.dumps(snapshot_imports(app))
    # The compiled modules (`natives`: site path -> module name), loaded in worker.js's
    # order (sorted by site path): where each lands in memory depends on that order.
    libraries = [[f"{PHONE_NATIVES_PATH}{module}.so", str(out / site_path)]
                 for site_path, module in sorted((natives or {}).items())]
    made_from = hashlib.sha256(imports.encode())
    made_from.update(snapshot_file.MAGIC)  # the site's form of it (snapshot_file.py)
    made_from.update(json.dumps([name for name, _file in libraries]).encode())
    for rel in ("pyodide/pyodide.asm.wasm", "pyodide/pyodide.asm.mjs",
                "pyodide/python_stdlib.zip", APP_ARCHIVE,
                *sorted((natives or {}).keys())):
        made_from.update(hashlib.sha256((out / rel).read_bytes()).digest())
    name = f"{SNAPSHOT_PREFIX}{made_from.hexdigest()[:16]}.bin"
    kept = tools.cache.get("snapshot", name)
    if kept is not None:
        if step is not None:
            step.reuse()
    else:
        if not tools.python.available:
            return None
        with tempfile.TemporaryDirectory() as tmp_name:
            tmp = Path(tmp_name)
            (tmp / "imports.json").write_text(imports, encoding="utf-8")
            (tmp / "libraries.json").write_text(json.dumps(libraries), encoding="utf-8")
            if not tools.python.run("snapshot.mjs", out / "pyodide", out / APP_ARCHIVE,
                                    PHONE_APP_PATH, tmp / "imports.json",
                                    tmp / "libraries.json", tmp / name, makes=tmp / name,
                                    failed="no memory snapshot (the phone starts Python "
                                           "from scratch each time)"):
                return None
            kept = snapshot_file.pack((tmp / name).read_bytes())
        tools.cache.put(kept, "snapshot", name)
        if step is not None:
            step.make()
    (out / name).write_bytes(kept)
    return name


# -- listing and compressing ------------------------------------------------------------------


def _site_paths(out: Path) -> Iterator[Path]:
    for path in sorted(out.rglob("*")):
        if not path.is_file() or path.name == MARKER:
            continue
        if path.suffix not in (".gz", ".br"):
            yield path


def site_files(out: Path) -> dict[str, str]:
    """Every file of the site (sw.js and version.json aside) and a hash of its content."""
    files: dict[str, str] = {}
    for path in _site_paths(out):
        rel = path.relative_to(out).as_posix()
        if rel not in ("sw.js", VERSION_FILE):
            files[rel] = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    return files


def write_service_worker(out: Path) -> str:
    """sw.js listing every file of the site with its hash; the site's version.

    A changed file changes the version, so phones install the new service
    worker on their next visit and fetch only the files whose hash changed.
    """
    files = site_files(out)
    version = hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()[:16]
    sw = (HERE / "sw.js").read_text(encoding="utf-8")
    sw = (sw.replace("__VERSION__", version)
          .replace("__FILES__", json.dumps(files, indent=0, sort_keys=True))
          .replace("__LAZY__", json.dumps(list(LAZY))))
    (out / "sw.js").write_text(sw, encoding="utf-8")
    for stale in ("sw.js.br", "sw.js.gz"):  # an older build's compressed copies
        (out / stale).unlink(missing_ok=True)
    return version


def built_rules(sources: Path = REPO_ROOT) -> str:
    """The fingerprint of the rules engine in `sources` (the server's own is
    `scoring_fingerprint`): baked into boot.js and version.json."""
    from scorer.store.validation import rules_fingerprint

    return rules_fingerprint(sources / "rules")


def write_version(out: Path, version: str, rules: str) -> None:
    """version.json: the site's version and the rules it was built from. Not listed in
    sw.js, so a phone always asks the host for it (boot.js compares it with its own)."""
    (out / VERSION_FILE).write_text(json.dumps({"site": version, "rules": rules}) + "\n",
                                    encoding="utf-8")
    for stale in (VERSION_FILE + ".br", VERSION_FILE + ".gz"):
        (out / stale).unlink(missing_ok=True)


FIRST_VISIT = ("index.html", "boot.js", "sw.js", "flutter_bootstrap.js", "flutter.js",
               "worker.js", "main.dart.mjs", "main.dart.wasm",
               "canvaskit/skwasm.js", "canvaskit/skwasm.wasm", "manifest.json",
               "pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs", "pyodide/pyodide.asm.wasm",
               "pyodide/pyodide-lock.json", "pyodide/python_stdlib.zip", APP_ARCHIVE,
               "assets/FontManifest.json", "assets/fonts/roboto.woff2",
               "assets/fonts/MaterialIcons-Regular.otf", "fonts/DejaVuSans-subset.ttf")
"""What Chromium loads to show the first screen (checked by the tests' request log)."""


def download_sizes(out: Path, files: dict[str, str]) -> tuple[int, int]:
    """Bytes a Chromium phone downloads before its first screen (`FIRST_VISIT` and the
    compiled modules), then in the background (the rest of `files`, see `site_files`,
    less the renderers it does not use); brotli copies where there are some."""
    natives = sorted(p.relative_to(out).as_posix() for p in (out / NATIVES_DIR).glob("*.wasm"))
    first = {*FIRST_VISIT, *natives}
    rest = [rel for rel in files if rel not in first and not rel.startswith(LAZY)]
    return downloaded(out, first), downloaded(out, rest)
