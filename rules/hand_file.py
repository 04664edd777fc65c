"""One hand of a game file: reading it into a rules `Hand` and writing it back."""

from __future__ import annotations

import json
from typing import Any, Final

from pydantic import TypeAdapter, ValidationError

from rules.errors import GameFileError, TarabishError
from rules.hands import Hand, PassedHand
from rules.messages import explain
from rules.plain_text import listed

_ENDINGS: Final = ("points", "misplay", "thrown_by", "passed")
_HAND: TypeAdapter[Hand] = TypeAdapter(Hand)


def as_json(value: Any, index: int | None = None) -> str:
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
        return _HAND.validate_json(as_json({**entry, "kind": kind}, index), strict=True)
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
            {"seat": run.seat, "run": run.run.value} if run.run is not None
            else {"seat": run.seat, "cards": [str(card) for card in run.cards]}
            for run in hand.runs
        ]
    points = doc.get("points")
    if isinstance(points, dict) and isinstance(points.get("tricks"), tuple):
        points["tricks"] = list(points["tricks"])
    return doc
