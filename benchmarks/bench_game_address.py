"""A game's address on a hall's Wi-Fi: the server-drawn page beside the app, first visit
and a later start, to choose what a laptop's game address opens (docs/PHONE_ALONE.md).

    uv run python benchmarks/bench_game_address.py SITE [--rounds 3]

SITE is a built app (`tarabish build-web SITE`, with its compressed copies: what a table
server builds for itself). Starts `tarabish --phone-site SITE --open-games-in app` on
loopback with one seeded game, then, in headless Chromium at 390x844 over a network
shaped with CDP `Network.emulateNetworkConditions` to 30 Mbit/s and 20 ms (a hall's
Wi-Fi), each round in a fresh profile, in turns:

- the drawn page of the game (`/game/<id>?drawn=1`): first visit to its first line in
  the accessibility tree, bytes downloaded, then a reload;
- the app on the game (`/alone/game/<id>`): first visit (the service worker installs and
  the page loads itself once more) to its first line, then a later start (reload).

Loopback is a secure context, so the app runs here; a phone on a laptop's plain-HTTP
Wi-Fi address has no service worker, and the game address sends it to the drawn page
whatever the default. Taps over a 300 ms round trip and a dropped network are the
figures of issue 40 and docs/PHONE_ALONE.md (each tap of the drawn page is a round trip;
the app's are answered on the phone). No thresholds: figures.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench_page_load import free_port, start, stop
from bench_phone_alone import ARGS, CHROMIUM, INTERACTIVE_JS, TIMEOUT_MS, VIEWPORT
from playwright.sync_api import Browser, Page, sync_playwright

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "e2e"))
from table_steps import seed_game  # noqa: E402

HALL_WIFI = {"offline": False, "latency": 20, "downloadThroughput": 30e6 / 8,
             "uploadThroughput": 30e6 / 8}
DRAWN_TEXT = "Hand 1: Dee deals"
APP_TEXT = DRAWN_TEXT
"""The app's sheet of the game starts with the same line (it follows the game on the
server's sync socket and keeps it)."""


def shaped(browser: Browser, text: str) -> tuple[Page, dict[str, float]]:
    context = browser.new_context(viewport=VIEWPORT)
    context.add_init_script(INTERACTIVE_JS.replace('"New game"', repr(text)))
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", HALL_WIFI)
    received = {"bytes": 0.0}
    cdp.on("Network.loadingFinished",
           lambda e: received.__setitem__("bytes", received["bytes"] + e["encodedDataLength"]))
    return page, received


def seconds_to(page: Page, url: str | None) -> float:
    t0 = time.time()
    if url is None:
        page.reload(wait_until="commit")
    else:
        page.goto(url, wait_until="commit")
    page.wait_for_function("() => window.__tarabishInteractiveMs", timeout=TIMEOUT_MS)
    return float(page.evaluate("performance.timeOrigin + window.__tarabishInteractiveMs")) \
        / 1000 - t0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-address-"))
    game = seed_game(tmp / "data", [])
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    server = start([sys.executable, "-m", "scorer.cli", "--no-open", "--host", "127.0.0.1",
                    "--port", str(port), "--data-dir", str(tmp / "data"), "--phone-site",
                    str(args.site.resolve()), "--open-games-in", "app"], url, tmp / "server.log")
    rows: dict[str, list[float]] = {k: [] for k in (
        "drawn first visit s", "drawn first visit MB", "drawn reload s",
        "app first visit s", "app later start s")}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            for _ in range(args.rounds):
                page, got = shaped(browser, DRAWN_TEXT)
                rows["drawn first visit s"].append(seconds_to(page, f"{url}game/{game}?drawn=1"))
                page.wait_for_timeout(1_000)
                rows["drawn first visit MB"].append(got["bytes"] / 1e6)
                page.wait_for_timeout(1_000)
                rows["drawn reload s"].append(seconds_to(page, None))
                page.context.close()
                # Its bytes are not counted here: the app's Python and files are fetched
                # by its worker and service worker, which the page's CDP session does
                # not see (the build's report gives the first visit's size).
                page, _got = shaped(browser, APP_TEXT)
                rows["app first visit s"].append(seconds_to(page, f"{url}alone/game/{game}"))
                page.wait_for_timeout(3_000)  # the service worker keeps the rest meanwhile
                rows["app later start s"].append(seconds_to(page, None))
                page.context.close()
            browser.close()
    finally:
        stop(server)
    print(f"Game address over a hall's Wi-Fi (30 Mbit/s, 20 ms), {args.rounds} rounds, "
          "median (min-max):")
    for name, values in rows.items():
        print(f"  {name:24} {statistics.median(values):6.2f}  "
              f"({min(values):.2f}-{max(values):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
