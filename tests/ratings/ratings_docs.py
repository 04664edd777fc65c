"""Real game documents for the ratings tests, and openskill's own answer by hand.

A compact game is `{"players": [four names], "winner": 0 | 1 | null}`; it becomes
the won game of tests/data/won_game.json (team 0 wins 508 to 423), turned one
seat round when team 1 is to win, or cut to two hands when unfinished."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

TEMPLATE: dict[str, Any] = {
    key: value
    for key, value in json.loads(
        (Path(__file__).parents[1] / "data" / "won_game.json").read_text(encoding="utf-8")
    ).items()
    if key != "_about"
}
GOLDEN = Path(__file__).parent / "golden"


def _turned(hand: dict[str, Any]) -> dict[str, Any]:
    """The same hand with every seat moved one place round (so the teams swap)."""
    out = {**hand, "caller": (hand["caller"] + 1) % 4,
           "points": {**hand["points"], "team": 1 - hand["points"]["team"]}}
    if "bella" in hand:
        out["bella"] = (hand["bella"] + 1) % 4
    if "runs" in hand:
        out["runs"] = [{**run, "seat": (run["seat"] + 1) % 4} for run in hand["runs"]]
    return out


def game_doc(players: Sequence[str], winner: int | None) -> dict[str, Any]:
    """A tarabish-game/1 document with these seats that team `winner` wins (None: unfinished)."""
    doc = json.loads(json.dumps(TEMPLATE))
    if winner == 1:
        doc["hands"] = [_turned(hand) for hand in doc["hands"]]
        doc["first_dealer"] = (doc["first_dealer"] + 1) % 4
    if winner is None:
        doc["hands"] = doc["hands"][:2]
    doc["players"] = list(players)
    return doc


def load_golden(name: str) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = json.loads((GOLDEN / name).read_text(encoding="utf-8"))["games"]
    return games


def by_hand(games: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """openskill's PlackettLuce().rate called directly, game by game, winners first;
    players keyed by name without capitals."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    counts: dict[str, list[int]] = {}
    for game in games:
        winner = game["winner"]
        if winner is None:
            continue
        seats = [name.strip().casefold() for name in game["players"]]
        teams = [[seats[winner], seats[winner + 2]], [seats[1 - winner], seats[3 - winner]]]
        rated = model.rate([[ratings.get(k) or model.rating() for k in team] for team in teams])
        for side, (team, new) in enumerate(zip(teams, rated, strict=True)):
            for key, rating in zip(team, new, strict=True):
                ratings[key] = rating
                games_wins = counts.setdefault(key, [0, 0])
                games_wins[0] += 1
                games_wins[1] += side == 0
    return {
        key: {"mu": r.mu, "sigma": r.sigma, "rating": r.mu - 3 * r.sigma,
              "games": counts[key][0], "wins": counts[key][1]}
        for key, r in ratings.items()
    }
