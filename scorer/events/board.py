"""What the standings board shows (a JSON object the board page draws): the round,
the clock, each table's score as it is now, the byes, and the standings with the
rule that ranks them. Names only, never a code."""

from __future__ import annotations

from typing import Any

from scorer.events.model import FORMAT_LINES, RANKING_RULE, plural, rounds_line
from scorer.events.night import Event, RoundRecord, TableRecord
from scorer.events.results import TableResult
from scorer.events.service import EventView


def board_json(view: EventView) -> dict[str, Any]:
    ev = view.night
    current = ev.current
    tables = [] if current is None else [
        _table(ev, current, t, view.results[(current.round, t.table)])
        for t in current.tables]
    winners = [list(s.names) for s in view.standings if s.rank == 1] if view.over else []
    return {
        "id": view.id,
        "name": ev.name,
        "format": FORMAT_LINES[ev.format][0],
        "round": 0 if current is None else current.round,
        "rounds": ev.rounds,
        "rounds_played": view.rounds_played,
        "over": view.over,
        "where": rounds_line(ev.rounds, 0 if current is None else current.round, view.over),
        "clock": None if current is None or current.clock_ends is None else {
            "ends": current.clock_ends.isoformat(),
            "called": None if current.time_called is None else current.time_called.isoformat(),
        },
        "tables": tables,
        "byes": [] if current is None else [list(ev.entrant(b).names) for b in current.byes],
        "standings": [{"rank": s.rank, "names": list(s.names), "played": s.played,
                       "wins": s.wins, "losses": s.losses, "for": s.points_for,
                       "against": s.points_against, "diff": s.difference,
                       "withdrawn": s.withdrawn} for s in view.standings],
        "rule": RANKING_RULE,
        "winners": winners,
    }


def _table(ev: Event, played: RoundRecord, table: TableRecord,
           found: TableResult) -> dict[str, Any]:
    outcome = found.outcome
    score = found.score
    points = outcome.points if outcome is not None else found.side_points
    if outcome is not None and outcome.kind == "paper":
        state, note = "done", "result entered by hand"
    elif outcome is not None and score is not None and score.ended_by == "clock":
        state, note = "done", "ended by the clock"
    elif outcome is not None:
        state, note = "done", ""
    elif played.time_called is not None:
        state, note = "playing", "time: finishing the hand in play"
    else:
        state, note = "playing", ""
    if score is not None and score.needs_fixing:
        note = "a hand needs fixing"
    elif score is not None and score.uncounted:
        note = f"{note}; {plural(score.uncounted, 'later hand')} not counted".lstrip("; ")
    return {
        "table": table.table,
        "sides": [ev.names_of(table.sides[0]), ev.names_of(table.sides[1])],
        "points": list(points) if points is not None else [0, 0],
        "hands": 0 if score is None else score.hands,
        "state": state,
        "winner": None if outcome is None else outcome.winner,
        "note": note,
        "game": table.game,
    }
