"""Control characters in names (issue 9, item 9): refused coming in through
`check`, `import` and the new-game form; escaped going out of every command
that prints (for games saved before names were checked)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from rules.plain_text import is_unsafe
from scorer.app.game_view_model import GameModel
from scorer.app.views.new_game import NewGameForm
from scorer.cli import main
from scorer.store import GameStore, StoredGame

HOSTILE_NAMES = ["An\x1b]0;pwned\x07n", "Bob\r\x1b[2K", "Cid\u202eevil", "Dee\x9b31m"]
HAND = {"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 90}}


def game_doc(players: list[str], teams: list[str] | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = {"format": "tarabish-game/1", "players": players, "first_dealer": 3,
                           "hands": [HAND]}
    if teams is not None:
        doc["teams"] = teams
    return doc


def assert_inert(text: str) -> None:
    """Nothing a terminal would act on: no control, bidi or separator character but newlines."""
    bad = sorted({hex(ord(c)) for c in text if c != "\n" and is_unsafe(c)})
    assert not bad, bad


@pytest.fixture
def saved_before_the_fix(tmp_path: Path) -> tuple[Path, dict[str, Any], str]:
    """A data folder holding a game whose names came in before they were checked."""
    data = tmp_path / "data"
    doc = game_doc(HOSTILE_NAMES, ["Us\x1b[8m", "Them\u2067"])
    with GameStore(data) as store:
        game_id = store.create_game(doc).id
    return data, doc, game_id


@pytest.mark.parametrize("seat", range(4))
def test_check_refuses_a_control_character_in_a_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seat: int
) -> None:
    players = ["Ann", "Bob", "Cid", "Dee"]
    players[seat] = HOSTILE_NAMES[seat]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_doc(players)), encoding="utf-8")
    assert main(["check", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert f"seat {seat + 1}" in err and "hidden control character" in err
    assert_inert(err)
    assert main(["check", str(path), "--json"]) == 2
    message = json.loads(capsys.readouterr().out)["error"]["message"]
    assert "hidden control character" in message


def test_import_refuses_a_control_character_in_a_team_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_doc(["Ann", "Bob", "Cid", "Dee"], ["Us", "Them\x1b[2J"])))
    assert main(["import", str(path), "--data-dir", str(tmp_path / "data")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "team 2" in err and "ESC" in err
    assert_inert(err)
    assert not (tmp_path / "data").exists()


def test_a_file_name_with_control_characters_is_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Named from its own folder: a file name is cut at 80 characters, and the temporary
    # folder's length is the machine's (a test worker's is longer), not the test's.
    monkeypatch.chdir(tmp_path)
    path = Path("evil\x1b[2J.json")
    path.write_text("{")
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert_inert(err)
    assert "evil\\x1b[2J.json" in err


def test_games_escapes_names_saved_before_the_fix(
    saved_before_the_fix: tuple[Path, dict[str, Any], str], capsys: pytest.CaptureFixture[str]
) -> None:
    data, _, game_id = saved_before_the_fix
    assert main(["games", "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert_inert(out)
    assert game_id in out and "An\\x1b]0;pwned\\x07n" in out
    assert len(out.splitlines()) == 2  # header and one row: no name broke a line

    assert main(["games", "--json", "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert_inert(out)
    assert json.loads(out)[0]["players"] == HOSTILE_NAMES  # same JSON value, escaped text


def test_export_to_the_terminal_escapes_but_keeps_the_document(
    saved_before_the_fix: tuple[Path, dict[str, Any], str], capsys: pytest.CaptureFixture[str]
) -> None:
    data, doc, game_id = saved_before_the_fix
    assert main(["export", game_id, "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert_inert(out)
    assert json.loads(out) == doc


def test_the_app_still_opens_a_game_saved_before_the_fix(
    saved_before_the_fix: tuple[Path, dict[str, Any], str],
) -> None:
    data, _, game_id = saved_before_the_fix
    with GameStore(data) as store:
        model = GameModel.load(store.get_game(game_id))
        assert model.game.players[0] == "An\ufffd]0;pwned\ufffdn"
        assert model.replay.totals == (90, 72)
        summary = store.list_games()[0]
    assert summary.invalid_from is None and summary.totals == (90, 72)


class _Actions:
    """The form's way into the store (rights and limits are tested elsewhere)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.created: list[str] = []

    def create_game(self, doc: dict[str, Any]) -> StoredGame:
        stored = self.store.create_game(doc)
        self.created.append(stored.id)
        return stored


def test_the_new_game_form_drops_invisible_characters_pasted_into_names(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "data")
    went: list[str] = []
    ctx = SimpleNamespace(store=store, actions=_Actions(store), go=went.append)
    form = NewGameForm(ctx, None)  # type: ignore[arg-type]
    # What a phone's paste brings from a chat: direction marks, a zero-width space.
    form.names = ["\u2068Ann\u2069", "Bob\u200e", "C\u200bid", "Dee\x1b"]
    form.teams = ["\u202eUs", ""]
    form.dealer = 0
    form.start()
    assert form.error == ""
    assert went and went[0].startswith("/game/")
    saved = store.get_game(ctx.actions.created[0]).doc
    assert saved["players"] == ["Ann", "Bob", "Cid", "Dee"]
    assert saved["teams"] == ["Us", "Bob & Dee"]
