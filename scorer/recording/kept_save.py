"""A hand whose Save was on its way when the server went away, as the phone keeps it.

At Save the server has the phone keep the hand (in its own storage) before the
store sees it, and has it dropped once the store has answered
(`scorer.app.unsaved`). A page that comes back to a new session (a restarted
server, another process of a community) may so find a hand that was never
stored, or one that was: `settle` tells which. What the phone keeps is its own
word (a stale copy, or one its owner wrote by hand): it is read as strictly as
any draft, bounded in size, and a save of it goes through the same rights and
revision checks as any other save.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rules.errors import TarabishError
from rules.game import MAX_HANDS, Game
from rules.hand_file import parse_hand
from scorer.recording.conflicts import Clash, DraftPlace, assess, built, draft_key
from scorer.recording.draft import HandDraft

MAX_KEPT_CHARS = 8_000
"""Longest kept hand read back: a hand with every run and its base is under 3,000."""


class KeptSave(BaseModel):
    """The hand a phone keeps while its Save is on the way."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["tarabish-unsaved/1"] = "tarabish-unsaved/1"
    game: str = Field(pattern=r"^[0-9a-f]{8}$")
    index: int | None = Field(default=None, ge=0, lt=MAX_HANDS)
    """The hand edited (counting from 0); None: a new hand."""
    number: int = Field(ge=1, le=MAX_HANDS)
    """The hand's number on the phone, counting from 1."""
    revision: int = Field(ge=0)
    """The revision of the game the player saw the hand on."""
    base: dict[str, Any] | None = None
    """An edit's hand as it was when the edit was opened."""
    draft: HandDraft

    @property
    def place(self) -> DraftPlace:
        return DraftPlace(number=self.number, revision=self.revision, base=self.base)

    @property
    def key(self) -> str:
        """The session's key for this hand (`conflicts.draft_key`)."""
        return draft_key(self.game, self.index)


def kept_text(game_id: str, index: int | None, place: DraftPlace, draft: HandDraft) -> str:
    """What the phone keeps at Save (compact JSON)."""
    return KeptSave(game=game_id, index=index, number=place.number, revision=place.revision,
                    base=place.base, draft=draft).model_dump_json()


def read_kept(value: object) -> KeptSave | None:
    """The kept hand, or None if there is none or it is not one this app could have
    written: too long, malformed, out of range, not a finished hand, or an edit
    and a new hand mixed up."""
    if not isinstance(value, str) or not value or len(value) > MAX_KEPT_CHARS:
        return None
    try:
        kept = KeptSave.model_validate_json(value)
    except ValidationError:
        return None
    if built(kept.draft) is None:  # a Save only ever sends a finished hand
        return None
    if kept.index is None:
        return kept if kept.base is None else None
    if kept.base is None or kept.number != kept.index + 1:
        return None
    try:
        parse_hand(kept.base)
    except (TarabishError, ValueError, TypeError):
        return None
    return kept


class Settled(StrEnum):
    """What became of a kept hand."""

    STORED = "stored"
    """The game has it, exactly: the Save landed. Nothing to offer again."""
    UNSAVED = "unsaved"
    """Not stored: the phone shows it again, to be saved (over any change since)."""
    DROPPED = "dropped"
    """Nothing to save it into: a new hand for a game already won."""


def settle(kept: KeptSave, game: Game, revision: int, over: bool) -> Settled:
    """What to do with `kept` now that the game stands at `revision` (`over`: won).
    A revision the player did not see is never saved over: an unsaved hand goes back
    to the record screen, which shows what changed or both versions (`assess`)."""
    found = assess(kept.place, kept.draft, game, revision)
    if found.clash is Clash.SAME:
        return Settled.STORED
    if found.clash is Clash.NONE and not _in_place(kept, game):
        return Settled.DROPPED  # the game as it was then cannot have had it so
    if kept.index is None and over and found.clash is not Clash.THEIRS:
        return Settled.DROPPED
    return Settled.UNSAVED


def _in_place(kept: KeptSave, game: Game) -> bool:
    """Whether a hand kept on the very revision the game is at fits it: the next hand's
    number, or an edit of a hand that is there as the edit began."""
    count = len(game.hands)
    if kept.index is None:
        return kept.number == count + 1
    return kept.index < count and kept.base is not None and \
        game.hands[kept.index] == parse_hand(kept.base)
