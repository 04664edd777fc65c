"""A hosted community under load: K tables x 4 phones on 1 community process and on 2,
one PostgreSQL (fsync on) shared by them.

    uv run python benchmarks/bench_hosted.py                 # 25 tables, 1 then 2 processes
    uv run python benchmarks/bench_hosted.py --tables 200    # the goal (a big machine)
    uv run python benchmarks/bench_hosted.py --quick         # 4 tables

Starts a PostgreSQL cluster of its own (tests/pg_cluster.py, durable: fsync and
synchronous commits on), the community's schema, one game per table with its
recording phone's table code, then `tarabish --database` processes on
127.0.0.1. Phones speak Flet's own websocket
protocol (tests/hostile/flet_client.py), each from its own 127.0.x.y address: a
table's recorder and one watcher on one process, with 2 processes its other two
watchers on the other. Two phases a run:

1. paced: each recorder saves a hand every `--interval` s (tables spread over it):
   save -> the other phones of the table, on the same process and on the other
   (p50, p95, max), CPU per save;
2. flat out: every recorder saves hands back to back for `--burst` s: saves per
   second, the throughput compared between 1 and 2 processes.

Memory per connected phone: the processes' memory with every phone open, less
idle, over the phones. Figures only; nothing is judged. Only loopback is used.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_club_night import TimedClient, percentiles  # noqa: E402
from bench_server_load import cpu_s, rss_mb, wait_idle  # noqa: E402

from tests.hostile.conftest import free_port  # noqa: E402
from tests.hostile.flet_client import FletClient  # noqa: E402
from tests.pg_cluster import Cluster, pg_bin  # noqa: E402
from tests.store.store_docs import game_doc  # noqa: E402

HOLDER = "bench-hosted-{n:04d}-phone-token-abcdef"
NAMES = ("Ann", "Bob", "Cid", "Dee")


class Recorder(FletClient):
    """The phone that records, tapping every few ms: its answer to the sheet's scroll
    can reach the server after the list is gone, which Flet 1.0.5 answered by ending
    the connection until `flet_tuning.late_answers_dropped`."""


@dataclass
class Table:
    n: int
    game: str
    recorder: FletClient
    watchers: list[tuple[TimedClient, bool]]  # (phone, on the recorder's process)
    saves: list[tuple[int, float]] = field(default_factory=list)  # (hand, tapped)
    hand: int = 0


def set_up(url: str, tables: int, cache: Path) -> list[str]:
    """One game a table, its recorder holding the table's code; the games' ids."""
    from scorer.rights.pg_codes import PgTableCodes
    from scorer.store.database import Database, ensure_schema
    from scorer.store.pg_games import PgGameStore

    ensure_schema(url)
    db = Database(url, max_size=2)
    try:
        games = PgGameStore(db, data_dir=cache).create_games([game_doc(0, target=100000)
                                                               for _ in range(tables)])
        codes = PgTableCodes(db)
        for n, game in enumerate(games):
            codes.start(game.id, HOLDER.format(n=n))
        return [g.id for g in games]
    finally:
        db.close()


def start(url: str, port: int, cache: Path, log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "scorer.cli", "--no-open", "--host", "127.0.0.1",
             "--port", str(port), "--database", url],
            cwd=REPO, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env={**os.environ, "TARABISH_CACHE": str(cache), "PYTHONUNBUFFERED": "1"})


def wait_up(port: int, proc: subprocess.Popen[bytes]) -> None:
    for _ in range(600):
        if proc.poll() is not None:
            raise RuntimeError(f"the server on {port} stopped ({proc.returncode})")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/alive", timeout=2).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server on {port} did not answer")


def address(kind: int, n: int) -> str:
    return f"127.0.{40 + kind}.{n % 250 + 2}" if n < 250 else f"127.{1 + n // 250}.{40 + kind}.{n % 250 + 2}"


def save_hand(table: Table) -> bool:
    """The recorder records one hand as a player taps it; True once saved."""
    rec = table.recorder
    table.hand += 1
    mark = rec.mark()
    try:
        if table.hand > 1:
            for attempt in range(3):  # a route change crossing the last push_route's echo
                rec.go(f"/game/{table.game}/hand")
                try:
                    rec.wait_for("Who called?", since=mark, timeout=10 * (attempt + 1))
                    break
                except AssertionError:
                    continue
        rec.click(NAMES[table.hand % 4], wait=30)  # the newest such button: this screen's
        rec.click("\nSpades", wait=30)
        for digit in "81":
            rec.click(digit, kind="OutlinedButton", wait=30)
        rec.pump(0.05)
        saving = rec.mark()
        tapped = time.time()
        rec.click("Save hand", wait=30)
        rec.wait_for("push_route", since=saving, timeout=30)
        rec.pump(0.1)
    except AssertionError as exc:
        why = f" (closed: {rec.ws.close_code}; calls {rec.calls[-4:]})" if rec.closed else ""
        print(f"table {table.n}, hand {table.hand}: {str(exc)[:120]}{why}", flush=True)
        return False
    table.saves.append((table.hand, tapped))
    return True


def paced(table: Table, hands: int, first: float, interval: float) -> None:
    for k in range(hands):
        time.sleep(max(0.0, first + k * interval - time.time()))
        if not save_hand(table):
            return


def flat_out(table: Table, until: float, done: list[int], lock: threading.Lock) -> None:
    while time.time() < until:
        if not save_hand(table):
            return
        with lock:
            done[0] += 1


def listen(client: FletClient, stop: threading.Event) -> None:
    while not stop.is_set() and not client.closed:
        client.pump(0.2)


def run(url: str, games: list[str], processes: int, args: argparse.Namespace,
        work: Path) -> dict[str, float]:
    """One run on `processes` processes; its figures."""
    cache = work / "cache"
    ports = [free_port() for _ in range(processes)]
    procs = [start(url, p, cache, work / f"server-{processes}-{p}.log") for p in ports]
    stop = threading.Event()
    clients: list[FletClient] = []
    try:
        for port, proc in zip(ports, procs, strict=True):
            wait_up(port, proc)
        for proc in procs:
            wait_idle(proc.pid, args.settle)
        base = sum(rss_mb(p.pid) for p in procs)
        tables: list[Table] = []
        for n, game in enumerate(games):
            home, other = ports[n % processes], ports[(n + 1) % processes]
            rec = Recorder(home, route=f"/game/{game}/hand", source=address(0, n),
                             device=HOLDER.format(n=n), timeout=60, max_queue=None)
            watchers = [(TimedClient(port, route=f"/game/{game}", source=address(w, n),
                                     timeout=60, max_queue=None), port == home)
                        for w, port in ((1, home), (2, other), (3, other))]
            tables.append(Table(n, game, rec, watchers))
            clients += [rec, *(w for w, _ in watchers)]
        for client in clients:
            if client not in [t.recorder for t in tables]:
                threading.Thread(target=listen, args=(client, stop), daemon=True).start()
        time.sleep(3)
        opened = sum(rss_mb(p.pid) for p in procs)
        per_phone = (opened - base) / len(clients)
        load = os.getloadavg()[0]
        print(f"{processes} process(es), {len(tables)} tables, {len(clients)} phones open: "
              f"{opened:.0f} MB (idle {base:.0f} MB), {per_phone * 1024:.0f} kB a phone; "
              f"load average {load:.1f} on {os.cpu_count()} cores", flush=True)

        cpu0, t0 = sum(cpu_s(p.pid) for p in procs), time.time()
        first = time.time() + 1
        threads = [threading.Thread(target=paced, args=(
            t, args.hands, first + t.n * args.interval / len(tables), args.interval))
            for t in tables]
        for th in threads:
            th.start()
        for th in threads:
            th.join(args.hands * args.interval + 120)
        time.sleep(2)
        wall, cpu = time.time() - t0, sum(cpu_s(p.pid) for p in procs) - cpu0
        saves = sum(len(t.saves) for t in tables)
        same = [w.rows[h] - at for t in tables for h, at in t.saves
                for w, near in t.watchers if near and h in w.rows]
        other = [w.rows[h] - at for t in tables for h, at in t.saves
                 for w, near in t.watchers if not near and h in w.rows]
        missing = sum(1 for t in tables for h, _ in t.saves for w, _ in t.watchers
                      if h not in w.rows)
        print(f"  paced: {saves} saves in {wall:.0f} s ({saves / wall:.1f}/s), CPU "
              f"{cpu / max(1, saves) * 1000:.0f} ms a save (all processes, idle included)",
              flush=True)
        print(f"  save -> phones on the same process: {percentiles(same)}", flush=True)
        if processes > 1:
            print(f"  save -> phones on the other process: {percentiles(other)}", flush=True)
        if missing:
            print(f"  {missing} arrivals never came", flush=True)

        done, lock = [0], threading.Lock()
        cpu0, t0 = sum(cpu_s(p.pid) for p in procs), time.time()
        own0 = time.process_time()
        until = t0 + args.burst
        threads = [threading.Thread(target=flat_out, args=(t, until, done, lock))
                   for t in tables]
        for th in threads:
            th.start()
        for th in threads:
            th.join(args.burst + 120)
        wall, cpu = time.time() - t0, sum(cpu_s(p.pid) for p in procs) - cpu0
        rate = done[0] / wall
        own = time.process_time() - own0  # the phones' side: a limit of its own here
        print(f"  flat out: {done[0]} saves in {wall:.0f} s: {rate:.1f} saves/s, CPU "
              f"{cpu / max(1, done[0]) * 1000:.0f} ms a save, servers {100 * cpu / wall:.0f}% "
              f"of a core, the phones (this bench) {100 * own / wall:.0f}%; load average "
              f"{os.getloadavg()[0]:.1f}", flush=True)
        p95s = sorted(same + other)
        return {"rate": rate, "kb": per_phone * 1024,
                "p95": p95s[int(0.95 * (len(p95s) - 1))] if p95s else float("nan")}
    finally:
        stop.set()
        for client in clients:
            client.close()
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=25)
    parser.add_argument("--hands", type=int, default=2, help="paced hands a table saves")
    parser.add_argument("--interval", type=float, default=10.0,
                        help="seconds between a table's paced saves")
    parser.add_argument("--burst", type=float, default=20.0, help="seconds flat out")
    parser.add_argument("--processes", default="1,2", help="process counts to run")
    parser.add_argument("--settle", type=float, default=120.0)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        args.tables, args.hands, args.interval, args.burst = 4, 1, 4.0, 8.0
    bindir = pg_bin()
    if bindir is None:
        print("PostgreSQL is not installed (apt-get install postgresql)")
        return 1
    work = Path(tempfile.mkdtemp(prefix="tarabish-hosted-"))
    cluster = Cluster(bindir, durable=True)
    results: dict[int, dict[str, Any]] = {}
    try:
        cluster.start()
        for processes in (int(p) for p in args.processes.split(",")):
            url = cluster.new_database()
            games = set_up(url, args.tables, work / "setup")
            results[processes] = run(url, games, processes, args, work)
        if 1 in results and 2 in results:
            print(f"2 processes / 1: {results[2]['rate'] / results[1]['rate']:.2f}x the "
                  f"saves per second flat out", flush=True)
    finally:
        cluster.stop()
        if os.environ.get("KEEP"):  # the servers' logs, to read after
            print(f"kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
