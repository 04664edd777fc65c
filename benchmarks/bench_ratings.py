"""Ratings over 10,000 finished games (issue 33 §6: target <= 1 s).

    uv run python benchmarks/bench_ratings.py               # 10,000 games; 20, 60 and 200 players
    uv run python benchmarks/bench_ratings.py --games 1000  # a quicker look
    uv run python benchmarks/bench_ratings.py --documents   # also: from game documents
    uv run python benchmarks/bench_ratings.py --stored      # also: the command over a data folder
    uv run python benchmarks/bench_ratings.py --group       # also: a group of 200 and 5,000 games

The games are made in memory: for each pool of players (20 to 200), four
players drawn at random per game, the winning pair drawn too, with a fixed
seed. `compute_ratings` (openskill's Plackett-Luce, recomputed from scratch)
is timed, best of --repeats. With --documents, the same count of real
tarabish-game/1 documents (6 hands each) is first replayed by the rules
engine to find each winner, as `tarabish ratings GAME.json ...` does after
reading the files. With --stored, the same count of won games is saved in a
fresh data folder (about a second a thousand games) and the whole command,
`tarabish ratings --data-dir DIR --json`, is timed in-process (best of
--repeats): reading every finished game's trail, ordering, rating, printing. Figures only; nothing is judged. The load average is
printed: other work on a shared machine inflates every figure. With --group, a
group of --members (200) and --group-games (5,000) games, one a day back from
today: `group_ratings`, then `season_lines` for every game, this year and this
month (every member's line), then `fair_teams` for 8 members present.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scorer.cli import main as tarabish
from scorer.ratings import Match, compute_ratings
from scorer.ratings.sources import match_of_doc

POOLS = (20, 60, 200)
SIX_HANDS: list[dict[str, Any]] = [
    {"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 92}, "bella": 2},
    {"caller": 1, "trump": "S", "points": {"team": 1, "tricks": 60}},
    {"caller": 2, "trump": "C", "points": {"team": 0, "tricks": 81}},
    {"caller": 3, "trump": "D", "points": {"team": 1, "tricks": 120},
     "runs": [{"seat": 3, "cards": ["9D", "10D", "JD"]}]},
    {"caller": 0, "trump": "S", "points": {"team": 0, "tricks": 130}},
    {"caller": 1, "trump": "H", "points": {"team": 1, "tricks": 100}},
]
"""Ann & Cid (team 0) win 508 to 423 (tests/data/won_game.json)."""


@dataclass
class Figures:
    games: int
    seconds: dict[int, float] = field(default_factory=dict)
    """Best time of compute_ratings per pool size."""
    documents: float | None = None
    stored: float | None = None
    group: dict[str, float] = field(default_factory=dict)
    """With --group: best time of each group figure by name."""
    """Best time of the whole command over a data folder of `games` won games."""


def synthetic_matches(games: int, players: int, seed: int = 33) -> list[Match]:
    """`games` matches among `players` names, four at random per game."""
    rng = random.Random(seed)
    names = [f"Player {n}" for n in range(1, players + 1)]
    matches = []
    for _ in range(games):
        a, b, c, d = rng.sample(names, 4)
        matches.append(Match(winners=(a, b), losers=(c, d)))
    return matches


def synthetic_docs(games: int, players: int, seed: int = 33) -> list[dict[str, Any]]:
    """`games` won game documents; the winners sit in seats 0 and 2."""
    return [
        {"format": "tarabish-game/1", "players": [m.winners[0], m.losers[0], m.winners[1],
                                                  m.losers[1]],
         "first_dealer": 3, "rules": {"forced_at": 400}, "hands": SIX_HANDS}
        for m in synthetic_matches(games, players, seed)
    ]


def best(run: Any, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv: Sequence[str] | None = None) -> Figures:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--documents", action="store_true",
                        help="also time finding each winner from real game documents")
    parser.add_argument("--stored", action="store_true",
                        help="also time the command over a data folder of as many games")
    parser.add_argument("--group", action="store_true",
                        help="also time a group's ratings, seasons and fair teams")
    parser.add_argument("--members", type=int, default=200)
    parser.add_argument("--group-games", type=int, default=5_000)
    args = parser.parse_args(argv)
    figures = Figures(games=args.games)
    print(f"load average {os.getloadavg()[0]:.2f}; {args.games:,} games; "
          f"best of {args.repeats}")
    for players in POOLS:
        matches = synthetic_matches(args.games, players)
        seconds = best(lambda m=matches: compute_ratings(m), args.repeats)
        figures.seconds[players] = seconds
        print(f"ratings, {players:>3} players: {seconds:.3f} s "
              f"({seconds / max(args.games, 1) * 1e6:.0f} us a game)")
    if args.documents:
        docs = synthetic_docs(args.games, 60)
        start = time.perf_counter()
        found = [match_of_doc(doc) for doc in docs]
        figures.documents = time.perf_counter() - start
        assert all(m is not None for m in found)
        print(f"winners from {args.games:,} game documents (6 hands, replayed): "
              f"{figures.documents:.3f} s")
    if args.stored:
        figures.stored = time_stored(synthetic_docs(args.games, 60), args.repeats)
        print(f"tarabish ratings --data-dir over {args.games:,} saved games: "
              f"{figures.stored:.3f} s")
    if args.group:
        figures.group = time_group(args.members, args.group_games, args.repeats)
        for what, seconds in figures.group.items():
            print(f"group of {args.members} members, {args.group_games:,} games, "
                  f"{what}: {seconds:.3f} s")
    return figures


def time_group(members: int, games: int, repeats: int) -> dict[str, float]:
    """Best times of a group's ratings, its seasons (every member) and fair teams."""
    from datetime import UTC, datetime, timedelta

    from scorer.ratings.chances import fair_teams
    from scorer.ratings.groups import GroupGame, group_ratings
    from scorer.ratings.seasons import ALL_GAMES, season_lines, this_month, this_year

    now = datetime.now(UTC)
    names = [f"Player {n}" for n in range(1, members + 1)]
    played = [GroupGame(id=f"{n:08x}", match=m, finished=now - timedelta(days=games - n),
                        points=(510, 420))
              for n, m in enumerate(synthetic_matches(games, members))]
    today = now.date()
    ratings = group_ratings(played, names)
    times = {"ratings": best(lambda: group_ratings(played, names), repeats)}
    for season in (ALL_GAMES, this_year(today), this_month(today)):
        times[f"season {season.name}"] = best(
            lambda s=season: season_lines(played, s, names), repeats)
    times["fair teams of 8"] = best(lambda: fair_teams(ratings, names[:8]), repeats)
    return times


def time_stored(docs: list[dict[str, Any]], repeats: int) -> float:
    """The best time of `tarabish ratings --data-dir DIR --json` over `docs` saved."""
    from scorer.store import GameStore

    with tempfile.TemporaryDirectory() as folder:
        with GameStore(Path(folder)) as store:
            store.create_games(docs)

        def command() -> None:
            with contextlib.redirect_stdout(io.StringIO()):
                assert tarabish(["ratings", "--data-dir", folder, "--json"]) == 0

        return best(command, repeats)


if __name__ == "__main__":
    main()
