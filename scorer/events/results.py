"""Each table's result: its game replayed by the rules engine (the clock applied),
or the final score entered by hand, which stands over the game when there is one."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from rules.errors import GameFileError
from rules.game_file import parse_game
from rules.replay import replay
from scorer.events.clock import TableScore, game_score
from scorer.events.model import Outcome
from scorer.events.night import (
    Event,
    Results,
    RoundRecord,
    TableRecord,
    flipped,
    outcome_of,
    paper_outcome,
)


class TableResult(BaseModel):
    """What a table's game says for the event, and the outcome the standings take
    (None while it is being played)."""

    model_config = ConfigDict(frozen=True)

    score: TableScore | None
    """The game as the event counts it (None: no game, or it cannot be read)."""
    flipped: bool = False
    """The game's team 0 sits on the table's side 1."""
    outcome: Outcome | None = None

    @property
    def side_points(self) -> tuple[int, int] | None:
        """The game's points by table side (side 0 first)."""
        if self.score is None:
            return None
        a, b = self.score.points
        return (b, a) if self.flipped else (a, b)


def table_result(event: Event, played: RoundRecord, table: TableRecord,
                 doc: dict[str, Any] | None) -> TableResult:
    """The table's result from its game document (None when there is none)."""
    score: TableScore | None = None
    flip = False
    if doc is not None:
        try:
            game = parse_game(doc, saved=True)
        except GameFileError:
            game = None
        if game is not None:
            score = game_score(game, replay(game), played.hands_when_called(table.table))
            flip = flipped(event, table.sides, game.players)
    outcome = paper_outcome(table)
    if outcome is None and score is not None and score.winner is not None:
        outcome = outcome_of(table, score.points, score.winner, flip)
    return TableResult(score=score, flipped=flip, outcome=outcome)


def decided(results: dict[tuple[int, int], TableResult]) -> Results:
    """The tables that have an outcome, for the standings and the next draw."""
    return {key: found.outcome for key, found in results.items() if found.outcome is not None}
