"""The public JSON of an event (docs/CLUB_NIGHT.md): a round's tables and the
standings, as `tarabish event round --json` and `event standings --json` print them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorer.events.night import Event, RoundRecord, seat_names
from scorer.events.standings import Standing


def round_json(event: Event, record: RoundRecord) -> dict[str, Any]:
    """`{"round": n, "tables": [{"table", "game", "seats"}], "bye": [names]}`: seats in
    table order, partners opposite (seats 0 and 2 are one side)."""
    return {
        "round": record.round,
        "tables": [{"table": t.table, "game": t.game, "seats": list(seat_names(event, t.sides))}
                   for t in record.tables],
        "bye": event.names_of(record.byes),
    }


def standing_json(line: Standing) -> dict[str, Any]:
    return {"rank": line.rank, "entrant": list(line.names), "played": line.played,
            "wins": line.wins, "losses": line.losses, "points_for": line.points_for,
            "points_against": line.points_against}


def standings_json(event_id: str, event: Event, lines: Sequence[Standing],
                   rounds_played: int) -> dict[str, Any]:
    """`{"event", "format", "rounds_played", "standings": [...]}`, best first."""
    return {"event": event_id, "format": event.format.value, "rounds_played": rounds_played,
            "standings": [standing_json(line) for line in lines]}
