"""A hand entered on one phone while another phone changed the game.

A draft is for one hand number, made on one revision of the game
(`DraftPlace`). When the game has moved on since, `assess` says how: only
elsewhere (the player is shown what changed and saves on the new revision), or
in this hand's own place (another phone saved this hand, the same or not, or
undid it). A save is never applied to a revision the player did not see, and
a hand recorded meanwhile is never stored again as another hand.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict

from rules.errors import TarabishError
from rules.game import Game
from rules.hand_diff import Difference, HandFacts, differences, hand_facts, trump_words
from rules.hand_file import parse_hand
from rules.hands import Hand
from rules.names import TableNames
from rules.outcome_words import outcome_word
from rules.replay import preview
from scorer.recording.draft import DraftIncomplete, Ending, HandDraft


class DraftPlace(BaseModel):
    """Where a hand being entered goes: its number, the revision the player saw last,
    and (for an edit) the hand as it was when it was opened. The taps themselves are
    the session's `HandDraft` under the same key."""

    model_config = ConfigDict(frozen=True)

    number: int
    """Counting from 1, as the sheet does."""
    revision: int
    base: dict[str, Any] | None = None
    """An edit's hand as saved when the edit was opened (None: a new hand)."""
    told: tuple[str, ...] = ()
    """Changes from other phones the player was shown while entering this hand."""
    unsaved: bool = False
    """Put back on the screen after the server went away while its Save was on the
    way (`scorer.recording.kept_save`): the player is told it was not saved."""

    @property
    def is_new(self) -> bool:
        return self.base is None

    def seen(self, revision: int, told: tuple[str, ...] = ()) -> DraftPlace:
        """The same place, now shown on `revision` with what changed (`told`)."""
        return self.model_copy(update={"revision": revision, "told": (*self.told, *told)})


def draft_key(game_id: str, index: int | None) -> str:
    """Where a session keeps a hand being entered (and its place): by game and hand
    index, `new` for the next hand."""
    return f"{game_id}/{'new' if index is None else index}"


class Clash(StrEnum):
    """How the game changed under a hand being entered."""

    NONE = "none"
    """Nothing changed since the player last saw the game."""
    ELSEWHERE = "elsewhere"
    """The game changed, but not in this hand's place: show what changed, then save."""
    SAME = "same"
    """Another phone saved this very hand, exactly as this phone has it."""
    THEIRS = "theirs"
    """Another phone saved a different hand in this place."""
    GONE = "gone"
    """This hand's place is gone: hands were undone on another phone."""


class Situation(BaseModel):
    """What `assess` found, with what the conflict screen shows."""

    model_config = ConfigDict(frozen=True)

    clash: Clash
    number: int
    """The hand's number on this phone."""
    next_number: int
    """The number a new hand would get now."""
    theirs: Hand | None = None
    mine: Hand | None = None
    """None while this phone's hand is not finished."""


def assess(place: DraftPlace, draft: HandDraft, game: Game, revision: int) -> Situation:
    """How the game as saved now (`game` at `revision`) stands to a hand entered for
    `place` with the taps `draft`."""
    return assess_hand(place, built(draft), game, revision)


def assess_hand(place: DraftPlace, mine: Hand | None, game: Game, revision: int) -> Situation:
    """`assess` for a hand already made (`mine`; None: not finished yet): a change
    waiting on a phone (`scorer.sync`) is judged as a draft on a screen is."""
    count = len(game.hands)
    common: dict[str, Any] = {"number": place.number, "next_number": count + 1, "mine": mine}
    if revision == place.revision:
        return Situation(clash=Clash.NONE, **common)
    at = place.number - 1
    theirs = game.hands[at] if at < count else None
    if place.is_new:
        if theirs is None:
            clash = Clash.ELSEWHERE if count == at else Clash.GONE
            return Situation(clash=clash, **common)
    else:
        if theirs is None:
            return Situation(clash=Clash.GONE, **common)
        if theirs == _read(place.base):
            return Situation(clash=Clash.ELSEWHERE, theirs=theirs, **common)
    clash = Clash.SAME if mine is not None and mine == theirs else Clash.THEIRS
    return Situation(clash=clash, theirs=theirs, **common)


def built(draft: HandDraft) -> Hand | None:
    """The hand the taps make, or None while something is still missing."""
    try:
        return draft.build()
    except (DraftIncomplete, TarabishError):
        return None


def _read(doc: dict[str, Any] | None) -> Hand | None:
    try:
        return None if doc is None else parse_hand(doc)
    except TarabishError:
        return None


def facts_of(hand: Hand | None, draft: HandDraft, names: TableNames) -> HandFacts:
    """A hand's lines; for a draft not finished yet, what has been tapped so far."""
    if hand is not None:
        return hand_facts(hand, names)
    missing = "not entered yet"
    called = names.player(draft.caller) if draft.caller is not None else missing
    trump = trump_words(str(draft.trump)) if draft.trump is not None else missing
    runs = "; ".join(f"{names.player(run.seat)} {run.describe()}" for run in draft.runs)
    bella = names.player(draft.bella) if draft.bella is not None else "none"
    result = missing
    if draft.ending is Ending.PLAYED and draft.tricks is not None:
        result = f"{names.team(draft.points_team)} {draft.tricks}"
    return HandFacts(called=called, trump=trump, runs=runs or "none", bella=bella,
                     result=result)


def what_differs(situation: Situation, names: TableNames) -> tuple[Difference, ...]:
    """Theirs against mine, line by line (mine finished)."""
    if situation.theirs is None or situation.mine is None:
        return ()
    return differences(situation.theirs, situation.mine, names)


def scores_line(game: Game, hand: Hand | None, number: int) -> str:
    """What `hand` would score as hand `number` of `game`, e.g. `116 – 66 (made)`."""
    if hand is None or number - 1 > len(game.hands):
        return "–"
    result = preview(game, hand, number - 1)
    if result.ruling is None:
        return result.error or "cannot stand"
    ruling = result.ruling
    return f"{ruling.scores[0]} – {ruling.scores[1]} ({outcome_word(ruling.outcome).lower()})"
