"""Every command that opens the store takes `--database` (or TARABISH_DATABASE):
`import` prints the table code as with a folder, and the others read the community's
games; a code given by `import` holds for the server's phones (the same rights)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorer.cli import main
from scorer.rights import get_rights
from scorer.store.database import Database
from scorer.store.pg_games import PgGameStore

HANDS = [{"caller": 0, "trump": "S", "points": {"team": 0, "tricks": 100}}]


def _doc(hands: int = 1) -> dict[str, Any]:
    return {"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
            "first_dealer": 3, "rules": {}, "hands": HANDS * hands}


def test_import_games_export_stats_ratings_on_a_database(
        pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game_file = tmp_path / "g.json"
    game_file.write_text(json.dumps(_doc(2)), encoding="utf-8")
    assert main(["import", str(game_file), "--database", pg_url,
                 "--data-dir", str(tmp_path / "caches")]) == 0
    out, err = capsys.readouterr()
    (game_id,) = out.split()
    assert "table code" in err
    code = err.split("table code ")[1][:6]

    # In the database, not in a folder; its code is the community's.
    db = Database(pg_url, max_size=1)
    try:
        store = PgGameStore(db, data_dir=tmp_path / "caches")
        assert store.get_game(game_id).doc["hands"] == HANDS * 2
        from scorer.backends import backends_of, install

        install(backends_of(store))
        assert get_rights(None).code(game_id) == code
    finally:
        install(None)
        db.close()

    assert main(["games", "--database", pg_url]) == 0
    assert game_id in capsys.readouterr().out
    assert main(["export", game_id[:5], "--database", pg_url]) == 0
    assert json.loads(capsys.readouterr().out)["hands"] == HANDS * 2
    assert main(["stats", "--database", pg_url, "--data-dir", str(tmp_path / "caches")]) == 0
    assert "Ann" in capsys.readouterr().out
    assert main(["ratings", "--database", pg_url]) == 0
    capsys.readouterr()
    # A rename is a revisioned edit of each game, in the database.
    assert main(["rename-player", "ann", "Annie", "--database", pg_url,
                 "--data-dir", str(tmp_path / "caches")]) == 0
    assert capsys.readouterr().out == f"Renamed in 1 game: {game_id}\n"
    assert main(["export", game_id, "--database", pg_url]) == 0
    assert json.loads(capsys.readouterr().out)["players"][0] == "Annie"


def test_the_environment_names_the_database(pg_url: str, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TARABISH_DATABASE", pg_url)
    assert main(["games"]) == 0
    assert capsys.readouterr().out == "No saved games in the community's database.\n"
    game_file = tmp_path / "g.json"
    game_file.write_text(json.dumps(_doc()), encoding="utf-8")
    assert main(["import", str(game_file)]) == 0
    (game_id,) = capsys.readouterr().out.split()
    assert main(["games"]) == 0
    assert game_id in capsys.readouterr().out


def test_import_on_a_community_prints_each_games_public_address(
        pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The server's rule: on its public address (--public-url, or TARABISH_PUBLIC_URL as
    the units set it), never an address of this machine; none known, none printed."""
    game_file = tmp_path / "g.json"
    game_file.write_text(json.dumps(_doc()), encoding="utf-8")
    where = ["--database", pg_url, "--data-dir", str(tmp_path / "caches")]
    assert main(["import", str(game_file), *where,
                 "--public-url", "https://bish.example.org"]) == 0
    out, err = capsys.readouterr()
    (game_id,) = out.split()
    assert err.rstrip().endswith(f", at https://bish.example.org/game/{game_id}"), err
    monkeypatch.setenv("TARABISH_PUBLIC_URL", "https://club.example.org/")
    assert main(["import", str(game_file), *where]) == 0
    out, err = capsys.readouterr()
    assert f"at https://club.example.org/game/{out.strip()}" in err
    monkeypatch.delenv("TARABISH_PUBLIC_URL")
    assert main(["import", str(game_file), *where]) == 0
    out, err = capsys.readouterr()
    assert "table code" in err and "http" not in err
    assert main(["import", str(game_file), *where, "--public-url", "bish"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "--public-url takes" in err and "Nothing was imported" in err


def test_an_unreachable_database_is_one_line(pg_cluster: Any,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    url = f"postgresql://postgres@127.0.0.1:{pg_cluster.port}/no_such_database"
    assert main(["games", "--database", url]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot be reached" in err[0]


def test_a_club_night_on_a_database(pg_url: str, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    settings = tmp_path / "night.json"
    settings.write_text(json.dumps({
        "name": "Legion", "format": "round_robin", "target": 500, "seed": 1,
        "teams": [["Ann", "Bob"], ["Cid", "Dee"], ["Eve", "Fay"], ["Gus", "Hal"]]}))
    assert main(["event", "new", str(settings), "--database", pg_url]) == 0
    event_id = capsys.readouterr().out.split()[-1]
    assert main(["event", "round", event_id, "--database", pg_url]) == 0
    out = capsys.readouterr().out
    assert "table code" in out
    assert main(["event", "standings", event_id, "--database", pg_url]) == 0
    assert "Ann" in capsys.readouterr().out
