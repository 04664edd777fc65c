"""One phone alone (the `tarabish build-web` site) beside the table server, in one run.

    uv run python benchmarks/bench_phone_alone.py [--site DIR] [--no-throttle]

Builds the site (precompressed; or reuses --site DIR) and serves it with
`scorer.webbuild.static_server`, which sends the .br/.gz copies as GitHub Pages
or a CDN sends compressed files; starts the table server (`tarabish`, own
empty data folder) beside it. Headless Chromium at 390x844, fresh profile per
phone, every host but loopback unresolvable. For each:

- first visit: bytes the server sent (the site: every file the page, its
  Python worker and its service worker fetched) and seconds to interactive
  ("New game" readable in the accessibility tree); then the bytes once the
  service worker has fetched the rest of the site (it starts once the first
  screen is up: the memory snapshot, when the site has one, comes then);
- repeat visit: the phone alone reloaded with its file server STOPPED (the
  service worker alone, as from the home screen in airplane mode; Python
  starts from the memory snapshot if the site has one); the table server's
  page reloaded in the same tab;
- number-pad tap: seconds from the tap of the last digit of "100" to the
  ruling showing it ("100 of 162"), on Record hand of a new game.

Then the same with Chromium's CPU slowed 4x (CDP Emulation.setCPUThrottlingRate;
it slows the page's main thread: Pyodide runs in a worker, which CDP does not
throttle, so the phone-alone figures there are optimistic).
Targets: first visit <= 12 MB and <= 10 s; repeat <= 4 s and <= 1.5x the table
server's reload; tap no slower than on the table server.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_page_load import free_port, start_tarabish, stop
from playwright.sync_api import Browser, Page, sync_playwright

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "e2e"))
from table_steps import PLAYERS, see, tap, type_into  # noqa: E402

from scorer.webbuild.site import build_site  # noqa: E402
from scorer.webbuild.static_server import SiteServer  # noqa: E402
from scorer.webbuild.wheels import default_cache_dir, download, read_pins  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"]
VIEWPORT = {"width": 390, "height": 844}
TIMEOUT_MS = 180_000


def interactive(page: Page, t0: float, text: str = "New game") -> float:
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=TIMEOUT_MS)
    page.eval_on_selector("flt-semantics-placeholder", "e => e.click()")
    page.get_by_text(text).first.wait_for(state="visible", timeout=TIMEOUT_MS)
    return time.perf_counter() - t0


def throttle(page: Page, rate: float) -> None:
    if rate > 1:
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})


def tap_latency(page: Page) -> float:
    """New game, Record hand, Ann, Hearts, 1 0 0: seconds from the last tap to the ruling."""
    tap(page, "New game")
    for seat, name in enumerate(PLAYERS):
        type_into(page, f"Player {seat + 1}", name)
    tap(page, "Dee")
    tap(page, "Start game")
    tap(page, "Record hand")
    tap(page, "Ann called")
    tap(page, re.compile("Hearts"))
    tap(page, "1")
    tap(page, "0")
    button = page.get_by_role("button", name="0", exact=True).first
    t0 = time.perf_counter()
    button.click()
    page.get_by_text(re.compile("100 of 162")).first.wait_for(state="visible")
    latency = time.perf_counter() - t0
    see(page, "made")
    return latency


def wait_until_cached(page: Page, site: Path) -> None:
    """Until the service worker keeps the memory snapshot (if any), else 8 s."""
    worker = site / "worker.js"
    match = re.search(r'const SNAPSHOT = "([^"]+)"',
                      worker.read_text("utf-8") if worker.is_file() else "")
    if match is None:
        page.wait_for_timeout(8_000)
        return
    for _ in range(240):
        if page.evaluate("name => caches.match(name).then(hit => hit !== undefined)",
                         match.group(1)):
            break
        page.wait_for_timeout(250)
    page.wait_for_timeout(1_000)


def phone_alone(browser: Browser, site: Path, rate: float) -> dict[str, float]:
    server = SiteServer(site).start()
    context = browser.new_context(viewport=VIEWPORT)
    try:
        page = context.new_page()
        throttle(page, rate)
        t0 = time.perf_counter()
        page.goto(server.url, wait_until="commit")
        first_s = interactive(page, t0)
        first_mb = server.bytes_sent / 1e6
        wait_until_cached(page, site)
        total_mb = server.bytes_sent / 1e6
        server.stop()
        t0 = time.perf_counter()
        page.reload(wait_until="commit")
        repeat_s = interactive(page, t0)
        tap_s = tap_latency(page)
    finally:
        context.close()
        if server.running:
            server.stop()
    return {"first_mb": first_mb, "first_total_mb": total_mb, "first_s": first_s,
            "repeat_s": repeat_s, "tap_s": tap_s}


def table_server(browser: Browser, url: str, rate: float) -> dict[str, float]:
    context = browser.new_context(viewport=VIEWPORT)
    try:
        page = context.new_page()
        throttle(page, rate)
        t0 = time.perf_counter()
        page.goto(url, wait_until="commit")
        first_s = interactive(page, t0)
        t0 = time.perf_counter()
        page.reload(wait_until="commit")
        repeat_s = interactive(page, t0)
        tap_s = tap_latency(page)
    finally:
        context.close()
    return {"first_s": first_s, "repeat_s": repeat_s, "tap_s": tap_s}


def report(label: str, alone: dict[str, float], table: dict[str, float]) -> None:
    ok = lambda good: "ok" if good else "MISSED"  # noqa: E731
    print(f"\n{label}")
    print(f"  first visit (phone alone): {alone['first_mb']:.1f} MB until interactive "
          f"({alone['first_total_mb']:.1f} MB once the whole site is cached), "
          f"{alone['first_s']:.1f} s   [target <= 12 MB: {ok(alone['first_mb'] <= 12)}, "
          f"<= 10 s: {ok(alone['first_s'] <= 10)}]")
    print(f"  table server first load: {table['first_s']:.1f} s")
    ratio = alone["repeat_s"] / table["repeat_s"]
    print(f"  repeat visit: phone alone offline {alone['repeat_s']:.1f} s, table server reload "
          f"{table['repeat_s']:.1f} s, ratio {ratio:.1f}x   [target <= 4 s: "
          f"{ok(alone['repeat_s'] <= 4)}, <= 1.5x: {ok(ratio <= 1.5)}]")
    print(f"  number-pad tap to ruling: phone alone {alone['tap_s'] * 1000:.0f} ms, table server "
          f"{table['tap_s'] * 1000:.0f} ms   [target no slower: "
          f"{ok(alone['tap_s'] <= table['tap_s'] * 1.1)}]")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, help="a site built before (tarabish build-web)")
    parser.add_argument("--no-throttle", action="store_true", help="skip the 4x CPU run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        site = args.site
        if site is None:
            site = tmp / "site"
            t0 = time.perf_counter()
            build_site(site, download(read_pins(REPO / "uv.lock"), default_cache_dir()))
            print(f"built the site in {time.perf_counter() - t0:.0f} s")
        port = free_port()
        proc = start_tarabish(port, tmp, "table")
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                for rate in (1.0,) if args.no_throttle else (1.0, 4.0):
                    alone: dict[str, Any] = phone_alone(browser, site, rate)
                    table = table_server(browser, f"http://127.0.0.1:{port}/", rate)
                    report(f"CPU x{rate:g}", alone, table)
                browser.close()
        finally:
            stop(proc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
