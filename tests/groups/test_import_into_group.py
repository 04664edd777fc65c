"""`tarabish import FILE... --group G`: imported games join a group, on a folder, on a
community's database, and when a running table server takes the import."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ratings"))

from ratings_docs import game_doc

from scorer.app import store_access
from scorer.cli import main
from scorer.groups.folder import FolderGroups
from scorer.handoff.local_import import IMPORT_PATH, KEY_HEADER
from scorer.store import GameStore
from tests.import_server import KEY, server_taking_imports


def files(tmp_path: Path) -> list[str]:
    made = []
    for n, players in enumerate((["Ann", "Bob", "Cid", "Dee"], ["ann", "Eve", "Cid", "Fay"])):
        path = tmp_path / f"g{n}.json"
        path.write_text(json.dumps(game_doc(players, 0)), encoding="utf-8")
        made.append(str(path))
    return made


def test_imported_games_join_the_group_named(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    assert main(["group", "new", "Friday bish", "--data-dir", str(data)]) == 0
    capsys.readouterr()
    assert main(["import", *files(tmp_path), "--group", "friday BISH",
                 "--data-dir", str(data)]) == 0
    out = capsys.readouterr()
    ids = out.out.split()
    assert len(ids) == 2
    assert "joined the group Friday bish (2 games)" in out.err
    [group] = FolderGroups(data).list_groups()
    assert list(group.games) == ids
    assert {m.casefold() for m in group.members} == {"ann", "bob", "cid", "dee", "eve", "fay"}


def test_a_group_that_does_not_exist_imports_nothing(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    assert main(["import", *files(tmp_path), "--group", "Nobody",
                 "--data-dir", str(data)]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == ["tarabish: There is no group 'Nobody'. Nothing was "
                                        "imported."]
    assert GameStore(data, read_only=True).list_games() == []


def test_imported_games_join_a_community_group(pg_url: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from scorer.groups.pg import PgGroups
    from scorer.store.database import Database

    where = ["--database", pg_url]
    assert main(["group", "new", "Legion league", *where]) == 0
    capsys.readouterr()
    assert main(["import", *files(tmp_path), "--group", "Legion league", *where]) == 0
    ids = capsys.readouterr().out.split()
    db = Database(pg_url)
    try:
        [group] = PgGroups(db).list_groups()
    finally:
        db.close()
    assert list(group.games) == ids


def test_the_table_server_puts_a_handed_import_in_the_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    client = server_taking_imports(data, monkeypatch)
    key = {KEY_HEADER: KEY}
    docs = [game_doc(["Ann", "Bob", "Cid", "Dee"], 0)]
    group, _code = FolderGroups(data).create("Friday bish")

    unknown = client.post(IMPORT_PATH, json={"games": docs, "group": "Nobody"}, headers=key)
    assert unknown.status_code == 400
    assert unknown.json()["error"] == "There is no group 'Nobody'. Nothing was imported."
    odd = client.post(IMPORT_PATH, json={"games": docs, "group": ["x"]}, headers=key)
    assert odd.status_code == 400
    assert store_access.get_store().list_games() == []

    ok = client.post(IMPORT_PATH, json={"games": docs, "group": group.id}, headers=key)
    assert ok.status_code == 200
    assert list(FolderGroups(data).get(group.id).games) == ok.json()["ids"]
