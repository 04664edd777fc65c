"""The quick loop of CONTRIBUTING.md leaves out what its marks name: tests/conftest.py
marks each test by what it uses before `-m` deselects by those marks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.run_order import recorded

ROOT = Path(__file__).resolve().parent.parent
QUICK = "not browser and not postgres and not slow"


def collected(*paths: str, quick: bool = True) -> list[str]:
    """The test ids the quick loop (or the whole run) would run among `paths`, in order."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0", "-p", "no:randomly",
         *(["-m", QUICK] if quick else []), *paths],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_the_quick_loop_leaves_out_browser_postgres_and_server_tests() -> None:
    ids = collected("tests/e2e/test_sharing.py", "tests/store/test_store_games.py",
                    "tests/rules/test_golden.py")
    assert ids, "the quick loop ran nothing"
    assert not [i for i in ids if i.startswith("tests/e2e/")], ids
    assert not [i for i in ids if "postgresql" in i], ids
    assert [i for i in ids if i.startswith("tests/rules/")], ids


def test_the_whole_run_starts_with_its_longest_test() -> None:
    """The order of tests/run_order.py is applied after the marks (a hook named
    otherwise than pytest_* is never called: this failed once)."""
    ids = collected("tests/rules/test_golden.py", "tests/e2e/test_sharing.py", quick=False)
    seconds = recorded()
    assert ids[0] == max(ids, key=lambda i: seconds.get(i, 0.0)), ids[:3]
    assert ids[0].startswith("tests/e2e/")
