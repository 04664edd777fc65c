"""Websocket floods against a real server process, and what real pages send.

    uv run python benchmarks/bench_flood.py [--flooders 1] [--seconds 6]
    uv run python benchmarks/bench_flood.py --flooders 12   # twelve pages of one address
    uv run python benchmarks/bench_flood.py --real-use       # what a real page sends

Flood: starts the table server on loopback, opens `--flooders` pages from one
address (127.0.0.66) that send `route_change` events (between the rules reference
and home: the dearest screen a stranger can ask for without a code) as fast as the
socket takes them, and meanwhile, from other addresses, asks `/alive` every 0.2 s
and opens a new page every second. Printed: frames sent, screens the server drew
for the flooders (events it handled) a second, when each flooder was closed, the
bystanders' /alive and page-open latencies beside the same before the flood, the
server's memory before and at its highest, and how long SIGTERM took, sent at the
end while the flood runs.

Real use (`--real-use`): Chromium at phone size on a seeded game taps the number
pad as fast as Playwright can, rotates the phone, types a long name with no pause
between keys and scrolls the rules, while every frame the page sends is counted
(Playwright's `framesent`). Printed: frames by Flet action, the most in any
second and tenth of a second, per activity, and the server's CPU per pad tap.
These are the figures `scorer.web.floods.FloodLimits` is chosen from.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(REPO / "tests" / "e2e"))

from bench_page_load import free_port, start_tarabish, stop  # noqa: E402

from tests.hostile.flet_client import EVENT, FletClient, Refused, pack  # noqa: E402

ROUTES = ("/rules", "/")
TICK_S = 1 / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * TICK_S


def alive_s(port: int) -> float:
    start = time.monotonic()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/alive", timeout=60) as r:
            r.read()
    except OSError:
        return float("inf")
    return time.monotonic() - start


def page_s(port: int, source: str) -> float:
    start = time.monotonic()
    try:
        with FletClient(port, source=source, timeout=60):
            return time.monotonic() - start
    except (Refused, OSError):
        return float("inf")


def spread(values: list[float]) -> str:
    if not values:
        return "none"
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
    return (f"p50 {statistics.median(values) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
            f"max {values[-1] * 1000:.0f} ms (n={len(values)})")


class Flooder:
    def __init__(self, port: int) -> None:
        self.page = FletClient(port, source="127.0.0.66", max_queue=None)
        for route in ROUTES:  # drawn once before: their first drawing is no flood's
            self.page.go(route)
            self.page.pump(1.0)
        self.sent = 0
        self.closed_after: float | None = None
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        frames = [pack(EVENT, {"target": self.page.page_id, "name": "route_change",
                               "data": {"route": r}}) for r in ROUTES]
        start = time.monotonic()
        while not self.stop.is_set():
            try:
                self.page.ws.send(frames[self.sent % 2])
            except Exception:
                self.closed_after = time.monotonic() - start
                return
            self.sent += 1

    def drawn(self) -> int:
        while self.page.pump(0.5):
            pass
        return sum(1 for action, _size in self.page.frames if action == 2) - len(ROUTES)


def run_flooders(port: int, count: int, seconds: float, ready: Any, results: Any) -> None:
    """In a process of its own (its threads' GIL is not the bystanders'): `count`
    flooding pages, for `seconds` or until closed; (sent, drawn, closed after) each."""
    pages = [Flooder(port) for _ in range(count)]
    ready.set()
    for page in pages:
        page.thread.start()
    time.sleep(seconds + 2)
    for page in pages:
        page.stop.set()
        page.thread.join(10)
    results.put([(p.sent, p.drawn(), p.closed_after) for p in pages])


def flood(flooders: int, seconds: float) -> None:
    import multiprocessing

    tmp = Path(tempfile.mkdtemp(prefix="bench-flood-"))
    port = free_port()
    proc = start_tarabish(port, tmp, "flood")
    try:
        pid = proc.pid
        before_alive = [alive_s(port) for _ in range(10)]
        before_pages = [page_s(port, f"127.0.1.{n}") for n in range(3)]
        context = multiprocessing.get_context("fork")
        ready, results = context.Event(), context.Queue()
        child = context.Process(target=run_flooders,
                                args=(port, flooders, seconds, ready, results), daemon=True)
        child.start()
        ready.wait(120)
        rss_before, rss_high = rss_mb(pid), 0.0
        cpu_before = cpu_s(pid)
        start = time.monotonic()
        during_alive: list[float] = []
        during_pages: list[float] = []
        worst = (0.0, 0.0)
        next_page = start + 1.0
        while time.monotonic() - start < seconds:
            during_alive.append(alive_s(port))
            worst = max(worst, (during_alive[-1], time.monotonic() - start))
            rss_high = max(rss_high, rss_mb(pid))
            if time.monotonic() >= next_page:
                during_pages.append(page_s(port, f"127.0.2.{len(during_pages) + 1}"))
                next_page += 1.0
            time.sleep(0.2)
        took = time.monotonic() - start
        cpu_during = cpu_s(pid) - cpu_before
        asked = time.monotonic()
        os.kill(pid, signal.SIGTERM)
        try:
            proc.wait(60)
            stopped = f"{time.monotonic() - asked:.2f} s"
        except Exception:
            stopped = "not within 60 s"
        pages = results.get(timeout=120)
        child.join(10)
        sent = sum(p[0] for p in pages)
        drawn = sum(p[1] for p in pages)
        closed = [f"{p[2]:.1f} s" if p[2] is not None else "not closed" for p in pages]
        print(f"{flooders} flooding page(s) from one address, {took:.1f} s:")
        print(f"  frames sent {sent:,} ({sent / took:,.0f}/s); screens drawn for them "
              f"{drawn:,} ({drawn / took:,.1f}/s)")
        print(f"  flooders closed after: {', '.join(closed)}")
        print(f"  server CPU during the flood: {cpu_during / took * 100:.0f} % of one core")
        print(f"  /alive before:   {spread(before_alive)}")
        print(f"  /alive during:   {spread(during_alive)}; the slowest {worst[1]:.1f} s in")
        print(f"  new page before: {spread(before_pages)}")
        print(f"  new page during: {spread(during_pages)}")
        print(f"  memory: {rss_before:.0f} MB before, {rss_high:.0f} MB at most during")
        print(f"  SIGTERM during the flood: stopped after {stopped}")
    finally:
        stop(proc)


def real_use() -> None:
    from bench_page_load import CHROMIUM, CHROMIUM_ARGS, VIEWPORT
    from playwright.sync_api import Page, WebSocket, expect, sync_playwright
    from table_steps import enter_seeded_code, seed_game

    sent: list[tuple[float, int]] = []

    def watch(ws: WebSocket) -> None:
        def frame(payload: Any) -> None:
            data = payload if isinstance(payload, bytes) else str(payload).encode()
            sent.append((time.monotonic(), data[2] if len(data) > 2 and data[0] == 0 else -1))
        ws.on("framesent", frame)

    def ready(page: Page) -> None:
        page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
        page.eval_on_selector("flt-semantics-placeholder", "e => e.click()")

    tmp = Path(tempfile.mkdtemp(prefix="bench-real-use-"))
    port = free_port()
    game = seed_game(tmp / "data-real", [])
    proc = start_tarabish(port, tmp, "real")
    url = f"http://127.0.0.1:{port}/"
    phases: dict[str, tuple[float, float]] = {}
    pad_cpu, taps = 0.0, 0
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_context(viewport=VIEWPORT).new_page()
            page.on("websocket", watch)
            page.goto(f"{url}game/{game}")
            ready(page)
            enter_seeded_code(page, game)
            page.get_by_role("button", name="Record hand").click()
            expect(page.get_by_text("Who called?")).to_be_visible()
            page.get_by_role("button", name=re.compile(r"^Ann called")).first.click()
            page.get_by_role("button", name=re.compile("Hearts")).first.click()
            page.wait_for_timeout(800)
            t0, c0 = time.monotonic(), cpu_s(proc.pid)
            for n in range(60):  # as fast as Playwright taps; C now and then
                page.get_by_role("button", name="1234567890"[n % 10], exact=True).click()
                taps += 1
                if n % 3 == 2:
                    page.get_by_role("button", name="C", exact=True).click()
                    taps += 1
            phases["number pad"] = (t0, time.monotonic())
            page.wait_for_timeout(500)
            pad_cpu = cpu_s(proc.pid) - c0
            t0 = time.monotonic()
            for n in range(20):
                wide = n % 2 == 0
                page.set_viewport_size({"width": 844 if wide else 390,
                                        "height": 390 if wide else 844})
                page.wait_for_timeout(50)
            phases["rotations"] = (t0, time.monotonic())
            page.set_viewport_size(VIEWPORT)
            page.goto(f"{url}new")
            ready(page)
            page.get_by_role("textbox", name="Player 1").click()
            page.wait_for_timeout(300)
            t0 = time.monotonic()
            page.keyboard.type("Alexandrina Bartholomew the Third", delay=0)
            phases["typing, no pause"] = (t0, time.monotonic() + 0.5)
            page.goto(f"{url}rules")
            ready(page)
            page.wait_for_timeout(1000)
            t0 = time.monotonic()
            for n in range(80):
                page.mouse.move(200, 400)
                page.mouse.wheel(0, 400 if n % 20 < 10 else -400)
                page.wait_for_timeout(20)
            phases["scrolling"] = (t0, time.monotonic())
            browser.close()
    finally:
        stop(proc)

    def most(times: list[float], window: float) -> int:
        best, first = 0, 0
        for last in range(len(times)):
            while times[last] - times[first] > window:
                first += 1
            best = max(best, last - first + 1)
        return best

    times = [t for t, _a in sent]
    names = {1: "register", 3: "event", 4: "update props", 5: "method answer"}
    kinds = Counter(names.get(a, str(a)) for _t, a in sent)
    print(f"frames a real page sent: {len(sent)} ({dict(kinds)})")
    print(f"  most in one second: {most(times, 1.0)}, in a tenth: {most(times, 0.1)}")
    for name, (a, z) in phases.items():
        part = [t for t in times if a <= t <= z + 0.5]
        print(f"  {name}: {len(part)} frames in {z - a:.1f} s; most in a second "
              f"{most(part, 1.0)}, in a tenth {most(part, 0.1)}")
    if taps:
        print(f"  server CPU per number-pad tap: {pad_cpu / taps * 1000:.1f} ms ({taps} taps)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--flooders", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--real-use", action="store_true")
    args = parser.parse_args()
    if args.real_use:
        real_use()
    else:
        flood(args.flooders, args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
