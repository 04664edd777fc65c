"""What the store hands out: a saved game and a one-line summary of it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict


class StoredGame(BaseModel):
    """One saved game. `doc` is its tarabish-game/1 document (hands included).

    `revision` goes up by one with every saved change; pass it back as
    `expected_revision` so a change made on another phone is never overwritten.
    `history` is the game's edit trail, as a game file's `"history"` holds it
    (`rules.history`). The model is frozen, and `doc` is the caller's own copy.
    """

    model_config = ConfigDict(frozen=True)

    id: str
    revision: int
    created: datetime
    updated: datetime
    doc: dict[str, Any]
    history: list[dict[str, Any]] = []
    follows: str | None = None
    """The game this one was started from with Play again (same table), or None."""
    origin: str | None = None
    """The key a phone alone gave this game (kept on that phone; sent with the game)."""

    def file_doc(self) -> dict[str, Any]:
        """The game as a game file holds it: the document and its trail."""
        return {**self.doc, "history": self.history} if self.history else dict(self.doc)


class GameSummary(BaseModel):
    """A row of the game list. `totals`/`winner` come from replaying the hands."""

    model_config = ConfigDict(frozen=True)

    id: str
    revision: int
    players: tuple[str, str, str, str]
    teams: tuple[str, str]
    created: datetime
    updated: datetime
    hand_count: int
    totals: tuple[int, int]
    winner: int | None
    finished: bool
    # 0-based index of the first hand the rules engine refuses (left by an edit
    # of an earlier hand), or None when every hand is valid.
    invalid_from: int | None = None
    # The game this one followed (started with Play again from it), or None.
    follows: str | None = None
    # The key of the phone alone it was sent from (one game per key), or None.
    origin: str | None = None


class SyncMark(BaseModel):
    """A change a phone sent through sync (`scorer.sync`), kept in its game's record with
    the revision it made: the same change sent again is answered, never applied twice.

    `device` is a short hash of the sending phone's token (`records.device_mark`),
    never the token: a change id sent by another phone is refused, not answered."""

    model_config = ConfigDict(frozen=True)

    change: str
    """The change's own id: 128 random bits in hex, made by the phone."""
    revision: int
    """The game's revision this change made."""
    device: str


class SyncedGame(BaseModel):
    """A game as sync sees it: the saved game, the changes sent through sync that its
    record keeps (the newest `records.MAX_MARKS`, oldest first), and, after a change
    was asked, whether it had been applied already (`already`: then `game` is the game
    as it is now and nothing was saved)."""

    model_config = ConfigDict(frozen=True)

    game: StoredGame
    marks: tuple[SyncMark, ...] = ()
    already: bool = False
    next: str | None = None
    """The game started after it with Play again, as the store saw it in the same read
    (`get_synced`, `apply_synced`): sync tells it without asking again."""

    def marks_after(self, revision: int) -> tuple[SyncMark, ...]:
        """The changes sent through sync that made revisions after `revision`."""
        return tuple(m for m in self.marks if m.revision > revision)

    def mark_of(self, change: str) -> SyncMark | None:
        return next((m for m in self.marks if m.change == change), None)
