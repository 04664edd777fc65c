"""Golden club nights (tests/events/golden/*.json), worked out by hand: each round's
tables and byes as the engine draws them, and the standings, ties included."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from scorer.events import night
from scorer.events.model import Outcome, parse_spec
from scorer.events.report import round_json, standing_json

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))
NOON = datetime(2026, 11, 28, 19, 0, tzinfo=UTC)


def play(case: dict[str, Any]) -> tuple[night.Event, dict[tuple[int, int], Outcome]]:
    """Draw each round and check it against the file, then enter its results."""
    event = night.new_event(parse_spec(case["event"]), seed=0)
    results: dict[tuple[int, int], Outcome] = {}
    for number, expected in enumerate(case["rounds"], start=1):
        draw = night.next_draw(event, results)
        event = night.with_round(event, draw, NOON)
        shown = round_json(event, event.played[-1])
        assert shown["round"] == number
        assert [t["seats"] for t in shown["tables"]] == expected["tables"], f"round {number}"
        assert shown["bye"] == expected["bye"], f"round {number}"
        for table, points in zip(event.played[-1].tables, expected["results"], strict=True):
            results[(number, table.table)] = Outcome(
                kind="paper", sides=table.sides, points=(points[0], points[1]),
                winner=0 if points[0] > points[1] else 1)
        if "standings" in expected:
            lines = night.table_of_standings(event, results)
            assert [standing_json(s) for s in lines] == expected["standings"], f"round {number}"
    return event, results


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_event(path: Path) -> None:
    case = json.loads(path.read_text(encoding="utf-8"))
    event, results = play(case)
    lines = night.table_of_standings(event, results)
    assert [standing_json(s) for s in lines] == case["standings"]
    assert night.is_over(event, results)
    with pytest.raises(night.RoundError, match=f"all {len(case['rounds'])} rounds"):
        night.next_draw(event, results)


def test_there_are_three_golden_events() -> None:
    assert {p.stem for p in GOLDEN} >= {"swiss_8_teams", "round_robin_5_teams",
                                        "progressive_16_players"}
