"""What the TV leaderboard and the club board are sent: the season's lines, and each
team's chance on the tables yet to play a hand whose players have rated games."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from scorer.ratings import Match
from scorer.ratings.timeline import DatedMatch, leaderboard, rate_in_order
from scorer.web.leaderboard import leaderboard_json, with_chances

START = datetime(2020, 1, 1, tzinfo=UTC)
TIMELINE = rate_in_order(
    DatedMatch(game_id=f"{n:08x}", when=START + timedelta(days=n),
               match=Match(winners=("Ann", "Cid"), losers=("Bob", "Dee")), points=(501, 320))
    for n in range(4))


def table(hands: int, state: str, sides: list[list[str]]) -> dict[str, Any]:
    return {"table": 1, "sides": sides, "hands": hands, "state": state}


def test_the_tv_is_sent_the_seasons_lines() -> None:
    sent = leaderboard_json(TIMELINE, leaderboard(TIMELINE), "all")
    assert sent["season"] == "All" and sent["games"] == 4
    assert [p["player"] for p in sent["players"]][:2] == ["Ann", "Cid"]
    assert sent["players"][0] | {"rating": 0} == {
        "rank": 1, "player": "Ann", "rating": 0, "change": sent["players"][0]["change"],
        "games": 4, "wins": 4, "points_for": 2004, "points_against": 1280,
        "provisional": True}
    assert sent["group"] is None
    bob = next(p for p in sent["players"] if p["player"] == "Bob")
    assert (bob["points_for"], bob["points_against"]) == (1280, 2004)
    # This month (2020 is long past): no game, nobody.
    month = leaderboard_json(TIMELINE, leaderboard(TIMELINE, datetime.now(UTC)), "month")
    assert month["games"] == 0 and month["players"] == []


def test_chances_go_on_tables_yet_to_start_with_rated_players() -> None:
    board = {"tables": [
        table(0, "playing", [["Ann", "Bob"], ["Cid", "Dee"]]),
        table(0, "playing", [["Ann", "Cid"], ["Bob", "Dee"]]),
        table(2, "playing", [["Ann", "Cid"], ["Bob", "Dee"]]),   # under way
        table(0, "done", [["Ann", "Cid"], ["Bob", "Dee"]]),      # entered on paper
        table(0, "playing", [["Eve", "Fay"], ["Gil", "Hal"]]),   # nobody rated
    ]}
    tables = with_chances(board, lambda _game: TIMELINE)["tables"]
    assert tables[0]["chances"] == [50, 50]
    first, second = tables[1]["chances"]
    assert first > 50 and first + second == 100
    assert all("chances" not in t for t in tables[2:])
