"""docs/GAME_FORMAT.md keeps step with the parser: every field and value the
game file's models accept is named there, and its examples are what the
engine says."""

from __future__ import annotations

import enum
import json
import re
import types
import typing
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from rules import game_file, hand_file, history
from rules.cards import Card, Rank, Suit
from rules.errors import GameFileError
from rules.game import Game
from rules.game_file import check_game
from rules.hands import Hand
from rules.house_rules import HouseRules
from scorer.commands.check import check_json

DOC = Path(__file__).resolve().parents[2] / "docs" / "GAME_FORMAT.md"
TEXT = DOC.read_text(encoding="utf-8")
# Everything written `like this`, without the quotes around JSON strings.
DOCUMENTED = {token.strip('"') for token in re.findall(r"`([^`\n]+)`", TEXT)}


def _accepted(annotation: Any, found: set[str], seen: set[type]) -> None:
    """Field names, enum values and literal values reachable from `annotation`."""
    if isinstance(annotation, type) and issubclass(annotation, Card):
        return  # cards are written as text; checked on their own below
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if annotation in seen:
            return
        seen.add(annotation)
        for name, info in annotation.model_fields.items():
            found.add(name)
            _accepted(info.annotation, found, seen)
        return
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        found.update(str(member.value) for member in annotation)
        return
    if typing.get_origin(annotation) is typing.Literal:
        found.update(str(value) for value in typing.get_args(annotation))
        return
    for arg in typing.get_args(annotation):
        if arg is not type(None) and not isinstance(arg, (str, int, types.EllipsisType)):
            _accepted(arg, found, seen)


def accepted_by_the_parser() -> set[str]:
    found: set[str] = set(game_file._TOP_KEYS)
    seen: set[type] = set()
    for model in (Game, game_file._TableDoc, HouseRules):
        _accepted(model, found, seen)
    _accepted(Hand, found, seen)
    for entry in typing.get_args(history.Entry):
        _accepted(entry, found, seen)
    found.update(hand_file._ENDINGS)
    return found - {"True"}  # Literal[True] of `passed`, written `true` in JSON


def test_walker_finds_the_nested_models() -> None:
    found = accepted_by_the_parser()
    # Sanity of the introspection itself: deep fields and values are reached.
    assert {"called_by", "upheld", "tricks", "seat", "cards", "thrown_by", "kind"} <= found
    assert {"turn_order", "caller_wins", "single", "NT", "played", "misplay"} <= found
    assert {"revision", "at", "by", "edited", "undone", "redone", "before", "after"} <= found
    assert len(found) > 40


def test_every_accepted_field_and_value_is_documented() -> None:
    missing = sorted(accepted_by_the_parser() - DOCUMENTED)
    assert not missing, f"docs/GAME_FORMAT.md does not mention: {missing}"


def test_every_house_rule_has_a_row_with_its_standard_value() -> None:
    for name, info in HouseRules.model_fields.items():
        row = next((line for line in TEXT.splitlines() if line.startswith(f"| `{name}` |")),
                   None)
        assert row is not None, name
        default = info.default.value if isinstance(info.default, enum.Enum) else info.default
        assert f"`{json.dumps(default)}`" in row, (name, row)


def test_cards_ranks_and_suits_are_documented() -> None:
    assert {rank.value for rank in Rank} <= DOCUMENTED
    assert {suit.value for suit in Suit} <= DOCUMENTED
    assert "T" in DOCUMENTED  # the ten may be written T


def _json_blocks() -> tuple[dict[str, Any], dict[str, Any], list[Any]]:
    """The example game, the `check --json` example and the trail example."""
    blocks = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", TEXT, re.DOTALL)]
    games = [b for b in blocks if isinstance(b, dict) and "format" in b]
    checks = [b for b in blocks if isinstance(b, dict) and "totals" in b]
    trails = [b for b in blocks if isinstance(b, list)]
    assert len(games) == len(checks) == len(trails) == 1 == len(blocks) / 3
    return games[0], checks[0], trails[0]


def test_the_example_game_is_valid_and_scores_as_the_text_says() -> None:
    example, check_example, _trail = _json_blocks()
    result = check_game(example)
    assert result.totals == (480, 208)
    assert [h.ruling.outcome.value for h in result.hands if h.ruling] == [
        "made", "made", "passed", "misplay", "thrown"]
    assert "480 to 208" in TEXT
    # The check --json example is the output for the example's first hand.
    first = check_json(check_game({**example, "hands": example["hands"][:1]}))
    first["hands"][0]["reasons"] = ["..."]
    assert first == check_example


def test_readme_points_inside_the_project() -> None:
    readme = (DOC.parents[1] / "README.md").read_text(encoding="utf-8")
    assert "docs/GAME_FORMAT.md" in readme
    assert "../shared" not in readme


def test_the_trail_example_is_true_of_the_example_game() -> None:
    example, _check, trail = _json_blocks()
    game = {**example, "hands": example["hands"][:1], "history": trail}
    check_game(game)
    lied = [*trail[:2], {**trail[2], "after": {**trail[2]["after"],
                                               "points": {"team": 0, "tricks": 90}}}]
    with pytest.raises(GameFileError, match="history entry 3"):
        check_game({**game, "history": lied})
