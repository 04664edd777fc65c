"""Save latency of the game store as the history grows, beside TinyDB's default storage.

    uv run python benchmarks/bench_store.py            # 0, 1,000, 10,000, 30,000 hands
    uv run python benchmarks/bench_store.py --quick    # 0, 100, 1,000, 3,000 hands

For each size, N hands are stored first (as finished 6-hand games), then the
time of one save is measured: `GameStore.add_hand` on the game being played,
and, for comparison, one `insert` of a hand document into a single TinyDB
file with the default JSONStorage (one document per hand). Both fsync.
Also shown: opening the store and listing every game.
"""

from __future__ import annotations

import argparse
import copy
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.storages import JSONStorage

from scorer.store import GameStore

MADE_1: dict[str, Any] = {"caller": 1, "trump": "H", "points": {"team": 0, "tricks": 70}}
MADE_0: dict[str, Any] = {"caller": 0, "trump": "S", "points": {"team": 0, "tricks": 100}}
# Team 0 reaches 510 to 462 on the sixth hand: a whole game, won on its last hand.
GAME_HANDS = [MADE_1, MADE_0] * 3
PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


def game_doc(hands: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "format": "tarabish-game/1",
        "players": PLAYERS,
        "first_dealer": 0,
        "rules": {},
        "hands": copy.deepcopy(hands),
    }


def hand_row(game: int, index: int) -> dict[str, Any]:
    """What a single-file design would store per hand (~200 bytes of JSON)."""
    return {
        "game": f"{game:08x}",
        "index": index,
        "hand": GAME_HANDS[index % len(GAME_HANDS)],
        "recorded": datetime.now(UTC).isoformat(),
        "players": PLAYERS,
    }


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def bench_store(root: Path, n_hands: int, samples: int) -> dict[str, float]:
    folder = root / f"store-{n_hands}"
    store = GameStore(folder)
    full, rest = divmod(n_hands, len(GAME_HANDS))
    for _ in range(full):
        store.create_game(game_doc(GAME_HANDS))
    if rest:
        store.create_game(game_doc(GAME_HANDS[:rest]))
    store.close()

    open_ms = timed(lambda: GameStore(folder))
    store = GameStore(folder)
    list_ms = statistics.median(timed(store.list_games) for _ in range(5))
    playing = store.create_game(game_doc(GAME_HANDS[:3]))
    saves: list[float] = []
    for _ in range(samples):
        saves.append(timed(lambda: store.add_hand(playing.id, MADE_1)))
        store.undo_last_hand(playing.id, expected_revision=store.get_game(playing.id).revision)
    listed = len(store.list_games())
    shutil.rmtree(folder)
    return {
        "median": statistics.median(saves),
        "p95": percentile(saves, 95),
        "open": open_ms,
        "list": list_ms,
        "games": listed,
    }


def bench_tinydb(root: Path, n_hands: int, samples: int) -> dict[str, float]:
    path = root / f"tinydb-{n_hands}.json"
    db = TinyDB(path, storage=JSONStorage)
    hands = db.table("hands")
    if n_hands:
        hands.insert_multiple(hand_row(i // 6, i % 6) for i in range(n_hands))
    saves = [timed(lambda: hands.insert(hand_row(10**6, 0))) for _ in range(samples)]
    db.close()
    path.unlink()
    return {"median": statistics.median(saves), "p95": percentile(saves, 95)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="sizes 0, 100, 1000, 3000")
    parser.add_argument("--sizes", type=int, nargs="+", help="hands stored before timing")
    parser.add_argument("--samples", type=int, default=200, help="saves timed per size")
    parser.add_argument("--tinydb-samples", type=int, default=None,
                        help="inserts timed per size for TinyDB (default: fewer when slow)")
    parser.add_argument("--dir", type=Path, default=None, help="where to put the test data")
    args = parser.parse_args()
    sizes = args.sizes or ([0, 100, 1_000, 3_000] if args.quick else [0, 1_000, 10_000, 30_000])
    samples = 50 if args.quick and args.samples == 200 else args.samples

    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-store-", dir=args.dir) as tmp:
        root = Path(tmp)
        for n in sizes:
            ours = bench_store(root, n, samples)
            # A TinyDB insert at 30,000 hands takes ~0.25 s: fewer samples there.
            t_samples = args.tinydb_samples or max(10, min(samples, 200_000 // max(n, 1)))
            theirs = bench_tinydb(root, n, t_samples)
            rows.append((n, ours, theirs))
            print(
                f"{n:>7,} hands ({ours['games']:>5,.0f} games): "
                f"store {ours['median']:7.2f} ms median {ours['p95']:7.2f} ms p95 | "
                f"TinyDB JSONStorage {theirs['median']:7.2f} ms median {theirs['p95']:7.2f} ms p95"
                f" | open {ours['open']:6.1f} ms, list {ours['list']:6.1f} ms",
                flush=True,
            )

    first, last = rows[0], rows[-1]
    ours_ratio = last[1]["median"] / first[1]["median"]
    theirs_ratio = last[2]["median"] / first[2]["median"]
    print()
    print(f"ratio {last[0]:,} hands / {first[0]:,} hands (median save):")
    verdict = "OK" if ours_ratio < 1.5 else "OVER TARGET"
    print(f"  game store          {ours_ratio:6.2f}  (target < 1.5: {verdict})")
    print(f"  TinyDB JSONStorage  {theirs_ratio:6.2f}")


if __name__ == "__main__":
    main()
