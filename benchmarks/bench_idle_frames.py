"""Frames and CPU of a Tarabish page left alone (issue 39: the suite is CPU-bound, and
Chromium drawing Flutter's canvas in software is most of it). For each main screen of
the table server's page (and, with --site, of the phone-alone app), the page is set up
as the browser tests set theirs (tests/e2e/browser_setup.py: their flags, at most 20
frames a second), left still for a moment, then watched for `--seconds` while nobody
touches it: the frames the page drew (requestAnimationFrame callbacks, counted below the
tests' frame cap) and the CPU seconds of Chromium's browser, GPU and renderer processes
(/proc/PID/stat). Prints figures, no thresholds.

    uv run python benchmarks/bench_idle_frames.py [--seconds 10] [--site SITE]

`SITE`: a phone-alone site built by `tarabish build-web SITE` (the tests build theirs).

Measured (2-core machine shared with other test runs, 2026-11-29, Chromium 156, 10 s
each): every screen left alone draws 0 frames and costs 0.1-2.7 % of a core (home,
New game, score sheet, Share dialog, Record hand's "Who called?" and number pad,
rules, club night, leaderboard; the club board and TV leaderboard at 1280x720; the
phone-alone app's home, New game, sheet and Record hand), but for two states:
- a text box focused (its caret blinks): 2.0 frames a second, 10.5-11.7 %;
- the server gone ("Lost the table server." over Flet's spinning "Working..."): 16.4
  frames a second, 33.6 % (renderer 20.5, GPU 12.0). scorer/web/reconnect.js now holds
  the frames under its message: 2.1 frames a second, 9.6 % (16.2 and 46.5 % before,
  the same minute, load average 16-20).
A settled shot (tests' `shoot`) took 0.2-0.8 s on each of them.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "e2e"))
sys.path.insert(0, str(REPO))

from browser_setup import CHROMIUM_ARGS, fewer_frames  # noqa: E402
from club_seats import seed_night  # noqa: E402
from conftest import open_app_page, start_app_server  # noqa: E402
from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402
from proc_tree import cpu_seconds, descendants  # noqa: E402
from table_steps import (  # noqa: E402
    PLAYERS,
    draw_dealer,
    route_to,
    see,
    seed_won_games,
    settled_shot,
    tap,
    type_into,
    type_names,
)

expect.set_options(timeout=15_000)  # the tests' own (tests/conftest.py): a busy machine
COUNT_FRAMES_JS = """(() => {
  // Below the tests' frame cap (added after this script): counts the frames the page
  // drew, one per distinct frame time, whoever asked for them.
  const raf = window.requestAnimationFrame.bind(window);
  let last = -1;
  window.idleBench = { frames: 0 };
  window.requestAnimationFrame = (callback) => raf((time) => {
    if (time !== last) { last = time; window.idleBench.frames += 1; }
    callback(time);
  });
})();"""
FOCUSED_JS = """() => {
  const el = document.activeElement;
  return el ? el.tagName + (el.getAttribute('aria-label') ? ' ' + el.getAttribute('aria-label') : '') : '';
}"""


def chromium_cpu(root: int) -> dict[str, float]:
    """CPU seconds (user + system, children waited for included) of every Chromium
    process under `root`, by kind: browser, gpu, renderer, other (utility, zygote)."""
    kinds: dict[str, float] = {"browser": 0.0, "gpu": 0.0, "renderer": 0.0, "other": 0.0}
    for pid in descendants(root):
        try:
            # Chromium's children rewrite their title: one string, words apart by spaces.
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").split()
        except OSError:
            continue
        used = cpu_seconds(pid)
        if used is None or not argv or b"chrom" not in argv[0]:
            continue  # gone, or Playwright's driver (node), a shell
        kind = next((a.split(b"=", 1)[1].decode() for a in argv if a.startswith(b"--type=")),
                    "browser")
        kind = {"gpu-process": "gpu", "renderer": "renderer", "browser": "browser"}.get(
            kind, "other")
        kinds[kind] += used
    return kinds


def watch(page: Page, name: str, seconds: float, settle_s: float = 1.5) -> None:
    """Leave the page alone `settle_s`, then print what it drew and cost in `seconds`."""
    time.sleep(settle_s)
    frames = page.evaluate("window.idleBench.frames")
    before, wall = chromium_cpu(os.getpid()), time.perf_counter()
    time.sleep(seconds)
    after, took = chromium_cpu(os.getpid()), time.perf_counter() - wall
    frames = page.evaluate("window.idleBench.frames") - frames
    cpu = {kind: after[kind] - before[kind] for kind in after}
    # What the tests' `shoot` waits for on this screen: two shots in a row the same.
    shot_cpu, shot_wall = sum(chromium_cpu(os.getpid()).values()), time.perf_counter()
    settled_shot(page)
    shot_wall = time.perf_counter() - shot_wall
    shot_cpu = sum(chromium_cpu(os.getpid()).values()) - shot_cpu
    print(f"{name:40} {frames / took:5.1f} frames/s  CPU {sum(cpu.values()) / took * 100:5.1f} %"
          f"  (renderer {cpu['renderer'] / took * 100:4.1f}, gpu {cpu['gpu'] / took * 100:4.1f},"
          f" browser {cpu['browser'] / took * 100:4.1f}, other {cpu['other'] / took * 100:4.1f})"
          f"  settled shot {shot_wall:4.1f} s, CPU {shot_cpu:4.2f} s"
          f"  focus: {page.evaluate(FOCUSED_JS) or '-'}", flush=True)


def new_page(browser: Browser, width: int = 390, height: int = 844) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height},
                                  color_scheme="light")
    context.add_init_script(COUNT_FRAMES_JS)
    fewer_frames(context)
    return context.new_page()


def server_screens(browser: Browser, seconds: float, tmp: Path) -> None:
    """The table server's drawn page, screen by screen, as a player walks it."""
    data = tmp / "data"
    event_id = seed_night(data, 2, "first hand")
    seed_won_games(data, [PLAYERS])  # the leaderboard has a season to show
    server = start_app_server(data, cache=tmp / "cache")
    try:
        blank = new_page(browser)
        blank.goto("about:blank")
        watch(blank, "about:blank (the floor)", seconds)
        blank.context.close()

        page = new_page(browser)
        open_app_page(page, server.url)
        watch(page, "home", seconds)
        tap(page, "New game")
        see(page, "Who sits where")
        watch(page, "new game, nothing typed", seconds)
        type_into(page, "Player 1", "Ann")
        watch(page, "new game, a name typed (box focused)", seconds)
        type_names(page, PLAYERS)
        draw_dealer(page)
        watch(page, "new game, names typed, dealer drawn", seconds)
        tap(page, "Start game")
        see(page, "Record hand")
        watch(page, "score sheet", seconds)
        tap(page, "Share this game")
        see(page, "Table code")
        watch(page, "share dialog (QR code)", seconds)
        tap(page, "Close")
        tap(page, "Record hand")
        see(page, "Who called?")
        watch(page, "record hand: Who called?", seconds)
        tap(page, "Ann called")
        tap(page, re.compile("Hearts"))
        watch(page, "record hand: number pad", seconds)
        route_to(page, "rules", "Rules")
        watch(page, "rules", seconds)
        route_to(page, f"club/{event_id}", "Legion 2 tables first hand")
        watch(page, "club night", seconds)
        route_to(page, "ratings", "Leaderboard")
        watch(page, "leaderboard (phone)", seconds)
        page.context.close()

        board = new_page(browser, 1280, 720)
        board.goto(f"{server.url}board/{event_id}")
        board.get_by_text("Legion 2 tables first hand").first.wait_for()
        watch(board, "club board 1280x720 (HTML)", seconds)
        board.goto(f"{server.url}leaderboard")
        board.wait_for_load_state("load")
        watch(board, "TV leaderboard 1280x720 (HTML)", seconds)
        board.context.close()

        # The server gone (a test that stops or kills it): what the phone shows meanwhile.
        page = new_page(browser)
        open_app_page(page, server.url)
        server.stop()
        watch(page, "home, the server stopped", seconds)
        page.context.close()
    finally:
        server.stop()


def site_screens(browser: Browser, seconds: float, site: Path) -> None:
    """The phone-alone app (Python in the page's worker), served as a plain site."""
    from scorer.webbuild.static_server import SiteServer

    server = SiteServer(site, port=0).start()
    try:
        page = new_page(browser)
        page.goto(server.url, wait_until="commit", timeout=120_000)
        page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=120_000)
        page.eval_on_selector("flt-semantics-placeholder", "e => e.click()")
        page.get_by_text("New game").first.wait_for(timeout=120_000)
        watch(page, "alone: home", seconds)
        tap(page, "New game")
        see(page, "Who sits where")
        watch(page, "alone: new game", seconds)
        type_names(page, PLAYERS)
        tap(page, "Dee")
        see(page, "Dee deals first")
        watch(page, "alone: new game, names typed", seconds)
        tap(page, "Start game")
        see(page, "Hand 1: Dee deals, Ann speaks and leads")
        watch(page, "alone: score sheet", seconds)
        tap(page, "Record hand")
        see(page, "Who called?")
        watch(page, "alone: record hand", seconds)
        page.context.close()
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--site", type=Path, help="a built phone-alone site")
    parser.add_argument("--only", choices=("server", "site"), help="one of the two")
    args = parser.parse_args()
    walks: list[Callable[[Browser], None]] = []
    with tempfile.TemporaryDirectory() as tmp:
        if args.only != "site":
            walks.append(lambda b: server_screens(b, args.seconds, Path(tmp)))
        if args.site and args.only != "server":
            walks.append(lambda b: site_screens(b, args.seconds, args.site))
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                        args=CHROMIUM_ARGS)
            try:
                for walk in walks:
                    walk(browser)
            finally:
                browser.close()


if __name__ == "__main__":
    main()
