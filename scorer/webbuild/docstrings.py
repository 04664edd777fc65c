"""Docstrings left out of the phone's bytecode, line numbers kept.

A docstring is text for a reader of the source; the phone ships no source (only
bytecode, see `site.APP_SOURCELESS`) and the app reads no `__doc__`, yet every
docstring is a string constant in the .pyc the phone downloads: a seventh of the
compressed bytecode of the app and Flet. Each docstring is blanked in the source before
it is compiled (the lines stay, so a traceback on the phone names the same lines), and a
body left empty gets `pass`. Only for packages that read no docstring at run time
(pydantic does, for its JSON schemas: it keeps them).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from scorer.webbuild.bytecode import NATIVE

STRIPPED = ("rules/", "scorer/", *(f"{NATIVE}{wheel}/" for wheel in (
    "flet", "flet_charts", "segno", "tinydb")))
"""Where docstrings are left out: the app and the wheels that never read `__doc__`
(checked with grep when a wheel is added here)."""

_WITH_DOC = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def without_docstrings(members: dict[str, bytes], where: tuple[str, ...] = STRIPPED,
                       skip: Callable[[str], bool] = lambda name: False) -> dict[str, bytes]:
    """`members` with the .py files under `where` blanked of their docstrings, but those
    `skip` names."""
    return {name: (blank_docstrings(data) if name.endswith(".py") and name.startswith(where)
                   and not skip(name) else data)
            for name, data in members.items()}


def blank_docstrings(source: bytes) -> bytes:
    """`source` with each docstring's lines blanked (`pass` where it was a body's only
    statement); unchanged when it does not parse. A docstring that shares a line with
    other code stays."""
    try:
        text = source.decode("utf-8")
        tree = ast.parse(text)
    except (SyntaxError, UnicodeDecodeError, ValueError):
        return source
    lines = text.splitlines(keepends=True)
    cuts: list[tuple[int, int, int, bool]] = []  # first line, last line, indent, needs pass
    for node in ast.walk(tree):
        if not isinstance(node, _WITH_DOC) or not node.body:
            continue
        first = node.body[0]
        if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)):
            continue
        end = first.end_lineno or first.lineno
        opening = lines[first.lineno - 1]
        after = lines[end - 1].encode("utf-8")[first.end_col_offset or 0:].strip()
        shares_line = (first.col_offset != len(opening) - len(opening.lstrip())
                       or (after != b"" and not after.startswith(b"#"))
                       or (len(node.body) > 1 and node.body[1].lineno == end))
        if shares_line:
            continue  # `def f(): "doc"; ...` is rare: that docstring stays
        alone = len(node.body) == 1 and not isinstance(node, ast.Module)
        cuts.append((first.lineno, end, first.col_offset, alone))
    for start, end, indent, alone in sorted(cuts, reverse=True):
        ending = "\r\n" if lines[end - 1].endswith("\r\n") else "\n"
        blank = [ending] * (end - start + 1)
        if alone:
            blank[0] = " " * indent + "pass" + ending
        lines[start - 1:end] = blank
    return "".join(lines).encode("utf-8")
