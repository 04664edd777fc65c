"""What the score sheet shows of one revision of a game, worked out once for all the
phones that show it.

Every phone watching a game draws its sheet again after each save. Flet controls
belong to one session and cannot be shared, but everything they are drawn from
depends only on the game's revision: the totals, the lines, each row's title, tags
and figures, each hand's story. `sheet_rows` works these out for the first phone
that draws a revision and hands the same values to the others, and carries a row
over from the last revision when the hand did not change (the same object: each
phone then finds its kept row by identity, in no time). No Flet here."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from rules.history import Added, HandEntry, Redone, Undone, trail_of_hand
from rules.replay import GameReplay, HandResult
from scorer.app.game_view_model import GameModel

EDITED = "EDITED"
"""The tag on a hand changed after it was recorded."""

SHEETS_KEPT = 64
"""Games whose sheet values are kept (a club night's tables and then some; each small)."""


def was_edited(trail: tuple[HandEntry, ...]) -> bool:
    return any(not isinstance(entry, Added | Redone | Undone) for entry in trail)


@dataclass(frozen=True)
class RowValues:
    """One hand's row: everything it shows and what its tap tells."""

    number: int
    title: str
    """`3. Dee dealt · Ann called ♥`"""
    error: str | None
    """Why the hand cannot stand any more (then it has no figures)."""
    tags: tuple[str, ...]
    scores: tuple[str, str]
    totals: tuple[str, str]
    result: HandResult
    trail: tuple[HandEntry, ...]
    """The hand's story (`rules.history.trail_of_hand`), shown when it is tapped."""


@dataclass(frozen=True)
class SheetValues:
    """What the sheet of one revision of a game shows, for every phone alike."""

    game_id: str
    revision: int
    replay: GameReplay
    """The replay these were worked out from (`GameModel.load` shares it too)."""
    cards: tuple[tuple[str, int, str, bool], ...]
    """The two totals at the top: name, total, the line under it, highlight."""
    forced: str | None
    reason: str | None
    next_line: str
    bad: str | None
    """The notice of hands that cannot stand after an edit."""
    teams: tuple[str, str]
    rows: tuple[RowValues, ...]
    """Newest first, as the sheet lists them."""


_SHEETS: OrderedDict[str, SheetValues] = OrderedDict()
"""By game id: the values of the last revision worked out (bounded: SHEETS_KEPT)."""
_LOCK = threading.Lock()


def sheet_values(model: GameModel) -> SheetValues:
    """The sheet's values for `model`'s revision: worked out by the first phone that
    draws it, the same object for every other."""
    with _LOCK:
        last = _SHEETS.get(model.id)
    if last is not None and last.revision == model.stored.revision and last.replay is model.replay:
        with _LOCK:
            _SHEETS.move_to_end(model.id)
        return last
    values = work_out(model, last)
    with _LOCK:
        _SHEETS[model.id] = values
        _SHEETS.move_to_end(model.id)
        while len(_SHEETS) > SHEETS_KEPT:
            _SHEETS.popitem(last=False)
    return values


def work_out(model: GameModel, last: SheetValues | None = None) -> SheetValues:
    """The sheet's values, worked out; a row equal to one of `last` (the game's previous
    revision) is that very row."""
    replay = model.replay
    before = {row.number: row for row in last.rows} if last is not None else {}
    rows = []
    for result in reversed(replay.hands):
        row = _row(model, result)
        old = before.get(row.number)
        rows.append(old if old == row else row)
    bad = replay.invalid_hands
    numbers = ", ".join(str(r.number) for r in bad)
    reason = replay.winner_reason
    return SheetValues(
        game_id=model.id, revision=model.stored.revision, replay=replay,
        cards=header_cards(model), forced=model.forced_line(),
        reason=reason.text if reason is not None else None,
        next_line=model.next_hand_line(),
        bad=f"Hand {numbers} cannot stand after an edit: tap it to fix it." if bad else None,
        teams=model.game.team_names, rows=tuple(rows))


def _row(model: GameModel, result: HandResult) -> RowValues:
    trail = trail_of_hand(model.trail, result.number)
    ruling = result.ruling
    title = f"{result.number}. {model.describe(result)}"
    totals = (str(result.totals[0]), str(result.totals[1]))
    if ruling is None:
        return RowValues(result.number, title, f"Not valid any more: {result.error}", (),
                         ("–", "–"), totals, result, trail)
    named = ruling.named_tags(model.game.names)
    tags = (*named, EDITED) if was_edited(trail) else named
    return RowValues(result.number, title, None, tags,
                     (str(ruling.scores[0]), str(ruling.scores[1])), totals, result, trail)


def header_cards(model: GameModel) -> tuple[tuple[str, int, str, bool], ...]:
    """What the two totals at the top show: name, total, the line under it, highlight."""
    teams = model.game.team_names
    replay = model.replay
    cards = []
    for team in (0, 1):
        if replay.winner is not None:
            line = "WINNER" if replay.winner == team else ""
        else:
            line = f"{replay.to_go(team)} to go"
        cards.append((teams[team], replay.totals[team], line, replay.winner == team))
    return tuple(cards)
