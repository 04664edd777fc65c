"""`tarabish event new FILE.json` for a group: "group" in the file or `--group G` (name
or id); a group that does not exist is one line and exit 2; the night's games join it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorer.backends import backends_of
from scorer.cli import main
from scorer.store.game_store import GameStore

PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(path: Path, data: Any) -> str:
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def night(**more: Any) -> dict[str, Any]:
    return {"name": "Friday", "format": "progressive", "rounds": 2, "players": PLAYERS,
            "seed": 3, **more}


@pytest.fixture
def folder(tmp_path: Path) -> tuple[str, str]:
    """A data folder with the group "Friday bish": (folder, group id)."""
    data = tmp_path / "data"
    with GameStore(data) as store:
        group, _code = backends_of(store).groups().create("Friday bish")
    return str(data), group.id


def test_a_night_for_a_group_by_name(folder: tuple[str, str], tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    data, group_id = folder
    spec = write(tmp_path / "e.json", night())
    code, out, err = run(capsys, "event", "new", spec, "--group", "friday BISH",
                         "--data-dir", data)
    assert code == 0, err
    event_id = out.strip()
    code, out, err = run(capsys, "event", "round", event_id, "--json", "--data-dir", data)
    assert code == 0, err
    seated = {t["game"] for t in json.loads(out)["tables"]}
    with GameStore(data, read_only=True) as store:
        assert set(backends_of(store).groups().get(group_id).games) == seated


def test_a_night_for_a_group_by_its_id_in_the_file(folder: tuple[str, str], tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    data, group_id = folder
    spec = write(tmp_path / "e.json", night(group=group_id))
    code, _out, err = run(capsys, "event", "new", spec, "--data-dir", data)
    assert code == 0, err


@pytest.mark.parametrize("how", ["file", "option"])
def test_a_group_that_does_not_exist_is_one_line(folder: tuple[str, str], tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str],
                                                 how: str) -> None:
    data, _group_id = folder
    if how == "file":
        argv = [write(tmp_path / "e.json", night(group="0badc0de"))]
    else:
        argv = [write(tmp_path / "e.json", night()), "--group", "Saturday"]
    code, out, err = run(capsys, "event", "new", *argv, "--data-dir", data)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "There is no group" in err
    with GameStore(data, read_only=True) as store:
        assert not list((store.data_dir).glob("events/*"))


def test_a_file_and_an_option_that_disagree_are_refused(
        folder: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, group_id = folder
    with GameStore(data) as store:
        backends_of(store).groups().create("Saturday")
    spec = write(tmp_path / "e.json", night(group=group_id))
    code, _out, err = run(capsys, "event", "new", spec, "--group", "Saturday",
                          "--data-dir", data)
    assert code == 2 and err.count("\n") == 1 and "Saturday" in err


def test_an_old_event_file_without_a_group_still_makes_a_night(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = write(tmp_path / "e.json", night())
    code, out, err = run(capsys, "event", "new", spec, "--data-dir", str(tmp_path / "d"))
    assert code == 0 and len(out.strip()) == 8, err


def test_a_community_night_for_a_group(pg_url: str, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    where = ["--database", pg_url]
    assert run(capsys, "group", "new", "Legion", *where)[0] == 0
    spec = write(tmp_path / "e.json", night())
    code, out, err = run(capsys, "event", "new", spec, "--group", "legion", *where)
    assert code == 0, err
    code, out, err = run(capsys, "event", "round", out.strip(), "--json", *where)
    assert code == 0, err
    seated = {t["game"] for t in json.loads(out)["tables"]}
    code, out, _ = run(capsys, "group", "list", "--json", *where)
    assert json.loads(out)[0]["games"] == len(seated) == 2
    code, _out, err = run(capsys, "event", "new", spec, "--group", "Saturday", *where)
    assert code == 2 and "There is no group" in err
