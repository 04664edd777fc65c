"""The Statistics screen's words: a win rate is over finished games (issue 23, item 4)."""

from __future__ import annotations

from rules.stats import PlayerStats
from scorer.app.views.statistics import FORCED_MEANS, games_line, player_lines


def test_a_win_rate_is_over_finished_games_only() -> None:
    # Won both finished games, a third still going: 100 %, not 67 %.
    assert games_line(3, 2, 2) == "3 games (2 finished), 2 wins (100 %)"
    assert games_line(2, 2, 1) == "2 games, 1 win (50 %)"
    assert games_line(1, 0, 0) == "1 game (0 finished), 0 wins"


def test_forced_calls_say_what_they_are() -> None:
    lines = player_lines(PlayerStats(name="Jon", games=1, finished=0, calls=2, made=2,
                                     call_points=250, forced_calls=1))
    assert "1 forced call" in lines[-1]
    assert "before the dealer" in FORCED_MEANS and "over the mark" in FORCED_MEANS
