"""How a table's game ends at a club night, the clock included.

Without the clock a game ends as at home: a team reaches the target ahead
(`rules.replay`). With it, when time is called each table finishes the hand in
play and the game ends there: the team ahead wins; level, they play one more
hand at a time until one team leads. The hand in play is the one after the
hands saved when time was called. Hands saved after the game has ended do not
count (the board says so). The clock never changes how a hand is ruled: it only
says after which hand the game stops, so a game file stays an ordinary game.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from rules.game import Game
from rules.replay import GameReplay, decide_winner


class TableScore(BaseModel):
    """Where a table's game stands for the event."""

    model_config = ConfigDict(frozen=True)

    points: tuple[int, int]
    """Each team's points over the hands that count."""
    winner: Literal[0, 1] | None
    """The winning team (game file teams: 0 is seats 0 and 2), or None while it goes on."""
    hands: int
    """Hands that count."""
    ended_by: Literal["target", "clock"] | None = None
    uncounted: int = 0
    """Hands saved after the game ended (by the clock): not counted."""
    needs_fixing: bool = False
    """A hand cannot stand after an edit: it scores nothing until fixed."""


def game_score(game: Game, replay: GameReplay, hands_at_call: int | None) -> TableScore:
    """The game as the event counts it; `hands_at_call` is how many hands were saved
    when time was called (None: time has not been called)."""
    names = game.names
    fixing = bool(replay.invalid_hands)
    for index, result in enumerate(replay.hands):
        count = index + 1
        left = len(replay.hands) - count
        totals = result.totals
        if result.ruling is not None:
            won, _why = decide_winner(totals, result.hand, game.rules, names)
            if won is not None:
                return TableScore(points=totals, winner=0 if won == 0 else 1, hands=count,
                                  ended_by="target", uncounted=left, needs_fixing=fixing)
        if hands_at_call is not None and count > hands_at_call and totals[0] != totals[1]:
            return TableScore(points=totals, winner=0 if totals[0] > totals[1] else 1,
                              hands=count, ended_by="clock", uncounted=left,
                              needs_fixing=fixing)
    return TableScore(points=replay.totals, winner=None, hands=len(replay.hands),
                      needs_fixing=fixing)
