"""Which modules of the phone's standard library the app can ever import.

Run by `tarabish build-web` inside the phone's own CPython (Pyodide under
Node.js, stdlib_needs.mjs), which reads 3.14 syntax and sees the standard
library exactly as the phone has it (`/lib/python314.zip`). Not imported by the
app.

    python stdlib_needs.py FOLDER OUT_JSON

FOLDER holds the app and its wheels as .py files. Every `import` statement in
them (at any depth: in functions, under `try`, `if TYPE_CHECKING`) and every
literal `importlib.import_module("...")` / `__import__("...")` is followed
through the standard library; so are the modules Python has loaded once it has
started, the ones C code imports by name (KEPT) and every codec (`encodings`,
looked up by name at run time). OUT_JSON gets the sorted list of module names.
"""

from __future__ import annotations

import ast
import json
import os
import sys
import zipfile

STDLIB_ZIP = "/lib/python314.zip"
KEPT = (
    # Imported by C code or by name rather than by an import statement.
    "_strptime", "_compat_pickle", "copyreg", "_pydatetime", "_pydecimal", "_weakrefset",
    "_collections_abc", "_sitebuiltins", "linecache", "traceback", "_colorize", "warnings",
    "_py_warnings", "_threading_local", "_markupbase", "annotationlib", "encodings",
    "site", "sitecustomize", "zipimport", "_sysconfigdata__emscripten_wasm32-emscripten",
    "pyodide", "_pyodide", "asyncio", "json", "logging", "codecs", "io", "abc",
    # Imported by worker.js's start code, not by the app's files.
    "runpy", "random", "importlib.abc", "importlib.machinery", "importlib.util",
)


def imports_of(source: str, module: str, is_package: bool) -> set[str]:
    """Absolute names of every module `source` may import (and their parents)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    for node in _executed(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".") if package else []
                base_parts = parts[:len(parts) - node.level + 1] if node.level > 1 else parts
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base:
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in node.names)
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and ((isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                   or (isinstance(node.func, ast.Name) and node.func.id == "__import__"))):
            found.add(node.args[0].value)
    with_parents: set[str] = set()
    for name in found:
        parts = name.split(".")
        with_parents.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return with_parents


def _executed(tree: ast.AST) -> list[ast.AST]:
    """Every node but those under `if TYPE_CHECKING:` and `if __name__ == "__main__":`
    (never run when the app imports the module)."""
    nodes: list[ast.AST] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        nodes.append(node)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _never_run(child.test):
                todo.extend(child.orelse)
            else:
                todo.append(child)
    return nodes


def _never_run(test: ast.expr) -> bool:
    text = ast.unparse(test)
    return text in ("TYPE_CHECKING", "typing.TYPE_CHECKING", "t.TYPE_CHECKING",
                    "__name__ == '__main__'")


def stdlib_modules(zf: zipfile.ZipFile) -> dict[str, tuple[str, bool]]:
    """Module name -> (member of the zip, is a package)."""
    modules: dict[str, tuple[str, bool]] = {}
    for name in zf.namelist():
        if not name.endswith(".py"):
            continue
        dotted = name[:-3].replace("/", ".")
        if dotted.endswith(".__init__"):
            modules[dotted.removesuffix(".__init__")] = (name, True)
        else:
            modules[dotted] = (name, False)
    return modules


def needed(folder: str) -> list[str]:
    zf = zipfile.ZipFile(STDLIB_ZIP)
    std = stdlib_modules(zf)
    todo: set[str] = set(sys.modules) | set(KEPT)
    for root, _dirs, files in os.walk(folder):
        for file in files:
            if not file.endswith(".py"):
                continue
            path = os.path.join(root, file)
            rel = os.path.relpath(path, folder)[:-3].replace(os.sep, ".")
            is_package = rel.endswith(".__init__")
            module = rel.removesuffix(".__init__")
            with open(path, encoding="utf-8", errors="replace") as f:
                todo |= imports_of(f.read(), module, is_package)
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in std:
            continue
        seen.add(name)
        member, is_package = std[name]
        if is_package:  # a package's codecs, tests and such: every submodule of a kept one
            todo |= {m for m in std if m.startswith(name + ".")} if name in KEPT else set()
        todo |= imports_of(zf.read(member).decode("utf-8", "replace"), name, is_package)
    return sorted(seen)


if __name__ == "__main__":
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        json.dump(needed(sys.argv[1]), out)
