"""A code as a person types it, read as its digits.

Every code (table, host, organiser, keeper, admin) is shown in groups ("7301 4914")
and copied from paper or a chat: spaces and dashes between the digits are not part
of it. Each server-side check reads the typed text through `code_digits` before it
compares, so "7301 4914" and "7301-4914" are the code, and not a wrong try.
"""

from __future__ import annotations

from typing import Final

SEPARATORS: Final = frozenset(map(chr, (
    0x20, 0x09, 0x0A, 0x0D, 0xA0, 0x2007, 0x202F, 0x2009, 0x200A, 0x3000,
    0x2D, 0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2212, 0xFE63, 0xFF0D,
)))  # code points, not a string: read from what is typed, never drawn (no font needs them)
"""Spaces (a no-break space from a chat or a PDF too) and dashes (hyphen, minus, en and
em dashes) that may stand between a code's groups of digits."""
MAX_TYPED: Final = 64
"""Characters read of what was typed: no code is longer; a flood is cut, then refused."""


def code_digits(typed: object) -> str:
    """`typed` without its spaces and dashes ("7301 4914" -> "73014914"). Anything else
    (a letter, a dot) is kept, so that it makes a wrong code rather than another one.
    Not text: "" (which no code is)."""
    if not isinstance(typed, str):
        return ""
    return "".join(ch for ch in typed[:MAX_TYPED] if ch not in SEPARATORS)
