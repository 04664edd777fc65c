"""pytest imports a test file by its bare name unless its folder is a package: two
files of one name in two such folders stop the whole run at collection."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_test_files_outside_packages_have_names_of_their_own() -> None:
    bare = [p.name for p in TESTS.rglob("test_*.py")
            if ".venv" not in p.parts and not (p.parent / "__init__.py").exists()]
    twice = sorted(name for name, count in Counter(bare).items() if count > 1)
    assert not twice, f"rename one of each: {twice}"
