"""Forced calls count only the calls the forced-at rule obliged (issue 23, item 4).

Worked by hand. Ivy & Kit (team 0, seats 0 and 2) against Jon & Lou (team 1,
seats 1 and 3); forced at 100; Ivy deals first, so hand n is dealt by seat n-1.

1. Ivy deals; nobody is over 100. Jon calls and his team counts 150: 12-150.
2. Jon deals. Jon & Lou are over 100, so they are forced, but their own Jon
   deals: the rule obliges no one. Kit (eldest) passes and Lou calls, by
   choice: his team counts 100, 62-100 (74-250).
3. Kit deals (team 0). Jon & Lou are forced and the dealer is on the other
   team: the player before the dealer, Jon, must call if it comes to him. Lou
   (eldest) and Ivy pass, Jon calls: the one forced call. 64-100 (136-350).
4. Lou deals. Both teams are over 100; Jon & Lou, ahead, are forced, and their
   own Lou deals: no one is obliged. Ivy (eldest) calls, 90-72 (226-422).
"""

from __future__ import annotations

from datetime import UTC, datetime

from rules.game_file import parse_game
from rules.stats import PlayedGame, compute_stats, game_facts

DOC = {
    "format": "tarabish-game/1", "players": ["Ivy", "Jon", "Kit", "Lou"], "first_dealer": 0,
    "rules": {"forced_at": 100},
    "hands": [
        {"caller": 1, "trump": "H", "points": {"team": 1, "tricks": 150}},
        {"caller": 3, "trump": "S", "points": {"team": 1, "tricks": 100}},
        {"caller": 1, "trump": "D", "points": {"team": 1, "tricks": 100}},
        {"caller": 0, "trump": "C", "points": {"team": 0, "tricks": 90}},
    ],
}


def test_only_the_call_the_rule_obliged_is_a_forced_call() -> None:
    facts = game_facts(parse_game(DOC))
    assert facts.totals == (226, 422)
    assert [seat.forced_calls for seat in facts.seats] == [0, 1, 0, 0]
    assert [seat.calls for seat in facts.seats] == [1, 2, 0, 1]
    started = datetime(2026, 4, 1, tzinfo=UTC)
    stats = compute_stats([PlayedGame(facts=facts, started=started, day=started.date())])
    by_name = {p.name: p for p in stats.players}
    assert by_name["Jon"].forced_calls == 1 and by_name["Lou"].forced_calls == 0
