"""A game's card says who, when and the score: two games of the same four players
differ (issue 25)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from scorer.app.game_lines import (
    NO_BREAK,
    players_line,
    score_line,
    status_line,
    when_line,
)
from scorer.store.models import GameSummary

PLAYERS = ("Ann", "Bob", "Cid", "Dee")


def summary(start: datetime, last: datetime, hands: int, totals: tuple[int, int],
            winner: int | None = None, teams: tuple[str, str] = ("Ann & Cid", "Bob & Dee"),
            ) -> GameSummary:
    return GameSummary(id="0123abcd", revision=hands, players=PLAYERS, teams=teams,
                       created=start, updated=last, hand_count=hands, totals=totals,
                       winner=winner, finished=winner is not None)


def local(text: str) -> datetime:
    """A time of this machine's day, as the cards show them."""
    return datetime.fromisoformat(text).astimezone()


def test_two_games_of_the_same_four_read_apart() -> None:
    afternoon = summary(local("2026-11-21T14:05"), local("2026-11-21T15:40"), 9, (512, 388), 0)
    evening = summary(local("2026-11-21T19:30"), local("2026-11-21T20:10"), 4, (240, 310))
    assert when_line(afternoon) == "Sat 21 Nov 2026, 14:05 · last played 15:40"
    assert when_line(evening) == "Sat 21 Nov 2026, 19:30 · last played 20:10"
    assert status_line(afternoon) == "Won by Ann & Cid · 9 hands"
    assert status_line(evening) == "In progress · 4 hands"
    assert score_line(evening).replace(NO_BREAK, " ") == "Ann & Cid  240 – 310  Bob & Dee"
    # A narrow card may wrap it only between the names and the score.
    assert score_line(evening).split("  ") == [f"Ann{NO_BREAK}&{NO_BREAK}Cid",
                                           f"240{NO_BREAK}–{NO_BREAK}310",
                                           f"Bob{NO_BREAK}&{NO_BREAK}Dee"]
    assert players_line(evening) is None  # the team names already say who


def test_a_game_past_midnight_names_both_days_and_a_new_game_has_no_hands_yet() -> None:
    start = local("2026-11-21T23:30")
    late = summary(start, start + timedelta(hours=1, minutes=5), 1, (0, 162))
    assert when_line(late) == "Sat 21 Nov 2026, 23:30 · last played Sun 22 Nov, 00:35"
    assert status_line(late) == "In progress · 1 hand"
    fresh = summary(start, start, 0, (0, 0))
    assert when_line(fresh) == "Sat 21 Nov 2026, 23:30"
    assert status_line(fresh) == "No hands yet"


def test_teams_with_names_of_their_own_still_say_who_plays() -> None:
    game = summary(datetime(2026, 11, 21, tzinfo=UTC), datetime(2026, 11, 21, tzinfo=UTC), 2,
                   (100, 62), teams=("Reds", "Blues"))
    assert players_line(game) == "Ann & Cid vs Bob & Dee"
