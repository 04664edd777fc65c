"""The floor of a phone-alone start: Python's runtime alone, beside a table server's reload.

    uv run python benchmarks/floor_pyodide.py [--reloads 9] [--rate 1]

Issue 10 asks a start from the home screen to be within 1.5x of a table server's
reload. This measures what no phone-alone app can go below: a page whose only work
is to start flet-web's own Pyodide in a module worker (as every Flet app in the
browser does) and run one line of Python. No Flutter, no app, no pydantic, no
compiled libraries, nothing imported; files from the browser's warm HTTP cache on
loopback. Two ways, each reloaded `--reloads` times, in turns with the table server's
page (`tarabish`, own empty data folder), so all three see the same noise:

- runtime: `loadPyodide()` from scratch (the interpreter initialised);
- snapshot: `loadPyodide({_loadSnapshot})` from a memory snapshot of that bare
  interpreter, kept in Cache Storage (how the site starts, with its app imported).

Each is timed from the request of the page to the worker's answer, on the page's own
clock; the table server from the request of the page to "New game" in the
accessibility tree, as bench_phone_alone.py times it. Prints medians and ratios.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path
from statistics import median

import flet_web
from bench_page_load import free_port, start_tarabish, stop
from bench_phone_alone import (
    ARGS,
    CHROMIUM,
    VIEWPORT,
    home_time,
    new_phone,
    reload_time,
    throttle,
)
from playwright.sync_api import Page, sync_playwright

from scorer.webbuild.static_server import SiteServer

PYODIDE = Path(flet_web.__file__).parent / "web" / "pyodide"
FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
         "pyodide-lock.json")

PAGE = """<!doctype html><meta charset="utf-8"><title>floor</title>
<script>
  const mode = new URLSearchParams(location.search).get("mode") || "runtime";
  const worker = new Worker("floor_worker.mjs?mode=" + mode, { type: "module" });
  worker.onmessage = (event) => {
    window.__floorMs = performance.now();
    window.__floorSays = event.data;
  };
</script>
"""

WORKER = """
import { loadPyodide } from "./pyodide/pyodide.mjs";
const mode = new URL(import.meta.url).searchParams.get("mode");
const indexURL = new URL("./pyodide/", import.meta.url).href;
const KEPT = new URL("./bare.snapshot", import.meta.url).href;
try {
  if (mode === "make") {
    const py = await loadPyodide({ indexURL, _makeSnapshot: true });
    const bytes = py.makeMemorySnapshot();
    const cache = await caches.open("floor");
    await cache.put(KEPT, new Response(bytes));
    postMessage(`made ${bytes.length} bytes`);
  } else if (mode === "snapshot") {
    const kept = await caches.match(KEPT);
    const bytes = new Uint8Array(await kept.arrayBuffer());
    const py = await loadPyodide({ indexURL, _loadSnapshot: bytes });
    postMessage(`ok ${py.runPython("1 + 1")}`);
  } else {
    const py = await loadPyodide({ indexURL });
    postMessage(`ok ${py.runPython("1 + 1")}`);
  }
} catch (error) {
  postMessage(`error ${error}`);
}
"""


def answered(page: Page, url: str) -> float:
    """Seconds from asking for `url` to the worker's answer (after a pause)."""
    seconds = home_time(page, url, seen="__floorMs")
    says = page.evaluate("window.__floorSays")
    if not str(says).startswith(("ok", "made")):
        raise RuntimeError(f"the floor page says {says!r}")
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reloads", type=int, default=9)
    parser.add_argument("--rate", type=float, default=1.0, help="CPU slow-down of the pages")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        site = tmp / "floor"
        (site / "pyodide").mkdir(parents=True)
        for name in FILES:
            shutil.copy(PYODIDE / name, site / "pyodide" / name)
        (site / "index.html").write_text(PAGE, "utf-8")
        (site / "floor_worker.mjs").write_text(WORKER, "utf-8")
        server = SiteServer(site).start()
        port = free_port()
        proc = start_tarabish(port, tmp, "table")
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                floor = browser.new_context(viewport=VIEWPORT).new_page()
                throttle(floor, args.rate)
                _, table = new_phone(browser, args.rate)
                table.goto(f"http://127.0.0.1:{port}/")
                for mode in ("runtime", "make", "snapshot"):  # warm the caches
                    answered(floor, f"{server.url}?mode={mode}")
                reload_time(table)
                times: dict[str, list[float]] = {"runtime": [], "snapshot": [], "table": []}
                for _ in range(args.reloads):
                    for mode in ("runtime", "snapshot"):
                        times[mode].append(answered(floor, f"{server.url}?mode={mode}"))
                    times["table"].append(reload_time(table))
                browser.close()
        finally:
            stop(proc)
            server.stop()
    table_s = median(times["table"])
    print(f"CPU x{args.rate:g}, {args.reloads} reloads each, medians (min-max):")
    print(f"  table server reload -> 'New game': {table_s:.2f} s "
          f"({min(times['table']):.2f}-{max(times['table']):.2f})")
    for mode, label in (("runtime", "Pyodide alone, from scratch"),
                        ("snapshot", "Pyodide alone, bare memory snapshot")):
        s = median(times[mode])
        print(f"  {label} -> Python answers: {s:.2f} s "
              f"({min(times[mode]):.2f}-{max(times[mode]):.2f}), {s / table_s:.2f}x the table server")
    return 0


if __name__ == "__main__":
    sys.exit(main())
