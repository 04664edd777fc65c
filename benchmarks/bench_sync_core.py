"""The server's CPU for a synced save, beside a plain store.add_hand, on both stores.

    uv run python benchmarks/bench_sync_core.py            # 300 saves each
    uv run python benchmarks/bench_sync_core.py --quick    # 60 saves each

A table of four phones on the sync core (`scorer.sync.service.SyncService`), one of
them saving, all four watching the game (of `--hands` hands, 20 by default). Timed,
in this process's CPU (time.process_time: the server's Python; PostgreSQL's own
backend is another process and is not counted), per save:

- plain: `store.add_hand` with the revision the phone read (what the drawn page's
  save costs the store, without drawing anything);
- sync core: the Push read off the wire and judged (`receive`: JSON, rights, the
  change id, the revision, the rules engine, the write with its id);
- sync + fan-out: that, then `game_changed` and the four GameStates written as
  JSON, as the carrier sends them.

Each timed save is followed by an untimed undo, so the game keeps its length; every
few saves a fresh game is played (its trail stays as long as a real game's). The
cases run in turn, save after save, so the machine's load hits them alike. Issue 40
aims at 5 ms of server CPU a synced save (a drawn page's save: 55-99 ms).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scorer.rights import RateWindow, TableCodes, TableRights  # noqa: E402
from scorer.store import GameStore  # noqa: E402
from scorer.store.database import Database, ensure_schema  # noqa: E402
from scorer.store.pg_games import PgGameStore  # noqa: E402
from scorer.sync.kinds import sync_fingerprint  # noqa: E402
from scorer.sync.messages import (  # noqa: E402
    AddHand,
    Applied,
    Change,
    Hello,
    Push,
    Undo,
    Watch,
    encode,
)
from scorer.sync.service import Connection, SyncService  # noqa: E402
from tests.pg_cluster import Cluster, running_cluster  # noqa: E402

DEVICES = [f"bench-phone-token-{n:04d}" for n in range(4)]
HAND: dict[str, Any] = {"caller": 1, "trump": "H", "points": {"team": 0, "tricks": 70}}
NOW = "2025-06-01T20:00:00+00:00"


def doc(hands: int) -> dict[str, Any]:
    return {"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
            "first_dealer": 0, "rules": {"target": 10**6},
            "hands": [dict(HAND) for _ in range(hands)]}


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def cpu_ms(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return (time.process_time() - start) * 1000


@dataclass
class Table:
    name: str
    service: SyncService
    hands: int
    plain: list[float] = field(default_factory=list)
    core: list[float] = field(default_factory=list)
    fanned: list[float] = field(default_factory=list)
    sent_bytes: list[int] = field(default_factory=list)
    n: int = 0
    uses: int = 0

    def __post_init__(self) -> None:
        self.conns: list[Connection] = []
        for i, device in enumerate(DEVICES):
            conn = self.service.connect(f"10.1.1.{i + 1}")
            self.service.receive(conn, encode(Hello(protocol=1, rules=sync_fingerprint(),
                                                    device=device)))
            self.conns.append(conn)
        self.store: Any = self.service.store
        self.new_game()

    def new_game(self) -> None:
        """A fresh game of `hands` hands recorded one by one (its trail as long as a real
        one), watched by the four phones; each game takes a few saves, then the next."""
        self.game = self.store.create_game(doc(0)).id
        for revision in range(1, self.hands + 1):
            self.store.add_hand(self.game, HAND, revision)
        self.service.rights.start(self.game, DEVICES[0])
        for i, device in enumerate(DEVICES):
            self.service.rights.codes.grant(self.game, device)
            self.service.receive(self.conns[i], encode(Watch(game=self.game)))
        self.service.game_changed(self.game)
        self.uses = 0

    def _push(self, kind: Any) -> str:
        self.n += 1
        revision = self.store.get_game(self.game).revision
        change = Change(id=f"{self.n:032x}", game=self.game, base=revision,
                        at=NOW, kind=kind)  # type: ignore[arg-type]
        return encode(Push(changes=(change,)))

    def undo(self) -> None:
        out = self.service.receive(self.conns[0], self._push(Undo()))
        assert isinstance(out.replies[0], Applied), out.replies
        for _conn, state in self.service.game_changed(self.game):
            encode(state)
        self.uses += 1
        if self.uses >= 3:
            self.new_game()

    def save_plain(self) -> None:
        revision = self.store.get_game(self.game).revision
        self.plain.append(cpu_ms(lambda: self.store.add_hand(self.game, HAND, revision)))
        self.store.undo_last_hand(self.game, revision + 1)
        self.service.game_changed(self.game)  # the watchers catch up, untimed

    def save_core(self) -> None:
        raw = self._push(AddHand(hand=HAND))
        self.core.append(cpu_ms(lambda: self.service.receive(self.conns[0], raw)))
        for _conn, state in self.service.game_changed(self.game):
            encode(state)
        self.undo()

    def save_fanned(self) -> None:
        raw = self._push(AddHand(hand=HAND))
        sizes: list[int] = []

        def save() -> None:
            out = self.service.receive(self.conns[0], raw)
            for reply in out.replies:
                sizes.append(len(encode(reply)))
            for game_id in out.changed:
                for _conn, state in self.service.game_changed(game_id):
                    sizes.append(len(encode(state)))

        self.fanned.append(cpu_ms(save))
        self.sent_bytes.append(sum(sizes))
        self.undo()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="60 saves")
    parser.add_argument("--samples", type=int, default=None)
    parser.add_argument("--hands", type=int, default=20)
    args = parser.parse_args()
    samples = args.samples or (60 if args.quick else 300)
    Cluster.settings = ("fsync=on", "synchronous_commit=on", "full_page_writes=on")
    with running_cluster() as cluster, tempfile.TemporaryDirectory() as tmp:
        tables = []
        folder = Path(tmp) / "data"
        tables.append(Table("folder (TinyDB files)", SyncService(
            GameStore(folder), TableRights(TableCodes(folder),
                                           new_games=RateWindow(10**6, 3600.0))),
            args.hands))
        db = None
        if cluster is not None:
            url = cluster.new_database()
            ensure_schema(url)
            db = Database(url)
            tables.append(Table("PostgreSQL", SyncService(
                PgGameStore(db, data_dir=Path(tmp) / "cache"), TableRights.on_database(db)),
                args.hands))
        else:
            print("(no PostgreSQL on this machine: the folder store only)\n")
        try:
            for _ in range(3):  # warm up
                for table in tables:
                    table.save_plain()
                    table.save_core()
                    table.save_fanned()
            for table in tables:
                table.plain.clear()
                table.core.clear()
                table.fanned.clear()
                table.sent_bytes.clear()
            for _ in range(samples):
                for table in tables:
                    table.save_plain()
                    table.save_core()
                    table.save_fanned()
        finally:
            if db is not None:
                db.close()
    print(f"A table of 4 phones, a game of {args.hands} hands; {samples} saves per case; "
          "server CPU (this process) per save, ms\n")
    print(f"{'store':24} {'case':28} {'p50':>7} {'p95':>7} {'x plain':>8}")
    for table in tables:
        base = statistics.median(table.plain)
        for case, figures in (("plain store.add_hand", table.plain),
                              ("sync core (receive)", table.core),
                              ("sync + fan-out to 4 phones", table.fanned)):
            p50 = statistics.median(figures)
            print(f"{table.name:24} {case:28} {p50:7.2f} {percentile(figures, 95):7.2f}"
                  f" {p50 / base:8.2f}")
        print(f"{'':24} {'bytes sent a save':28} {statistics.median(table.sent_bytes):7.0f}")
    print("\nAim (issue 40): at most 5 ms of server CPU a synced save.")


if __name__ == "__main__":
    main()
