"""tarabish import / export / games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from store_docs import BAD_TRUMP, game_doc

from scorer.cli import main
from scorer.store import GameStore


def write(path: Path, doc: object) -> Path:
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_import_export_round_trip(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    docs = [game_doc(2), {**game_doc(3), "teams": ["Les Bleus", "Rouges"]}]
    files = [write(tmp_path / f"g{i}.json", d) for i, d in enumerate(docs)]
    assert main(["import", *map(str, files), "--data-dir", str(data)]) == 0
    ids = capsys.readouterr().out.split()
    assert len(ids) == 2

    # stdout
    assert main(["export", ids[1], "--data-dir", str(data)]) == 0
    assert json.loads(capsys.readouterr().out) == docs[1]
    # -o FILE, and a short id prefix
    out = tmp_path / "out.json"
    assert main(["export", ids[0][:6], "-o", str(out), "--data-dir", str(data)]) == 0
    assert json.loads(out.read_text(encoding="utf-8")) == docs[0]
    # the only sign that it worked: what was written, and where
    assert capsys.readouterr().out == f"Wrote game {ids[0]} (2 hands) to {out}.\n"
    # and back in again
    assert main(["import", str(out), "--data-dir", str(data)]) == 0
    assert len(GameStore(data).list_games()) == 3


def test_bad_import_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The files are named from their own folder: an error line is cut at 300 characters,
    # and the temporary folder's length is the machine's (a test worker's is longer).
    monkeypatch.chdir(tmp_path)
    data = Path("data")
    good = write(Path("good.json"), game_doc(1))
    assert main(["import", str(good), "--data-dir", str(data)]) == 0
    capsys.readouterr()
    before = sorted(p.name for p in (data / "games").iterdir())

    bad_hand = write(Path("bad.json"), {**game_doc(1), "hands": [BAD_TRUMP]})
    not_json = Path("torn.json")
    not_json.write_text('{"format": ')
    missing = Path("nope.json")
    code = main(["import", str(good), str(bad_hand), str(not_json), str(missing),
                 "--data-dir", str(data)])
    assert code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "bad.json: Hand 1:" in err and "trump" in err
    assert "torn.json: the file is not valid JSON" in err
    assert "nope.json: there is no file by that name" in err
    assert "Nothing was imported." in err
    assert sorted(p.name for p in (data / "games").iterdir()) == before


def test_bad_import_does_not_even_create_the_data_dir(tmp_path: Path) -> None:
    bad = write(tmp_path / "bad.json", {"format": "something-else"})
    assert main(["import", str(bad), "--data-dir", str(tmp_path / "d")]) == 2
    assert not (tmp_path / "d").exists()


def test_games_lists_text_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    monkeypatch.setenv("TARABISH_DATA", str(data))  # no --data-dir: the env var
    assert main(["games"]) == 0
    assert "No saved games" in capsys.readouterr().out
    store = GameStore(data)
    won = store.create_game(game_doc(6))
    going = store.create_game(game_doc(2))

    assert main(["games", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in rows] == [going.id, won.id]
    assert rows[0]["totals"] == [140, 184] and rows[0]["winner"] is None
    assert rows[1]["winner"] == 1 and rows[1]["finished"] is True
    assert set(rows[0]) >= {"id", "players", "teams", "created", "updated", "hand_count"}

    assert main(["games"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["ID", "STARTED", "LAST", "HAND", "PLAYERS", "SCORE", "WINNER"]
    assert lines[1].startswith(going.id) and "140-184" in lines[1]
    assert lines[2].startswith(won.id) and lines[2].endswith("Bob & Dee")
    assert "Ann & Cid v Bob & Dee" in lines[2]


def test_export_unknown_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "deadbeef", "--data-dir", str(tmp_path)]) == 1
    assert "no saved game" in capsys.readouterr().err


def test_damaged_files_are_reported_by_commands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = GameStore(tmp_path)
    g = store.create_game(game_doc(1))
    ok = store.create_game(game_doc(1))
    (tmp_path / "games" / f"{g.id}.json").write_text("{")
    assert main(["games", "--data-dir", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert ok.id in out and g.id not in out
    assert g.id in err and "could not be read" in err


def test_unusable_data_dir_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    assert main(["games", "--data-dir", str(not_a_folder)]) == 1
    assert "cannot use the data folder" in capsys.readouterr().err


def test_import_gives_each_game_a_table_code_nobody_holds_and_prints_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from scorer.rights.codes import TableCodes

    data = tmp_path / "data"
    files = [write(tmp_path / f"g{i}.json", game_doc(i + 1)) for i in range(2)]
    assert main(["import", *map(str, files), "--data-dir", str(data)]) == 0
    said = capsys.readouterr()
    ids = said.out.split()  # stdout stays one id a line, for scripts
    codes = TableCodes(data)
    for n, game_id in enumerate(ids, start=1):
        code = codes.code(game_id)
        assert code is not None and codes.holders(game_id) == 0
        assert f"Game {n} of 2, {game_id} (" in said.err and f"table code {code}" in said.err
