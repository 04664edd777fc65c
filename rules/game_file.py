"""The `tarabish-game/1` document: reading it into a Game and writing it back."""

from __future__ import annotations

import json
from typing import Any, Final

from pydantic import BaseModel, TypeAdapter, ValidationError

from rules.errors import GameFileError, TarabishError
from rules.game import MAX_HANDS, Game
from rules.hands import Hand, PassedHand
from rules.house_rules import HouseRules
from rules.messages import explain
from rules.plain_text import listed, replace_unsafe
from rules.replay import GameReplay, replay

FORMAT: Final = "tarabish-game/1"
_TOP_KEYS: Final = {"format", "players", "teams", "first_dealer", "rules", "hands"}
_ENDINGS: Final = ("points", "misplay", "thrown_by", "passed")
_HAND: TypeAdapter[Hand] = TypeAdapter(Hand)


class _TableDoc(BaseModel):
    """The table part of the document, checked for JSON types before the Game model."""

    players: list[str]
    teams: list[str] | None = None
    first_dealer: int


def _as_json(value: Any, index: int | None = None) -> str:
    """Re-encode a decoded value so pydantic can check it in strict JSON mode.

    The file's fields have JSON types: strict mode refuses "90" for a number or
    "yes" for true, which lax validation would quietly convert.
    """
    try:
        text = json.dumps(value, allow_nan=False, ensure_ascii=False)
        # A lone UTF-16 surrogate ("\ud800") decodes in Python but is no character.
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise GameFileError(
            "the game file holds a broken character (a lone \\u surrogate)", hand=index
        ) from exc
    except (TypeError, ValueError) as exc:
        raise GameFileError(
            "the game file holds something that is not plain JSON", hand=index
        ) from exc
    return text


def parse_game(doc: Any, *, saved: bool = False) -> Game:
    """Read a tarabish-game/1 document (already decoded from JSON) into a Game.

    Raises GameFileError naming the 0-based hand for problems inside a hand.
    Whether the hands are possible in play is `replay`'s business.
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
        rules = HouseRules.model_validate_json(_as_json(rules_doc), strict=True)
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
        _TableDoc.model_validate_json(_as_json(table), strict=True)
    except ValidationError as exc:
        raise GameFileError(explain(exc)) from exc
    hands = tuple(parse_hand(raw, index) for index, raw in enumerate(raw_hands))
    players, teams = doc["players"], doc.get("teams")
    if saved:
        players = [replace_unsafe(name) for name in players]
        teams = None if teams is None else [replace_unsafe(name) for name in teams]
    try:
        return Game.model_validate({
            "players": players, "teams": teams,
            "first_dealer": doc["first_dealer"], "rules": rules, "hands": hands,
        })
    except ValidationError as exc:
        raise GameFileError(explain(exc)) from exc


def parse_hand(raw: Any, index: int | None = None) -> Hand:
    """Read one hand entry; the ending (points, misplay, thrown, passed) picks its kind."""
    if not isinstance(raw, dict):
        raise GameFileError("a hand must be a JSON object", hand=index)
    entry = {key: value for key, value in raw.items() if not (key == "passed" and value is False)}
    endings = [key for key in _ENDINGS if key in entry]
    if not endings:
        raise GameFileError(
            "this hand has no result: give the trick 'points', a 'misplay', "
            "'thrown_by', or 'passed'",
            hand=index,
        )
    if len(endings) > 1:
        raise GameFileError(
            f"this hand gives both '{endings[0]}' and '{endings[1]}': a hand ends one way only",
            hand=index,
        )
    kind = {"points": "played", "misplay": "misplay", "thrown_by": "thrown", "passed": "passed"}[
        endings[0]
    ]
    if kind == "passed":
        extra = sorted(key for key in entry if key != "passed")
        if extra:
            raise GameFileError(
                f"a passed hand has nothing else to record, but this one has "
                f"{listed(extra)}",
                hand=index,
            )
    if "bella" in entry and entry["bella"] is None:
        del entry["bella"]
    try:
        return _HAND.validate_json(_as_json({**entry, "kind": kind}, index), strict=True)
    except ValidationError as exc:
        raise GameFileError(explain(exc), hand=index) from exc
    except TarabishError as exc:
        raise GameFileError(str(exc), hand=index) from exc


def hand_to_doc(hand: Hand) -> dict[str, Any]:
    """One hand as the game file writes it (no `kind`, nothing left at its default)."""
    if isinstance(hand, PassedHand):
        return {"passed": True}
    dumped = hand.model_dump(mode="json", exclude={"kind"}, exclude_defaults=True)
    doc: dict[str, Any] = {"caller": hand.caller, "trump": str(hand.trump)}
    doc.update((key, value) for key, value in dumped.items() if key not in doc)
    if hand.runs:
        doc["runs"] = [
            {"seat": run.seat, "cards": [str(card) for card in run.cards]} for run in hand.runs
        ]
    points = doc.get("points")
    if isinstance(points, dict) and isinstance(points.get("tricks"), tuple):
        points["tricks"] = list(points["tricks"])
    return doc


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
