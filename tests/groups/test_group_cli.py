"""`tarabish group` and `tarabish ratings --group`: a public contract, like `check`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ratings"))

from ratings_docs import by_hand, game_doc

from scorer.cli import main
from scorer.store import GameStore


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


GAMES = [
    {"players": ["Ann", "Bob", "Cid", "Dee"], "winner": 0},
    {"players": ["ann", "BOB", "Eve", "Fay"], "winner": 1},
    {"players": ["Gil", "Hal", "Ivy", "Jo"], "winner": 0},
    {"players": ["Ann", "Cid", "Bob", "Dee"], "winner": None},
]


@pytest.fixture
def folder(tmp_path: Path) -> tuple[Path, list[str]]:
    with GameStore(tmp_path) as store:
        ids = [store.create_game(game_doc(g["players"], g["winner"])).id for g in GAMES]
    return tmp_path, ids


def test_a_group_is_made_filled_and_listed(folder: tuple[Path, list[str]],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    data, ids = folder
    code, out, err = run(["group", "new", "Friday bish", "--member", "Zed", "--data-dir",
                          str(data)], capsys)
    assert (code, err) == (0, "") and "Keeper code:" in out
    code, out, err = run(["group", "add", "friday BISH", ids[0], ids[1][:5], ids[3],
                          "--data-dir", str(data)], capsys)
    assert (code, err) == (0, "") and "3 games added" in out
    code, out, err = run(["group", "list", "--json", "--data-dir", str(data)], capsys)
    assert (code, err) == (0, "")
    listed = json.loads(out)
    assert [sorted(g) for g in listed] == [["created", "games", "id", "members", "name"]]
    assert listed[0]["name"] == "Friday bish" and listed[0]["games"] == 3
    assert listed[0]["members"] == ["Zed", "Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
    code, out, err = run(["group", "remove", "Friday bish", ids[3], "--data-dir", str(data)],
                         capsys)
    assert code == 0 and "2 left" in out


def test_ratings_of_a_group_count_only_its_games_under_its_members_names(
        folder: tuple[Path, list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    data, ids = folder
    run(["group", "new", "Friday", "--data-dir", str(data)], capsys)
    run(["group", "add", "Friday", ids[0], ids[1], "--data-dir", str(data)], capsys)
    code, out, err = run(["ratings", "--group", "Friday", "--json", "--data-dir", str(data)],
                         capsys)
    assert (code, err) == (0, "")
    players = json.loads(out)["players"]
    assert {p["player"] for p in players} == {"Ann", "Bob", "Cid", "Dee", "Eve", "Fay"}
    expected = by_hand(GAMES[:2])
    got = {p["player"].casefold(): (p["mu"], p["sigma"], p["games"]) for p in players}
    assert got == {k: (v["mu"], v["sigma"], v["games"]) for k, v in expected.items()}
    # Every game in the folder, without --group: Gil's table counts too.
    code, out, _ = run(["ratings", "--json", "--data-dir", str(data)], capsys)
    assert "Gil" in {p["player"] for p in json.loads(out)["players"]}


@pytest.mark.parametrize("argv, said", [
    (["group", "add", "Nobody", "00000000"], "There is no group 'Nobody'."),
    (["group", "add", "Friday", "ffffffff"], "no saved game with an id starting"),
    (["group", "new", "   "], "cannot be empty"),
    (["group", "new", "friday"], "already a group named"),
    (["ratings", "--group", "Nobody"], "There is no group 'Nobody'."),
])
def test_bad_input_is_one_line_and_exit_2(folder: tuple[Path, list[str]], argv: list[str],
                                          said: str, capsys: pytest.CaptureFixture[str]) -> None:
    data, _ = folder
    run(["group", "new", "Friday", "--data-dir", str(data)], capsys)
    before = (data / "groups.json").read_bytes()
    code, out, err = run([*argv, "--data-dir", str(data)], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and said in err
    assert (data / "groups.json").read_bytes() == before


def test_a_new_keeper_code_from_the_command_line(folder: tuple[Path, list[str]],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    data, _ = folder
    _, made, _ = run(["group", "new", "Friday", "--json", "--data-dir", str(data)], capsys)
    old = json.loads(made)["keeper_code"]
    code, out, _ = run(["group", "code", "Friday", "--data-dir", str(data)], capsys)
    assert code == 0 and "New keeper code of Friday" in out
    assert old.replace(" ", "") not in out.replace(" ", "")


def test_groups_of_a_community_live_in_its_database(pg_url: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from scorer.store.database import Database
    from scorer.store.pg_games import PgGameStore

    db = Database(pg_url)
    try:
        store = PgGameStore(db, data_dir=tmp_path)
        ids = [store.create_game(game_doc(g["players"], g["winner"])).id for g in GAMES[:2]]
    finally:
        db.close()
    where = ["--database", pg_url]
    assert run(["group", "new", "Legion", *where], capsys)[0] == 0
    code, out, err = run(["group", "add", "legion", *ids, *where], capsys)
    assert (code, err) == (0, "") and "2 games added" in out
    code, out, _ = run(["group", "list", "--json", *where], capsys)
    assert json.loads(out)[0]["games"] == 2
    code, out, _ = run(["ratings", "--group", "Legion", "--json", *where], capsys)
    assert code == 0 and len(json.loads(out)["players"]) == 6
    assert not (tmp_path / "groups.json").exists()
