"""`tarabish group new | add | list --json` and `tarabish ratings --group`: the contract,
the group's games only, its members only, exit 2 on bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ratings_docs import by_hand, game_doc

from scorer.cli import main
from scorer.store import GameStore


def cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def history(hands: int, day: str) -> list[dict[str, Any]]:
    return [{"revision": 1, "at": f"{day}T19:00:00+00:00", "change": "started"},
            *({"revision": n + 1, "at": f"{day}T20:{n:02}:00+00:00", "change": "added",
               "hand": n} for n in range(1, hands + 1))]


def save(tmp_path: Path, games: list[tuple[list[str], int, str]]) -> list[str]:
    with GameStore(tmp_path) as store:
        ids = []
        for players, winner, day in games:
            doc = game_doc(players, winner)
            ids.append(store.create_game({**doc, "history": history(len(doc["hands"]), day)}).id)
    return ids


def test_group_commands_and_ratings_of_a_group(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    d = ["--data-dir", str(tmp_path)]
    games = [(["Ann", "Bob", "Cid", "Dee"], 0, "2026-11-20"),
             (["Eve", "Fay", "Gil", "Hal"], 1, "2026-11-10"),
             (["bob", "ann", "DEE", "cid"], 0, "2026-11-05")]
    ids = save(tmp_path, games)
    code, out, err = cli(["group", "new", "Friday", *d], capsys)
    assert (code, err) == (0, "") and "Keeper code: " in out
    for game_id in (ids[0], ids[2][:6]):  # an id's start is enough
        code, out, err = cli(["group", "add", "friday", game_id, *d], capsys)
        assert (code, err) == (0, ""), err
    code, out, err = cli(["group", "list", "--json", *d], capsys)
    listed = json.loads(out)
    assert listed["format"] == "tarabish-groups/1"
    [group] = listed["groups"]
    assert list(group) == ["id", "name", "members", "games"]
    assert group["name"] == "Friday" and group["games"] == [ids[0], ids[2]]
    assert group["members"] == ["Ann", "Bob", "Cid", "Dee"]
    code, out, err = cli(["ratings", "--group", "Friday", "--json", *d], capsys)
    assert (code, err) == (0, "")
    rated = {p["player"]: (p["mu"], p["games"]) for p in json.loads(out)["players"]}
    played = [{"players": g[0], "winner": g[1]} for g in (games[2], games[0])]  # finished order
    assert rated == {name: (by_hand(played)[name.casefold()]["mu"], 2)
                     for name in ("Ann", "Bob", "Cid", "Dee")}
    assert list(json.loads(out)["players"][0]) == ["player", "mu", "sigma", "rating", "games",
                                                   "wins"]


@pytest.mark.parametrize("args", [
    ["group", "new", ""],
    ["group", "new", "x" * 41],
    ["group", "add", "nobody", "0123abcd"],
    ["ratings", "--group", "nobody"],
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          args: list[str]) -> None:
    GameStore(tmp_path).close()
    code, out, err = cli([*args, "--data-dir", str(tmp_path)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("tarabish: ")


def test_adding_a_game_not_saved_is_refused(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    d = ["--data-dir", str(tmp_path)]
    cli(["group", "new", "Club", *d], capsys)
    code, _out, err = cli(["group", "add", "Club", "fedcba98", *d], capsys)
    assert code == 2 and "no saved game" in err
    assert json.loads(cli(["group", "list", "--json", *d], capsys)[1])["groups"][0]["games"] == []
