"""`tarabish check`: the public contract of GAME_FORMAT.md."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorer.cli import main

EXAMPLE: dict[str, Any] = {
    "format": "tarabish-game/1",
    "players": ["Ann", "Bob", "Cid", "Dee"],
    "teams": ["Ann & Cid", "Bob & Dee"],
    "first_dealer": 3,
    "rules": {"forced_at": 400},
    "hands": [
        {"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 70},
         "runs": [{"seat": 1, "cards": ["9S", "10S", "JS"]}], "bella": 0},
        {"caller": 1, "trump": "S", "misplay": {"called_by": 0, "upheld": True}},
        {"caller": 2, "trump": "C", "thrown_by": 2},
    ],
}


def write(tmp_path: Path, doc: Any, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return str(path)


def run_json(path: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    code = main(["check", path, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_valid_file_prints_every_hand_and_totals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_json(write(tmp_path, EXAMPLE), capsys)
    assert code == 0
    assert [h["outcome"] for h in out["hands"]] == ["bait", "misplay", "thrown"]
    assert [h["dealer"] for h in out["hands"]] == [3, 0, 1]
    assert out["hands"][0] == {
        "dealer": 3, "caller": 0, "outcome": "bait", "total": 202, "scores": [0, 202],
        "runs_to": 1, "reasons": out["hands"][0]["reasons"],
    }
    assert any("Bait: Bob & Dee take all 202" in r for r in out["hands"][0]["reasons"])
    assert out["totals"] == [162, 364]
    assert out["winner"] is None
    assert out["next_dealer"] == 2
    assert out["forced"] == []


def test_forced_team_is_reported_for_the_next_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = dict(EXAMPLE, hands=[*EXAMPLE["hands"], {"caller": 1, "trump": "D", "thrown_by": 0}])
    code, out = run_json(write(tmp_path, doc), capsys)
    assert code == 0
    assert out["totals"] == [162, 526]
    assert out["winner"] == 1
    assert out["forced"] == []  # the game is over: nobody is forced any more


def test_invalid_hand_exits_2_naming_the_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = dict(EXAMPLE, hands=[*EXAMPLE["hands"], {"passed": True}])
    code, out = run_json(write(tmp_path, doc), capsys)
    assert code == 2
    assert out["error"]["hand"] == 3
    assert "dealer may pass" in out["error"]["message"]


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{not json", "not valid JSON"),
        ({**EXAMPLE, "colour": "red"}, "colour"),
        ({**EXAMPLE, "rules": {"bogus": 1}}, "unknown house rule"),
        ({**EXAMPLE, "format": "other/1"}, "not a Tarabish game file"),
    ],
)
def test_file_level_errors_have_no_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: Any, words: str
) -> None:
    code, out = run_json(write(tmp_path, content), capsys)
    assert code == 2
    assert out["error"]["hand"] is None
    assert words in out["error"]["message"]


def test_bad_card_names_the_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = dict(EXAMPLE)
    doc["hands"] = [dict(EXAMPLE["hands"][0], runs=[{"seat": 1, "cards": ["9S", "10S", "XS"]}])]
    code, out = run_json(write(tmp_path, doc), capsys)
    assert code == 2
    assert out["error"] == {"hand": 0, "message": out["error"]["message"]}
    assert "'XS' is not a card" in out["error"]["message"]


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_json(str(tmp_path / "nope.json"), capsys)
    assert code == 2
    assert "no file" in out["error"]["message"]


def test_readable_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", write(tmp_path, EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "Ann & Cid" in out and "Bob & Dee" in out
    assert "BAIT" in out and "MISPLAY" in out and "THROWN" in out
    assert "Totals" in out and "162" in out and "364" in out
    assert "Next dealer: Cid." in out


def test_readable_error_counts_hands_from_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = dict(EXAMPLE, hands=[*EXAMPLE["hands"], {"passed": True}])
    assert main(["check", write(tmp_path, doc)]) == 2
    assert "hand 4:" in capsys.readouterr().err


def test_readable_sheet_lists_the_house_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", write(tmp_path, EXAMPLE)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "House rules: forced over 400."
    doc = dict(EXAMPLE, rules={"target": 1000, "no_trump": True, "run_ties": "turn_order"})
    assert main(["check", write(tmp_path, doc)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "House rules: target 1000; equal plain runs: first to speak; no trump allowed.")
    assert main(["check", write(tmp_path, dict(EXAMPLE, rules={}))]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "House rules: none (the standard game)."


def test_readable_sheet_names_the_winner_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = dict(EXAMPLE, hands=[*EXAMPLE["hands"], {"caller": 1, "trump": "D", "thrown_by": 0}])
    assert main(["check", write(tmp_path, doc)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "Bob & Dee win, 526 to 162 (target 500)."
    assert out.count("Bob & Dee win") == 1 and "Winner" not in out
