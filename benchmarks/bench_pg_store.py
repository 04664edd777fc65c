"""The community's PostgreSQL game store beside the folder store: save latency and the game list.

    uv run python benchmarks/bench_pg_store.py            # 1,000 games, 300 saves each
    uv run python benchmarks/bench_pg_store.py --quick    # 200 games, 60 saves each

Both stores first hold the same N finished games (6 hands each). Then one
game is played in each: `add_hand` with the revision the phone read, then
`undo_last_hand` so the game never ends; only the `add_hand` is timed. The
two stores are timed in turn, save after save, so background disk activity
hits both alike. Then `list_games` over the N games (median of 5), and for
PostgreSQL also a cold list (every list row made by other rules, so all are
scored again and written back, as after an upgrade of the rules engine).

PostgreSQL is a throwaway cluster (tests/pg_cluster.py) on this machine with
fsync, synchronous_commit and full_page_writes ON (the test cluster turns them
off): a save waits for its WAL on disk, as the folder store waits for fsync.
The connection is TCP on 127.0.0.1, so a save's figure includes a round trip
that a database on another machine would make longer.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scorer.store import GameStore  # noqa: E402
from scorer.store.database import Database, ensure_schema  # noqa: E402
from scorer.store.pg_games import PgGameStore  # noqa: E402
from tests.pg_cluster import Cluster, running_cluster  # noqa: E402

MADE_1: dict[str, Any] = {"caller": 1, "trump": "H", "points": {"team": 0, "tricks": 70}}
MADE_0: dict[str, Any] = {"caller": 0, "trump": "S", "points": {"team": 0, "tricks": 100}}
# Team 0 reaches 510 to 462 on the sixth hand: a whole game, won on its last hand.
GAME_HANDS = [MADE_1, MADE_0] * 3


def game_doc(hands: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
            "first_dealer": 0, "rules": {}, "hands": [dict(h) for h in hands]}


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


class Case:
    """A store holding `games` finished games, and one game being played."""

    def __init__(self, name: str, store: GameStore | PgGameStore, games: int) -> None:
        self.name = name
        self.store = store
        start = time.perf_counter()
        for _ in range(games):
            store.create_game(game_doc(GAME_HANDS))
        self.fill_s = time.perf_counter() - start
        self.playing = store.create_game(game_doc(GAME_HANDS[:3])).id
        self.saves: list[float] = []

    def save_once(self) -> None:
        rev = self.store.get_game(self.playing).revision
        self.saves.append(timed(lambda: self.store.add_hand(self.playing, MADE_1, rev)))
        self.store.undo_last_hand(self.playing, rev + 1)

    def list_ms(self) -> float:
        return statistics.median(timed(self.store.list_games) for _ in range(5))


def honest(url: str) -> None:
    """Stop unless the cluster commits durably."""
    with psycopg.connect(url, autocommit=True) as conn:
        shown = {s: conn.execute(f"SHOW {s}").fetchone() for s in ("fsync", "synchronous_commit")}
    if any(v != ("on",) for v in shown.values()):
        raise SystemExit(f"PostgreSQL did not take durable commits: {shown}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 games, 60 saves")
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--samples", type=int, default=None)
    args = parser.parse_args()
    games = args.games or (200 if args.quick else 1000)
    samples = args.samples or (60 if args.quick else 300)

    Cluster.settings = ("fsync=on", "synchronous_commit=on", "full_page_writes=on",
                        "max_connections=300")
    with running_cluster() as cluster, tempfile.TemporaryDirectory() as tmp:
        if cluster is None:
            raise SystemExit("No PostgreSQL on this machine (apt-get install postgresql).")
        honest(cluster.url("postgres"))
        url = cluster.new_database()
        ensure_schema(url)
        db = Database(url)
        try:
            cases = [Case("folder (TinyDB files)", GameStore(Path(tmp) / "data"), games),
                     Case("PostgreSQL", PgGameStore(db, data_dir=Path(tmp) / "cache"), games)]
            for _ in range(samples):
                for case in cases:
                    case.save_once()
            print(f"{games} finished games stored, then {samples} saves timed in each store\n")
            print(f"{'store':24} {'fill s':>7} {'save p50 ms':>12} {'save p95 ms':>12} {'list ms':>8}")
            for case in cases:
                print(f"{case.name:24} {case.fill_s:7.1f} {statistics.median(case.saves):12.2f}"
                      f" {percentile(case.saves, 95):12.2f} {case.list_ms():8.1f}")
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute("UPDATE games SET summary_rules = 'older rules'")
            cold = timed(cases[1].store.list_games)
            print(f"\nPostgreSQL list_games, every row scored again and written back: {cold:.0f} ms"
                  f" (then {cases[1].list_ms():.1f} ms)")
        finally:
            db.close()


if __name__ == "__main__":
    main()
