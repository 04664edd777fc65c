"""The end-of-game summary and the race, checked on a game worked out by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rules.game_file import parse_game
from rules.game_summary import BestHand, TeamRecord, race, summarise
from rules.replay import replay
from rules.ruling import Outcome

#: Worked out by hand in the file's "_about"; the browser test shows the same game.
WON_GAME: dict[str, Any] = json.loads(
    (Path(__file__).parents[1] / "data" / "won_game.json").read_text(encoding="utf-8"))
HANDS: list[dict[str, Any]] = WON_GAME["hands"]


def game(hands: list[dict[str, Any]]) -> Any:
    doc = {key: value for key, value in WON_GAME.items() if key != "_about"}
    return replay(parse_game({**doc, "hands": hands}))


def test_summary_of_a_won_game() -> None:
    summary = summarise(game(HANDS))
    assert summary.winner == 0
    assert summary.totals == (508, 423)
    assert summary.margin == 85
    assert summary.hands == 6
    assert summary.teams[0] == TeamRecord(calls=3, made=2, half_baits=1, baits=0,
                                          run_points=0, bellas=1)
    assert summary.teams[1] == TeamRecord(calls=3, made=2, half_baits=0, baits=1,
                                          run_points=20, bellas=0)
    assert summary.best == BestHand(hand=2, team=0, score=162)


def test_race_has_the_start_and_every_hand_with_its_marks() -> None:
    points = race(game(HANDS))
    assert [p.hand for p in points] == [0, 1, 2, 3, 4, 5, 6]
    assert points[0].totals == (0, 0)
    assert [p.totals for p in points[1:]] == [(112, 70), (274, 70), (274, 151), (316, 291),
                                              (446, 323), (508, 423)]
    assert points[2].outcome is Outcome.BAIT and points[2].caller_team == 1
    assert points[3].outcome is Outcome.HALF_BAIT and points[3].caller_team == 0


def test_hands_that_cannot_stand_are_left_out() -> None:
    late = {"caller": 2, "trump": "D", "points": {"team": 0, "tricks": 140}}
    result = game([*HANDS, late])
    assert len(race(result)) == 7
    assert summarise(result).hands == 6


def test_empty_game() -> None:
    summary = summarise(game([]))
    assert summary.winner is None and summary.best is None and summary.hands == 0
    assert summary.teams == (TeamRecord(), TeamRecord())
    assert len(race(game([]))) == 1
