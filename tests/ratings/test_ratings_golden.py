"""Golden game sequences (tests/ratings/golden/*.json) fed through real game files
and `tarabish ratings`, compared with openskill's PlackettLuce().rate called by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ratings_docs import GOLDEN, by_hand, game_doc, load_golden

from scorer.cli import main

GOLDEN_FILES = sorted(path.name for path in GOLDEN.glob("*.json"))


def write_games(tmp_path: Path, games: list[dict[str, Any]]) -> list[str]:
    paths = []
    for number, game in enumerate(games, start=1):
        path = tmp_path / f"game{number:02}.json"
        path.write_text(json.dumps(game_doc(game["players"], game["winner"])), encoding="utf-8")
        paths.append(str(path))
    return paths


def ratings_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code = main(["ratings", *args, "--json"])
    assert code == 0, capsys.readouterr().err
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def test_there_are_golden_sequences() -> None:
    assert len(GOLDEN_FILES) >= 3


@pytest.mark.parametrize("name", GOLDEN_FILES)
def test_golden_sequence_matches_openskill(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = load_golden(name)
    out = ratings_json(write_games(tmp_path, games), capsys)
    expected = by_hand(games)
    assert out["model"] == "plackett-luce"
    got = {p["player"].casefold(): p for p in out["players"]}
    assert set(got) == set(expected)
    for key, want in expected.items():
        mine = got[key]
        assert (mine["games"], mine["wins"]) == (want["games"], want["wins"]), key
        for field in ("mu", "sigma", "rating"):
            assert mine[field] == pytest.approx(want[field], rel=1e-12, abs=1e-12), (key, field)
    ratings = [p["rating"] for p in out["players"]]
    assert ratings == sorted(ratings, reverse=True)


def test_changing_partners_shows_the_latest_spelling(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = load_golden("changing_partners.json")
    names = {p["player"] for p in ratings_json(write_games(tmp_path, games), capsys)["players"]}
    assert "Mary" in names and not {"mary", "MARY"} & names


def test_newcomers_are_provisional_and_regulars_are_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = write_games(tmp_path, load_golden("newcomers.json"))
    assert main(["ratings", *paths]) == 0
    rows = {line.split()[1]: line for line in capsys.readouterr().out.splitlines()[1:]
            if line[:1] == " " or line[:1].isdigit()}
    assert "provisional" not in rows["Ann"]
    assert rows["Ann"].split()[3:5] == ["11", "10"]
    assert rows["Gil"].endswith("provisional")
