"""Every hand of every stored game as CSV, one row a hand, for spreadsheets.

Figures come from replaying each game (never stored). Names are typed by
players, so a name a spreadsheet would read as a formula (=, +, -, @ first)
is written with a leading apostrophe.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TextIO

from rules.errors import GameFileError
from rules.game_file import parse_game
from rules.replay import replay
from scorer.store import GameNotFound, StoredGame
from scorer.store.ports import GamesPort

COLUMNS = (
    "game", "date", "hand", "team_1", "team_2", "dealer", "caller", "trump", "outcome",
    "points_1", "points_2", "score_1", "score_2", "total_1", "total_2",
)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _text(value: str) -> str:
    return "'" + value if value.startswith(_FORMULA_START) else value


def game_rows(game: StoredGame) -> Iterator[list[Any]]:
    """One row per hand of `game`; outcomes as in `check --json`, `invalid` for a refused hand."""
    try:
        parsed = parse_game(game.doc)
    except GameFileError as e:
        hands = game.doc.get("hands")
        if e.hand is None or not isinstance(hands, list):
            return
        parsed = parse_game({**game.doc, "hands": hands[: e.hand]})
    result = replay(parsed)
    players = parsed.players
    teams = parsed.team_names
    day = game.created.astimezone().date().isoformat()
    for hand in result.hands:
        ruling = hand.ruling
        caller = getattr(hand.hand, "caller", None)
        trump = getattr(hand.hand, "trump", None)
        points: tuple[int | str, int | str] = ("", "")
        if ruling is None:
            outcome, scores = "invalid", (0, 0)
        else:
            outcome = ruling.outcome.value
            points = ruling.hand_points
            scores = ruling.scores
        yield [
            game.id, day, hand.number, _text(teams[0]), _text(teams[1]),
            _text(players[hand.dealer]),
            _text(players[caller]) if caller is not None else "",
            str(trump) if trump is not None else "",
            outcome, points[0], points[1], scores[0], scores[1],
            hand.totals[0], hand.totals[1],
        ]


def _games(store: GamesPort, game_ids: Sequence[str] | None) -> Iterable[StoredGame]:
    if game_ids is None:
        ordered = sorted(store.list_games(), key=lambda s: (s.created, s.id))
        game_ids = [summary.id for summary in ordered]
    for game_id in game_ids:
        try:
            yield store.get_game(game_id)
        except GameNotFound:
            if len(game_ids) == 1:
                raise
            continue  # deleted since the list was read


def write_hands_csv(
    store: GamesPort, out: TextIO, game_ids: Sequence[str] | None = None
) -> int:
    """Write the CSV (all games, oldest first, unless `game_ids`); returns the hand rows."""
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    rows = 0
    for game in _games(store, game_ids):
        for row in game_rows(game):
            writer.writerow(row)
            rows += 1
    return rows


def hands_csv(store: GamesPort, game_ids: Sequence[str] | None = None) -> str:
    """The CSV as text, for a download from the app."""
    buffer = io.StringIO()
    write_hands_csv(store, buffer, game_ids)
    return buffer.getvalue()
