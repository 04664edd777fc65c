"""`tarabish admin-code`: a new code printed once, only its hash kept."""

from __future__ import annotations

import re
from pathlib import Path

import psycopg
import pytest

from scorer.cli import main
from scorer.rights.pg_admin import code_matches


def _printed_code(out: str) -> str:
    found = re.findall(r"\b(\d{5}) (\d{5})\b", out)
    assert len(found) == 1, out  # printed once
    return "".join(found[0])


def _stored(url: str) -> list[str]:
    with psycopg.connect(url) as conn:
        return [r[0] for r in conn.execute("SELECT hash FROM admin_code")]


def test_prints_a_new_code_once_and_keeps_only_its_hash(
        pg_empty_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["admin-code", "--database", pg_empty_url]) == 0  # migrates an empty one
    out, err = capsys.readouterr()
    first = _printed_code(out)
    assert err == "" and "Past games > Host" in out
    (stored,) = _stored(pg_empty_url)
    assert first not in stored and code_matches(first, stored)
    assert main(["admin-code", "--database", pg_empty_url]) == 0
    second = _printed_code(capsys.readouterr().out)
    (stored,) = _stored(pg_empty_url)  # one row: the new code replaced the old
    assert second != first and code_matches(second, stored) and not code_matches(first, stored)


def test_reads_the_database_from_the_environment(
        pg_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TARABISH_DATABASE", pg_url)
    assert main(["admin-code"]) == 0
    assert code_matches(_printed_code(capsys.readouterr().out), _stored(pg_url)[0])


@pytest.mark.parametrize(("argv", "exit_code", "words"), [
    (["admin-code"], 2, "needs a community's database"),
    (["admin-code", "--database", "mysql://x@localhost/t"], 2, "PostgreSQL address"),
    (["admin-code", "--database", "postgresql://u:secret@127.0.0.1:1/none"], 1,
     "cannot be reached"),
    (["admin-code", "--database", "postgresql://u@host:notaport/x"], 2, "cannot be used"),
])
def test_a_bad_or_missing_database_is_one_line(
        argv: list[str], exit_code: int, words: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TARABISH_DATABASE", raising=False)
    assert main(argv) == exit_code
    out, err = capsys.readouterr()
    assert out == "" and words in err and err.count("\n") == 1 and "secret" not in err


def test_a_community_server_prints_no_host_code_at_start(
        pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import scorer.server as server
    from scorer.rights import TableRights
    from scorer.store.database import Database

    db = Database(pg_url, max_size=1)
    rights = TableRights.on_database(db)
    monkeypatch.setattr(server, "get_rights", lambda _folder: rights)
    server.print_host_code(tmp_path, [])
    out = capsys.readouterr().out
    assert "admin-code" in out and not re.search(r"\d{5} \d{5}", out)
    assert rights._host_code is None  # no code of this run would open anything either
    db.close()
