"""Decoding a game file's bytes into JSON values, with bounds a hostile file cannot pass.

Python's `json` module would take a 5,000-digit number (and fail with a bare
ValueError), recurse until RecursionError on deep nesting, and hold whatever
size it is given. Here: at most `MAX_GAME_FILE_BYTES`, numbers of at most
`MAX_NUMBER_LENGTH` digits, nesting at most `MAX_NESTING` deep, standard
JSON only (no NaN/Infinity). Every refusal is a GameFileError whose line and
column are those of the user's file.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable
from typing import Any, Final, NoReturn

from rules.errors import GameFileError

MAX_GAME_FILE_BYTES: Final = 10 * 1024 * 1024
"""10 MB: a long game is a few kilobytes."""
MAX_NESTING: Final = 20
"""The format nests 6 deep (document, hands, hand, runs, run, cards)."""
MAX_NUMBER_LENGTH: Final = 20
"""Digits in one number: the largest the format needs is a target of 4 digits."""

# Strings (skipped whole, so brackets and digits inside them do not count),
# brackets, and numbers, as JSON writes them.
_TOKEN: Final = re.compile(
    r'"(?:[^"\\]|\\.)*"|[\[{]|[\]}]|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?'
    r"|NaN|-?Infinity",
    re.DOTALL,
)
_LONG_DIGITS: Final = re.compile(f"[0-9]{{{MAX_NUMBER_LENGTH + 1},}}")


class _NotStandard(Exception):
    """NaN, Infinity or -Infinity: Python reads them, JSON does not have them."""

    def __init__(self, word: str) -> None:
        super().__init__(word)
        self.word = word


def decode_game_json(data: bytes) -> Any:
    """The JSON value in a game file's bytes (UTF-8, a leading BOM allowed).

    Raises GameFileError (hand None) for anything that is not small, plain JSON.
    """
    if len(data) > MAX_GAME_FILE_BYTES:
        raise GameFileError(too_big_message())
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _byte_position(data, exc.start)
        raise GameFileError(
            f"the file is not UTF-8 text (line {line}, column {column}): save it as UTF-8"
        ) from None
    # A run of digits anywhere (a name may hold one) is rare: only then are the
    # numbers themselves looked at, and json.loads runs at C speed otherwise.
    if _LONG_DIGITS.search(text):
        _refuse_long_numbers(text)
    try:
        value = json.loads(text, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise GameFileError(
            f"the file is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    except RecursionError:
        _too_deep(text)
    except _NotStandard as exc:
        word = exc.word
        line, column = _text_position(text, _first(text, lambda token: token == word) or 0)
        raise GameFileError(
            f"the file is not valid JSON (line {line}, column {column}: "
            f"{word} is not a JSON value)"
        ) from None
    if _depth_over(value, MAX_NESTING):
        _too_deep(text)
    return value


def too_big_message() -> str:
    """The one sentence for a file over the size cap (also used by file readers)."""
    return f"the file is too big: a game file is at most {MAX_GAME_FILE_BYTES // 2**20} MB"


def _constant(word: str) -> NoReturn:
    raise _NotStandard(word)


def _depth_over(value: Any, limit: int) -> bool:
    """True when containers nest more than `limit` deep (no recursion: the file chose the depth)."""
    level = [value] if type(value) in _CONTAINERS else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        # One level at a time, in comprehensions: a 10 MB file can hold 3 million objects.
        level = [child for item in level
                 for child in (item.values() if type(item) is dict else item)
                 if type(child) in _CONTAINERS]
    return False


_CONTAINERS: Final = (dict, list)


def _too_deep(text: str) -> NoReturn:
    depth = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_NESTING:
                line, column = _text_position(text, match.start())
                raise GameFileError(
                    f"the file nests lists or objects more than {MAX_NESTING} deep "
                    f"(line {line}, column {column}): a game file is never that deep"
                )
        elif token in "]}":
            depth -= 1
    raise GameFileError(f"the file nests lists or objects more than {MAX_NESTING} deep")


def _refuse_long_numbers(text: str) -> None:
    """Refuse the first number (outside strings) longer than MAX_NUMBER_LENGTH, if any."""
    start = _first(
        text, lambda token: token[0] in "-0123456789" and bool(_LONG_DIGITS.search(token))
    )
    if start is None:
        return
    line, column = _text_position(text, start)
    raise GameFileError(
        f"the file has a number of more than {MAX_NUMBER_LENGTH} digits (line {line}, "
        f"column {column}): no number in a game file needs that many"
    )


def _first(text: str, wanted: Callable[[str], bool]) -> int | None:
    """Where the first token (outside strings) that is `wanted` starts, if any is."""
    return next((m.start() for m in _TOKEN.finditer(text) if wanted(m.group())), None)


def _text_position(text: str, index: int) -> tuple[int, int]:
    """1-based line and column (in characters) of `text[index]`, as json reports them."""
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _byte_position(data: bytes, index: int) -> tuple[int, int]:
    """1-based line and column (in characters) of the byte at `index`."""
    line = data.count(b"\n", 0, index) + 1
    start = data.rfind(b"\n", 0, index) + 1
    return line, len(data[start:index].decode("utf-8", errors="replace")) + 1
