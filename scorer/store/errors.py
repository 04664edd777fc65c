"""Errors raised by the game store. All are ValueErrors whose str() a player can read."""

from __future__ import annotations

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
    """The game's file could not be read; it was moved aside and reported.

    The message names the kept file as `shown_as` (relative to the data folder:
    phones see it); `moved_to` is its full path, for the server's log and the CLI.
    """

    def __init__(self, game_id: str, reason: str, moved_to: str,
                 shown_as: str | None = None) -> None:
        StoreError.__init__(
            self,
            f"The saved game {game_id} could not be read ({reason}). "
            f"Its file was kept as {shown_as or moved_to}; every other game is fine.",
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
