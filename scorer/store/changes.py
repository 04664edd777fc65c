"""The changes a phone makes to a saved game, whatever keeps it (a folder, a database).

Each function returns a `Change`: given a copy of the game's document and its
edit trail (which it must not change), it returns the new document, the
`allow_invalid_after` to check it with, the change in player words, and the
trail entry (`rules.history`; None for none). The stores apply it under their
own lock or transaction, check the revision first and the result after.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from rules.game_file import hand_to_doc, header_of, parse_hand
from rules.history import parse_trail, redoable
from scorer.store.errors import HandNotFound, InvalidGame

Changed = tuple[dict[str, Any], int | None, str, dict[str, Any] | None]
Change = Callable[[dict[str, Any], list[dict[str, Any]]], Changed]


def add_hand(hand: dict[str, Any]) -> Change:
    """Append a hand; the whole game must stay valid."""

    def change(doc: dict[str, Any], _trail: list[dict[str, Any]]) -> Changed:
        hands = doc.setdefault("hands", [])
        hands.append(copy.deepcopy(hand))
        return doc, None, f"hand {len(hands)} was added", {"change": "added",
                                                          "hand": len(hands)}

    return change


def replace_hand(index: int, hand: dict[str, Any]) -> Change:
    """Replace hand `index` (0-based); later hands are scored again and may be flagged."""

    def change(doc: dict[str, Any], _trail: list[dict[str, Any]]) -> Changed:
        hands = doc.setdefault("hands", [])
        if not 0 <= index < len(hands):
            raise HandNotFound(
                f"There is no hand {index + 1} to change: the game has "
                f"{len(hands)} hand{'' if len(hands) == 1 else 's'}."
            )
        before, hands[index] = hands[index], copy.deepcopy(hand)
        entry = None if before == hand else {"change": "edited", "hand": index + 1,
                                             "before": before, "after": hands[index]}
        return doc, index, f"hand {index + 1} was edited", entry

    return change


def undo_last_hand() -> Change:
    """Remove the last hand (kept in the trail, from where it can be put back)."""

    def change(doc: dict[str, Any], _trail: list[dict[str, Any]]) -> Changed:
        hands = doc.setdefault("hands", [])
        if not hands:
            raise HandNotFound("There is no hand to undo.")
        removed = hands.pop()
        # Removing a hand cannot break the hands before it; any that were
        # already invalid (after an edit) stay flagged, not refused.
        number = len(hands) + 1
        return doc, -1, f"hand {number} was undone", {"change": "undone", "hand": number,
                                                       "before": removed}

    return change


def redo_hand() -> Change:
    """Put back the last hand undone, while no hand has been recorded after it."""

    def change(doc: dict[str, Any], trail: list[dict[str, Any]]) -> Changed:
        hands = doc.setdefault("hands", [])
        undone = redoable(parse_trail(trail, parse_hand), len(hands))
        if undone is None:
            raise HandNotFound("There is no undone hand to put back: a hand was "
                               "recorded since, or none was undone.")
        hands.append(hand_to_doc(undone.before))
        number = len(hands)
        return doc, None, f"hand {number} was put back", {"change": "redone",
                                                           "hand": number}

    return change


def update_game(doc: dict[str, Any]) -> Change:
    """Change the game's details; `doc` may omit "hands", else they must be the saved ones."""
    new_header = copy.deepcopy(doc)

    def change(old: dict[str, Any], _trail: list[dict[str, Any]]) -> Changed:
        hands = old.get("hands", [])
        if "hands" in new_header and new_header["hands"] != hands:
            raise InvalidGame(
                "Hands are saved one at a time: add, edit or undo a hand instead "
                "of changing the game's details."
            )
        new_header.pop("history", None)
        updated = {**new_header, "hands": hands}
        before, after = header_of(old), header_of(updated)
        keys = [key for key in before if before[key] != after[key]]
        entry = {"change": "details", "before": {k: before[k] for k in keys},
                 "after": {k: after[k] for k in keys}} if keys else None
        return updated, -1, describe_update(old, updated), entry

    return change


def describe_update(old: dict[str, Any], new: dict[str, Any]) -> str:
    what = [
        label
        for key, label in (
            ("players", "the player names"),
            ("teams", "the team names"),
            ("rules", "the house rules"),
            ("first_dealer", "the first dealer"),
        )
        if old.get(key) != new.get(key)
    ]
    if not what:
        return "the game details were saved again"
    verb = "was" if what == ["the first dealer"] else "were"
    return f"{' and '.join(what)} {verb} changed"
