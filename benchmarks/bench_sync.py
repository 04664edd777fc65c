"""Sync on the wire under a hall's load: K tables x 4 phones speaking the sync protocol
(issue 40 §4) to a community of 2 processes on one PostgreSQL (fsync on).

    uv run python benchmarks/bench_sync.py                      # 2,000 tables, 3 min of saves
    uv run python benchmarks/bench_sync.py --tables 200 --duration 60
    uv run python benchmarks/bench_sync.py --quick              # 50 tables, 30 s

Starts a PostgreSQL cluster of its own (tests/pg_cluster.py, durable), one game a
table held by its recorder's device token, and 2 `tarabish --database` processes on
127.0.0.1. Two client processes (asyncio, `websockets`) hold the phones, half the
tables each; a table's 4 phones share its own 127.x.y.z address; its recorder and
one watcher talk to one server process, its two other watchers to the other, so
half the fan-out crosses processes through the database's notices.

1. connected: every phone says Hello with its table's game; the servers' memory
   with every phone connected, less before, over the phones;
2. idle: the servers' CPU with every phone connected and nothing saved (uvicorn's
   websocket pings, the feed), as a rate;
3. saves: each table's recorder saves a hand every `--interval` s (tables spread
   over it; the default a minute, so 2,000 tables make 33 saves a second), for
   `--duration` s: save -> each other phone of the table has the new revision
   (p50, p95, max; on the recorder's process and on the other), server CPU per save
   (less the idle rate), PostgreSQL's CPU per save, beside a drawn page's save
   (bench_club_night / bench_hosted: 55-99 ms of server CPU).

The machine is shared: each phase prints the load average beside its figures.
Figures only; nothing is judged. Only loopback is used.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_server_load import cpu_s, rss_mb, wait_idle  # noqa: E402

from scorer.web.compression import QUIET_S  # noqa: E402
from tests.hostile.conftest import free_port  # noqa: E402
from tests.pg_cluster import Cluster, pg_bin  # noqa: E402

HOLDER = "bench-sync-{n:05d}-recorder-token"
WATCHER = "bench-sync-{n:05d}-watcher{k}-token"
DRAWN_PAGE_MS = "55-99"


def address(n: int) -> str:
    """Table n's own loopback address (its 4 phones share it, as a table's Wi-Fi)."""
    return f"127.{20 + n // 250}.{n % 250 + 1}.7"


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} (5 min {five:.1f})"


def raise_open_files() -> int:
    """The open-file limit raised to its hard limit (8,000 phones need as many sockets)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


# -- the set-up -----------------------------------------------------------------------------


def set_up(url: str, tables: int, cache: Path) -> list[str]:
    """One game a table (a long target: it never ends), held by its recorder."""
    from scorer.rights.pg_codes import PgTableCodes
    from scorer.store.database import Database, ensure_schema
    from scorer.store.pg_games import PgGameStore
    from tests.store.store_docs import game_doc

    ensure_schema(url)
    db = Database(url, max_size=2)
    try:
        store = PgGameStore(db, data_dir=cache)
        ids: list[str] = []
        for first in range(0, tables, 500):
            games = store.create_games([game_doc(0, target=100_000)
                                        for _ in range(min(500, tables - first))])
            ids += [g.id for g in games]
        codes = PgTableCodes(db)
        for n, game_id in enumerate(ids):
            codes.start(game_id, HOLDER.format(n=n))
        return ids
    finally:
        db.close()


def start_server(url: str, port: int, cache: Path, log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "scorer.cli", "--no-open", "--host", "127.0.0.1",
             "--port", str(port), "--database", url],
            cwd=REPO, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env={**os.environ, "TARABISH_CACHE": str(cache), "PYTHONUNBUFFERED": "1"})


def wait_up(port: int, proc: subprocess.Popen[bytes]) -> None:
    import urllib.request

    for _ in range(900):
        if proc.poll() is not None:
            raise RuntimeError(f"the server on {port} stopped ({proc.returncode})")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/alive", timeout=2).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server on {port} did not answer")


def warm_up(port: int, game: str) -> None:
    """One phone connects, says Hello and goes: what every later phone shares is made."""
    from websockets.sync.client import connect

    from scorer.sync.kinds import sync_fingerprint
    from scorer.sync.messages import SYNC_PATH

    with connect(f"ws://127.0.0.1:{port}{SYNC_PATH}", open_timeout=60) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1, "rules": sync_fingerprint(),
                            "device": "bench-sync-warm-up-token", "games": [
                                {"game": game, "revision": 1}]}))
        ws.recv(timeout=60)


def postgres_cpu_s(cluster: Cluster) -> float:
    """CPU seconds of the cluster's processes (the postmaster and its children)."""
    pid_file = Path(cluster.data) / "postmaster.pid"
    try:
        root = int(pid_file.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            if int(entry) == root or int(fields[1]) == root:
                total += cpu_s(int(entry))
    return total


# -- the phones (a client process) ------------------------------------------------------------


class Phone:
    """One phone's connection: it says Hello with its game, then reads; a recorder saves."""

    def __init__(self, port: int, device: str, source: str, game: str) -> None:
        self.port, self.device, self.source, self.game = port, device, source, game
        self.revision = 1
        self.ws: Any = None
        self.arrived: dict[int, float] = {}  # revision -> when its state came
        self.answers: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.reader: asyncio.Task[None] | None = None
        self.waiting: dict[int, asyncio.Future[None]] = {}

    async def arrival(self, revision: int, timeout: float) -> float | None:
        """When this phone got the game at `revision` (waiting up to `timeout`)."""
        if revision not in self.arrived:
            future = self.waiting.setdefault(
                revision, asyncio.get_running_loop().create_future())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(future), timeout)
        return self.arrived.get(revision)

    async def connect(self, fingerprint: str) -> None:
        from websockets.asyncio.client import connect

        from scorer.sync.messages import SYNC_PATH

        for attempt in range(5):
            try:
                self.ws = await connect(f"ws://127.0.0.1:{self.port}{SYNC_PATH}",
                                        local_addr=(self.source, 0), open_timeout=60,
                                        ping_interval=None, max_size=4 * 1024 * 1024)
                break
            except (OSError, TimeoutError):
                if attempt == 4:
                    raise
                await asyncio.sleep(1 + attempt)
        await self.ws.send(json.dumps({"type": "hello", "protocol": 1, "rules": fingerprint,
                                       "device": self.device,
                                       "games": [{"game": self.game, "revision": 1}]}))
        welcome = json.loads(await self.ws.recv())
        if welcome.get("type") != "welcome":
            raise RuntimeError(f"not welcomed: {welcome}")
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                now = time.monotonic()
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "game":
                    revision = message["game"]["revision"]
                    self.arrived.setdefault(revision, now)
                    self.revision = max(self.revision, revision)
                    for waited in [r for r in self.waiting if r <= revision]:
                        self.arrived.setdefault(waited, now)
                        future = self.waiting.pop(waited)
                        if not future.done():
                            future.set_result(None)
                elif kind in ("applied", "refused"):
                    await self.answers.put(message)

    async def save(self, n: int) -> tuple[int, float] | None:
        """Record a hand on the revision this phone has: (the revision it made, when
        it was sent); None if refused."""
        change = {"id": os.urandom(16).hex(), "game": self.game, "base": self.revision,
                  "at": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()),
                  "kind": {"kind": "add_hand", "hand": {
                      "caller": 1 + 2 * (n % 2), "trump": "H",
                      "points": {"team": 0, "tricks": 20 + n % 60}}}}
        sent = time.monotonic()
        await self.ws.send(json.dumps({"type": "push", "changes": [change]}))
        answer = await asyncio.wait_for(self.answers.get(), 60)
        if answer["type"] != "applied":
            return None
        self.revision = max(self.revision, answer["revision"])
        return answer["revision"], sent


async def client(args: argparse.Namespace) -> None:
    """A client process: the tables [first, last) of the games file; speaks on stdio."""
    from scorer.sync.kinds import sync_fingerprint

    limit = raise_open_files()
    fingerprint = sync_fingerprint()
    games = json.loads(Path(args.games).read_text())
    ports = [int(p) for p in args.ports.split(",")]
    tables: list[tuple[Phone, list[tuple[Phone, bool]]]] = []
    for n in range(args.first, args.last):
        home, away = ports[n % 2], ports[(n + 1) % 2]
        recorder = Phone(home, HOLDER.format(n=n), address(n), games[n])
        watchers = [(Phone(home, WATCHER.format(n=n, k=0), address(n), games[n]), True)]
        watchers += [(Phone(away, WATCHER.format(n=n, k=k), address(n), games[n]), False)
                     for k in (1, 2)]
        tables.append((recorder, watchers))
    phones = [p for rec, ws in tables for p in (rec, *(w for w, _ in ws))]
    gate = asyncio.Semaphore(100)

    async def join(phone: Phone) -> None:
        async with gate:
            await phone.connect(fingerprint)

    started = time.monotonic()
    await asyncio.gather(*(join(p) for p in phones))
    print(json.dumps({"connected": len(phones), "seconds": time.monotonic() - started,
                      "open_files": limit}), flush=True)

    go = json.loads(await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline))
    begin = time.monotonic() + go["in"]
    duration, interval = go["duration"], go["interval"]
    total = args.tables
    samples: list[tuple[float, bool]] = []
    saves = refused = 0

    async def table_loop(index: int, recorder: Phone, watchers: list[tuple[Phone, bool]]
                         ) -> None:
        nonlocal saves, refused
        n = args.first + index
        at = begin + interval * n / total  # tables spread over the interval
        hand = 0
        while at < begin + duration:
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            made = await recorder.save(hand)
            hand += 1
            at += interval
            if made is None:
                refused += 1
                continue
            saves += 1
            revision, sent = made
            deadline = time.monotonic() + 10
            for watcher, same in watchers:
                came = await watcher.arrival(revision, max(0.0, deadline - time.monotonic()))
                samples.append((came - sent if came is not None else float("inf"), same))

    await asyncio.gather(*(table_loop(i, rec, ws) for i, (rec, ws) in enumerate(tables)))
    print(json.dumps({"saves": saves, "refused": refused, "cpu": time.process_time(),
                      "samples": [
        [s if s != float("inf") else -1, same] for s, same in samples]}), flush=True)
    for phone in phones:
        with contextlib.suppress(Exception):
            await phone.ws.close()


# -- the run ---------------------------------------------------------------------------------


def percentiles(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)

    def at(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000

    return f"p50 {at(0.5):.0f} ms, p95 {at(0.95):.0f} ms, max {ordered[-1] * 1000:.0f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--interval", type=float, default=60.0,
                        help="seconds between a table's saves (the rate: tables/interval)")
    parser.add_argument("--duration", type=float, default=180.0, help="seconds of saves")
    parser.add_argument("--idle", type=float, default=30.0, help="seconds of the idle window")
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--games", help=argparse.SUPPRESS)
    parser.add_argument("--ports", help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--last", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.client:
        asyncio.run(client(args))
        return 0
    if args.quick:
        args.tables, args.duration, args.interval, args.idle = 50, 30.0, 15.0, 10.0
    bindir = pg_bin()
    if bindir is None:
        print("PostgreSQL is not installed (apt-get install postgresql)")
        return 1
    print(f"bench_sync: {args.tables} tables x 4 phones, 2 server processes, "
          f"{args.clients} client processes; a save a table every {args.interval:.0f} s "
          f"({args.tables / args.interval:.1f} saves/s) for {args.duration:.0f} s; "
          f"open files: {raise_open_files()} (raised to the hard limit); {load()}",
          flush=True)
    work = Path(tempfile.mkdtemp(prefix="tarabish-bench-sync-"))
    cluster = Cluster(bindir, durable=True)
    servers: list[subprocess.Popen[bytes]] = []
    clients: list[subprocess.Popen[str]] = []
    try:
        cluster.start()
        url = cluster.new_database()
        games = set_up(url, args.tables, work / "setup")
        (work / "games.json").write_text(json.dumps(games))
        ports = [free_port(), free_port()]
        # The page files' compressed copies, kept between runs: a first start compresses
        # them in the background for a minute, which is no sync's cost.
        cache = Path(tempfile.gettempdir()) / "tarabish-bench-sync-cache"
        for n, port in enumerate(ports):
            servers.append(start_server(url, port, cache, work / f"server{n}.log"))
        for port, proc in zip(ports, servers, strict=True):
            wait_up(port, proc)
        for port in ports:  # one phone each first: the sync service and its imports
            warm_up(port, games[0])
        time.sleep(QUIET_S + 5)  # the page files a quiet server reads in after a start
        for proc in servers:
            wait_idle(proc.pid)
        before = [rss_mb(p.pid) for p in servers]

        share = -(-args.tables // args.clients)
        for c in range(args.clients):
            first, last = c * share, min(args.tables, (c + 1) * share)
            clients.append(subprocess.Popen(
                [sys.executable, __file__, "--client", "--games", str(work / "games.json"),
                 "--ports", ",".join(map(str, ports)), "--first", str(first),
                 "--last", str(last), "--tables", str(args.tables)],
                cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
        joined = [json.loads(c.stdout.readline()) for c in clients]  # type: ignore[union-attr]
        phones = sum(j["connected"] for j in joined)
        for proc in servers:  # the servers settle (the handshakes' garbage)
            wait_idle(proc.pid)
        after = [rss_mb(p.pid) for p in servers]
        per_phone_kb = (sum(after) - sum(before)) * 1024 / phones
        print(f"connected: {phones} phones in {max(j['seconds'] for j in joined):.0f} s; "
              f"server memory {sum(before):.0f} -> {sum(after):.0f} MB: "
              f"{per_phone_kb:.1f} KB a connected phone (aim <= 50 KB); {load()}", flush=True)

        idle_cpu = sum(cpu_s(p.pid) for p in servers)
        idle_pg = postgres_cpu_s(cluster)
        time.sleep(args.idle)
        idle_rate = (sum(cpu_s(p.pid) for p in servers) - idle_cpu) / args.idle
        idle_pg_rate = (postgres_cpu_s(cluster) - idle_pg) / args.idle
        print(f"idle, every phone connected: servers {idle_rate * 1000:.0f} ms of CPU a "
              f"second, PostgreSQL {idle_pg_rate * 1000:.0f} ms/s; {load()}", flush=True)

        go = {"in": 2.0, "duration": args.duration, "interval": args.interval}
        cpu0, pg0, t0 = sum(cpu_s(p.pid) for p in servers), postgres_cpu_s(cluster), \
            time.monotonic()
        for c in clients:
            c.stdin.write(json.dumps(go) + "\n")  # type: ignore[union-attr]
            c.stdin.flush()  # type: ignore[union-attr]
        results = [json.loads(c.stdout.readline()) for c in clients]  # type: ignore[union-attr]
        elapsed = time.monotonic() - t0
        cpu = sum(cpu_s(p.pid) for p in servers) - cpu0
        pg = postgres_cpu_s(cluster) - pg0
        saves = sum(r["saves"] for r in results)
        refused = sum(r["refused"] for r in results)
        samples = [(s, same) for r in results for s, same in r["samples"]]
        lost = sum(1 for s, _ in samples if s < 0)
        same = [s for s, on in samples if s >= 0 and on]
        other = [s for s, on in samples if s >= 0 and not on]
        print(f"saves: {saves} in {elapsed:.0f} s ({saves / elapsed:.1f}/s), {refused} "
              f"refused, {lost} states not arrived within 10 s; {load()}", flush=True)
        print(f"  save -> the table's other phones: {percentiles(same + other)} "
              f"(aim p95 <= 500 ms)", flush=True)
        print(f"    on the recorder's process: {percentiles(same)}; on the other "
              f"(the database's notice): {percentiles(other)}", flush=True)
        net = cpu - idle_rate * elapsed
        print(f"  server CPU a save: {net / max(1, saves) * 1000:.1f} ms (less the idle "
              f"rate; {cpu / max(1, saves) * 1000:.1f} ms with it; aim <= 5 ms) beside a "
              f"drawn page's {DRAWN_PAGE_MS} ms", flush=True)
        print(f"  the clients' own CPU (every phone's frames read, decompressed, parsed): "
              f"{sum(r['cpu'] for r in results):.0f} s in all", flush=True)
        print(f"  PostgreSQL CPU a save: "
              f"{(pg - idle_pg_rate * elapsed) / max(1, saves) * 1000:.1f} ms", flush=True)
        for proc in servers:
            wait_idle(proc.pid)
        later = [rss_mb(p.pid) for p in servers]
        print(f"  after the saves, every phone still connected: server memory "
              f"{sum(later):.0f} MB: {(sum(later) - sum(before)) * 1024 / phones:.1f} KB a "
              f"phone; {load()}", flush=True)
    finally:
        for c in clients:
            with contextlib.suppress(Exception):
                c.kill()
        for proc in servers:
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(15)
            if proc.poll() is None:
                proc.kill()
        cluster.stop()
        if os.environ.get("KEEP"):
            print(f"kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
