"""Taps on a phone that keeps the game (the app in the browser, synced with the table
server) over a weak network, beside the same phone on no delay and a bare Flet page.

    uv run python benchmarks/bench_sync_taps.py --site SITE [--rounds 3] [--rate 4] [--interleave]

SITE is a built phone-alone site (`uv run tarabish build-web SITE`, or the one the pwa
tests build). Starts on loopback (1) the bare Flet app of benchmarks/bench_taps.py and
(2) the table server (`python -m scorer.cli`, its own sync socket) with the site under
/alone/ and a seeded game (target 5000), reached through a forwarder
that holds every chunk `delay` each way (tests/e2e/tcp_forwarder.py). One headless
Chromium (390x844), CPU slowed with CDP (`--rate`, 4: a mid-range phone). The app's
phone enters the game's table code, then plays `--rounds` rounds of bench_taps' round
(Record hand, caller, trump, four pad taps, two caller taps, Save, home, New game,
back) at each round trip (0, 300 ms, 2 s), the bare page's rounds in between: all the
rounds of one round trip, then the next; with `--interleave`, one unmeasured round, then
one round of each round trip in turn (see `schedule`).

Printed: medians per action (ms in the page, to the text that answers the tap) for the
bare page and for the app at each round trip, and the app's ratio to its own figure
with no delay (issue 40: at most 1.2 at 300 ms and at 2 s). Loopback only; no
thresholds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "tests" / "e2e"))

from bench_page_load import CHROMIUM, CHROMIUM_ARGS, VIEWPORT, free_port, start, stop  # noqa: E402
from bench_taps import ACTIONS, BARE_APP, RESUME, Phone, one_round, throttle  # noqa: E402
from table_steps import SEEDED_CODES, seed_game, tap, type_points  # noqa: E402
from tcp_forwarder import Forwarder  # noqa: E402

DELAYS = (("no delay", 0.0), ("300 ms", 0.15), ("2 s", 1.0))
"""Round trips, and the delay each way that makes them."""
TAPS = [a for a in ACTIONS if not a.startswith(("reload", "first load"))]


def schedule(rounds: int, interleave: bool) -> list[tuple[str, float, int]]:
    """(round trip, delay each way, rounds) in the order they run: every round trip's
    rounds in a row, or with `interleave` one round of each in turn, the first of each
    turn moving along, so that warming up, the game growing a hand a round and the
    machine's load over the minutes fall on every round trip alike."""
    if not interleave:
        return [(label, delay, rounds) for label, delay in DELAYS]
    turns: list[tuple[str, float, int]] = []
    for r in range(rounds):
        turn = DELAYS[r % len(DELAYS):] + DELAYS[:r % len(DELAYS)]
        turns += [(label, delay, 1) for label, delay in turn]
    return turns


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def open_app(phone: Phone, url: str, first: str) -> None:
    page = phone.page
    page.goto(url, wait_until="commit", timeout=120_000)
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=120_000)
    page.eval_on_selector("flt-semantics-placeholder", "e => e.click()")
    page.get_by_text(first).first.wait_for(state="visible", timeout=120_000)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rate", type=float, default=4)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--interleave", action="store_true",
                        help="after a warm-up round, one round at each round trip in turn")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="bench-sync-taps-"))
    bare_port, app_port = free_port(), free_port()
    bare_url = f"http://127.0.0.1:{bare_port}/"
    data_dir = tmp / "data-app"
    game = seed_game(data_dir, [], rules={"target": 5000})
    bare = start([sys.executable, "-c", BARE_APP, str(bare_port)], bare_url, tmp / "bare.log")
    app = start([sys.executable, "-m", "scorer.cli", "--no-open",
                 "--host", "127.0.0.1", "--port", str(app_port), "--data-dir", str(data_dir),
                 "--phone-site", str(args.site)], f"http://127.0.0.1:{app_port}/",
                tmp / "app.log", env={"TARABISH_CACHE": str(tmp / "cache")})
    weak = Forwarder([app_port])
    results: dict[str, Any] = {"rounds": args.rounds, "rate": args.rate,
                               "interleave": args.interleave}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                         headless=True)
            b = Phone("bare", browser.new_context(viewport=VIEWPORT).new_page(), bare.pid,
                      bare_url + "game")
            open_app(b, b.url, "Record hand")
            a = Phone("app", browser.new_context(viewport=VIEWPORT).new_page(), app.pid,
                      f"{weak.url}alone/#/game/{game}")
            open_app(a, weak.url + "alone/", "New game")  # the first visit's reload
            a.page.wait_for_function("navigator.serviceWorker.controller", timeout=120_000)
            a.page.goto("about:blank")  # the game's address as a new page (not a hash)
            open_app(a, a.url, "Enter table code")
            tap(a.page, "Enter table code")
            type_points(a.page, SEEDED_CODES[game])
            a.page.get_by_role("button", name="Record hand").first.wait_for(timeout=60_000)
            for phone in (a, b):
                throttle(phone.page, args.rate)
            bare_times: dict[str, list[float]] = {}
            app_times: dict[str, dict[str, list[float]]] = {}
            if args.interleave:
                one_round(b, RESUME)  # warm-up, not counted
                one_round(a, RESUME)
                b.times.clear()
            for label, delay, rounds in schedule(args.rounds, args.interleave):
                if delay != weak.delay_s:
                    # What the last round trip still carries comes in before this round:
                    # its answers must not land on this round's taps.
                    before, weak.delay_s = weak.delay_s, delay
                    a.page.wait_for_timeout(2000 * max(before, delay) + 500)
                a.times.clear()
                for _ in range(rounds):
                    one_round(b, RESUME)
                    one_round(a, RESUME)
                for k, v in a.times.items():
                    app_times.setdefault(label, {}).setdefault(k, []).extend(v)
                for k, v in b.times.items():
                    bare_times.setdefault(k, []).extend(v)
                b.times.clear()
            browser.close()
    finally:
        weak.close()
        stop(bare)
        stop(app)

    print(f"\nCPU/{args.rate:g}, medians of {args.rounds} rounds at each round trip "
          "(ms in the page, to the text that answers the tap); ratio: the app over a "
          "round trip / the app with no delay")
    head = f"{'action':24} {'bare':>7}" + "".join(f" {label:>9}" for label, _ in DELAYS)
    print(head + "".join(f" {'x ' + label:>9}" for label, _ in DELAYS[1:]))
    for action in TAPS:
        base = median(app_times["no delay"].get(action, []))
        row = [median(app_times[label].get(action, [])) for label, _ in DELAYS]
        print(f"{action:24} {median(bare_times.get(action, [])):7.0f}"
              + "".join(f" {ms:9.0f}" for ms in row)
              + "".join(f" {ms / base:9.2f}" for ms in row[1:]))
        results[action] = {"bare_ms": median(bare_times.get(action, [])),
                           **{label: app_times[label].get(action, []) for label, _ in DELAYS}}
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("TARABISH_TAP_PAUSE_MS", "250")
    sys.exit(main())
