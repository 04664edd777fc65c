"""`tarabish --database URL` refuses to start, in one line, on a database it cannot use:
one that cannot be reached, or one set up by a newer Tarabish (left untouched)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import psycopg

from tests.pg_cluster import Cluster

REPO = Path(__file__).resolve().parents[2]


def _serve(url: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scorer.cli", "--database", url, "--no-open",
         "--host", "127.0.0.1", "--port", "0", "--data-dir", str(tmp_path / "unused")],
        cwd=REPO, capture_output=True, text=True, timeout=120)


def test_an_unreachable_database_is_one_line_and_exit_1(pg_cluster: Cluster,
                                                        tmp_path: Path) -> None:
    url = f"postgresql://postgres:secret@127.0.0.1:{pg_cluster.port}/no_such_database"
    done = _serve(url, tmp_path)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot be reached" in lines[0], done.stderr
    assert "secret" not in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "unused").exists()  # no data folder made, no lock taken


def test_a_newer_schema_is_one_line_and_exit_1(pg_url: str, tmp_path: Path) -> None:
    with psycopg.connect(pg_url) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999_from_the_future' "
                     "WHERE version_num = (SELECT min(version_num) FROM alembic_version)")
    done = _serve(pg_url, tmp_path)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "newer version of Tarabish" in lines[0], done.stderr


def test_a_bad_address_is_said_and_exit_2(tmp_path: Path) -> None:
    done = _serve("mysql://somewhere/x", tmp_path)
    assert done.returncode == 2
    assert "PostgreSQL address" in done.stderr
