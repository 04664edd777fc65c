"""Names hold no control characters (issue 9, item 9): refused by the Game model,
whatever brought them (a file, the web form)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from rules.errors import GameFileError
from rules.game import MAX_TEAM_NAME_LENGTH, Game
from rules.game_file import parse_game
from rules.messages import explain
from rules.plain_text import escape_unsafe, is_unsafe, shown, without_unsafe

PLAYERS = ("Ann", "Bob", "Cid", "Dee")
HOSTILE = {
    "ESC": "An\x1b[2Jn",
    "CR": "An\rn",
    "LF": "An\nn",
    "BEL": "An\x07n",
    "NUL": "An\x00n",
    "DEL": "An\x7fn",
    "C1 CSI": "An\x9b2Jn",
    "NEL": "An\x85n",
    "RLO": "An\u202en",
    "LRI": "An\u2066n",
    "LRM": "An\u200en",
    "zero width space": "An\u200bn",
    "BOM": "An\ufeffn",
    "line separator": "An\u2028n",
    "lone surrogate": "An\ud800n",
    "language tag": "An\U000e0001n",
}
BROKEN = "a broken character"  # a lone surrogate cannot even be re-encoded
FRIENDLY = ["Zoë", "José", "王芳", "Ann-Marie", "O'Brien", "Zoë 👍🏽", "👨\u200d👩\u200d👧",
            "Flag 🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", "Ｆｕｌｌ　Ｗｉｄｔｈ"]


def doc(players: list[str], teams: list[str] | None = None) -> dict[str, Any]:
    d: dict[str, Any] = {"format": "tarabish-game/1", "players": players, "first_dealer": 0}
    if teams is not None:
        d["teams"] = teams
    return d


@pytest.mark.parametrize("name", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_player_name_with_a_control_character_is_refused(name: str) -> None:
    with pytest.raises(ValidationError) as caught:
        Game(players=(name, "Bob", "Cid", "Dee"))
    message = explain(caught.value)
    assert "seat 1" in message and "hidden control character" in message
    assert not any(is_unsafe(c) for c in message), message  # the message itself is safe
    with pytest.raises(GameFileError, match=BROKEN if "\ud800" in name else "control character"):
        parse_game(doc([*PLAYERS[:3], name]))


@pytest.mark.parametrize("name", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_team_name_with_a_control_character_is_refused(name: str) -> None:
    words = BROKEN if "\ud800" in name else "team 2 has a hidden control character"
    with pytest.raises(GameFileError, match=words):
        parse_game(doc(list(PLAYERS), ["Us", name]))


def test_the_message_names_the_character_in_a_players_words() -> None:
    with pytest.raises(GameFileError) as caught:
        parse_game(doc(["Ann", "Bob", "Cid\u202e", "Dee"]))
    assert "(U+202E (right-to-left override))" in caught.value.message
    with pytest.raises(GameFileError, match=r"\(ESC\)"):
        parse_game(doc(["Ann", "B\x1bob", "Cid", "Dee"]))


@pytest.mark.parametrize("name", FRIENDLY)
def test_real_names_are_still_welcome(name: str) -> None:
    game = parse_game(doc([name, "Bob", "Cid", "Dee"], [name, "Them"]))
    assert game.players[0] == name.strip()


def test_spaces_and_line_breaks_around_a_name_are_trimmed_as_before() -> None:
    assert parse_game(doc([" Ann\n", "Bob", "Cid", "Dee"])).players[0] == "Ann"


def test_team_names_are_capped_too() -> None:
    parse_game(doc(list(PLAYERS), ["A" * MAX_TEAM_NAME_LENGTH, "B"]))
    with pytest.raises(GameFileError, match="team 1 is too long"):
        parse_game(doc(list(PLAYERS), ["A" * (MAX_TEAM_NAME_LENGTH + 1), "B"]))


def test_a_saved_game_with_old_control_characters_still_opens() -> None:
    """Games saved before names were checked are shown with "�", never locked away."""
    saved = doc(["An\x1bn", "Bob", "Cid", "Dee"], ["Us\u202e", "Them"])
    with pytest.raises(GameFileError):
        parse_game(saved)
    game = parse_game(saved, saved=True)
    assert game.players[0] == "An\ufffdn" and game.team_names == ("Us\ufffd", "Them")


def test_without_unsafe_keeps_emoji_joiners_and_drops_the_rest() -> None:
    assert without_unsafe("\u200eAnn\u2069 👨\u200d👩") == "Ann 👨\u200d👩"


def test_shown_values_are_short_and_inert() -> None:
    assert shown("Ann") == "'Ann'"
    assert shown("\x1b[2J") == r"'\x1b[2J'"
    assert len(shown("A" * 10_000_000)) < 50
    assert shown(10**5000) == "<a number far too long>"
    assert escape_unsafe("a\u202eb\nc", keep_newlines=True) == "a\\u202eb\nc"
