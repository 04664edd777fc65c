"""`tarabish check --history` and `export`: the edit trail travels with the game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorer.cli import main
from scorer.store import GameStore

DOC: dict[str, Any] = {"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
                       "first_dealer": 0, "hands": []}


def played(tricks: int, caller: int = 0) -> dict[str, Any]:
    return {"caller": caller, "trump": "H", "points": {"team": caller % 2, "tricks": tricks}}


@pytest.fixture
def edited_game(tmp_path: Path) -> tuple[Path, str]:
    """A stored game: hand 1 edited from 120 to 130 on Mary's phone, hand 2 undone."""
    data = tmp_path / "data"
    with GameStore(data) as store:
        game = store.create_game(DOC, by="phone 1")
        game = store.add_hand(game.id, played(120), game.revision, by="phone 1")
        game = store.replace_hand(game.id, 0, played(130), game.revision, by="Mary")
        game = store.add_hand(game.id, played(100, 1), game.revision, by="phone 2")
        store.undo_last_hand(game.id, game.revision, by="phone 2")
    return data, game.id


def export(data: Path, game_id: str, out: Path, *extra: str) -> Any:
    assert main(["export", game_id, "--data-dir", str(data), "-o", str(out), *extra]) == 0
    return json.loads(out.read_text(encoding="utf-8"))


def test_an_exported_game_carries_its_trail_and_check_prints_it(
        edited_game: tuple[Path, str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    data, game_id = edited_game
    doc = export(data, game_id, tmp_path / "game.json")
    assert [e["change"] for e in doc["history"]] == ["started", "added", "edited", "added",
                                                     "undone"]
    capsys.readouterr()
    assert main(["check", str(tmp_path / "game.json"), "--history"]) == 0
    out = capsys.readouterr().out
    assert "hand 1 edited: Ann & Cid's tricks: 120 → 130" in out
    assert "Mary" in out and "hand 2 undone (Bob called ♥)" in out
    assert main(["check", str(tmp_path / "game.json"), "--json", "--history"]) == 0
    rows = json.loads(capsys.readouterr().out)["history"]
    assert rows[2] == {**rows[2], "change": "edited", "hand": 1, "by": "Mary",
                       "text": "hand 1 edited: Ann & Cid's tricks: 120 → 130"}


def test_check_without_history_prints_no_trail(
        edited_game: tuple[Path, str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    data, game_id = edited_game
    export(data, game_id, tmp_path / "game.json")
    capsys.readouterr()
    assert main(["check", str(tmp_path / "game.json"), "--json"]) == 0
    assert "history" not in json.loads(capsys.readouterr().out)


def test_a_trail_rewritten_by_hand_is_refused(
        edited_game: tuple[Path, str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    data, game_id = edited_game
    doc = export(data, game_id, tmp_path / "game.json")
    doc["history"][2]["before"] = doc["history"][2]["after"]  # hide the edit...
    doc["history"][1:3] = [doc["history"][1], {**doc["history"][2], "after": played(125)}]
    (tmp_path / "game.json").write_text(json.dumps(doc), encoding="utf-8")
    capsys.readouterr()
    assert main(["check", str(tmp_path / "game.json"), "--json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["hand"] is None and "history entry 3" in error["message"]


def test_export_without_history_for_older_versions(
        edited_game: tuple[Path, str], tmp_path: Path) -> None:
    data, game_id = edited_game
    doc = export(data, game_id, tmp_path / "game.json", "--no-history")
    assert "history" not in doc and len(doc["hands"]) == 1


def test_the_phones_time_is_shown_beside_the_servers(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A hand kept on a phone offline and sent later (sync): `check --history` says when
    the phone made it; `--json` gives it as `phone_at` (null where there is none). A
    file without it is read as before."""
    from datetime import UTC, datetime

    from scorer.store import changes
    from scorer.store.records import device_mark

    data = tmp_path / "data"
    made = datetime(2025, 6, 1, 20, 13, tzinfo=UTC)
    with GameStore(data) as store:
        game = store.create_game(DOC, by="phone 1")
        store.apply_synced(game.id, changes.add_hand(played(120)), game.revision,
                           "0" * 31 + "1", device_mark("phone-one-token-000000"),
                           by="Mary", phone_at=made)
    doc = export(data, game.id, tmp_path / "game.json")
    assert doc["history"][1]["phone_at"] == made.isoformat()
    capsys.readouterr()
    assert main(["check", str(tmp_path / "game.json"), "--history"]) == 0
    out = capsys.readouterr().out
    phone = made.astimezone().strftime("%Y-%m-%d %H:%M")
    assert f"hand 1 recorded (made on the phone at {phone})" in out
    assert main(["check", str(tmp_path / "game.json"), "--json", "--history"]) == 0
    rows = json.loads(capsys.readouterr().out)["history"]
    assert rows[0]["phone_at"] is None and rows[1]["phone_at"] == made.isoformat()
    assert set(rows[0]) == {"revision", "at", "by", "change", "hand", "text", "phone_at"}

    doc["history"][1]["phone_at"] = 1750000000  # not a time: refused, naming the entry
    (tmp_path / "bad.json").write_text(json.dumps(doc), encoding="utf-8")
    assert main(["check", str(tmp_path / "bad.json")]) == 2
    assert "history entry 2" in capsys.readouterr().err
