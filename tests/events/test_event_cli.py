"""`tarabish event new | round | standings | export` and `import --event`: the
public contract of docs/CLUB_NIGHT.md, JSON shapes and one-line refusals (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorer.cli import main

TEAMS = [["Ann", "Bob"], ["Cid", "Dee"], ["Eve", "Fay"], ["Gus", "Hal"], ["Ida", "Jo"]]
WIN = [{"caller": 0, "trump": "S", "points": {"team": 0, "tricks": 162}}] * 2


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(path: Path, data: Any) -> str:
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.fixture
def made(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """A Swiss night of five teams, target 300: (data folder, event id)."""
    data = str(tmp_path / "data")
    spec = write(tmp_path / "event.json", {"name": "Legion", "format": "swiss", "rounds": 3,
                                           "target": 300, "house_rules": {}, "teams": TEAMS,
                                           "seed": 11})
    code, out, err = run(capsys, "event", "new", spec, "--data-dir", data)
    assert code == 0, err
    event_id = out.strip()
    assert len(event_id) == 8
    assert "organiser code" in err
    return data, event_id


def test_new_help_shows_the_file(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["event", "new", "--help"])
    assert done.value.code == 0
    shown = capsys.readouterr().out
    for key in ('"name"', '"format"', '"rounds"', '"target"', '"house_rules"', '"teams"',
                '"players"', "round_robin", "progressive"):
        assert key in shown


def test_a_round_then_the_standings_as_json(made: tuple[str, str], tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    data, event_id = made
    code, out, err = run(capsys, "event", "round", event_id[:4], "--data-dir", data, "--json")
    assert code == 0, err
    shown = json.loads(out)
    assert set(shown) == {"round", "tables", "bye"} and shown["round"] == 1
    assert len(shown["tables"]) == 2 and len(shown["bye"]) == 2
    for n, table in enumerate(shown["tables"], start=1):
        assert set(table) == {"table", "game", "seats"} and table["table"] == n
        assert len(table["seats"]) == 4
    seated = {name for t in shown["tables"] for name in t["seats"]} | set(shown["bye"])
    assert seated == {name for team in TEAMS for name in team}
    # A paper game for table 1, its seats turned round: side 1 wins every hand.
    seats = shown["tables"][0]["seats"]
    paper = write(tmp_path / "paper.json", {
        "format": "tarabish-game/1", "players": [seats[1], seats[2], seats[3], seats[0]],
        "first_dealer": 0, "rules": {"target": 300}, "hands": WIN})
    code, out, err = run(capsys, "import", paper, "--event", event_id, "--table", "1",
                         "--data-dir", data)
    assert code == 0, err
    code, out, err = run(capsys, "event", "standings", event_id, "--data-dir", data, "--json")
    assert code == 0, err
    table = json.loads(out)
    assert set(table) == {"event", "format", "rounds_played", "standings"}
    assert (table["event"], table["format"], table["rounds_played"]) == (event_id, "swiss", 0)
    for line in table["standings"]:
        assert set(line) == {"rank", "entrant", "played", "wins", "losses", "points_for",
                             "points_against"}
    # Round 1 still has table 2 open: its standings do not count yet.
    assert {line["wins"] for line in table["standings"]} == {0}
    code, out, err = run(capsys, "event", "round", event_id, "--data-dir", data)
    assert code == 2 and err.count("\n") == 1 and "still being played at table 2" in err
    code, out, err = run(capsys, "event", "export", event_id, "--csv", "--data-dir", data)
    assert code == 0
    rows = out.splitlines()
    assert rows[0] == "round,table,team_1,team_2,score_1,score_2,winner,result,game"
    first = rows[1].split(",")
    assert first[:2] == ["1", "1"] and first[4:7] == ["0", "324", "2"]


def test_export_holds_every_game_file(made: tuple[str, str], tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    data, event_id = made
    run(capsys, "event", "round", event_id, "--data-dir", data)
    out_file = tmp_path / "night.json"
    code, out, _err = run(capsys, "event", "export", event_id, "-o", str(out_file),
                         "--data-dir", data)
    assert code == 0 and "Wrote club night" in out
    exported = json.loads(out_file.read_text())
    assert len(exported["games"]) == 2
    assert all(g["format"] == "tarabish-game/1" for g in exported["games"].values())
    assert [r["result"] for r in exported["results"]] == ["none", "none", "bye"]


@pytest.mark.parametrize(("changes", "words"), [
    ({"teams": [["Ann", "Bob"], ["Ann", "Cid"]]}, "two players are called 'Ann'"),
    ({"teams": [["Ann", "Bob"], ["Cid"]]}, "team 2 has one player"),
    ({"teams": [["Ann", "Bob"]]}, "at least two teams"),
    ({"format": "swiss!"}, "format"),
])
def test_bad_event_files_get_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      changes: dict[str, Any], words: str) -> None:
    spec = write(tmp_path / "e.json", {"name": "X", "teams": TEAMS, **changes})
    code, out, err = run(capsys, "event", "new", spec, "--data-dir", str(tmp_path / "d"))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and words in err
    assert not (tmp_path / "d" / "events").exists() or not list((tmp_path / "d" / "events").iterdir())


def test_bad_requests_get_one_line(made: tuple[str, str], tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    data, event_id = made
    (tmp_path / "junk.json").write_text("{not json", encoding="utf-8")
    cases = [
        (["event", "new", str(tmp_path / "junk.json")], "not valid JSON"),
        (["event", "new", str(tmp_path / "none.json")], "no file"),
        (["event", "round", "ffffffff"], "no club night"),
        (["event", "standings", "zz"], "no club night"),
        (["import", str(tmp_path / "junk.json"), "--event", event_id, "--table", "1"],
         "not valid JSON"),
    ]
    for argv, words in cases:
        code, _out, err = run(capsys, *argv, "--data-dir", data)
        assert code == 2 and err.count("\n") == 1 and words in err, (argv, err)
    run(capsys, "event", "round", event_id, "--data-dir", data)
    paper = write(tmp_path / "p.json", {"format": "tarabish-game/1",
                                        "players": ["Ann", "Bob", "Cid", "Dee"],
                                        "first_dealer": 0, "hands": WIN})
    for table, words in (("7", "no table 7"), ("x", "by its number")):
        code, _out, err = run(capsys, "import", paper, "--event", event_id, "--table", table,
                             "--data-dir", data)
        assert code == 2 and err.count("\n") == 1 and words in err, err
