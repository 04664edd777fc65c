"""Reading a game file for `check` and `import`: bounded, regular files only.

A path can name a FIFO (open and read block forever), `/dev/zero` (endless),
a folder, or a huge file. Only a regular file is read, at most
MAX_GAME_FILE_BYTES of it; the bytes then go through the one decoder every
game file goes through (rules.game_json). Every problem is a GameFileError
with a short message that does not repeat the file's name (the caller shows it).
"""

from __future__ import annotations

import os
import stat
import sys
from typing import Any, BinaryIO

from rules.errors import GameFileError
from rules.game_json import MAX_GAME_FILE_BYTES, decode_game_json, too_big_message

STDIN = "-"
_FOLDER = "that is a folder, not a game file"


def load_game_doc(name: str, stdin: BinaryIO | None = None) -> Any:
    """The decoded JSON of game file `name` ('-' reads stdin); GameFileError if unusable."""
    return decode_game_json(read_game_bytes(name, stdin))


def read_game_bytes(name: str, stdin: BinaryIO | None = None) -> bytes:
    """The bytes of game file `name`, refusing anything but a regular file of at most 10 MB."""
    if name == STDIN:
        source = stdin if stdin is not None else sys.stdin.buffer
        return _bounded_read(source.read)
    # O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(name, flags | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise GameFileError("there is no file by that name") from None
    except IsADirectoryError:
        raise GameFileError(_FOLDER) from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise GameFileError(f"the file cannot be read ({_reason(exc)})") from None
    try:
        info = os.fstat(fd)
        mode = info.st_mode
        if stat.S_ISDIR(mode):
            raise GameFileError(_FOLDER)
        if not stat.S_ISREG(mode):
            raise GameFileError(
                "that is a device, pipe or socket, not a saved game file: nothing was read"
            )
        if info.st_size > MAX_GAME_FILE_BYTES:
            raise GameFileError(too_big_message())
        with os.fdopen(fd, "rb", closefd=False) as file:
            return _bounded_read(file.read)
    except OSError as exc:
        raise GameFileError(f"the file cannot be read ({_reason(exc)})") from None
    finally:
        os.close(fd)


def _bounded_read(read: Any) -> bytes:
    """Read until end of file, but never more than one byte past the cap."""
    chunks: list[bytes] = []
    size = 0
    while size <= MAX_GAME_FILE_BYTES:
        chunk = read(MAX_GAME_FILE_BYTES + 1 - size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > MAX_GAME_FILE_BYTES:
        raise GameFileError(too_big_message())
    return b"".join(chunks)


def _reason(exc: Exception) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or "not a usable file name"
