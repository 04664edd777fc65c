"""Assemble the static site: Flet's web client, the Python runtime, the app.

Assembled from the installed flet-web wheel directly (not `flet publish`,
which needs the internet for a build manifest and a Pyodide download): the
wheel already holds the prebuilt client and the Pyodide runtime its worker
expects. What is added:

    index.html        Flet's page, set up to run Python in the page (hash routes,
                      every URL local), with the manifest and boot.js
    boot.js, sw.js    the service worker (offline, updates) and its start-up;
                      boot.js also starts the Python worker at once, beside Flutter
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

import gzip
import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from scorer.webbuild import snapshot_file

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
HERE = Path(__file__).resolve().parent
MARKER = ".tarabish-site"
"""Written into every built site: build-web only ever empties a folder holding it."""

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
               "scorer/disk_cache.py", "scorer/webbuild/")
"""Server and build code: never imported in the browser (the import contracts in
pyproject.toml keep the app and `scorer.browser` from importing them)."""
WHEEL_SKIPPED = ("flet/testing/", "flet/fastapi/", "flet/cli.py", "flet/pytest_plugin.py",
                 "pydantic/v1/")
WHEEL_SKIPPED_SUFFIXES = (".pyi",)
"""Never imported by the app: test helpers, the server side, pydantic's v1 API, type stubs."""
COMPRESSED_SUFFIXES = (".js", ".mjs", ".wasm", ".json", ".html", ".otf", ".ttf", ".zip",
                       ".txt", ".css", ".svg", ".bin")
MIN_COMPRESSED = 1024
HUGE_FILE = 16 * 1024 * 1024


class BuildError(RuntimeError):
    """The site cannot be built; the message says why in plain words."""


@dataclass(frozen=True)
class SiteReport:
    out: Path
    files: int
    size: int
    """Bytes of the site's files (precompressed copies not counted)."""
    first_visit: int
    """Bytes a Chromium phone downloads on its first visit (brotli copies of what it loads)."""
    version: str


def build_site(out: Path, wheels: list[Path], base: str = "/", precompress: bool = True,
               brotli_quality: int = 11, precompile: bool = True,
               compressed_cache: Path | None = None,
               snapshot: bool | None = None) -> SiteReport:
    """Write the whole site to `out` (emptied first if it holds an earlier build).
    `compressed_cache`: a folder keeping brotli copies by content (default
    ~/.cache/tarabish/brotli), so a rebuild compresses only what changed.
    `snapshot`: make a memory snapshot of the phone's Python (needs Node.js); by default
    only with precompressed copies: it is 45 MB as it is (7.5 MB brotli), and a host that
    compresses on its own may not compress it."""
    from flet_web import get_package_web_dir

    base = "/" + base.strip("/") + "/" if base.strip("/") else "/"
    web = Path(get_package_web_dir())
    _prepare(out)
    for path in sorted(web.rglob("*")):
        rel = path.relative_to(web).as_posix()
        if path.is_file() and not _skipped(rel):
            _copy(path, out / rel)
    _add_assets(out)
    _write_index(out, base)
    _patch_bootstrap(out)
    _write_manifest(out)
    (out / "boot.js").write_text((HERE / "boot.js").read_text(encoding="utf-8"),
                                 encoding="utf-8")
    deflate = not precompress  # no .br/.gz copies: the archives compress themselves
    members = app_members(wheels)
    (out / APP_ARCHIVE).write_bytes(app_archive(wheels, precompile, deflate, members))
    compiled = compiled_modules(members)
    for site_path, (_module, data) in compiled.items():
        (out / site_path).parent.mkdir(parents=True, exist_ok=True)
        (out / site_path).write_bytes(data)
    natives = {site_path: module for site_path, (module, _data) in compiled.items()}
    if precompile:
        compile_stdlib(out / "pyodide" / "python_stdlib.zip", deflate, members)
    if snapshot is None:
        snapshot = precompress
    _write_worker(out, make_snapshot(out, members, natives=natives)
                  if snapshot and precompile else None, natives)
    version = write_service_worker(out)
    files = site_files(out)
    if precompress:
        _precompress(out, brotli_quality,
                     compressed_cache if compressed_cache is not None else brotli_cache_dir())
    (out / MARKER).write_text(version + "\n", encoding="utf-8")
    total = sum(p.stat().st_size for p in _site_paths(out))
    return SiteReport(out=out, files=len(files) + 1, size=total,
                      first_visit=_first_visit_size(out), version=version)


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
    (out / "assets" / "FontManifest.json").write_bytes(trimmed_font_manifest())
    _copy(ASSETS_DIR / "fonts" / ICON_FONT_SUBSET, out / ICON_FONT_URL.lstrip("/"))
    for icon in sorted((ASSETS_DIR / "icons").glob("*.png")):
        _copy(icon, out / "icons" / icon.name)


def _write_index(out: Path, base: str) -> None:
    from flet.controls.types import RouteUrlStrategy
    from flet_web import patch_index_html

    from scorer.server import APP_DESCRIPTION, APP_NAME
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
NATIVE = "__pypackages__/"
MAIN_PY = ('"""Tarabish on one phone: see scorer.browser (worker.js puts this zip on '
           'sys.path)."""\n'
           "from scorer.browser.start import run\n\nrun()\n")


def app_members(wheels: list[Path]) -> dict[str, bytes]:
    """main.py, rules/ and scorer/, and every wheel unpacked under __pypackages__/."""
    members: dict[str, bytes] = {"main.py": MAIN_PY.encode()}
    for name in APP_SOURCES:
        for path in sorted((REPO_ROOT / name).rglob("*")):
            rel = path.relative_to(REPO_ROOT).as_posix()
            if (path.is_file() and "__pycache__" not in rel and not rel.startswith(APP_SKIPPED)
                    and path.suffix != ".pyc"):
                members[rel] = path.read_bytes()
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as zf:
            for entry in zf.infolist():
                if (entry.is_dir() or entry.filename.startswith(WHEEL_SKIPPED)
                        or entry.filename.endswith(WHEEL_SKIPPED_SUFFIXES)):
                    continue
                members[f"{NATIVE}{entry.filename}"] = zf.read(entry)
    return members


def app_archive(wheels: list[Path], precompile: bool = True, deflate: bool = False,
                members: dict[str, bytes] | None = None) -> bytes:
    """`app_members`, compiled to bytecode when Node.js is at hand (see `with_bytecode`),
    wheels moved to the top of the zip and their compiled modules left out (see
    `lift_wheels`, `compiled_modules`)."""
    if members is None:
        members = app_members(wheels)
    if precompile:
        members = with_bytecode(members, sourceless=(NATIVE,), ddir=PHONE_APP_PATH)
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


def stored_zip(members: dict[str, bytes], deflate: bool = False) -> bytes:
    """A zip of `members` with fixed times and sorted names: the same inputs give the
    same bytes (and the same site version). Stored when the site has precompressed
    copies; deflated for hosts that may not compress zip files (GitHub Pages)."""
    method = zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method, compresslevel=9 if deflate else None) as zf:
        for name, data in sorted(members.items()):
            zf.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data,
                        compress_type=method)
    return buf.getvalue()


def with_bytecode(members: dict[str, bytes], sourceless: tuple[str, ...],
                  ddir: str) -> dict[str, bytes]:
    """`members` with every module compiled by the phone's CPython 3.14 (Pyodide in
    Node.js, precompile.mjs), so the phone imports instead of compiling at each start.
    Each `mod.pyc` goes beside its `mod.py` (zipimport looks there, not in
    __pycache__). Under the `sourceless` prefixes the .py files give way to their .pyc
    (smaller download; tracebacks there show no source lines); elsewhere both are
    kept. `ddir`: the folder the phone sees them in (for tracebacks).
    Unchanged (with a note) when Node.js is missing or fails: slower, same app."""
    node = shutil.which("node")
    if node is None:
        print("build-web: Node.js not found: the phone will compile the Python at each "
              "start (slower). Install Node.js 20+ for a faster app.", file=sys.stderr)
        return members
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        _write_python(members, tmp)
        if not _run_node(node, "precompile.mjs", _pyodide_dir(), tmp, ddir,
                         failed="compiling the Python to bytecode failed; the phone will "
                                "compile it at each start"):
            return members
        result = dict(members)
        for pyc in tmp.rglob("__pycache__/*.cpython-314.pyc"):
            folder = pyc.parent.parent.relative_to(tmp).as_posix()
            module = pyc.name.removesuffix(".cpython-314.pyc")
            source = f"{folder}/{module}.py" if folder != "." else f"{module}.py"
            if source not in members:
                continue
            if source.startswith(sourceless):
                del result[source]
            result[source + "c"] = pyc.read_bytes()
        return result


STDLIB_PATH = "/lib/python314.zip"
"""Where Pyodide puts python_stdlib.zip (on sys.path)."""


def compile_stdlib(zip_path: Path, deflate: bool = False,
                   app: dict[str, bytes] | None = None) -> None:
    """Pyodide's standard library zip, with only the modules `app` (app_members) can
    import (see stdlib_needs.py), sourceless (see `with_bytecode`); unchanged when
    Node.js cannot do either."""
    with zipfile.ZipFile(zip_path) as zf:
        members = {i.filename: zf.read(i) for i in zf.infolist() if not i.is_dir()}
    if app is not None:
        needed = stdlib_needs(app)
        if needed is not None:
            members = {name: data for name, data in members.items()
                       if not name.endswith(".py") or _module_of(name) in needed}
    compiled = with_bytecode(members, sourceless=("",), ddir=STDLIB_PATH)
    if compiled is members:
        return
    zip_path.write_bytes(stored_zip(compiled, deflate))


def _module_of(name: str) -> str:
    return name.removesuffix(".py").replace("/", ".").removesuffix(".__init__")


def stdlib_needs(app: dict[str, bytes]) -> set[str] | None:
    """Names of the standard library modules the app and its wheels can import, found
    by stdlib_needs.py in the phone's own Python (Node.js); None without Node.js."""
    node = shutil.which("node")
    if node is None:
        return None
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        _write_python(app, tmp / "src", strip=NATIVE)
        out = tmp / "needs.json"
        if not _run_node(node, "stdlib_needs.mjs", _pyodide_dir(), tmp / "src", out,
                         failed="could not list the standard library the app needs; the "
                                "phone gets all of it", makes=out):
            return None
        return set(json.loads(out.read_text(encoding="utf-8")))


def _pyodide_dir() -> Path:
    """The Pyodide runtime the phone runs (flet_web's copy)."""
    from flet_web import get_package_web_dir

    return Path(get_package_web_dir()) / "pyodide"


def _write_python(files: dict[str, bytes], folder: Path, strip: str = "") -> None:
    """The .py files among `files` under `folder`, their names less `strip`."""
    for name, data in files.items():
        if name.endswith(".py"):
            path = folder / name.removeprefix(strip)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)


def _run_node(node: str, script: str, *args: str | Path, failed: str,
              makes: Path | None = None) -> bool:
    """Run one of the build's scripts in the phone's own Python under Node.js; whether
    it worked (and wrote `makes`). If not, says `failed` with the end of its errors."""
    done = subprocess.run([node, str(HERE / script), *map(str, args)],
                          capture_output=True, text=True, timeout=900, check=False)
    if done.returncode == 0 and (makes is None or makes.is_file()):
        return True
    print(f"build-web: {failed}:\n" + done.stderr[-2000:], file=sys.stderr)
    return False


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


def make_snapshot(out: Path, app: dict[str, bytes], cache: Path | None = None,
                  natives: dict[str, str] | None = None) -> str | None:
    """A Pyodide memory snapshot (snapshot.mjs) as `out`/python-snapshot-<hash>.bin (its
    heap's nonzero pages only: snapshot_file.py), made
    with the site's own runtime, standard library and app.zip; its name, or None
    without Node.js (the phone then starts Python from scratch, as on a first visit).
    Kept in `cache` by what it was made from: a rebuild of the same site gives the
    same file (a snapshot is not byte-for-byte reproducible)."""
    node = shutil.which("node")
    if node is None:
        return None
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
    cache = cache if cache is not None else brotli_cache_dir().parent / "snapshots"
    kept = cache / name
    if not kept.is_file():
        with tempfile.TemporaryDirectory() as tmp_name:
            tmp = Path(tmp_name)
            (tmp / "imports.json").write_text(imports, encoding="utf-8")
            (tmp / "libraries.json").write_text(json.dumps(libraries), encoding="utf-8")
            if not _run_node(node, "snapshot.mjs", out / "pyodide", out / APP_ARCHIVE,
                             PHONE_APP_PATH, tmp / "imports.json", tmp / "libraries.json",
                             tmp / name,
                             failed="no memory snapshot (the phone starts Python from "
                                    "scratch each time)"):
                return None
            cache.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(tmp / name, kept)
    (out / name).write_bytes(snapshot_file.pack(kept.read_bytes()))
    return name


# -- listing and compressing ------------------------------------------------------------------


def _site_paths(out: Path) -> Iterator[Path]:
    for path in sorted(out.rglob("*")):
        if not path.is_file() or path.name == MARKER:
            continue
        if path.suffix not in (".gz", ".br"):
            yield path


def site_files(out: Path) -> dict[str, str]:
    """Every file of the site (sw.js aside) and a hash of its content."""
    files: dict[str, str] = {}
    for path in _site_paths(out):
        rel = path.relative_to(out).as_posix()
        if rel != "sw.js":
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


def _precompress(out: Path, brotli_quality: int, cache: Path) -> None:
    """`.br` (and `.gz`) copies of every file worth it. Brotli at quality 11 is 12-13 %
    smaller than 9 on the big wasm files and archives (1.5 MB of a first visit) but
    takes about a minute for the largest: copies are kept in `cache` by content, and
    the files still to compress are shared among the CPUs."""
    import os
    from concurrent.futures import ProcessPoolExecutor

    todo: list[tuple[Path, Path, int]] = []
    for path in list(_site_paths(out)):
        if path.suffix not in COMPRESSED_SUFFIXES or path.stat().st_size < MIN_COMPRESSED:
            continue
        data = path.read_bytes()
        gz = gzip.compress(data, compresslevel=9, mtime=0)
        if len(gz) < len(data) * 0.95:
            path.with_name(path.name + ".gz").write_bytes(gz)
        # The memory snapshot (45 MB) would take minutes at 11; 9 is 6 % larger.
        quality = brotli_quality if len(data) < HUGE_FILE else min(brotli_quality, 9)
        key = hashlib.sha256(data).hexdigest() + f".q{quality}.br"
        todo.append((path, cache / key, quality))
    sources = {kept: (path, quality) for path, kept, quality in todo
               if not kept.is_file()}  # one per content
    missing = sorted(sources, key=lambda kept: -sources[kept][0].stat().st_size)  # big first
    if missing:
        cache.mkdir(parents=True, exist_ok=True)
        workers = max(1, min(len(missing), os.cpu_count() or 1))
        with ProcessPoolExecutor(max_workers=workers) as pool:
            compressed = pool.map(_brotli, [sources[k][0] for k in missing],
                                  [sources[k][1] for k in missing])
            for kept, br in zip(missing, compressed, strict=True):
                tmp = kept.with_name(f"{kept.name}.{os.getpid()}.tmp")
                tmp.write_bytes(br)
                os.replace(tmp, kept)
    for path, kept, _quality in todo:
        br = kept.read_bytes()
        if len(br) < path.stat().st_size * 0.95:
            path.with_name(path.name + ".br").write_bytes(br)


def _brotli(path: Path, quality: int) -> bytes:
    import brotli

    return bytes(brotli.compress(path.read_bytes(), quality=quality, lgwin=24))


def brotli_cache_dir() -> Path:
    """~/.cache/tarabish/brotli (XDG_CACHE_HOME respected)."""
    from scorer.webbuild.wheels import default_cache_dir

    return default_cache_dir().parent.parent / "brotli"


FIRST_VISIT = ("index.html", "boot.js", "sw.js", "flutter_bootstrap.js", "flutter.js",
               "worker.js", "main.dart.mjs", "main.dart.wasm",
               "canvaskit/skwasm.js", "canvaskit/skwasm.wasm", "manifest.json",
               "pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs", "pyodide/pyodide.asm.wasm",
               "pyodide/pyodide-lock.json", "pyodide/python_stdlib.zip", APP_ARCHIVE,
               "assets/FontManifest.json", "assets/fonts/roboto.woff2",
               "assets/fonts/MaterialIcons-Regular.otf", "fonts/DejaVuSans-subset.ttf")
"""What Chromium loads to show the first screen (checked by the tests' request log)."""


def _first_visit_size(out: Path) -> int:
    total = 0
    natives = sorted(p.relative_to(out).as_posix() for p in (out / NATIVES_DIR).glob("*.wasm"))
    for rel in (*FIRST_VISIT, *natives):
        path = out / rel
        best = [p for p in (path.with_name(path.name + ".br"), path) if p.is_file()]
        total += best[0].stat().st_size if best else 0
    return total
