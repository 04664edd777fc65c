"""One table server under a crowd: watchers, phones saving, and abandoned pages.

    uv run python benchmarks/bench_server_load.py             # 500 watchers, 12 phones
    uv run python benchmarks/bench_server_load.py --quick     # 40 watchers, 2 phones

Starts the real server (`python -m scorer.cli`) on 127.0.0.1 with a fresh data
folder holding one game per phone, waits until its start-up work (compressing
the page files) is done, then, through Flet's own websocket protocol
(tests/hostile/flet_client.py):

1. opens the watchers, spread over the games' score sheets and over
   127.0.0.x source addresses (10 per address, as phones on a hall's Wi-Fi);
   reports the server's memory per page session and the CPU this took;
2. each phone (holding its game's code) records hands one after the other,
   all phones at once; for every save, the time from tapping Save to the new
   hand reaching a watcher of that game (p50, p95, max), and the server's CPU;
3. closes every watcher, then opens and abandons as many pages again, twice,
   and reports memory: abandoned pages are expired beyond
   `scorer.web.sessions.LIMITS`, so memory must level off, not keep growing.

Figures only; nothing is judged. Only loopback is ever contacted.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.hostile.conftest import free_port, make_game  # noqa: E402
from tests.hostile.flet_client import FletClient, Refused  # noqa: E402

HOLDER = "bench-holder-token-{n:04d}-abcdefgh"
NAMES = ("Ann", "Bob", "Cid", "Dee")
PER_ADDRESS = 10
TICK = os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def cpu_s(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def wait_idle(pid: int, limit_s: float = 240.0) -> float:
    """Wait until the server uses under 5% of a core for 3 s (bounded); seconds waited."""
    start = time.monotonic()
    last = cpu_s(pid)
    while time.monotonic() - start < limit_s:
        time.sleep(3)
        now = cpu_s(pid)
        if now - last < 0.15:
            break
        last = now
    return time.monotonic() - start


def source(n: int, base: int = 0) -> str:
    """127.0.x.y: the n-th phone's own loopback address (10 pages each)."""
    k = base + n // PER_ADDRESS
    return f"127.0.{10 + k // 250}.{k % 250 + 2}"


def open_pages(port: int, routes: list[str], base: int, workers: int = 8) -> list[FletClient]:
    def one(i: int) -> FletClient | None:
        try:
            # Reads everything, as a phone does (a page that stops reading is let go).
            client = FletClient(port, route=routes[i], source=source(i, base), timeout=30,
                                max_queue=None)
        except (Refused, OSError):
            return None
        return client

    with ThreadPoolExecutor(workers) as pool:
        opened = list(pool.map(one, range(len(routes))))
    return [c for c in opened if c is not None]


def record_hands(port: int, phone: int, game_id: str, hands: int,
                 delays: list[float], lock: threading.Lock) -> None:
    """One phone records `hands` hands; a watcher of the same game times each."""
    with FletClient(port, route=f"/game/{game_id}", source=f"127.0.9.{phone + 2}",
                    timeout=30) as watcher, \
         FletClient(port, route=f"/game/{game_id}/hand", source=f"127.0.8.{phone + 2}",
                    device=HOLDER.format(n=phone), timeout=30) as recorder:
        recorder.pump(1.0)
        for n in range(1, hands + 1):
            mark = recorder.mark()
            if n > 1:
                recorder.go(f"/game/{game_id}/hand")
            recorder.click(NAMES[n % 4], since=mark if n > 1 else 0, wait=30)  # eldest calls
            recorder.click("Spades", wait=30)
            for digit in "81":
                recorder.click(digit, kind="OutlinedButton", wait=30)
            recorder.pump(0.3)
            seen, saving = watcher.mark(), recorder.mark()
            tapped = time.monotonic()
            recorder.click("Save hand", wait=30)
            watcher.wait_for(f"{n}. ", since=seen, timeout=60)
            with lock:
                delays.append(time.monotonic() - tapped)
            recorder.wait_for("push_route", since=saving, timeout=60)  # back to the sheet
            recorder.pump(0.2)


def churn(port: int, count: int, base: int) -> None:
    """Open and abandon `count` pages (closed tabs), 10 per address."""
    def one(i: int) -> None:
        try:
            with FletClient(port, source=source(i, base), timeout=30) as page:
                page.pump(0.2)
        except (Refused, OSError):
            pass

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(one, range(count)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--watchers", type=int, default=500)
    parser.add_argument("--phones", type=int, default=12)
    parser.add_argument("--hands", type=int, default=8, help="hands each phone records")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        args.watchers, args.phones, args.hands = 40, 2, 2

    workdir = Path(tempfile.mkdtemp(prefix="tarabish-load-"))
    data = workdir / "data"
    games = [make_game(data, holder=HOLDER.format(n=n))[0] for n in range(args.phones)]
    port = free_port()
    log = (workdir / "server.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "scorer.cli", "--no-open", "--host", "127.0.0.1",
         "--port", str(port), "--data-dir", str(data)],
        cwd=REPO, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).close()
                break
            except OSError:
                time.sleep(0.2)
        pid = server.pid
        waited = wait_idle(pid)
        base_mb = rss_mb(pid)
        print(f"server idle after start-up work ({waited:.0f} s): {base_mb:.0f} MB; "
              f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

        routes = [f"/game/{games[i % len(games)]}" for i in range(args.watchers)]
        cpu0, t0 = cpu_s(pid), time.monotonic()
        watchers = open_pages(port, routes, base=0)
        took = time.monotonic() - t0
        time.sleep(2)
        open_mb = rss_mb(pid)
        per = (open_mb - base_mb) / max(1, len(watchers))
        print(f"{len(watchers)} watchers open in {took:.0f} s: {open_mb:.0f} MB "
              f"(+{open_mb - base_mb:.0f} MB, {per:.2f} MB per page session); "
              f"server CPU {cpu_s(pid) - cpu0:.1f} s")

        delays: list[float] = []
        lock = threading.Lock()
        cpu0, t0 = cpu_s(pid), time.monotonic()
        threads = [threading.Thread(target=record_hands,
                                    args=(port, n, games[n], args.hands, delays, lock))
                   for n in range(args.phones)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=600)
        wall = time.monotonic() - t0
        cpu = cpu_s(pid) - cpu0
        if delays:
            delays.sort()
            p95 = delays[min(len(delays) - 1, int(0.95 * len(delays)))]
            print(f"{len(delays)} saves by {args.phones} phones with {len(watchers)} watching: "
                  f"save -> shown on another phone p50 {statistics.median(delays) * 1000:.0f} ms, "
                  f"p95 {p95 * 1000:.0f} ms, max {delays[-1] * 1000:.0f} ms; "
                  f"server CPU {cpu:.1f} s in {wall:.0f} s ({100 * cpu / wall:.0f}% of a core)")
        else:
            print("no save was timed")

        for page in watchers:
            page.close()
        time.sleep(2)
        print(f"all watchers closed: {rss_mb(pid):.0f} MB")
        for round_ in (1, 2):
            t0 = time.monotonic()
            churn(port, args.watchers, base=0)
            time.sleep(12)  # Flet's sweeper runs every 10 s
            print(f"{args.watchers} more pages opened and abandoned (round {round_}, "
                  f"{time.monotonic() - t0:.0f} s): {rss_mb(pid):.0f} MB")
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
