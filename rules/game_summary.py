"""One game in figures: the race hand by hand and each team's record, from a replay."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from rules.replay import GameReplay
from rules.ruling import Outcome
from rules.table import team_of

#: Outcomes that count as a call: the hand was played out and counted.
COUNTED_CALLS = (Outcome.MADE, Outcome.HALF_BAIT, Outcome.BAIT)


class RacePoint(BaseModel):
    """Both teams' running totals after one hand, and how that hand went."""

    model_config = ConfigDict(frozen=True)

    hand: int
    """Counting from 1; 0 is the start of the game (0 to 0)."""
    totals: tuple[int, int]
    outcome: Outcome | None = None
    caller_team: int | None = None


class TeamRecord(BaseModel):
    """What one team did over a game."""

    model_config = ConfigDict(frozen=True)

    calls: int = 0
    made: int = 0
    half_baits: int = 0
    baits: int = 0
    run_points: int = 0
    bellas: int = 0


class BestHand(BaseModel):
    model_config = ConfigDict(frozen=True)

    hand: int
    team: int
    score: int


class GameSummary(BaseModel):
    """The end-of-game card: who won, by how much, and how each team played."""

    model_config = ConfigDict(frozen=True)

    hands: int
    totals: tuple[int, int]
    winner: int | None
    margin: int
    teams: tuple[TeamRecord, TeamRecord]
    best: BestHand | None


def race(replay: GameReplay) -> tuple[RacePoint, ...]:
    """The start and every counted hand: what a chart of the race draws.
    Hands that cannot stand score nothing and are left out."""
    points = [RacePoint(hand=0, totals=(0, 0))]
    for result in replay.hands:
        ruling = result.ruling
        if ruling is None:
            continue
        caller_team = None if ruling.caller is None else team_of(ruling.caller)
        points.append(RacePoint(hand=result.number, totals=result.totals,
                                outcome=ruling.outcome, caller_team=caller_team))
    return tuple(points)


def summarise(replay: GameReplay) -> GameSummary:
    """Each team's calls (made, half-baited, baited), runs and bellas, and the best hand."""
    records = [dict.fromkeys(TeamRecord.model_fields, 0) for _ in (0, 1)]
    best: BestHand | None = None
    for result in replay.hands:
        ruling = result.ruling
        if ruling is None:
            continue
        if ruling.caller is not None and ruling.outcome in COUNTED_CALLS:
            record = records[team_of(ruling.caller)]
            record["calls"] += 1
            record[{Outcome.MADE: "made", Outcome.HALF_BAIT: "half_baits",
                    Outcome.BAIT: "baits"}[ruling.outcome]] += 1
        for team in (0, 1):
            records[team]["run_points"] += ruling.run_points[team]
            if ruling.bella_points[team]:
                records[team]["bellas"] += 1
            score = ruling.scores[team]
            if score > 0 and (best is None or score > best.score):
                best = BestHand(hand=result.number, team=team, score=score)
    totals = replay.totals
    return GameSummary(
        hands=sum(result.ruling is not None for result in replay.hands),
        totals=totals,
        winner=replay.winner,
        margin=abs(totals[0] - totals[1]),
        teams=(TeamRecord(**records[0]), TeamRecord(**records[1])),
        best=best,
    )
