"""A cold start of the table server: its CPU, and the first phone against a later one.

    uv run python benchmarks/bench_server_start.py [--later 300] [--phones 3]
        [--rounds 1] [--repo DIR] [--cache DIR]

Starts the table server (`python -m scorer.cli`, loopback, its own empty data
folder) twice on one cache folder (TARABISH_CACHE, empty at first, unless --cache):
the first start finds nothing compressed, the second start finds what the first
one kept. For each start:

- the server's CPU seconds (user + system, every thread, from /proc) in its first
  `--window` seconds, and when it became quiet for good (under 5 % of a core in
  every 5 s from then until the later phones);
- the first phone, right after the server answers: seconds from its request to
  "New game" in the accessibility tree (as bench_phone_alone.py times it), the
  bytes it downloaded, and the bytes of a reload;
- later phones, `--later` seconds after the start (default 5 minutes): the median
  of `--phones` fresh phones, one after another.

Every phone is headless Chromium at 390x844, LAN-like (bench_page_load.py's
`tarabish.test`: plain HTTP, not a secure context, so gzip and skwasm_heavy.wasm,
as a phone on the table's Wi-Fi), with a fresh profile. Before the two starts,
the browser loads the page once from a throwaway server (its own cache folder,
stopped at once; its time is printed): the first phone measured is then not also
the browser's first page since it was launched, as a real phone's browser is
already running. Nothing polls the
server between the phones: a request would hold back its best-level pass (it
waits for a quiet server).

--repo DIR runs the server from another checkout (e.g. `git worktree add /tmp/m
main`) in the same conditions, to compare. Linux only (/proc).
Targets: second start <= 3 s of CPU, first start <= 60 s, in the first 60 s; the
first phone <= 1.2x a later one and <= 2 s; first load <= 5.5 MB, reload ~0 MB.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench_page_load import (
    CHROMIUM,
    CHROMIUM_ARGS,
    LAN_HOST,
    REPO,
    RESOLVER_ARGS,
    bytes_now,
    free_port,
    start_tarabish,
    stop,
)
from bench_phone_alone import load_time, new_phone, reload_time
from playwright.sync_api import Browser, sync_playwright

TICK = os.sysconf("SC_CLK_TCK")
QUIET_CPU = 0.05
"""A core's share under which the server counts as quiet."""
TARGETS = {"second_cpu_s": 3.0, "first_cpu_s": 60.0, "ratio": 1.2, "first_phone_s": 2.0,
           "first_mb": 5.5}


def cpu_seconds(pid: int) -> float:
    """User + system CPU of the process, all its threads and its waited-for children."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return sum(int(v) for v in fields[11:15]) / TICK


class CpuWatch:
    """Samples a process's CPU twice a second, in a thread, from its start (`t0`,
    time.monotonic())."""

    def __init__(self, pid: int, t0: float) -> None:
        self.pid = pid
        self.t0 = t0
        self.samples: list[tuple[float, float]] = [(0.0, 0.0)]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.5):
            try:
                self.samples.append((time.monotonic() - self.t0, cpu_seconds(self.pid)))
            except OSError:
                return  # the server stopped

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def wait_until(self, at_s: float) -> None:
        time.sleep(max(0.0, at_s - (time.monotonic() - self.t0)))

    def at(self, t: float) -> float:
        """CPU seconds used by time t (the last sample at or before it)."""
        return max((cpu for when, cpu in self.samples if when <= t + 0.5), default=0.0)

    def quiet_after(self, until: float) -> float:
        """Seconds after the start when the server became quiet for good (under 5 % of a
        core in every 5 s from then on), looking at the samples before `until`."""
        kept = [(w, c) for w, c in self.samples if w <= until]
        busy_until = 0.0
        for i, (when, cpu) in enumerate(kept):
            later = [(w, c) for w, c in kept[i:] if w - when >= 5]
            if later and (later[0][1] - cpu) / (later[0][0] - when) >= QUIET_CPU:
                busy_until = later[0][0]
        return busy_until


def phone(browser: Browser, url: str) -> dict[str, float]:
    """A fresh LAN-like phone: seconds to interactive, MB of the load and of a reload."""
    context, page = new_phone(browser, 1.0)
    try:
        seconds = load_time(page, url)
        page.wait_for_load_state("networkidle")
        first_mb = bytes_now(page) / 1e6
        reload_time(page)
        page.wait_for_load_state("networkidle")
        return {"s": seconds, "mb": first_mb, "reload_mb": bytes_now(page) / 1e6}
    finally:
        context.close()


def warm_up(browser: Browser, tmp: Path, args: argparse.Namespace) -> float:
    """One page load in the browser, from a server of its own (see the docstring);
    its seconds to interactive."""
    port = free_port()
    proc = start_tarabish(port, tmp, "warm-up", repo=args.repo,
                          env={"TARABISH_CACHE": str(tmp / "warm-up-cache")})
    try:
        return phone(browser, f"http://{LAN_HOST}:{port}/")["s"]
    finally:
        stop(proc)


def one_start(browser: Browser, name: str, tmp: Path, args: argparse.Namespace,
              cache: Path) -> dict[str, Any]:
    port = free_port()
    t0 = time.monotonic()
    proc = start_tarabish(port, tmp, name, repo=args.repo, env={"TARABISH_CACHE": str(cache)})
    watch = CpuWatch(proc.pid, t0)
    try:
        answered = time.monotonic() - t0
        url = f"http://{LAN_HOST}:{port}/"
        first = phone(browser, url)
        watch.wait_until(args.later)
        later = [phone(browser, url) for _ in range(args.phones)]
    finally:
        watch.stop()
        stop(proc)
    return {"answered_s": answered, "first": first, "later": later, "watch": watch,
            "log": (tmp / f"{name}.log").read_text(errors="replace")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--later", type=float, default=300,
                        help="seconds after the start when the later phones come")
    parser.add_argument("--phones", type=int, default=3, help="later phones (median)")
    parser.add_argument("--window", type=float, default=60, help="CPU counted in these seconds")
    parser.add_argument("--repo", type=Path, default=REPO, help="checkout to run the server from")
    parser.add_argument("--cache", type=Path, default=None,
                        help="cache folder to start from (default: a new empty one)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="pairs of starts, each on a new empty cache (medians at the end)")
    args = parser.parse_args()
    args.later = max(args.later, args.window)
    rounds: list[dict[str, dict[str, Any]]] = []
    with tempfile.TemporaryDirectory(prefix="bench-start-") as tmp_name:
        tmp = Path(tmp_name)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM,
                                         args=CHROMIUM_ARGS + RESOLVER_ARGS, headless=True)
            warm_s = warm_up(browser, tmp, args)
            print(f"the browser's first page (throwaway server, before the starts): "
                  f"{warm_s:.2f} s", flush=True)
            for n in range(args.rounds):
                print(f"\nround {n + 1}: load before {load()}", flush=True)
                cache = args.cache or tmp / f"cache-{n}"
                results: dict[str, dict[str, Any]] = {}
                for name in ("first", "second"):
                    print(f"{name} start...", flush=True)
                    results[name] = one_start(browser, f"{name}-{n}", tmp, args, cache)
                cached_mb = sum(p.stat().st_size for p in cache.rglob("*")
                                if p.is_file()) / 1e6
                report(results, args, cached_mb)
                rounds.append(results)
            browser.close()
    if len(rounds) > 1:
        summary(rounds, args)
    return 0


def load() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg()) + f" (1, 5, 15 min; {os.cpu_count()} CPUs)"


def summary(rounds: list[dict[str, dict[str, Any]]], args: argparse.Namespace) -> None:
    """Medians over the rounds (each round's figures are above)."""
    print(f"\nmedians of {len(rounds)} rounds:")
    print(f"{'':40} {'first start':>14} {'second start':>14}")
    for label, value in (
            (f"server CPU s in the first {args.window:g} s",
             lambda r: r["watch"].at(args.window)),
            ("first phone, s to interactive", lambda r: r["first"]["s"]),
            ("later phones, median s",
             lambda r: statistics.median(p["s"] for p in r["later"])),
            ("first phone / later phones", lambda r: r["ratio"])):
        cells = [statistics.median(value(r[name]) for r in rounds)
                 for name in ("first", "second")]
        print(f"{label:40} {cells[0]:>14.2f} {cells[1]:>14.2f}")
    print(f"load after: {load()}")


def report(results: dict[str, dict[str, Any]], args: argparse.Namespace,
           cached_mb: float) -> None:
    ok = lambda good: "ok" if good else "MISSED"  # noqa: E731
    first, second = results["first"], results["second"]
    w = args.window
    rows: list[tuple[str, str, str, str]] = []

    def row(label: str, f: str, s: str, target: str = "") -> None:
        rows.append((label, f, s, target))

    cpu = {k: r["watch"].at(w) for k, r in results.items()}
    row(f"server CPU s in the first {w:g} s", f"{cpu['first']:.1f}", f"{cpu['second']:.1f}",
        f"first <= {TARGETS['first_cpu_s']:g}: {ok(cpu['first'] <= TARGETS['first_cpu_s'])}; "
        f"second <= {TARGETS['second_cpu_s']:g}: "
        f"{ok(cpu['second'] <= TARGETS['second_cpu_s'])}")
    for t in (t for t in (5, 10, 30) if t < w):
        row(f"  of which by {t} s", f"{first['watch'].at(t):.1f}",
            f"{second['watch'].at(t):.1f}")
    row(f"server CPU s by {args.later:g} s", f"{first['watch'].at(args.later):.1f}",
        f"{second['watch'].at(args.later):.1f}")
    row("quiet for good (under 5 % of a core) after s",
        f"{first['watch'].quiet_after(args.later):.0f}",
        f"{second['watch'].quiet_after(args.later):.0f}")
    row("server answered after s", f"{first['answered_s']:.1f}", f"{second['answered_s']:.1f}")
    later = {k: statistics.median(p["s"] for p in r["later"]) for k, r in results.items()}
    for k, r in (("first", first), ("second", second)):
        r["ratio"] = r["first"]["s"] / later[k]
    row("first phone, s to interactive", f"{first['first']['s']:.2f}",
        f"{second['first']['s']:.2f}",
        f"<= {TARGETS['first_phone_s']:g}: "
        f"{ok(max(first['first']['s'], second['first']['s']) <= TARGETS['first_phone_s'])}")
    row(f"later phones (after {args.later:g} s), median s", f"{later['first']:.2f}",
        f"{later['second']:.2f}")
    row("  each", ", ".join(f"{p['s']:.2f}" for p in first["later"]),
        ", ".join(f"{p['s']:.2f}" for p in second["later"]))
    row("first phone / later phones", f"{first['ratio']:.2f}x", f"{second['ratio']:.2f}x",
        f"<= {TARGETS['ratio']:g}x: "
        f"{ok(max(first['ratio'], second['ratio']) <= TARGETS['ratio'])}")
    row("first phone MB / its reload MB",
        f"{first['first']['mb']:.2f} / {first['first']['reload_mb']:.3f}",
        f"{second['first']['mb']:.2f} / {second['first']['reload_mb']:.3f}",
        f"<= {TARGETS['first_mb']:g} MB: "
        f"{ok(max(first['first']['mb'], second['first']['mb']) <= TARGETS['first_mb'])}")
    row("later phone MB", f"{statistics.median(p['mb'] for p in first['later']):.2f}",
        f"{statistics.median(p['mb'] for p in second['later']):.2f}")
    print()
    print(f"{'':40} {'first start':>14} {'second start':>14}   target")
    for label, f, s, target in rows:
        print(f"{label:40} {f:>14} {s:>14}   {target}")
    print(f"cache folder after both: {cached_mb:.1f} MB; load after: {load()}")
    for name, r in results.items():
        said = [line for line in r["log"].splitlines() if "compress" in line.lower()]
        print(f"{name} start said: {said or 'nothing about compressing'}")


if __name__ == "__main__":
    sys.exit(main())
