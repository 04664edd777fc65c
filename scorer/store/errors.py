"""Errors raised by the game store. All are ValueErrors whose str() a player can read."""

from __future__ import annotations

import errno
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scorer.store.models import StoredGame


class StoreError(ValueError):
    """Base of every error the store raises on purpose."""


class GameNotFound(StoreError):
    """No saved game has this id (never saved, deleted, or moved aside as damaged)."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"There is no saved game with id {game_id!r}.")
        self.game_id = game_id


class GameDamaged(GameNotFound):
    """The game's file could not be read; it was moved aside (if the folder
    allowed it: else `moved_to` is None and it was left in place) and reported.

    The message names the kept file as `shown_as` (relative to the data folder:
    phones see it); `moved_to` is its full path, for the server's log and the CLI.
    """

    def __init__(self, game_id: str, reason: str, moved_to: str | None,
                 shown_as: str | None = None) -> None:
        kept = ("was left where it is" if moved_to is None
                else f"was kept as {shown_as or moved_to}")
        StoreError.__init__(
            self,
            f"The saved game {game_id} could not be read ({reason}). "
            f"Its file {kept}; every other game is fine.",
        )
        self.game_id = game_id
        self.reason = reason
        self.moved_to = moved_to


class DamagedFile(StoreError):
    """A store file exists but cannot be read (torn, hand-edited, disk full)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"The file {path} could not be read: {reason}.")
        self.path = path
        self.reason = reason


class NewerSchema(StoreError):
    """A file was written by a newer version of the app; it is left untouched."""

    def __init__(self, path: str, found: int, supported: int) -> None:
        super().__init__(
            f"The file {path} was saved by a newer version of Tarabish "
            f"(format {found}, this version reads up to {supported}). "
            "Update the app to open it; the file was left as it is."
        )
        self.path = path
        self.found = found
        self.supported = supported


class InvalidGame(StoreError):
    """The rules engine refused the game or hand; nothing was saved."""

    def __init__(self, message: str, hand: int | None = None) -> None:
        super().__init__(message)
        self.hand = hand


class HandNotFound(StoreError):
    """An edit or undo named a hand the game does not have."""


class NextGameExists(StoreError):
    """Play again on a game that already has its next game (started on another
    phone): `game_id` is that game, to open instead of making a second one."""

    def __init__(self, game_id: str) -> None:
        super().__init__("The next game was already started on another phone: here it is.")
        self.game_id = game_id


class StaleRevision(StoreError):
    """The game changed (on another phone) since the caller last read it.

    `current` is the game as it is now, so the app can show the fresh sheet.
    """

    def __init__(self, current: StoredGame, expected: int, changes: list[str]) -> None:
        what = ", ".join(changes) if changes else "it was changed"
        super().__init__(
            f"The score sheet changed on another phone: {what}. Here is the current sheet."
        )
        self.current = current
        self.expected = expected
        self.changes = changes


class ChangeReplayed(StoreError):
    """A change sent through sync under an id another phone already used: nothing was
    saved (a phone makes its ids at random, so this is a copy, not a retry)."""

    def __init__(self, change: str) -> None:
        super().__init__("This change was already sent by another phone: nothing was saved.")
        self.change = change


# Write failures a player can do something about, by errno.
_DISK_FULL = frozenset({errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)})
_READ_ONLY = frozenset({errno.EROFS, errno.EACCES, errno.EPERM})


class NotSaved(StoreError):
    """A write failed (disk full, read-only folder...); every file is as it was."""

    def __init__(self, message: str, error: int | None = None) -> None:
        super().__init__(message)
        self.errno = error


def not_saved(exc: OSError, outcome: str = "nothing was saved") -> NotSaved:
    """The player's words for a failed write, e.g. "The disk is full: nothing was saved."."""
    if exc.errno in _DISK_FULL:
        why = "The disk is full"
    elif exc.errno in _READ_ONLY:
        why = "The data folder is read-only"
    else:
        why = f"The data folder could not be written ({exc.strerror or exc})"
    return NotSaved(f"{why}: {outcome}.", exc.errno)
