"""Docstrings left out of the phone's bytecode (scorer/webbuild/docstrings.py): the code
that runs is the same, on the same lines, so a phone's traceback names the right line."""

from __future__ import annotations

import ast
from pathlib import Path

import flet
import segno
import tinydb

from scorer.webbuild.docstrings import blank_docstrings, without_docstrings

REPO = Path(__file__).resolve().parents[2]


def statements(source: bytes) -> tuple[list[tuple[str, int]], int]:
    """Every statement but docstrings and `pass`, with its line (what runs, and where),
    and how many docstrings there are."""
    found, docs = [], 0
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            docs += ast.get_docstring(node, clean=False) is not None
        if isinstance(node, ast.stmt) and not isinstance(node, ast.Pass):
            value = getattr(node, "value", None)
            if not (isinstance(node, ast.Expr) and isinstance(value, ast.Constant)
                    and isinstance(value.value, str)):
                found.append((type(node).__name__, node.lineno))
    return sorted(found), docs


def test_every_module_of_the_app_and_its_wheels_keeps_its_code_on_its_lines() -> None:
    folders = [REPO / "rules", REPO / "scorer", *(Path(p.__file__).parent
                                                  for p in (flet, segno, tinydb))]
    files = [p for folder in folders for p in sorted(folder.rglob("*.py"))]
    assert len(files) > 300
    left = 0
    for path in files:
        source = path.read_bytes()
        blanked = blank_docstrings(source)
        assert blanked.count(b"\n") == source.count(b"\n"), path
        code, docs = statements(blanked)  # it parses: the file still compiles
        assert code == statements(source)[0], path
        left += docs
    assert left < 5  # only docstrings that share a line with code stay


def test_a_docstring_goes_a_body_keeps_a_statement_and_lines_stay() -> None:
    source = ('"""The module."""\nfrom __future__ import annotations\n\n\n'
              'class A:\n    """Doc → with an arrow."""  # a comment\n\n'
              '    def f(self) -> None:\n        """Only this."""\n\n\n'
              'def g():\n    "kept"; return 2\n\n\n'
              'def h(x):\n    y = "not a docstring"\n    raise ValueError(x + y)\n').encode()
    blanked = blank_docstrings(source)
    assert b"The module" not in blanked and b"arrow" not in blanked
    assert b"Only this" not in blanked and b"        pass\n" in blanked
    space: dict[str, object] = {}
    exec(compile(blanked, "m.py", "exec", dont_inherit=True), space)
    a, g, h = space["A"], space["g"], space["h"]
    assert isinstance(a, type) and a.__doc__ is None and a().f() is None
    assert callable(g) and g.__doc__ == "kept" and g() == 2
    assert callable(h)
    try:
        h("x")
    except ValueError as failed:
        assert failed.__traceback__ is not None
        line = failed.__traceback__.tb_next
        assert line is not None and line.tb_lineno == 18  # as in `source`
    assert blank_docstrings(b"def broken(:\n") == b"def broken(:\n"


def test_only_the_chosen_packages_lose_their_docstrings() -> None:
    doc = b'"""Doc."""\n'
    members = {"rules/x.py": doc, "__pypackages__/flet/y.py": doc,
               "__pypackages__/pydantic/z.py": doc, "main.py": doc, "rules/data.json": doc}
    assert without_docstrings(members) == {
        "rules/x.py": b"\n", "__pypackages__/flet/y.py": b"\n",
        "__pypackages__/pydantic/z.py": doc, "main.py": doc, "rules/data.json": doc}
