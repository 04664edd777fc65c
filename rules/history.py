"""A game's edit trail: every hand added, edited, undone or put back, in order.

The trail is part of a game file (`"history"`, see docs/GAME_FORMAT.md) so an
exported game carries its crossings-out as a paper sheet does. It never holds a
score: what a hand scored before and after an edit is worked out by the engine.

A trail may begin anywhere (games saved before trails existed, or one cut to
its last `MAX_ENTRIES`), but what it holds must be true: walked back from the
game's hands, every entry must match the hands as they were then
(`check_trail`). So an edit cannot be hidden by writing the trail by hand.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Any, Final, Literal, cast

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError

from rules.errors import GameFileError
from rules.game import MAX_HANDS
from rules.hands import Hand
from rules.messages import explain
from rules.plain_text import first_unsafe, listed

MAX_ENTRIES: Final = 1000
"""Entries a trail keeps (the newest); far more than the edits of any real game."""
MAX_BY_LENGTH: Final = 40
HEADER_KEYS: Final = ("players", "teams", "first_dealer", "rules")
"""The parts of a game besides its hands that a `details` entry may change."""


class Change(StrEnum):
    """What one entry of the trail did."""

    STARTED = "started"
    ADDED = "added"
    EDITED = "edited"
    UNDONE = "undone"
    REDONE = "redone"
    DETAILS = "details"


class HistoryError(GameFileError):
    """A trail that cannot be read, or that does not match the game's hands."""


class _Base(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    revision: int = Field(ge=1)
    """The game's revision this change made (it counts every saved change)."""
    at: AwareDatetime
    by: str | None = Field(default=None, max_length=MAX_BY_LENGTH)
    """Which phone made the change, by a name it chose or "phone 2"; never a secret."""
    phone_at: AwareDatetime | None = None
    """When that phone made the change, by its own clock (a change the phone kept and
    sent later, through sync); `at` is when the server saved it. Optional."""


class Started(_Base):
    change: Literal[Change.STARTED] = Change.STARTED


class Added(_Base):
    change: Literal[Change.ADDED] = Change.ADDED
    hand: int = Field(ge=1, le=MAX_HANDS)


class Redone(_Base):
    """An undone hand put back as it was."""

    change: Literal[Change.REDONE] = Change.REDONE
    hand: int = Field(ge=1, le=MAX_HANDS)


class Edited(_Base):
    change: Literal[Change.EDITED] = Change.EDITED
    hand: int = Field(ge=1, le=MAX_HANDS)
    before: Hand
    after: Hand


class Undone(_Base):
    change: Literal[Change.UNDONE] = Change.UNDONE
    hand: int = Field(ge=1, le=MAX_HANDS)
    before: Hand


class Details(_Base):
    """Names, house rules or the first dealer changed: the old and new values."""

    change: Literal[Change.DETAILS] = Change.DETAILS
    before: dict[str, Any]
    after: dict[str, Any]


Entry = Started | Added | Redone | Edited | Undone | Details
_KINDS: Final[dict[str, type[_Base]]] = {
    Change.STARTED: Started, Change.ADDED: Added, Change.REDONE: Redone,
    Change.EDITED: Edited, Change.UNDONE: Undone, Change.DETAILS: Details,
}
HandEntry = Added | Redone | Edited | Undone


def parse_trail(raw: Any, parse_hand: Callable[[Any, int | None], Hand]) -> tuple[Entry, ...]:
    """Read the `"history"` list of a game file; `parse_hand` reads a hand as the
    file's hands are read."""
    if not isinstance(raw, list):
        raise HistoryError("'history' must be a list")
    if len(raw) > MAX_ENTRIES:
        raise HistoryError(f"the history has {len(raw)} entries: a game keeps at most "
                           f"{MAX_ENTRIES}")
    entries = tuple(_parse_entry(item, n, parse_hand) for n, item in enumerate(raw, start=1))
    for n, (earlier, later) in enumerate(itertools.pairwise(entries), start=2):
        if later.revision <= earlier.revision:
            raise HistoryError(f"history entry {n}: revisions must go up "
                               f"({later.revision} after {earlier.revision})")
    return entries


def _parse_entry(item: Any, n: int, parse_hand: Callable[[Any, int | None], Hand]) -> Entry:
    where = f"history entry {n}"
    if not isinstance(item, dict):
        raise HistoryError(f"{where} must be a JSON object")
    kind = _KINDS.get(str(item.get("change")))
    if kind is None:
        raise HistoryError(f"{where}: 'change' must be one of {listed(list(_KINDS))}")
    fields = dict(item)
    for key in ("before", "after"):
        if key in fields and kind in (Edited, Undone):
            try:
                fields[key] = parse_hand(fields[key], None)
            except GameFileError as exc:
                raise HistoryError(f"{where}, the hand {key} the change: {exc.message}") from exc
    if isinstance(fields.get("revision"), bool) or isinstance(fields.get("hand"), bool):
        raise HistoryError(f"{where}: a revision or hand is a whole number, not true/false")
    if not isinstance(fields.get("at"), str):
        raise HistoryError(f"{where} needs the time of the change ('at')")
    if "phone_at" in fields and not isinstance(fields["phone_at"], str):
        raise HistoryError(f"{where}: 'phone_at' is a time with its zone, as 'at' is")
    try:
        entry = cast(Entry, kind.model_validate(fields))
    except ValidationError as exc:
        raise HistoryError(f"{where}: {explain(exc)}") from exc
    by = entry.by
    if by is not None and (not by.strip() or first_unsafe(by) is not None):
        raise HistoryError(f"{where}: 'by' must be a plain name")
    if isinstance(entry, Details):
        _check_details(entry, where)
    return entry


def _check_details(entry: Details, where: str) -> None:
    keys = set(entry.before) | set(entry.after)
    unknown = sorted(keys - set(HEADER_KEYS))
    if unknown:
        raise HistoryError(f"{where}: a details change names only {listed(list(HEADER_KEYS))}, "
                           f"not {listed(unknown)}")
    if set(entry.before) != set(entry.after) or not keys:
        raise HistoryError(f"{where}: 'before' and 'after' must name the same parts")


def check_trail(entries: Sequence[Entry], hands: Sequence[Hand], header: dict[str, Any]) -> None:
    """Raise HistoryError unless the trail is true of the game: walked back from the
    game's `hands` and `header` (its players, teams, first dealer and rules as in the
    file), each entry must find the hands as it left them."""
    now = list(hands)
    head = {key: header.get(key) for key in HEADER_KEYS}
    redone: list[Hand] = []  # hands put back, waiting for the undo they undid
    for n in range(len(entries), 0, -1):
        entry = entries[n - 1]
        where = f"history entry {n} (revision {entry.revision})"
        if isinstance(entry, Added | Redone):
            if len(now) != entry.hand:
                raise HistoryError(f"{where} adds hand {entry.hand}, but the game then had "
                                   f"{len(now)} hands")
            put_back = now.pop()
            if isinstance(entry, Redone):
                redone.append(put_back)
            elif redone:
                raise HistoryError(f"{where}: a hand is put back after it without being undone")
        elif isinstance(entry, Edited):
            if len(now) < entry.hand or now[entry.hand - 1] != entry.after:
                raise HistoryError(f"{where} edits hand {entry.hand}, but that is not what "
                                   "the hand was then")
            now[entry.hand - 1] = entry.before
        elif isinstance(entry, Undone):
            if len(now) != entry.hand - 1:
                raise HistoryError(f"{where} undoes hand {entry.hand}, but the game then had "
                                   f"{len(now)} hands")
            if redone and redone.pop() != entry.before:
                raise HistoryError(f"{where}: the hand put back later is not the one undone")
            now.append(entry.before)
        elif isinstance(entry, Details):
            changed = [key for key in entry.after if head.get(key) != entry.after[key]]
            if changed:
                raise HistoryError(f"{where} changes {listed(changed)}, but not to what the "
                                   "game then had")
            head.update(entry.before)
        elif n != 1 or now or redone:
            raise HistoryError(f"{where}: a game is started only once, before its first hand")


def entry_to_doc(entry: Entry, hand_to_doc: Callable[[Hand], dict[str, Any]]) -> dict[str, Any]:
    """One entry as the game file writes it."""
    doc: dict[str, Any] = {"revision": entry.revision, "at": entry.at.isoformat(),
                           "change": entry.change.value}
    if entry.by is not None:
        doc["by"] = entry.by
    if entry.phone_at is not None:
        doc["phone_at"] = entry.phone_at.isoformat()
    if isinstance(entry, Added | Redone | Edited | Undone):
        doc["hand"] = entry.hand
    if isinstance(entry, Edited | Undone):
        doc["before"] = hand_to_doc(entry.before)
    if isinstance(entry, Edited):
        doc["after"] = hand_to_doc(entry.after)
    if isinstance(entry, Details):
        doc["before"], doc["after"] = dict(entry.before), dict(entry.after)
    return doc


# -- what the sheet asks of a trail ------------------------------------------------------------

def undone_hands(entries: Sequence[Entry]) -> tuple[Undone, ...]:
    """Every undo not cancelled by putting the hand back, oldest first."""
    out: list[Undone] = []
    waiting = 0
    for entry in reversed(entries):
        if isinstance(entry, Redone):
            waiting += 1
        elif isinstance(entry, Undone):
            if waiting:
                waiting -= 1
            else:
                out.append(entry)
    return tuple(reversed(out))


def redoable(entries: Sequence[Entry], hand_count: int) -> Undone | None:
    """The undone hand that may be put back now: the last one undone and not put back,
    while no hand has been recorded since (it would come after that hand)."""
    waiting = 0
    for entry in reversed(entries):
        if isinstance(entry, Redone):
            waiting += 1
        elif isinstance(entry, Undone):
            if not waiting:
                return entry if entry.hand == hand_count + 1 else None
            waiting -= 1
        elif isinstance(entry, Added):
            return None
    return None


def trail_of_hand(entries: Sequence[Entry], number: int) -> tuple[HandEntry, ...]:
    """What happened to the hand now at `number`, oldest first: when it was recorded
    (if the trail goes back that far), its edits, and any undo it was put back from."""
    found: list[HandEntry] = []
    skip = 0  # undos of this place put back later: the same hand
    for entry in reversed(entries):
        if not isinstance(entry, Added | Redone | Edited | Undone) or entry.hand != number:
            continue
        if isinstance(entry, Undone):
            if not skip:
                break  # an earlier hand in this place, since undone for good
            skip -= 1
        found.append(entry)
        if isinstance(entry, Redone):
            skip += 1
        elif isinstance(entry, Added):
            break
    return tuple(reversed(found))


def changes_after(entries: Sequence[Entry], revision: int) -> tuple[Entry, ...]:
    """The entries made after `revision`."""
    return tuple(entry for entry in entries if entry.revision > revision)
