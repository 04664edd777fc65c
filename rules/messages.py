"""Turning pydantic's validation errors into sentences a player can read."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from rules.plain_text import shown

_KINDS = {"played", "misplay", "thrown", "passed"}
# Union branches pydantic names in a location ("points, tricks, int"): not words for a player.
_TYPE_TAGS = {"int", "str", "bool", "tuple[int, int]", "list[str]"}


def _part(part: int | str) -> str:
    """A location step as written; a key from the file is cut short and escaped."""
    return shown(str(part))[1:-1]


def _where(loc: tuple[int | str, ...]) -> str:
    words: list[str] = []
    parts = list(loc)
    i = 0
    while i < len(parts):
        part = parts[i]
        nxt = parts[i + 1] if i + 1 < len(parts) else None
        if part == "runs" and isinstance(nxt, int):
            words.append(f"run {nxt + 1}")
            i += 2
            continue
        if part == "cards" and isinstance(nxt, int):
            words.append(f"card {nxt + 1}")
            i += 2
            continue
        if part == "players" and isinstance(nxt, int):
            words.append(f"player {nxt + 1}")
            i += 2
            continue
        words.append(_part(part))
        i += 1
    return ", ".join(words)


def explain(exc: ValidationError) -> str:
    """The first problem pydantic found, in plain words."""
    error: Any = exc.errors(include_url=False)[0]
    loc = tuple(error.get("loc", ()))
    # A hand's kind tags the union branch, first in the location; later on, the
    # same words are the file's own keys ("misplay", or a stray "passed" in it).
    if loc and loc[0] in _KINDS:
        loc = loc[1:]
    loc = tuple(part for part in loc if part not in _TYPE_TAGS)
    where = _where(loc)
    kind = error.get("type", "")
    given = error.get("input")
    if kind == "value_error":
        cause = error.get("ctx", {}).get("error")
        return str(cause) if cause is not None else error["msg"]
    if kind == "extra_forbidden" and loc:
        return f"'{_part(loc[-1])}' is not something this file can hold" + (
            f" (in {_where(loc[:-1])})" if len(loc) > 1 else ""
        )
    if kind == "missing":
        return f"'{where}' is missing"
    if kind in {"int_type", "int_parsing", "int_from_float"}:
        return f"'{where}' must be a whole number, not {shown(given)}"
    if kind == "string_type":
        return f"'{where}' must be text, not {shown(given)}"
    if kind in {"bool_type", "bool_parsing"}:
        return f"'{where}' must be true or false, not {shown(given)}"
    if kind in {"greater_than_equal", "less_than_equal", "greater_than", "less_than"}:
        seat_like = loc and loc[-1] in {"caller", "bella", "thrown_by", "seat", "first_dealer"}
        if seat_like:
            return f"'{where}' must be a seat from 0 to 3, not {shown(given)}"
        team_like = loc and loc[-1] in {"team", "called_by"}
        if team_like:
            return f"'{where}' must be team 0 or 1, not {shown(given)}"
        return f"'{where}': {error['msg'].lower()} (got {shown(given)})"
    if kind in {"too_short", "too_long", "tuple_type", "list_type"}:
        return f"'{where}' has the wrong number of entries: {error['msg'].lower()}"
    if kind in {"enum", "literal_error"}:
        return f"'{where}' cannot be {shown(given)}: {error['msg'].lower()}"
    return f"'{where}': {error['msg']}"
