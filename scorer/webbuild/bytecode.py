"""The phone's Python, compiled ahead: the app's bytecode and a trimmed standard library,
and the reproducible zips they go in (`stored_zip`).

Both are made by the phone's own CPython 3.14 (Pyodide under Node.js: tools.Node) and
kept in the build cache: a module's bytecode by its source, its name and the phone's
Python; the standard library the app needs by what the app imports. A rebuild
compiles only the modules whose source changed.
"""

from __future__ import annotations

import io
import json
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path

from scorer.machine.disk_cache import digest_of
from scorer.webbuild.build_cache import file_digest
from scorer.webbuild.progress import Step
from scorer.webbuild.tools import HERE, Tools

NATIVE = "__pypackages__/"
"""Where app_members puts the wheels' files (stripped for the phone's sys.path)."""
STDLIB_PATH = "/lib/python314.zip"
"""Where Pyodide puts python_stdlib.zip (on sys.path)."""
PYC_SUFFIX = ".cpython-314.pyc"


def with_bytecode(members: dict[str, bytes], sourceless: tuple[str, ...], ddir: str,
                  tools: Tools, step: Step | None = None,
                  keep: Callable[[str], bool] = lambda name: False) -> dict[str, bytes]:
    """`members` with every module compiled by the phone's CPython 3.14, so the phone
    imports instead of compiling at each start. Each `mod.pyc` goes beside its `mod.py`
    (zipimport looks there, not in __pycache__). Under the `sourceless` prefixes the .py
    files give way to their .pyc (smaller download; tracebacks there show no source
    lines), but for the sources `keep` names (read as data on the phone); elsewhere
    both are kept. `ddir`: the folder the phone sees them in (for
    tracebacks). Modules compiled before (same source, name and Python) come from the
    build cache. Unchanged (with a note) when Node.js is missing or fails: slower, same
    app."""
    sources = {name: data for name, data in members.items() if name.endswith(".py")}
    if step is not None:
        step.grow(len(sources))
    compiled: dict[str, bytes] = {}
    missing: dict[str, bytes] = {}
    for name, data in sources.items():
        kept = tools.cache.get("pyc", tools.runtime, ddir, name, data)
        if kept is None:
            missing[name] = data
        else:
            compiled[name] = kept
            if step is not None:
                step.reuse()
    if missing:
        made = _compile(missing, ddir, tools, step)
        if made is None:
            return members
        for name, pyc in made.items():
            tools.cache.put(pyc, "pyc", tools.runtime, ddir, name, missing[name])
        compiled |= made
    result = dict(members)
    for name, pyc in compiled.items():
        if name.startswith(sourceless) and not keep(name):
            del result[name]
        result[name + "c"] = pyc
    return result


def _compile(sources: dict[str, bytes], ddir: str, tools: Tools,
             step: Step | None) -> dict[str, bytes] | None:
    """Bytecode of `sources` made now (precompile.mjs), or None."""
    if not tools.python.available:
        return None
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        write_python(sources, tmp)
        seen = 0

        def count() -> None:  # the bar follows the files precompile.mjs writes
            nonlocal seen
            now = sum(1 for _ in tmp.rglob(f"__pycache__/*{PYC_SUFFIX}"))
            if step is not None and now > seen:
                step.make(now - seen)
            seen = now

        if not tools.python.run("precompile.mjs", tools.pyodide, tmp, ddir, watch=count,
                                failed="compiling the Python to bytecode failed; the phone "
                                       "will compile it at each start"):
            return None
        count()
        made: dict[str, bytes] = {}
        for pyc in tmp.rglob(f"__pycache__/*{PYC_SUFFIX}"):
            folder = pyc.parent.parent.relative_to(tmp).as_posix()
            module = pyc.name.removesuffix(PYC_SUFFIX)
            source = f"{folder}/{module}.py" if folder != "." else f"{module}.py"
            if source in sources:
                made[source] = pyc.read_bytes()
        return made


def compile_stdlib(zip_path: Path, tools: Tools, step: Step | None = None,
                   deflate: bool = False, app: dict[str, bytes] | None = None) -> None:
    """Pyodide's standard library zip, with only the modules `app` (app_members) can
    import (see stdlib_needs.py), sourceless (see `with_bytecode`); unchanged when
    Node.js cannot do either."""
    with zipfile.ZipFile(zip_path) as zf:
        members = {i.filename: zf.read(i) for i in zf.infolist() if not i.is_dir()}
    if app is not None:
        needed = stdlib_needs(app, tools, step)
        if needed is not None:
            members = {name: data for name, data in members.items()
                       if not name.endswith(".py") or module_of(name) in needed}
    compiled = with_bytecode(members, sourceless=("",), ddir=STDLIB_PATH, tools=tools,
                             step=step)
    if compiled is members:
        return
    zip_path.write_bytes(stored_zip(compiled, deflate))


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


def module_of(name: str) -> str:
    return name.removesuffix(".py").replace("/", ".").removesuffix(".__init__")


def stdlib_needs(app: dict[str, bytes], tools: Tools,
                 step: Step | None = None) -> set[str] | None:
    """Names of the standard library modules the app and its wheels can import, found
    by stdlib_needs.py in the phone's own Python (Node.js); None without Node.js.
    Kept in the build cache by what it depends on (`needs_inputs`)."""
    inputs = needs_inputs(app, tools)
    kept = tools.cache.get("needs", *inputs)
    if kept is not None:
        if step is not None:
            step.reuse()
        return set(json.loads(kept))
    if not tools.python.available:
        return None
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        write_python(app, tmp / "src", strip=NATIVE)
        out = tmp / "needs.json"
        if not tools.python.run("stdlib_needs.mjs", tools.pyodide, tmp / "src", out,
                                failed="could not list the standard library the app needs; "
                                       "the phone gets all of it", makes=out):
            return None
        found = out.read_bytes()
    tools.cache.put(found, "needs", *inputs)
    if step is not None:
        step.make()
    return set(json.loads(found))


def needs_inputs(app: dict[str, bytes], tools: Tools) -> tuple[str, ...]:
    """What the list of needed modules is made from: the phone's Python and standard
    library, the script, the wheels' sources, and only the imports of the app's own
    modules (an app file changed without changing its imports needs no new list)."""
    from scorer.webbuild.stdlib_needs import imports_of

    wheels = digest_of(*(part for name, data in sorted(app.items())
                         if name.startswith(NATIVE) and name.endswith(".py")
                         for part in (name, data)))
    imports: set[str] = set()
    for name, data in app.items():
        if name.endswith(".py") and not name.startswith(NATIVE):
            rel = name.removesuffix(".py").replace("/", ".")
            imports |= imports_of(data.decode("utf-8", "replace"),
                                  rel.removesuffix(".__init__"), rel.endswith(".__init__"))
    return (tools.runtime, file_digest(tools.pyodide / "python_stdlib.zip"),
            (HERE / "stdlib_needs.py").read_text(encoding="utf-8"),
            (HERE / "stdlib_needs.mjs").read_text(encoding="utf-8"), wheels,
            "\n".join(sorted(imports)))


def write_python(files: dict[str, bytes], folder: Path, strip: str = "") -> None:
    """The .py files among `files` under `folder`, their names less `strip`."""
    for name, data in files.items():
        if name.endswith(".py"):
            path = folder / name.removeprefix(strip)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
