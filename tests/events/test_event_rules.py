"""Setting up a club night, entrants coming and going, and the clock rule."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from rules.game import Game
from rules.game_file import parse_game
from rules.replay import replay
from scorer.events import night
from scorer.events.clock import game_score
from scorer.events.errors import EntrantError, ResultError, RoundError, SpecError, TableError
from scorer.events.model import Format, Outcome, parse_spec, suggested_rounds

NOON = datetime(2026, 11, 28, 19, 0, tzinfo=UTC)
TEAMS = [["Ann", "Bob"], ["Cid", "Dee"], ["Eve", "Fay"]]


def spec(**changes: Any) -> dict[str, Any]:
    return {"name": "Club", "format": "swiss", "rounds": 3, "target": 500,
            "house_rules": {}, "teams": TEAMS, **changes}


@pytest.mark.parametrize(("changes", "error", "words"), [
    ({"teams": [["Ann", "Bob"], ["ann", "Cid"]]}, EntrantError, "two players are called 'ann'"),
    ({"teams": [["Ann", "Bob"], ["Cid"]]}, EntrantError, "team 2 has one player"),
    ({"teams": [["Ann", "Bob"]]}, EntrantError, "at least two teams"),
    ({"teams": [["Ann", "Bob"], ["Cid", "  "]]}, EntrantError, "blank"),
    ({"format": "progressive", "teams": None, "players": ["A", "B", "C"]}, EntrantError,
     "at least four players"),
    ({"format": "progressive"}, EntrantError, '"players"'),
    ({"format": "bridge"}, SpecError, "format"),
    ({"rounds": "3"}, SpecError, "rounds"),
    ({"target": 0}, SpecError, "target"),
    ({"house_rules": {"target": 300}}, SpecError, '"target"'),
    ({"house_rules": {"trumps": True}}, SpecError, "unknown house rule"),
    ({"name": "  "}, SpecError, "needs a name"),
    ({"format": "round_robin", "rounds": 4}, SpecError, "takes 3 rounds"),
    ({"colour": "red"}, SpecError, "colour"),
])
def test_bad_settings_are_refused_in_a_sentence(changes: dict[str, Any], error: type,
                                               words: str) -> None:
    with pytest.raises(error, match=words):
        parse_spec(spec(**changes))


def test_suggested_rounds() -> None:
    assert suggested_rounds(Format.SWISS, 8) == 4
    assert suggested_rounds(Format.SWISS, 9) == 5
    assert suggested_rounds(Format.ROUND_ROBIN, 5) == 5
    assert suggested_rounds(Format.ROUND_ROBIN, 6) == 5
    event = night.new_event(parse_spec(spec(rounds=None)), seed=3)
    assert event.rounds == 3 and event.seed == 3


def test_entrants_until_round_one_then_late_teams() -> None:
    event = night.new_event(parse_spec(spec()), seed=1)
    event = night.add_entrant(event, ["Gus", "Hal"])
    event = night.withdraw(event, 2)  # before round 1: off the list
    assert [e.names for e in event.entrants] == [("Ann", "Bob"), ("Eve", "Fay"), ("Gus", "Hal")]
    with pytest.raises(EntrantError, match="two players are called 'Eve'"):
        night.add_entrant(event, ["Eve", "Zed"])
    with pytest.raises(EntrantError, match="a team is two names"):
        night.add_entrant(event, ["Zed"])
    event = night.with_round(event, night.next_draw(event, {}), NOON)
    late = night.add_entrant(event, ["Ida", "Jo"])
    assert late.entrants[-1].joined == 2 and late.entrants[-1].id == 5  # ids never reused
    gone = night.withdraw(late, 1)
    assert gone.entrants[0].withdrawn == 2
    with pytest.raises(EntrantError, match="already withdrawn"):
        night.withdraw(gone, 1)


def test_a_round_robin_takes_no_late_team() -> None:
    event = night.new_event(parse_spec(spec(format="round_robin")), seed=1)
    event = night.with_round(event, night.next_draw(event, {}), NOON)
    with pytest.raises(EntrantError, match="round robin"):
        night.add_entrant(event, ["Ida", "Jo"])


def test_the_next_round_waits_for_every_table_and_names_them() -> None:
    teams = [[f"A{n}", f"B{n}"] for n in range(6)]
    event = night.new_event(parse_spec(spec(teams=teams)), seed=1)
    event = night.with_round(event, night.next_draw(event, {}), NOON)
    first = event.played[0].tables[0]
    done = {(1, 1): Outcome(kind="paper", sides=first.sides, points=(500, 20), winner=0)}
    with pytest.raises(RoundError, match="round 1 is still being played at tables 2 and 3"):
        night.next_draw(event, done)


def test_paper_scores_must_have_a_winner() -> None:
    event = night.new_event(parse_spec(spec()), seed=1)
    event = night.with_round(event, night.next_draw(event, {}), NOON)
    with pytest.raises(ResultError, match="cannot be level"):
        night.with_paper(event, 1, 1, (400, 400), NOON)
    with pytest.raises(TableError, match="no table 7"):
        night.with_paper(event, 1, 7, (500, 400), NOON)
    entered = night.with_paper(event, 1, 1, (320, 501), NOON, by="phone 2")
    assert night.paper_outcome(entered.played[0].tables[0]).winner == 1  # type: ignore[union-attr]


def game(hands: list[dict[str, Any]]) -> Game:
    return parse_game({"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
                       "first_dealer": 0, "rules": {"target": 500}, "hands": hands})


A_MADE = {"caller": 0, "trump": "S", "points": {"team": 0, "tricks": 100}}  # team 0 100, 1 62
B_MADE = {"caller": 1, "trump": "H", "points": {"team": 1, "tricks": 100}}  # team 1 100, 0 62


def test_time_called_ends_the_game_after_the_hand_in_play() -> None:
    played = game([A_MADE, B_MADE, A_MADE])  # 262-224 after three hands
    assert game_score(played, replay(played), None).winner is None  # no clock: play on
    # Called after two hands: hand 3 was in play, and team 0 leads after it.
    called = game_score(played, replay(played), 2)
    assert (called.winner, called.hands, called.ended_by, called.points) == (0, 3, "clock",
                                                                            (262, 224))
    # Called before any hand was saved: hand 1 ends it; hands 2 and 3 do not count.
    early = game_score(played, replay(played), 0)
    assert (early.winner, early.hands, early.uncounted, early.points) == (0, 1, 2, (100, 62))


def test_level_when_time_is_called_plays_one_more_hand_at_a_time() -> None:
    level = game([A_MADE, B_MADE])  # 162-162
    assert game_score(level, replay(level), 1).winner is None
    on = game([A_MADE, B_MADE, B_MADE])
    assert game_score(on, replay(on), 1).winner == 1
