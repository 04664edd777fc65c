"""CPU the test browser spends per app page, by Chromium flags (issue 39: the suite is
CPU-bound on 2 cores). Starts one table server, then for each flag set opens the app
in N fresh contexts (as the browser tests do), taps New game, and prints the CPU
seconds of Chromium's processes (all of them, from /proc) per page, and while a page
sits idle for 5 s.

    uv run python benchmarks/bench_test_browser_cpu.py [N]

Measured (2-core machine, 2026-11-29, Chromium 156, a full test run beside it): the
tests' flags 2.00 s a page, the address bar's popup page left on 2.58 s
(tests/e2e/browser_setup.py).
Before (2026-11): Debian's chromium 2.7-3.8 s a page, its
chromium-headless-shell 2.3 s (an empty page 0.14 s against 0.47 s); a screenshot
0.03 s, an idle page nothing. The tests stay on chromium: under the headless shell
four fit checks read text as cut short that chromium draws whole (its text is
measured differently), and the browser tests' CPU fell far less than these figures
promise (the compositor's share rose).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))

from browser_setup import PLAYWRIGHT_DISABLED_FEATURES
from conftest import CHROMIUM_ARGS, open_app_page, start_app_server
from playwright.sync_api import sync_playwright
from proc_tree import cpu_seconds, descendants

FLAG_SETS = {
    "chromium": ("/usr/bin/chromium", []),
    # The address bar's popup page back in each context (tests/e2e/browser_setup.py).
    "chromium, popup page": ("/usr/bin/chromium",
                             ["--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES)]),
    "headless shell": ("/usr/bin/chromium-headless-shell", []),
    "chromium, no tier-up": ("/usr/bin/chromium", ["--js-flags=--no-wasm-tier-up"]),
}
"""Browser and extra flags. Tried before, no change beyond noise: --js-flags=--liftoff-only,
--enable-unsafe-swiftshader, --wasm-lazy-compilation, --num-raster-threads=1."""


def tree_cpu(root: int) -> float:
    """CPU seconds (user + system) of `root` and every process under it."""
    return sum(cpu_seconds(pid) or 0.0 for pid in (root, *descendants(root)))


def main(pages: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = start_app_server(Path(tmp) / "data", cache=Path(tmp) / "cache")
        try:
            with sync_playwright() as p:
                for name, (executable, extra) in FLAG_SETS.items():
                    if not Path(executable).exists():
                        print(f"{name:20} not installed ({executable})")
                        continue
                    browser = p.chromium.launch(executable_path=executable, headless=True,
                                                args=[*CHROMIUM_ARGS, *extra])
                    root = os.getpid()
                    warm = browser.new_context().new_page()
                    open_app_page(warm, server.url)
                    warm.context.close()
                    server_pid = server.process.pid
                    before, wall = tree_cpu(root), time.perf_counter()
                    server_before = tree_cpu(server_pid)
                    for _ in range(pages):
                        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
                        open_app_page(page, server.url)
                        page.get_by_role("button", name="New game").click()
                        page.get_by_text("Who sits where").wait_for()
                        page.context.close()
                    served = (tree_cpu(server_pid) - server_before) / pages
                    loads = (tree_cpu(root) - before) / pages - served
                    took = (time.perf_counter() - wall) / pages
                    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
                    open_app_page(page, server.url)
                    page.wait_for_timeout(1000)
                    before = tree_cpu(root)
                    page.wait_for_timeout(5000)
                    idle = tree_cpu(root) - before
                    before = tree_cpu(root)
                    for _ in range(5):
                        page.screenshot()
                    shot = (tree_cpu(root) - before) / 5
                    browser.close()
                    print(f"{name:20} {loads:5.2f} s CPU per page, server {served:4.2f} s ({took:4.1f} s wall), "
                          f"{idle:4.2f} s CPU idle 5 s, {shot:4.2f} s a screenshot", flush=True)
        finally:
            server.stop()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 4)
