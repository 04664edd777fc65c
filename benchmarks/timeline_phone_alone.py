"""The critical path of one start, as a timeline: the phone alone (offline, from its
service worker's cache and memory snapshot) beside a reload of the table server's page.

    uv run python benchmarks/timeline_phone_alone.py --site DIR [--reloads 3] [--cpu 4]
        [--trace FILE.json] [--warm] [--no-table]

Serves a built site (`tarabish build-web DIR`) as bench_phone_alone.py does, makes
the first visit, waits until the service worker keeps the memory snapshot, stops the
file server, then reloads the phone alone and the table server's page in turns. For
each reload it prints, in ms after the page was requested (the page's own clock):
boot.js's marks (`tarabish: ...` performance marks), the Python worker's (its console
lines `Tarabish worker: ... @epoch-ms`, lined up with the page's clock), when the page's
big files were read (resource timing: main.dart.wasm and the like), the websocket's
open and first message (table server), and "New game" in the accessibility tree.
`--trace FILE.json` records a Chromium trace (CDP, with the `v8.wasm` categories) of
the last reload of the phone alone, for chrome://tracing or Perfetto. `--warm` first
uses each page as bench_phone_alone.py does (a new game, Record hand, the number pad),
leaves it quiet for WARM_S seconds, and then opens the home address instead of
reloading: starts after a session of use, with the browser's cache of compiled wasm
code written.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench_page_load import free_port, start_tarabish, stop
from bench_phone_alone import (
    ARGS,
    CHROMIUM,
    INTERACTIVE_JS,
    TIMEOUT_MS,
    VIEWPORT,
    WARM_S,
    load_time,
    throttle,
    to_number_pad,
    wait_until_cached,
)
from playwright.sync_api import Page, sync_playwright

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from scorer.webbuild.static_server import SiteServer  # noqa: E402

MARKS_JS = """
(() => {
  // Harness: the websocket's moments (table server), as performance marks.
  const Native = window.WebSocket;
  if (!Native) return;
  window.WebSocket = function (...args) {
    performance.mark("websocket created");
    const socket = new Native(...args);
    socket.addEventListener("open", () => performance.mark("websocket open"), { once: true });
    socket.addEventListener("message", () => performance.mark("first websocket message"),
                            { once: true });
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, Native);
})();
"""
COLLECT_JS = """
() => ({
  origin: performance.timeOrigin,
  marks: performance.getEntriesByType("mark").map((m) => [m.name, m.startTime]),
  resources: performance.getEntriesByType("resource")
    .filter((r) => /main\\.dart|skwasm|canvaskit|flutter|boot\\.js|worker\\.js|\\.otf|\\.ttf/.test(r.name))
    .map((r) => [r.name.split("/").pop(), r.startTime, r.responseEnd]),
  interactive: window.__tarabishInteractiveMs,
})
"""
WORKER_LINE = re.compile(r"Tarabish worker: (.*) at \d+ ms @([\d.]+)")


def reload_timeline(page: Page, worker_lines: list[str],
                    home: str | None = None) -> list[tuple[float, str]]:
    page.wait_for_timeout(1000)
    worker_lines.clear()
    if home is None:
        page.reload(wait_until="commit")
    else:
        page.goto(home, wait_until="commit")
    page.wait_for_function("() => window.__tarabishInteractiveMs", timeout=TIMEOUT_MS)
    page.wait_for_timeout(300)  # the worker's last console lines
    got: dict[str, Any] = page.evaluate(COLLECT_JS)
    rows = [(ms, name) for name, ms in got["marks"]]
    for name, start, end in got["resources"]:
        rows.append((end, f"read {name} (asked at {start:.0f})"))
    for line in worker_lines:
        match = WORKER_LINE.search(line)
        if match:
            rows.append((float(match.group(2)) - got["origin"], f"[worker] {match.group(1)}"))
    rows.append((got["interactive"], "NEW GAME in the accessibility tree"))
    return sorted(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, required=True)
    parser.add_argument("--reloads", type=int, default=3)
    parser.add_argument("--cpu", type=float, default=1.0, help="CPU slow-down (CDP)")
    parser.add_argument("--trace", type=Path, help="a Chromium trace of the last reload")
    parser.add_argument("--no-table", action="store_true", help="the phone alone only")
    parser.add_argument("--warm", action="store_true",
                        help="after a session of use (the compiled-code cache written)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        port = free_port()
        proc = None if args.no_table else start_tarabish(port, Path(tmp_name), "table")
        server = SiteServer(args.site).start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                phones = {}
                for name in ("alone",) + (() if args.no_table else ("table",)):
                    context = browser.new_context(viewport=VIEWPORT)
                    context.add_init_script(MARKS_JS)
                    context.add_init_script(INTERACTIVE_JS)
                    page = context.new_page()
                    lines: list[str] = []
                    page.on("console", lambda m, lines=lines: lines.append(m.text))
                    throttle(page, args.cpu)
                    phones[name] = (page, lines)
                alone = phones["alone"][0]
                print(f"first visit: {load_time(alone, server.url):.1f} s")
                wait_until_cached(alone, args.site)
                server.stop()
                homes = {"alone": server.url, "table": f"http://127.0.0.1:{port}/"}
                if not args.no_table:
                    load_time(phones["table"][0], homes["table"])
                if args.warm:
                    for page, _lines in phones.values():
                        to_number_pad(page)
                    alone.wait_for_timeout(WARM_S * 1000)
                for run in range(args.reloads):
                    tracing = args.trace is not None and run == args.reloads - 1
                    if tracing:
                        cdp = alone.context.new_cdp_session(alone)
                        cdp.send("Tracing.start", {"traceConfig": {"includedCategories": [
                            "devtools.timeline", "v8", "v8.wasm", "blink.user_timing",
                            "disabled-by-default-v8.wasm.detailed",
                            "disabled-by-default-devtools.timeline", "loading",
                            "ServiceWorker", "v8.compile"]}, "transferMode": "ReturnAsStream"})
                    for name, (page, lines) in phones.items():
                        rows = reload_timeline(page, lines, homes[name] if args.warm else None)
                        if tracing and name == "alone":  # the trace is the browser's: this page alone
                            save_trace(cdp, args.trace)
                        print(f"\nreload {run + 1}, {name}:")
                        for ms, what in rows:
                            print(f"  {ms:7.0f}  {what}")
                browser.close()
        finally:
            if server.running:
                server.stop()
            if proc is not None:
                stop(proc)
    return 0


def save_trace(cdp: Any, out: Path) -> None:
    done: dict[str, Any] = {}
    cdp.on("Tracing.tracingComplete", lambda event: done.update(event))
    cdp.send("Tracing.end")
    while not done:
        cdp.send("Runtime.evaluate", {"expression": "1"})  # let the event arrive
    chunks = []
    handle = done["stream"]
    while True:
        part = cdp.send("IO.read", {"handle": handle})
        chunks.append(part["data"])
        if part.get("eof"):
            break
    cdp.send("IO.close", {"handle": handle})
    out.write_text("".join(chunks), encoding="utf-8")
    events = json.loads(out.read_text(encoding="utf-8"))
    count = len(events["traceEvents"] if isinstance(events, dict) else events)
    print(f"trace: {out} ({count} events)")


if __name__ == "__main__":
    sys.exit(main())
