"""Text on its way to a terminal: escaped, and error lines kept to one short line.

Names are checked when a game is entered (rules.plain_text), but games saved
before that check, file names and anything else a file brought can still hold
ESC, CR, bidi overrides...: every printer of the command line passes its text
through here so that nothing it prints can move the cursor or rewrite the screen.
"""

from __future__ import annotations

from typing import Final

from rules.plain_text import escape_unsafe, is_unsafe

MAX_LINE: Final = 300
"""Characters of one error line; the bad value itself is never shown whole."""
MAX_LABEL: Final = 80


def for_terminal(text: str) -> str:
    """Multi-line output (a score sheet, a table) with every unsafe character escaped."""
    return escape_unsafe(text, keep_newlines=True)


def one_line(text: str, limit: int = MAX_LINE) -> str:
    """An error message as one escaped line of at most `limit` characters."""
    line = escape_unsafe(text[: limit * 2])  # each escape is at most 10 characters
    return line if len(line) <= limit else line[: limit - 1] + "…"


def label(name: str) -> str:
    """A file name as shown in a message: escaped and cut short."""
    return one_line(name, MAX_LABEL)


def json_for_terminal(text: str) -> str:
    """JSON text with every unsafe character written as a \\u escape (same JSON value).

    json.dumps escapes C0 controls itself, but with ensure_ascii=False it
    leaves C1 controls, bidi overrides and lone surrogates raw. Newlines
    outside strings are json.dumps's own indentation and stay.
    """
    return "".join(
        _json_escape(char) if char != "\n" and is_unsafe(char) else char for char in text
    )


def _json_escape(char: str) -> str:
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000  # outside the BMP: a surrogate pair, as JSON spells it
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
