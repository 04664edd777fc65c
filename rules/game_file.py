"""The `tarabish-game/1` document: reading it into a Game and writing it back."""

from __future__ import annotations

from typing import Any, Final

from pydantic import BaseModel, ValidationError

from rules.errors import GameFileError
from rules.game import MAX_HANDS, Game
from rules.hand_file import as_json, hand_to_doc, parse_hand
from rules.history import HEADER_KEYS, Entry, check_trail, entry_to_doc, parse_trail
from rules.house_rules import HouseRules
from rules.messages import explain
from rules.plain_text import listed, replace_unsafe
from rules.replay import GameReplay, replay

FORMAT: Final = "tarabish-game/1"
_TOP_KEYS: Final = {"format", "players", "teams", "first_dealer", "rules", "hands", "history"}
__all__ = [
    "FORMAT",
    "check_game",
    "game_to_doc",
    "hand_to_doc",
    "parse_game",
    "parse_game_and_trail",
    "parse_hand",
    "trail_to_doc",
]


class _TableDoc(BaseModel):
    """The table part of the document, checked for JSON types before the Game model."""

    players: list[str]
    teams: list[str] | None = None
    first_dealer: int


def parse_game(doc: Any, *, saved: bool = False) -> Game:
    """Read a tarabish-game/1 document into a Game (see `parse_game_and_trail`)."""
    return parse_game_and_trail(doc, saved=saved)[0]


def parse_game_and_trail(doc: Any, *, saved: bool = False) -> tuple[Game, tuple[Entry, ...]]:
    """Read a tarabish-game/1 document (already decoded from JSON) into a Game.

    Raises GameFileError naming the 0-based hand for problems inside a hand.
    Whether the hands are possible in play is `replay`'s business. The edit trail
    (`"history"`, optional) must be true of the hands (`rules.history.check_trail`).
    `saved=True` is for games already in the store: control characters in
    their names (saved before names were checked for them) become "�"
    instead of locking the game away.
    """
    if not isinstance(doc, dict):
        raise GameFileError("a game file must be one JSON object")
    if doc.get("format") != FORMAT:
        raise GameFileError(
            f"this is not a Tarabish game file: 'format' must be \"{FORMAT}\""
        )
    unknown = sorted(str(key) for key in doc if key not in _TOP_KEYS)
    if unknown:
        raise GameFileError(f"unknown key {listed(unknown)} in the game file")
    if "players" not in doc:
        raise GameFileError("the game file has no 'players'")
    if "first_dealer" not in doc:
        raise GameFileError("the game file does not say who dealt first ('first_dealer')")
    rules_doc = doc.get("rules") or {}
    try:
        rules = HouseRules.model_validate_json(as_json(rules_doc), strict=True)
    except ValidationError as exc:
        raise GameFileError(f"house rules: {explain(exc)}") from exc
    raw_hands = doc.get("hands", [])
    if not isinstance(raw_hands, list):
        raise GameFileError("'hands' must be a list")
    if len(raw_hands) > MAX_HANDS:
        raise GameFileError(
            f"this game has {len(raw_hands)} hands: a game holds at most {MAX_HANDS}"
        )
    table = {key: doc[key] for key in ("players", "teams", "first_dealer") if key in doc}
    try:
        _TableDoc.model_validate_json(as_json(table), strict=True)
    except ValidationError as exc:
        raise GameFileError(explain(exc)) from exc
    hands = tuple(parse_hand(raw, index) for index, raw in enumerate(raw_hands))
    players, teams = doc["players"], doc.get("teams")
    if saved:
        players = [replace_unsafe(name) for name in players]
        teams = None if teams is None else [replace_unsafe(name) for name in teams]
    try:
        game = Game.model_validate({
            "players": players, "teams": teams,
            "first_dealer": doc["first_dealer"], "rules": rules, "hands": hands,
        })
    except ValidationError as exc:
        raise GameFileError(explain(exc)) from exc
    if "history" not in doc:
        return game, ()
    trail = parse_trail(doc["history"], parse_hand)
    check_trail(trail, hands, header_of(doc))
    return game, trail


def header_of(doc: dict[str, Any]) -> dict[str, Any]:
    """The parts of a document besides its hands, as a trail's `details` entries name
    them (no rules written and `{}` are the same)."""
    header = {key: doc.get(key) for key in HEADER_KEYS}
    header["rules"] = header["rules"] or {}
    return header


def trail_to_doc(trail: tuple[Entry, ...]) -> list[dict[str, Any]]:
    """The trail as the game file's `"history"` list."""
    return [entry_to_doc(entry, hand_to_doc) for entry in trail]


def game_to_doc(game: Game) -> dict[str, Any]:
    """The whole game as a tarabish-game/1 document (JSON-ready)."""
    doc: dict[str, Any] = {"format": FORMAT, "players": list(game.players)}
    if game.teams is not None:
        doc["teams"] = list(game.teams)
    doc["first_dealer"] = game.first_dealer
    doc["rules"] = game.rules.changed()
    doc["hands"] = [hand_to_doc(hand) for hand in game.hands]
    return doc


def check_game(doc: Any) -> GameReplay:
    """Read and replay a document; raise GameFileError at the first problem of any kind."""
    game = parse_game(doc)
    result = replay(game)
    error = result.first_error
    if error is not None:
        raise error
    return result
