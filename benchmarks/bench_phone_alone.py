"""One phone alone (the `tarabish build-web` site) beside the table server, in one run.

    uv run python benchmarks/bench_phone_alone.py [--site DIR] [--no-throttle] [--reloads 5]
        [--warm-reloads 3]

Builds the site (precompressed; or reuses --site DIR) and serves it with
`scorer.webbuild.static_server`, which sends the .br/.gz copies as GitHub Pages
or a CDN sends compressed files; starts the table server (`tarabish`, own
empty data folder) beside it. Headless Chromium at 390x844, a fresh profile for
each of two phones (one on the site, one on the table server), every host but
loopback unresolvable. The two are measured in turns (a reload of one, then of
the other; a tap on one, then on the other), so both see the same noise on a
shared machine:

- first visit of the phone alone: bytes the server sent (the site: every file
  the page, its Python worker and its service worker fetched) and seconds to
  interactive; then the bytes once the service worker has fetched the rest of
  the site (it starts once the first screen is up: the memory snapshot, when
  the site has one, comes then); the table server's first load beside it;
- repeat visit: the phone alone reloaded with its file server STOPPED (the
  service worker alone, as from the home screen in airplane mode; Python
  starts from the memory snapshot if the site has one): the first such reload
  (the first start from the service worker's cache alone: often slower), then
  the median of `--reloads` more; the table server's page reloaded as often,
  median of all its reloads;
- number-pad tap: ms from the tap of a key to the ruling showing the new figure
  ("called: 95 of 162"), median of 8 taps on Record hand of a new game;
- repeat visit after a session of use: once the taps are done, both pages stay open
  for WARM_S seconds untouched, then each opens its home address again
  `--warm-reloads` times (in turns; median). The browser writes a wasm module's
  compiled code to its cache only once the page has made enough optimized code and
  then been quiet for a while (V8's caching threshold and timeout): the reloads above,
  a second after each start, never let it for Python's runtime, which then compiles
  ~2,000 functions lazily at every start (see docs/FLET_NOTES.md).

Interactive is timed the same way for both: from the request of the page to the
first time "New game" is in the accessibility tree, as the page's own clock saw it
(an init script turns the tree on as soon as Flutter offers it and watches the page
with a MutationObserver). A tap is timed as bench_taps.py times it: a click on the key's
accessibility node, then a check per animation frame. (Playwright's own waits
poll at 20, 50, 100, 100, then every 500 ms: a later page would be seen up to
0.5 s late.)

Then the same with Chromium's CPU slowed 4x (CDP Emulation.setCPUThrottlingRate;
it slows the page's main thread: Pyodide runs in a worker, which CDP may not
throttle, so the phone-alone figures there may be optimistic).
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
from statistics import median
from typing import Any

from bench_page_load import free_port, start_tarabish, stop
from bench_taps import PAD_STEPS, TAP_JS
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "e2e"))
from table_steps import PLAYERS, tap, type_into  # noqa: E402

from scorer.webbuild.site import build_site  # noqa: E402
from scorer.webbuild.static_server import SiteServer  # noqa: E402
from scorer.webbuild.wheels import default_cache_dir, download, read_pins  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"]
VIEWPORT = {"width": 390, "height": 844}
TIMEOUT_MS = 180_000
PAUSE_MS = 1_000
"""Between two reloads, and before the first pad tap: the screen settles."""
WARM_S = 15
"""After the taps, before the repeat visits after a session of use: the browser's quiet
time before it writes the compiled code of the page's wasm modules to its cache."""


INTERACTIVE_JS = """
(() => {
  // Benchmark harness: Flutter's accessibility tree on as soon as it is offered, and
  // the time (ms after the navigation started) "New game" is first in it.
  let asked = false;
  const look = () => {
    const placeholder = document.querySelector("flt-semantics-placeholder");
    if (placeholder && !asked) { asked = true; placeholder.click(); }
    for (const node of document.querySelectorAll("flt-semantics, flt-semantics *")) {
      const text = (node.getAttribute("aria-label") || "") + " " + (node.textContent || "");
      if (text.includes("New game") && node.getBoundingClientRect().width > 0) {
        window.__tarabishInteractiveMs = performance.now();
        watcher.disconnect();
        return;
      }
    }
  };
  const watcher = new MutationObserver(look);
  watcher.observe(document, { subtree: true, childList: true, attributes: true,
                              characterData: true });
})();
"""
PAD_TAPS = [*PAD_STEPS, ("⌫", "called: 9 of 162"), ("0", "called: 90 of 162"),
            ("⌫", "called: 9 of 162"), ("5", "called: 95 of 162")]


def new_phone(browser: Browser, rate: float) -> tuple[BrowserContext, Page]:
    context = browser.new_context(viewport=VIEWPORT)
    context.add_init_script(INTERACTIVE_JS)
    page = context.new_page()
    throttle(page, rate)
    return context, page


def interactive(page: Page, t0: float, seen: str = "__tarabishInteractiveMs") -> float:
    """Seconds from `t0` (time.time() as the page was asked to load) to "New game" in the
    accessibility tree (or to the page's own `window[seen]`, ms on its clock). The page's
    own clock (time origin + ms) says when it was seen: a page that loads itself again
    (the first visit, once the service worker is in charge) is timed from the first
    request on."""
    page.wait_for_function(f"() => window.{seen}", timeout=TIMEOUT_MS)
    seen_ms = page.evaluate(f"performance.timeOrigin + window.{seen}")
    return float(seen_ms) / 1000 - t0


def load_time(page: Page, url: str) -> float:
    """Seconds to interactive of a first load of `url` in the page."""
    t0 = time.time()
    page.goto(url, wait_until="commit")
    return interactive(page, t0)


def reload_time(page: Page) -> float:
    """Seconds to interactive of a reload of the page (after a pause)."""
    page.wait_for_timeout(PAUSE_MS)
    t0 = time.time()
    page.reload(wait_until="commit")
    return interactive(page, t0)


def home_time(page: Page, url: str, seen: str = "__tarabishInteractiveMs") -> float:
    """Seconds to interactive of opening `url` (the home address) again, after a pause."""
    page.wait_for_timeout(PAUSE_MS)
    t0 = time.time()
    page.goto(url, wait_until="commit")
    return interactive(page, t0, seen)


def throttle(page: Page, rate: float) -> None:
    if rate > 1:
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})


def to_number_pad(page: Page) -> None:
    """New game, Record hand, Ann called, Hearts: the number pad is next."""
    tap(page, "New game")
    for seat, name in enumerate(PLAYERS):
        type_into(page, f"Player {seat + 1}", name)
    tap(page, "Dee")
    tap(page, "Start game")
    tap(page, "Record hand")
    tap(page, "Ann called")
    tap(page, re.compile("Hearts"))
    page.wait_for_timeout(PAUSE_MS)  # the jump to the number pad


def pad_tap(page: Page, key: str, want: str) -> float:
    """Seconds from the tap of a number-pad key to the ruling showing `want`."""
    button = page.get_by_role("button", name=key, exact=True).first
    ms = float(page.evaluate(TAP_JS, [button.element_handle(), want, 30_000]))
    if ms < 0:
        raise RuntimeError(f"{key!r} never showed {want!r}")
    return ms / 1000


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


def side_by_side(browser: Browser, site: Path, table_url: str, rate: float,
                 reloads: int, warm_reloads: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The phone alone and the table server, each in a phone of its own, measured in
    turns (a reload of one, then of the other; a tap on one, then on the other), so
    that both see the same noise on a shared machine."""
    server = SiteServer(site).start()
    alone_context, alone = new_phone(browser, rate)
    table_context, table = new_phone(browser, rate)
    try:
        first_s = load_time(alone, server.url)
        first_mb = server.bytes_sent / 1e6
        wait_until_cached(alone, site)
        total_mb = server.bytes_sent / 1e6
        server.stop()  # from now on the service worker alone: offline
        table_first_s = load_time(table, table_url)
        alone_reloads, table_reloads = [], []
        for _ in range(1 + reloads):
            alone_reloads.append(reload_time(alone))
            table_reloads.append(reload_time(table))
        to_number_pad(alone)
        to_number_pad(table)
        alone_taps, table_taps = [], []
        for key, want in PAD_TAPS:
            alone_taps.append(pad_tap(alone, key, want))
            table_taps.append(pad_tap(table, key, want))
        alone_warm, table_warm = [], []
        if warm_reloads:
            alone.wait_for_timeout(WARM_S * 1000)
            for _ in range(warm_reloads):
                alone_warm.append(home_time(alone, server.url))
                table_warm.append(home_time(table, table_url))
    finally:
        alone_context.close()
        table_context.close()
        if server.running:
            server.stop()
    return ({"first_mb": first_mb, "first_total_mb": total_mb, "first_s": first_s,
             "first_reload_s": alone_reloads[0], "reloads_s": alone_reloads[1:],
             "taps_s": alone_taps, "warm_s": alone_warm},
            {"first_s": table_first_s, "reloads_s": table_reloads, "taps_s": table_taps,
             "warm_s": table_warm})


def report(label: str, alone: dict[str, Any], table: dict[str, Any]) -> None:
    ok = lambda good: "ok" if good else "MISSED"  # noqa: E731
    listed = lambda values: ", ".join(f"{v:.2f}" for v in values)  # noqa: E731
    print(f"\n{label}")
    print(f"  first visit (phone alone): {alone['first_mb']:.1f} MB until interactive "
          f"({alone['first_total_mb']:.1f} MB once the whole site is cached), "
          f"{alone['first_s']:.1f} s   [target <= 12 MB: {ok(alone['first_mb'] <= 12)}, "
          f"<= 10 s: {ok(alone['first_s'] <= 10)}]")
    print(f"  table server first load: {table['first_s']:.1f} s")
    table_s = median(table["reloads_s"])
    print(f"  table server reload: median {table_s:.2f} s ({listed(table['reloads_s'])})")
    later_s = median(alone["reloads_s"])
    for what, seconds in (("first offline reload", alone["first_reload_s"]),
                          (f"later offline reloads, median of {len(alone['reloads_s'])} "
                           f"({listed(alone['reloads_s'])})", later_s)):
        ratio = seconds / table_s
        print(f"  repeat visit, phone alone, {what}: {seconds:.2f} s, {ratio:.1f}x the table "
              f"server's reload   [target <= 4 s: {ok(seconds <= 4)}, "
              f"<= 1.5x: {ok(ratio <= 1.5)}]")
    alone_ms, table_ms = median(alone["taps_s"]) * 1000, median(table["taps_s"]) * 1000
    print(f"  number-pad tap to ruling, median of {len(alone['taps_s'])}: phone alone "
          f"{alone_ms:.0f} ms, table server {table_ms:.0f} ms   [target no slower: "
          f"{ok(alone_ms <= table_ms * 1.1)}]")
    if alone["warm_s"]:
        warm, table_warm = median(alone["warm_s"]), median(table["warm_s"])
        ratio = warm / table_warm
        print(f"  repeat visit after a session of use, median of {len(alone['warm_s'])}: "
              f"phone alone {warm:.2f} s ({listed(alone['warm_s'])}), table server "
              f"{table_warm:.2f} s ({listed(table['warm_s'])}), {ratio:.1f}x   "
              f"[target <= 4 s: {ok(warm <= 4)}, <= 1.5x: {ok(ratio <= 1.5)}]")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, help="a site built before (tarabish build-web)")
    parser.add_argument("--no-throttle", action="store_true", help="skip the 4x CPU run")
    parser.add_argument("--reloads", type=int, default=5,
                        help="offline reloads after the first one, and table server reloads")
    parser.add_argument("--warm-reloads", type=int, default=3,
                        help="repeat visits after a session of use (0: none)")
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
                    alone, table = side_by_side(browser, site, f"http://127.0.0.1:{port}/",
                                                rate, args.reloads, args.warm_reloads)
                    report(f"CPU x{rate:g}", alone, table)
                browser.close()
        finally:
            stop(proc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
