"""`tarabish ratings`: the JSON contract and its order, the data folder's games in
the order they finished, and exit 2 on bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ratings_docs import by_hand, game_doc

from rules.plain_text import is_unsafe
from scorer.cli import main
from scorer.store import GameStore

KEYS = ["player", "mu", "sigma", "rating", "games", "wins"]


def write(tmp_path: Path, name: str, doc: Any) -> str:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return str(path)


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["ratings", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_json_has_exactly_the_contract_sorted_by_rating(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = write(tmp_path, "a.json", game_doc(["Ann", "Bob", "Cid", "Dee"], 0))
    b = write(tmp_path, "b.json", game_doc(["Eve", "Ann", "Fay", "Cid"], 1))
    code, out, err = run([a, b, "--json"], capsys)
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert list(data) == ["model", "players"] and data["model"] == "plackett-luce"
    assert all(list(p) == KEYS for p in data["players"])
    ratings = [p["rating"] for p in data["players"]]
    assert ratings == sorted(ratings, reverse=True)
    assert [p["player"] for p in data["players"]][:2] == ["Ann", "Cid"]
    assert all(p["rating"] == pytest.approx(p["mu"] - 3 * p["sigma"]) for p in data["players"])


def test_files_are_taken_in_the_order_given(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = [{"players": ["Ann", "Bob", "Cid", "Dee"], "winner": 0},
             {"players": ["Ann", "Eve", "Fay", "Gil"], "winner": 1}]
    paths = [write(tmp_path, f"{i}.json", game_doc(g["players"], g["winner"]))
             for i, g in enumerate(games)]
    results = []
    for order in (paths, paths[::-1]):
        _code, out, _err = run([*order, "--json"], capsys)
        results.append({p["player"].casefold(): p["mu"] for p in json.loads(out)["players"]})
    assert results[0] == {k: v["mu"] for k, v in by_hand(games).items()}
    assert results[1] == {k: v["mu"] for k, v in by_hand(games[::-1]).items()}
    assert results[0] != results[1]


def test_unfinished_games_are_left_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "open.json", game_doc(["Ann", "Bob", "Cid", "Dee"], None))
    code, out, _err = run([path, "--json"], capsys)
    assert (code, json.loads(out)["players"]) == (0, [])
    code, out, _err = run([path], capsys)
    assert (code, out.strip()) == (0, "No finished games to rate yet.")


@pytest.mark.parametrize("bad", ["missing", "folder", "not json", "bad hand", "not a game"])
def test_bad_input_is_one_line_and_exit_2(
    bad: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path, "good.json", game_doc(["Ann", "Bob", "Cid", "Dee"], 0))
    broken = game_doc(["Ann", "Bob", "Cid", "Dee"], 0)
    broken["hands"][1]["caller"] = 9
    target = {
        "missing": str(tmp_path / "nowhere.json"),
        "folder": str(tmp_path),
        "not json": write(tmp_path, "x.json", "{not json"),
        "bad hand": write(tmp_path, "y.json", broken),
        "not a game": write(tmp_path, "z.json", {"hello": 1}),
    }[bad]
    code, out, err = run([good, target, "--json"], capsys)
    assert (code, out) == (2, "")
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    if bad == "bad hand":
        assert "y.json has a problem in hand 2:" in err


def test_no_such_data_folder_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["--data-dir", str(tmp_path / "none"), "--json"], capsys)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "does not exist" in err


def test_no_such_folder_named_by_the_environment_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TARABISH_DATA", str(tmp_path / "none"))
    code, out, err = run([], capsys)
    assert (code, out, err.count("\n")) == (2, "", 1)


def test_no_games_yet_on_this_machine_is_no_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TARABISH_DATA", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "fresh"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    code, out, err = run(["--json"], capsys)
    assert (code, json.loads(out)["players"], err) == (0, [], "")
    assert not (tmp_path / "fresh").exists()


def trail(hands: int, day: str, started: str) -> list[dict[str, Any]]:
    """A true edit trail: started on `started`, each hand added a minute apart on `day`."""
    entries = [{"revision": 1, "at": f"{started}T20:00:00+00:00", "change": "started"}]
    entries += [{"revision": n + 1, "at": f"{day}T20:{n:02}:00+00:00", "change": "added",
                 "hand": n} for n in range(1, hands + 1)]
    return entries


def test_stored_games_are_taken_in_the_order_they_finished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = [
        ({"players": ["Ann", "Bob", "Cid", "Dee"], "winner": 0}, "2026-11-20", "2026-11-01"),
        ({"players": ["Ann", "Eve", "Fay", "Gil"], "winner": 1}, "2026-11-13", "2026-11-13"),
        ({"players": ["Ann", "Bob", "Hal", "Ivy"], "winner": None}, "2026-11-06", "2026-11-06"),
        ({"players": ["Bob", "Ann", "Dee", "Cid"], "winner": 1}, "2026-11-27", "2026-11-02"),
    ]
    # Saved in another order than they were won, and started in yet another.
    with GameStore(tmp_path) as store:
        for game, day, started in games:
            doc = game_doc(game["players"], game["winner"])
            store.create_game({**doc, "history": trail(len(doc["hands"]), day, started)})
    code, out, err = run(["--data-dir", str(tmp_path), "--json"], capsys)
    assert (code, err) == (0, "")
    got = {p["player"].casefold(): (p["mu"], p["sigma"]) for p in json.loads(out)["players"]}
    def rated(order: list[Any]) -> dict[str, tuple[float, float]]:
        return {k: (v["mu"], v["sigma"]) for k, v in by_hand([g[0] for g in order]).items()}

    assert got == rated(sorted(games, key=lambda g: g[1]))
    assert got != rated(sorted(games, key=lambda g: g[2]))  # not by when they started
    assert got != rated(games)


def test_empty_data_folder_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    GameStore(tmp_path).close()
    code, out, _err = run(["--data-dir", str(tmp_path)], capsys)
    assert (code, out.strip()) == (0, "No finished games to rate yet.")


HOSTILE_NAMES = ["An\x1b]0;pwned\x07n", "Bob\r\x1b[2K", "Cid\u202eevil", "Dee\x9b31m"]


def test_names_saved_before_they_were_checked_are_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with GameStore(tmp_path) as store:
        store.create_game(game_doc(HOSTILE_NAMES, 0))
    code, out, _err = run(["--data-dir", str(tmp_path)], capsys)
    assert code == 0 and "An\\x1b]0;pwned\\x07n" in out
    assert not any(c != "\n" and is_unsafe(c) for c in out)
    assert len(out.splitlines()) == 1 + 4 + 1 + 3  # header, four rows, a gap, the note
    code, out, _err = run(["--data-dir", str(tmp_path), "--json"], capsys)
    assert not any(c != "\n" and is_unsafe(c) for c in out)
    assert {p["player"] for p in json.loads(out)["players"]} == set(HOSTILE_NAMES)


@pytest.mark.parametrize("json_out", [False, True])
def test_ends_quietly_when_the_reader_leaves(tmp_path: Path, json_out: bool) -> None:
    path = write(tmp_path, "a.json", game_doc(["Ann", "Bob", "Cid", "Dee"], 0))
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "scorer.cli", "ratings", path, *(["--json"] if json_out else [])],
            stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60, check=False)
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) in ((0, ""), (141, ""))
