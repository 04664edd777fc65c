"""The club night's words: counts in plain English, where the night is, why the next
round waits, and team names that wrap only after their "&"."""

from __future__ import annotations

from pathlib import Path

from scorer.app.club_text import NO_BREAK, counted_entrants, team, waiting_line
from scorer.events.board import board_json
from scorer.events.model import parse_spec, plural, rounds_line
from scorer.events.service import EventService
from scorer.store.game_store import GameStore

ONE_HAND = {"caller": 0, "trump": "S", "points": {"team": 0, "tricks": 162}}


def test_counts_are_singular_at_one() -> None:
    assert plural(1, "hand") == "1 hand"
    assert plural(0, "hand") == "0 hands"
    assert plural(2, "table") == "2 tables"
    assert counted_entrants([["Ann", "Bob"]], True) == "1 team"
    assert counted_entrants([["Ann"], ["Bob"]], False) == "2 players"


def test_where_the_night_is() -> None:
    assert rounds_line(1, 0, False) == "1 round, not started"
    assert rounds_line(4, 0, False) == "4 rounds, not started"
    assert rounds_line(4, 2, False) == "round 2 of 4"
    assert rounds_line(4, 4, True) == "all rounds played"
    assert rounds_line(1, 1, True) == "round 1 of 1 played"


def test_why_the_next_round_waits() -> None:
    assert waiting_line(3, (2, 5)) == ("Round 3 has 2 tables still playing (2, 5). Round 4 "
                                       "starts once each has ended or has a result.")
    assert waiting_line(1, (4,)).startswith("Round 1 has 1 table still playing (4).")


def test_a_team_wraps_only_after_its_ampersand() -> None:
    shown = team(("Mary Ann", "Bob"))
    assert shown == f"Mary{NO_BREAK}Ann{NO_BREAK}& Bob"
    assert shown.split(" ") == [f"Mary{NO_BREAK}Ann{NO_BREAK}&", "Bob"]


def test_the_board_says_one_hand_and_where_the_night_is(tmp_path: Path) -> None:
    with GameStore(tmp_path / "data") as store:
        service = EventService(store)
        spec = parse_spec({"name": "Legion", "rounds": 1, "target": 1000,
                           "teams": [["Ann", "Bob"], ["Cid", "Dee"]], "seed": 1})
        stored, _code = service.create(spec)
        assert board_json(service.view(stored.id))["where"] == "1 round, not started"
        record = service.start_round(stored.id).night.played[0]
        store.add_hand(record.tables[0].game or "", ONE_HAND)
        state = board_json(service.view(stored.id))
        assert state["where"] == "round 1 of 1"
        assert state["tables"][0]["hands"] == 1
