"""Save latency of the game store as the history grows, beside TinyDB's default storage.

    uv run python benchmarks/bench_store.py            # 0, 1,000, 10,000, 30,000 hands
    uv run python benchmarks/bench_store.py --quick    # 0, 100, 1,000, 3,000 hands

For each size, N hands are stored first (as finished 6-hand games), then the
time of one save is measured: `GameStore.add_hand` on the game being played,
and, for comparison, one `insert` of a hand document into a single TinyDB
file with the default JSONStorage (one document per hand). Both fsync. The
sizes are timed in turn, round after round, so background disk activity
hits them all alike. Also shown: opening the store and listing every game.
"""

from __future__ import annotations

import argparse
import copy
import os
import random
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


def settle() -> None:
    """Let the kernel write back the preloaded files, so they don't slow the timed fsyncs."""
    if hasattr(os, "sync"):
        os.sync()
    time.sleep(0.2)


class StoreCase:
    """A game store holding `n_hands` hands, and a game being played in it."""

    def __init__(self, root: Path, n_hands: int) -> None:
        self.folder = root / f"store-{n_hands}"
        store = GameStore(self.folder)
        full, rest = divmod(n_hands, len(GAME_HANDS))
        for _ in range(full):
            store.create_game(game_doc(GAME_HANDS))
        if rest:
            store.create_game(game_doc(GAME_HANDS[:rest]))
        store.close()
        self.saves: list[float] = []
        self.open_ms = 0.0
        self.list_ms = 0.0
        self.store: GameStore | None = None
        self.playing = ""

    def start(self) -> None:
        self.open_ms = timed(lambda: GameStore(self.folder))
        self.store = GameStore(self.folder)
        self.list_ms = statistics.median(timed(self.store.list_games) for _ in range(5))
        self.playing = self.store.create_game(game_doc(GAME_HANDS[:3])).id

    def save_once(self) -> None:
        store = self.store
        assert store is not None
        self.saves.append(timed(lambda: store.add_hand(self.playing, MADE_1)))
        store.undo_last_hand(self.playing, store.get_game(self.playing).revision)

    def games(self) -> int:
        assert self.store is not None
        return len(self.store.list_games())


class TinyDBCase:
    """One TinyDB file (default JSONStorage) holding `n_hands` hand documents."""

    def __init__(self, root: Path, n_hands: int) -> None:
        self.db = TinyDB(root / f"tinydb-{n_hands}.json", storage=JSONStorage)
        self.hands = self.db.table("hands")
        if n_hands:
            self.hands.insert_multiple(hand_row(i // 6, i % 6) for i in range(n_hands))
        self.saves: list[float] = []

    def save_once(self) -> None:
        self.saves.append(timed(lambda: self.hands.insert(hand_row(10**6, 0))))


def summary(saves: list[float]) -> tuple[float, float]:
    return statistics.median(saves), percentile(saves, 95)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="sizes 0, 100, 1000, 3000")
    parser.add_argument("--sizes", type=int, nargs="+", help="hands stored before timing")
    parser.add_argument("--samples", type=int, default=None,
                        help="saves timed per size in the store (default 300, quick 60)")
    parser.add_argument("--tinydb-samples", type=int, default=None,
                        help="inserts timed per size in TinyDB (default 30, quick 15)")
    parser.add_argument("--dir", type=Path, default=None, help="where to put the test data")
    args = parser.parse_args()
    sizes = args.sizes or ([0, 100, 1_000, 3_000] if args.quick else [0, 1_000, 10_000, 30_000])
    samples = args.samples or (60 if args.quick else 300)
    t_samples = args.tinydb_samples or (15 if args.quick else 30)

    with tempfile.TemporaryDirectory(prefix="bench-store-", dir=args.dir) as tmp:
        root = Path(tmp)
        print(f"storing {', '.join(f'{n:,}' for n in sizes)} hands...", flush=True)
        ours = {n: StoreCase(root, n) for n in sizes}
        theirs = {n: TinyDBCase(root, n) for n in sizes}
        settle()
        for case in ours.values():
            case.start()
        # Round robin over the sizes, so that whatever else the machine is doing
        # (other fsyncs, writeback) falls on every size alike.
        rng = random.Random(0)
        for round_ in range(max(samples, t_samples)):
            order = list(sizes)
            rng.shuffle(order)
            for n in order:
                if round_ < samples:
                    ours[n].save_once()
                if round_ < t_samples:
                    theirs[n].save_once()
        games = {n: ours[n].games() for n in sizes}
        for tiny in theirs.values():
            tiny.db.close()

    print(f"save latency, ms ({samples} saves per size in the store, "
          f"{t_samples} inserts per size in TinyDB):")
    print(f"{'hands stored':>12} {'games':>6} | {'store median':>12} {'p95':>7} | "
          f"{'TinyDB median':>13} {'p95':>7} | {'open ms':>7} {'list ms':>7}")
    for n in sizes:
        om, op = summary(ours[n].saves)
        tm, tp = summary(theirs[n].saves)
        print(f"{n:>12,} {games[n]:>6,} | {om:>12.2f} {op:>7.2f} | {tm:>13.2f} {tp:>7.2f} | "
              f"{ours[n].open_ms:>7.1f} {ours[n].list_ms:>7.1f}")

    first, last = sizes[0], sizes[-1]
    ours_ratio = summary(ours[last].saves)[0] / summary(ours[first].saves)[0]
    theirs_ratio = summary(theirs[last].saves)[0] / summary(theirs[first].saves)[0]
    print()
    print(f"ratio {last:,} hands / {first:,} hands (median save):")
    verdict = "OK" if ours_ratio < 1.5 else "OVER TARGET"
    print(f"  game store          {ours_ratio:6.2f}  (target < 1.5: {verdict})")
    print(f"  TinyDB JSONStorage  {theirs_ratio:6.2f}")


if __name__ == "__main__":
    main()
