"""A club night under load: 30 tables x 4 phones, one phone a table saving a hand
every ~20 s, and the standings board in Chromium.

    uv run python benchmarks/bench_club_night.py              # 30 tables, 4 hands each
    uv run python benchmarks/bench_club_night.py --quick      # 4 tables, 2 hands, 4 s apart
    uv run python benchmarks/bench_club_night.py --watchers 0 # the saving phones alone

Sets up a Swiss night of 60 teams with `tarabish event new` and `event round`
(before the server starts: its data folder is the bench's own), gives each
table's recording phone its table code, starts the real server on 127.0.0.1,
then opens, through Flet's own websocket protocol (tests/hostile/flet_client.py),
every table's recorder and `--watchers` phones on each table's sheet (each on its
own 127.0.x.y address), the organiser's phone on the night's screen, and the
board in Chromium (1920x1080). Each recorder saves a hand every `--interval`
seconds, the tables spread over the interval. Reported:

- save -> the board showing the new score (the board's own timestamps of each
  redraw, `window.boardRedraws`), and save -> the other phones at the table
  (each frame's arrival, read by a thread per phone): p50, p95, max;
- the server's CPU per save (its CPU over the saving minutes, less what it
  spends idle with everything open, over the saves) and its memory with every
  session open;
- the board's own work: redraws and the tables each one touched.

Figures only; nothing is judged. Only loopback is ever contacted.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench_server_load import cpu_s, rss_mb, wait_idle  # noqa: E402

from tests.hostile.conftest import free_port  # noqa: E402
from tests.hostile.flet_client import FletClient  # noqa: E402

CHROMIUM = os.environ.get("TARABISH_CHROMIUM", "/usr/bin/chromium")
ROW = re.compile(r"^(\d+)\. .+ dealt")
HOLDER = "bench-table-{n:03d}-phone-token-abcdef"


class TimedClient(FletClient):
    """A phone that notes when each hand row of the sheet first reaches it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.rows: dict[int, float] = {}
        super().__init__(*args, **kwargs)

    def _take(self, message: Any) -> None:
        now = time.time()
        super()._take(message)
        for _n, text in self.strings[-40:]:
            found = ROW.match(text)
            if found:
                self.rows.setdefault(int(found.group(1)), now)


def percentiles(values: Sequence[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (f"p50 {statistics.median(ordered) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
            f"max {ordered[-1] * 1000:.0f} ms ({len(ordered)})")


def tarabish(data: Path, *argv: str) -> str:
    done = subprocess.run([sys.executable, "-m", "scorer.cli", *argv, "--data-dir", str(data)],
                          cwd=REPO, capture_output=True, text=True, check=True, timeout=300)
    return done.stdout


def set_up(data: Path, tables: int) -> tuple[str, list[dict[str, Any]]]:
    """A Swiss night of 2 x `tables` teams, round 1 started; its id and tables."""
    spec = data.parent / "night.json"
    spec.write_text(json.dumps({
        "name": "Bench night", "format": "swiss", "rounds": 3, "target": 100000,
        "house_rules": {}, "seed": 1,
        "teams": [[f"A{n:02d}", f"B{n:02d}"] for n in range(2 * tables)]}))
    event_id = tarabish(data, "event", "new", str(spec)).strip()
    first = json.loads(tarabish(data, "event", "round", event_id, "--json"))
    from scorer.rights.codes import TableCodes

    codes = TableCodes(data)
    for n, table in enumerate(first["tables"]):
        codes.grant(table["game"], HOLDER.format(n=n))
    return event_id, first["tables"]


def address(kind: int, n: int) -> str:
    """Each phone its own loopback address: 127.0.<20 + kind>.<n + 2>."""
    return f"127.0.{20 + kind}.{n + 2}"


def record(port: int, n: int, table: dict[str, Any], hands: int, start: float,
           interval: float, saves: list[tuple[int, int, float]], lock: threading.Lock,
           recorder: FletClient) -> None:
    """Table `n`'s phone saves `hands` hands, one every `interval` s from `start`."""
    game = table["game"]
    first_dealer = (1 + table["table"]) % 4  # round 1's deal (scorer.events.night.table_game)
    for hand in range(1, hands + 1):
        caller = table["seats"][(first_dealer + hand) % 4]  # the eldest calls, never the dealer
        time.sleep(max(0.0, start + (hand - 1) * interval - time.time()))
        mark = recorder.mark()
        if hand > 1:
            for attempt in range(3):  # a route change crossing the last push_route's echo
                recorder.go(f"/game/{game}/hand")
                try:
                    recorder.wait_for("Who called?", since=mark, timeout=10 * (attempt + 1))
                    break
                except AssertionError:
                    continue
        recorder.click(caller, wait=60)  # the newest such button: this screen's
        recorder.click("\nSpades", wait=60)  # the toggle's word under its ♠
        for digit in "95":  # no 0: a team's figure box shows "0" too
            recorder.click(digit, kind="OutlinedButton", wait=60)
        recorder.pump(0.2)
        saving = recorder.mark()
        tapped = time.time()
        recorder.click("Save hand", wait=60)
        try:
            recorder.wait_for("push_route", since=saving, timeout=60)
        except AssertionError:
            said = recorder.said(mark)
            print(f"table {n + 1}, hand {hand} was not saved: {said[-12:]}", flush=True)
            return
        with lock:
            saves.append((n, hand, tapped))
        recorder.pump(0.2)


def listen(client: FletClient, stop: threading.Event) -> None:
    while not stop.is_set() and not client.closed:
        client.pump(0.2)


def open_board(url: str) -> tuple[Any, Any, Any]:
    from playwright.sync_api import sync_playwright

    play = sync_playwright().start()
    browser = play.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
        "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"])
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(url)
    page.wait_for_selector("[data-table]", timeout=60_000)
    return play, browser, page


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--watchers", type=int, default=3, help="phones watching each table")
    parser.add_argument("--hands", type=int, default=4, help="hands each table saves")
    parser.add_argument("--interval", type=float, default=20.0, help="seconds between saves")
    parser.add_argument("--no-board", action="store_true", help="leave Chromium out")
    parser.add_argument("--no-organiser", action="store_true",
                        help="leave out the organiser's phone (on the night's screen)")
    parser.add_argument("--profile", metavar="FILE",
                        help="run the server under cProfile, its statistics written to FILE")
    parser.add_argument("--settle", type=float, default=240.0,
                        help="seconds at most to wait for the server's start-up work")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        args.tables, args.hands, args.interval, args.settle = 4, 2, 4.0, 20.0

    workdir = Path(tempfile.mkdtemp(prefix="tarabish-club-"))
    data = workdir / "data"
    data.mkdir()
    event_id, tables = set_up(data, args.tables)
    port = free_port()
    log = (workdir / "server.log").open("wb")
    profiled = ["-m", "cProfile", "-o", str(Path(args.profile).resolve())] if args.profile else []
    server = subprocess.Popen(
        [sys.executable, *profiled, "-m", "scorer.cli", "--no-open", "--host", "127.0.0.1",
         "--port", str(port), "--data-dir", str(data)],
        cwd=REPO, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    clients: list[FletClient] = []
    stop = threading.Event()
    board = None
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).close()
                break
            except OSError:
                time.sleep(0.2)
        pid = server.pid
        waited = wait_idle(pid, args.settle)
        base_mb = rss_mb(pid)
        print(f"{args.tables} tables, {args.watchers} watching phones a table; server idle "
              f"after start-up ({waited:.0f} s): {base_mb:.0f} MB; load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)

        recorders = [FletClient(port, route=f"/game/{t['game']}/hand", source=address(0, n),
                                device=HOLDER.format(n=n), timeout=60, max_queue=None)
                     for n, t in enumerate(tables)]
        watchers = [[TimedClient(port, route=f"/game/{t['game']}", source=address(1 + w, n),
                                 timeout=60, max_queue=None) for w in range(args.watchers)]
                    for n, t in enumerate(tables)]
        organisers = [] if args.no_organiser else [
            FletClient(port, route=f"/club/{event_id}", source=address(9, 0), timeout=60,
                       max_queue=None)]
        clients = [*recorders, *(w for ws in watchers for w in ws), *organisers]
        for client in clients[len(recorders):]:
            threading.Thread(target=listen, args=(client, stop), daemon=True).start()
        if not args.no_board:
            board = open_board(f"http://127.0.0.1:{port}/board/{event_id}")
        time.sleep(3)
        sessions = len(clients) + (1 if board else 0)
        open_mb = rss_mb(pid)
        print(f"{len(clients)} phone sessions{' and the board' if board else ''} open "
              f"({sessions}): {open_mb:.0f} MB (+{open_mb - base_mb:.0f} MB)", flush=True)
        cpu0 = cpu_s(pid)
        time.sleep(10)
        idle_per_s = (cpu_s(pid) - cpu0) / 10

        saves: list[tuple[int, int, float]] = []
        lock = threading.Lock()
        start = time.time() + 2
        spread = args.interval / args.tables
        threads = [threading.Thread(target=record, args=(
            port, n, t, args.hands, start + n * spread, args.interval, saves, lock,
            recorders[n])) for n, t in enumerate(tables)]
        cpu0, t0 = cpu_s(pid), time.time()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=args.hands * args.interval + 600)
        time.sleep(3)
        wall = time.time() - t0
        cpu = cpu_s(pid) - cpu0
        busy = cpu - idle_per_s * wall
        print(f"{len(saves)} saves in {wall:.0f} s: server CPU {cpu:.1f} s "
              f"({100 * cpu / wall:.0f}% of a core; idle with all open "
              f"{idle_per_s * 1000:.0f} ms/s), {busy / max(1, len(saves)) * 1000:.1f} ms "
              f"a save; {rss_mb(pid):.0f} MB; load average {os.getloadavg()[0]:.1f}",
              flush=True)

        to_phones = [rows.rows[hand] - tapped for n, hand, tapped in saves
                     for rows in watchers[n] if hand in rows.rows]
        missing = sum(1 for n, hand, _ in saves for w in watchers[n] if hand not in w.rows)
        print(f"save -> the other phones at the table: {percentiles(to_phones)}"
              + (f"; {missing} never arrived" if missing else ""), flush=True)
        if board is not None:
            redraws = board[2].evaluate("window.boardRedraws")
            to_board = []
            for n, _hand, tapped in saves:
                label = f"table {tables[n]['table']}"
                seen = [r["at"] / 1000 for r in redraws if label in r["changed"]
                        and r["at"] / 1000 >= tapped]
                if seen:
                    to_board.append(min(seen) - tapped)
            touched = [sum(1 for c in r["changed"] if c.startswith("table")) for r in redraws]
            print(f"save -> the board: {percentiles(to_board)}; the board redrew "
                  f"{len(redraws)} times (tables touched a redraw: max {max(touched, default=0)}"
                  f", mean {statistics.mean(touched) if touched else 0:.2f})", flush=True)
    finally:
        stop.set()
        for client in clients:
            client.close()
        if board is not None:
            board[1].close()
            board[0].stop()
        if args.profile:
            server.send_signal(signal.SIGINT)  # a clean exit: cProfile writes its file
        else:
            server.terminate()
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
