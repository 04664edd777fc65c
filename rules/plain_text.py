"""Which characters free text (player and team names) may hold, and how any
value is quoted inside a message without letting it grow or misbehave.

A name is shown on phones and printed in terminals. Control characters (ESC,
CR/LF, BEL, NUL...), line separators and invisible format characters (bidi
overrides, zero-width spaces) can move a terminal's cursor, rewrite what is
already on screen, or make two names look alike; none belongs in a name.
"""

from __future__ import annotations

import reprlib
import unicodedata
from typing import Any, Final

_ALWAYS_UNSAFE: Final = frozenset({"Cc", "Cs", "Zl", "Zp"})
_ZERO_WIDTH_JOINER: Final = "\u200d"
# Tag characters only shape emoji (the Scottish flag is a black flag plus tags).
# Kept as numbers: the font check reads string literals as text the app draws.
_EMOJI_TAGS: Final = (0xE0020, 0xE007F)
_NAMED: Final = {
    "\x00": "NUL", "\x07": "BEL", "\x08": "backspace", "\t": "a tab", "\n": "a line break",
    "\r": "a line break", "\x1b": "ESC", "\x7f": "DEL",
}
REPLACEMENT: Final = "\ufffd"
"""What `replace_unsafe` puts in place of each unsafe character: a visible "�"."""


def is_unsafe(char: str) -> bool:
    """True for a control, separator or invisible format character (one code point)."""
    category = unicodedata.category(char)
    if category in _ALWAYS_UNSAFE:
        return True
    if category == "Cf":
        return not (char == _ZERO_WIDTH_JOINER or _EMOJI_TAGS[0] <= ord(char) <= _EMOJI_TAGS[1])
    return False


def first_unsafe(text: str) -> str | None:
    """The first unsafe character of `text`, or None when it has none."""
    return next((char for char in text if is_unsafe(char)), None)


def describe(char: str) -> str:
    """A character named for a player: "ESC", "a line break", "U+202E (right-to-left override)"."""
    if char in _NAMED:
        return _NAMED[char]
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" ({name.lower()})" if name else "")


def without_unsafe(text: str) -> str:
    """`text` with every unsafe character removed."""
    return "".join(char for char in text if not is_unsafe(char))


def replace_unsafe(text: str) -> str:
    """`text` with every unsafe character replaced by "�" (same length, still visible)."""
    return "".join(REPLACEMENT if is_unsafe(char) else char for char in text)


def escape_unsafe(text: str, *, keep_newlines: bool = False) -> str:
    """`text` with every unsafe character written as a Python-style escape (`\\x1b`).

    For printing to a terminal: what a name held stays readable, but cannot act.
    """
    out: list[str] = []
    for char in text:
        if keep_newlines and char == "\n":
            out.append(char)
        elif is_unsafe(char):
            out.append(_escape(char))
        else:
            out.append(char)
    return "".join(out)


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


QUOTE_LIMIT: Final = 40
"""Characters of a value shown in a message; a 10 MB name must not make a 10 MB message."""

# Far above any number a game file needs, far below int()'s 4300-digit limit.
_MAX_INT_BITS: Final = 200


class _ShortRepr(reprlib.Repr):
    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > _MAX_INT_BITS:
            return "<a number far too long>"
        return super().repr_int(x, level)


_REPR = _ShortRepr()
_REPR.maxstring = QUOTE_LIMIT
_REPR.maxother = QUOTE_LIMIT
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 4
_REPR.maxlevel = 2


def shown(value: Any) -> str:
    """`value` quoted for a message: short, one line, nothing a terminal would act on.

    Short safe text is quoted as `'Ann'`; anything longer or odd is cut down and
    escaped the way Python's `repr` does it (`'\\x1b[2J'`, `'AAAA...AAAA'`).
    """
    if isinstance(value, str) and len(value) <= QUOTE_LIMIT and first_unsafe(value) is None:
        return f"'{value}'"
    # repr escapes every non-printable character; the cap keeps it short.
    return escape_unsafe(_REPR.repr(value))


def listed(values: list[str], most: int = 3) -> str:
    """Up to `most` values quoted and joined, with how many more there were."""
    parts = [shown(value) for value in values[:most]]
    if len(values) > most:
        parts.append(f"and {len(values) - most} more")
    return ", ".join(parts)
