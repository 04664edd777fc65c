"""A community server under load: K tables x 4 phones on 1 process, then on 2,
all on one PostgreSQL (fsync on).

    uv run python benchmarks/bench_hosted.py                  # 50 tables, 1 then 2 processes
    uv run python benchmarks/bench_hosted.py --tables 200 --processes 2
    uv run python benchmarks/bench_hosted.py --interval 0     # each table saves back to back
    uv run python benchmarks/bench_hosted.py --quick          # 6 tables, 2 hands

Starts a throwaway PostgreSQL cluster (tests/pg_cluster.py, fsync and synchronous
commit on, as a real server has them), makes K games and gives each table's
recording phone its table code, then starts the real `tarabish --database`
processes on 127.0.0.1. Each table has 4 phones that speak Flet's own websocket
protocol (tests/hostile/flet_client.py), each on its own loopback address: one
records hands the way a player taps them (Record hand, who called, trump, the
points, Save hand), three watch the sheet. With two processes a table's phones
are split: the recorder and one watcher on one process, two watchers on the
other, so a save must cross processes (PostgreSQL's LISTEN/NOTIFY) to reach them.

Each recorder saves `--hands` hands, one every `--interval` seconds (the tables
spread over the interval; 0: back to back, for the most saves a second).
Printed, for each number of processes:

- saves a second, and the servers' CPU per save (their CPU over the saving time,
  less what they spend idle with every phone open, over the saves);
- save -> the other phones (each phone's first frame holding the new hand's row),
  p50 / p95 / max, on the same process and on the other one;
- memory per connected phone (the servers' memory with every phone open, less
  their memory idle, over the phones);
- then the 2-to-1 ratio of saves a second.

The bench's own phones run in this process and share the machine's cores with
the servers and PostgreSQL: the load average is printed with the figures. Only
loopback is ever contacted. Figures only; nothing is judged.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_club_night import TimedClient  # noqa: E402
from bench_server_load import cpu_s, rss_mb, wait_idle  # noqa: E402

from tests.hostile.conftest import free_port  # noqa: E402
from tests.hostile.flet_client import FletClient  # noqa: E402
from tests.pg_cluster import Cluster, pg_bin  # noqa: E402

HOLDER = "bench-hosted-{n:04d}-recorder-token"
TRUMP = "\nSpades"  # the toggle's word under its suit


@dataclass
class Table:
    n: int
    game: str
    players: list[str]
    recorder: FletClient | None = None
    watchers: list[tuple[TimedClient, bool]] = field(default_factory=list)
    """Each watcher, and whether it is on the recorder's process."""


def percentiles(values: Sequence[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (f"p50 {statistics.median(ordered) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
            f"max {ordered[-1] * 1000:.0f} ms ({len(ordered)})")


def make_games(url: str, tables: int) -> list[Table]:
    """K fresh games in the community, each held by its table's recording phone."""
    from scorer.rights.pg_codes import PgTableCodes
    from scorer.store.database import Database
    from scorer.store.pg_games import PgGameStore

    db = Database(url)
    try:
        store = PgGameStore(db, data_dir=Path("/nonexistent"))
        codes = PgTableCodes(db)
        made = []
        for n in range(tables):
            players = [f"{seat}{n:03d}" for seat in ("Ann", "Bob", "Cid", "Dee")]
            game = store.create_game({"format": "tarabish-game/1", "players": players,
                                      "first_dealer": 0, "rules": {"target": 100000},
                                      "hands": []})
            codes.start(game.id, HOLDER.format(n=n))
            made.append(Table(n, game.id, players))
        return made
    finally:
        db.close()


def address(kind: int, n: int) -> str:
    """Each phone its own loopback address."""
    return f"127.{10 + kind}.{n // 250}.{n % 250 + 2}"


def save_hands(table: Table, hands: int, start: float, interval: float,
               saves: list[tuple[Table, int, float]], lock: threading.Lock) -> None:
    """The table's recorder saves `hands` hands, one every `interval` s from `start`."""
    phone = table.recorder
    assert phone is not None
    for hand in range(1, hands + 1):
        caller = table.players[hand % 4]  # the eldest hand calls: never the dealer
        time.sleep(max(0.0, start + (hand - 1) * interval - time.time()))
        mark = phone.mark()
        if hand > 1:
            for attempt in range(3):
                phone.go(f"/game/{table.game}/hand")
                try:
                    phone.wait_for("Who called?", since=mark, timeout=10 * (attempt + 1))
                    break
                except AssertionError:
                    continue
        try:
            phone.click(caller, wait=60)
            phone.click(TRUMP, wait=60)
            for digit in "95":
                phone.click(digit, kind="OutlinedButton", wait=60)
            phone.pump(0.1)
            saving = phone.mark()
            tapped = time.time()
            phone.click("Save hand", wait=60)
            phone.wait_for("push_route", since=saving, timeout=60)
        except AssertionError as exc:
            gone = " (its connection was closed)" if phone.closed else ""
            print(f"table {table.n + 1}, hand {hand} was not saved{gone}: {exc}", flush=True)
            return
        with lock:
            saves.append((table, hand, tapped))
        phone.pump(0.1)


def listen(client: FletClient, stop: threading.Event) -> None:
    while not stop.is_set() and not client.closed:
        client.pump(0.2)


def start_servers(url: str, count: int, workdir: Path) -> list[tuple[subprocess.Popen[bytes],
                                                                       int]]:
    servers = []
    env = {**os.environ, "TARABISH_CACHE": str(workdir / "cache")}
    for i in range(count):
        port = free_port()
        log = (workdir / f"server{i}.log").open("wb")
        proc = subprocess.Popen(
            [sys.executable, "-m", "scorer.cli", "--no-open", "--host", "127.0.0.1",
             "--port", str(port), "--database", url],
            cwd=REPO, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
        servers.append((proc, port))
    for proc, port in servers:
        for _ in range(600):
            if proc.poll() is not None:
                raise RuntimeError(f"a server stopped at start: see {workdir}")
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/alive", timeout=2).close()
                break
            except OSError:
                time.sleep(0.2)
    return servers


def run(cluster: Cluster, processes: int, args: argparse.Namespace,
        workdir: Path) -> float | None:
    """One round on `processes` servers; returns saves a second."""
    url = cluster.new_database()
    from scorer.store.database import ensure_schema

    ensure_schema(url)
    tables = make_games(url, args.tables)
    servers = start_servers(url, processes, workdir)
    pids = [proc.pid for proc, _ in servers]
    ports = [port for _, port in servers]
    clients: list[FletClient] = []
    stop = threading.Event()
    try:
        for pid in pids:
            wait_idle(pid, args.settle)
        base_mb = sum(rss_mb(pid) for pid in pids)
        for t in tables:
            home = t.n % processes
            away = (home + 1) % processes
            t.recorder = FletClient(ports[home], route=f"/game/{t.game}/hand",
                                    source=address(0, t.n), device=HOLDER.format(n=t.n),
                                    timeout=60, max_queue=None)
            for w in range(3):
                where = home if w == 0 else away
                watcher = TimedClient(ports[where], route=f"/game/{t.game}",
                                      source=address(1 + w, t.n), timeout=60, max_queue=None)
                t.watchers.append((watcher, where == home))
            clients += [t.recorder, *(w for w, _ in t.watchers)]
        for client in clients:
            if client not in [t.recorder for t in tables]:
                threading.Thread(target=listen, args=(client, stop), daemon=True).start()
        time.sleep(3)
        phones = len(clients)
        open_mb = sum(rss_mb(pid) for pid in pids)
        cpu0 = sum(cpu_s(pid) for pid in pids)
        time.sleep(5)
        idle_per_s = (sum(cpu_s(pid) for pid in pids) - cpu0) / 5

        saves: list[tuple[Table, int, float]] = []
        lock = threading.Lock()
        start = time.time() + 1
        spread = args.interval / max(1, args.tables)
        threads = [threading.Thread(target=save_hands, args=(
            t, args.hands, start + t.n * spread, args.interval, saves, lock)) for t in tables]
        cpu0, t0 = sum(cpu_s(pid) for pid in pids), time.time()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=args.hands * args.interval + 600)
        wall = max(s[2] for s in saves) - t0 if saves else time.time() - t0
        time.sleep(2)
        cpu = sum(cpu_s(pid) for pid in pids) - cpu0
        busy = cpu - idle_per_s * (time.time() - t0)
        rate = len(saves) / wall if wall > 0 else None
        same = [w.rows[hand] - tapped for t, hand, tapped in saves
                for w, home in t.watchers if home and hand in w.rows]
        other = [w.rows[hand] - tapped for t, hand, tapped in saves
                 for w, home in t.watchers if not home and hand in w.rows]
        missing = sum(1 for t, hand, _ in saves for w, _ in t.watchers if hand not in w.rows)
        print(f"\n{processes} process{'es' if processes > 1 else ''}, {args.tables} tables, "
              f"{phones} phones:", flush=True)
        print(f"  {len(saves)} saves in {wall:.1f} s: {rate or 0:.1f} saves/s; server CPU "
              f"{busy / max(1, len(saves)) * 1000:.1f} ms a save", flush=True)
        print(f"  save -> the other phones, same process: {percentiles(same)}", flush=True)
        if processes > 1:
            print(f"  save -> the other phones, other process: {percentiles(other)}", flush=True)
        if missing:
            print(f"  {missing} phone updates never arrived", flush=True)
        print(f"  memory: {open_mb - base_mb:.0f} MB for {phones} phones: "
              f"{(open_mb - base_mb) / phones * 1024:.0f} KB a phone (servers idle: "
              f"{base_mb:.0f} MB); load average {os.getloadavg()[0]:.1f} on "
              f"{os.cpu_count()} cores", flush=True)
        return rate
    finally:
        stop.set()
        for client in clients:
            client.close()
        for proc, _ in servers:
            proc.terminate()
        for proc, _ in servers:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--hands", type=int, default=3, help="hands each table saves")
    parser.add_argument("--interval", type=float, default=10.0,
                        help="seconds between a table's saves (0: back to back)")
    parser.add_argument("--processes", default="1,2",
                        help="numbers of server processes to run, in turn (default 1,2)")
    parser.add_argument("--settle", type=float, default=120.0)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        args.tables, args.hands, args.interval, args.settle = 6, 2, 3.0, 20.0
    bindir = pg_bin()
    if bindir is None:
        print("PostgreSQL is not installed (apt-get install postgresql)", file=sys.stderr)
        return 1
    workdir = Path(os.environ.get("TMPDIR", "/tmp")) / f"tarabish-hosted-{os.getpid()}"
    workdir.mkdir(parents=True)
    cluster = Cluster(bindir, durable=True)
    rates: dict[int, float | None] = {}
    try:
        cluster.start()
        for count in (int(c) for c in args.processes.split(",")):
            rates[count] = run(cluster, count, args, workdir)
    finally:
        cluster.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    if rates.get(1) and rates.get(2):
        print(f"\n2 processes / 1 process, saves a second: {rates[2] / rates[1]:.2f}x"  # type: ignore[operator]
              + ("" if args.interval == 0 else
                 " (paced saves: run with --interval 0 for the most each can take)"),
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

