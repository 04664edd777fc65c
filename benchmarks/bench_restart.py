"""The table server is killed and started again with 12 phones and the club board
open: how soon each says the server is lost, and how soon each is live again.

    uv run python benchmarks/bench_restart.py                    # our script (hold)
    uv run python benchmarks/bench_restart.py --strategy reload  # reload once it answers
    uv run python benchmarks/bench_restart.py --strategy flet    # Flet's own reconnect
    uv run python benchmarks/bench_restart.py --phones 4 --down 5

Sets up a club night (`tarabish event new`, `event round`), starts the real
server on 127.0.0.2 (loopback, but not the address Flet's client treats as
"localhost", where it never backs off: phones at a table use the laptop's LAN
address), opens `--phones` phones in Chromium on the two tables' score sheets
(half each) and the board, then kills the server (SIGKILL), waits `--down`
seconds and starts a new server process on the same port and folder.

Strategies (scorer/web/reconnect.js is swapped in the browser, the server is the
same): `hold` is the script as shipped (Flet's next attempt is held until /alive
answers); `reload` reloads the page once /alive answers; `flet` leaves the script
out (Flet's own backoff).

Printed, for the phones and the board: kill -> the message shown, and server
answering (the bench's own /alive poll, every 20 ms) -> live again (a phone: the
first frame painted after the first message on a websocket opened after the
kill; the board: its own "live" mark), as p50/p95/max. Then each phone is checked
to show its sheet. Bounded: gives up after `--limit` seconds. Only loopback is
ever contacted.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from bench_club_night import percentiles, tarabish
from playwright.sync_api import Browser, Page, Route, sync_playwright
from playwright.sync_api import Error as PlaywrightError

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("TARABISH_CHROMIUM", "/usr/bin/chromium")
HOST = "127.0.0.2"
SCRIPT_PATH = "/_page/reconnect.js"

#: Runs in every phone before the page's own scripts: notes (in Python, so that a
#: reload loses nothing) when the lost-server message appears, and the first frame
#: painted after the first message on each websocket.
RECORDER = """
(() => {
  const note = (what) => window.benchNote(what, performance.timeOrigin + performance.now());
  const Native = window.WebSocket;
  function Recorded(url, protocols) {
    note("attempt");
    const socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    let first = true;
    socket.addEventListener("message", () => {
      if (!first) return;
      first = false;
      requestAnimationFrame(() => requestAnimationFrame(() => note("live")));
    });
    socket.addEventListener("close", () => note("closed"));
    return socket;
  }
  Recorded.prototype = Native.prototype;
  for (const name of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) {
    Object.defineProperty(Recorded, name, { value: Native[name] });
  }
  window.WebSocket = Recorded;
  new MutationObserver(() => {
    const shown = Boolean(document.getElementById("tarabish-lost"));
    if (shown !== window.benchShown) {
      window.benchShown = shown;
      if (shown) note("message");
    }
  }).observe(document, { childList: true, subtree: true });
})();
"""


def set_up(data: Path) -> tuple[str, list[str]]:
    """A night of four teams, round 1 started: its id and the two tables' games."""
    spec = data.parent / "night.json"
    spec.write_text(json.dumps({
        "name": "Bench night", "format": "round_robin", "target": 500, "seed": 1,
        "teams": [["Ann", "Bob"], ["Cid", "Dee"], ["Eve", "Fay"], ["Gus", "Hal"]]}))
    event_id = tarabish(data, "event", "new", str(spec)).strip()
    games = re.findall(r"\(game ([0-9a-f]{8})", tarabish(data, "event", "round", event_id))
    return event_id, games


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def start(data: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "scorer.cli", "--no-open", "--host", HOST, "--port", str(port),
             "--data-dir", str(data)],
            cwd=REPO, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})


def answering_at(base: str, deadline: float) -> float:
    """Poll /alive every 20 ms; the wall-clock time of the first answer."""
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "alive", timeout=1) as reply:
                if reply.status < 300:
                    return time.time()
        except OSError:
            pass
        time.sleep(0.02)
    raise SystemExit("the server did not answer in time")


def swapped_script(strategy: str, original: str) -> str:
    if strategy == "flet":
        return ""
    if strategy == "reload":
        reloading = original.replace("      resolve();\n",
                                     "      resolve();\n      window.location.reload();\n", 1)
        assert reloading != original, "reconnect.js changed shape"
        return reloading
    return original


def open_phones(browser: Browser, base: str, games: list[str], phones: int, strategy: str,
                notes: dict[int, list[tuple[str, float]]], deadline: float) -> list[Page]:
    original = (REPO / "scorer" / "web" / "reconnect.js").read_text(encoding="utf-8")
    script = swapped_script(strategy, original)

    def serve_script(route: Route) -> None:
        route.fulfill(body=script, content_type="text/javascript",
                      headers={"Cache-Control": "no-store"})

    pages: list[Page] = []
    for n in range(phones):
        context = browser.new_context(viewport={"width": 390, "height": 844})
        context.route(f"**{SCRIPT_PATH}", serve_script)
        notes[n] = []
        context.expose_function(
            "benchNote", lambda what, at, n=n: notes[n].append((str(what), float(at) / 1000)))
        context.add_init_script(RECORDER)
        page = context.new_page()
        page.goto(f"{base}game/{games[n % len(games)]}", wait_until="commit")
        pages.append(page)
    for page in pages:
        timeout = max(1.0, deadline - time.monotonic()) * 1000
        page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=timeout)
        page.eval_on_selector("flt-semantics-placeholder", "e => e.click()")
        page.get_by_text("Score sheet").first.wait_for(timeout=timeout)
    return pages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=12)
    parser.add_argument("--down", type=float, default=20.0,
                        help="seconds between the kill and the new server's start")
    parser.add_argument("--strategy", choices=("hold", "reload", "flet"), default="hold")
    parser.add_argument("--limit", type=float, default=170.0,
                        help="seconds; past this, stop waiting and print what came")
    args = parser.parse_args(argv)
    # `timeout` sends SIGTERM: stop through `finally`, so no server is left running.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(124))
    deadline = time.monotonic() + args.limit
    work = Path(tempfile.mkdtemp(prefix="bench-restart-"))
    data = work / "data"
    event_id, games = set_up(data)
    port = free_port()
    base = f"http://{HOST}:{port}/"
    log = work / "server.log"
    server = start(data, port, log)
    answering_at(base, deadline)
    notes: dict[int, list[tuple[str, float]]] = {}
    again: subprocess.Popen[bytes] | None = None
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync"])
            loaded = time.monotonic()
            pages = open_phones(browser, base, games, args.phones, args.strategy, notes,
                                deadline)
            board = browser.new_page(viewport={"width": 1280, "height": 720})
            board.goto(f"{base}board/{event_id}")
            board.wait_for_function("document.getElementById('live').textContent === 'live'")
            print(f"{args.phones} phones and the board open in {time.monotonic() - loaded:.0f} s "
                  f"(strategy: {args.strategy}); load average {os.getloadavg()[0]:.1f}",
                  flush=True)
            pages[0].wait_for_timeout(2000)  # let the pages settle

            killed = time.time()
            server.send_signal(signal.SIGKILL)
            server.wait(10)
            pages[0].wait_for_timeout(args.down * 1000)
            again = start(data, port, log)
            answered = answering_at(base, deadline)
            print(f"killed; new server started after {args.down:.0f} s, answering "
                  f"{answered - killed:.1f} s after the kill", flush=True)

            def back(n: int) -> float | None:
                lives = [at for what, at in notes[n] if what == "live" and at > killed]
                return min(lives) if lives else None

            while time.monotonic() < deadline and any(back(n) is None for n in notes):
                pages[0].wait_for_timeout(100)
            with contextlib.suppress(PlaywrightError):  # reported as "none" below
                board.wait_for_function(
                    "document.getElementById('live').textContent === 'live'",
                    timeout=max(1.0, deadline - time.monotonic()) * 1000)

            shown = [min(at for what, at in notes[n] if what == "message" and at > killed)
                     - killed for n in notes
                     if any(what == "message" and at > killed for what, at in notes[n])]
            live = [at - answered for n in notes if (at := back(n)) is not None]
            stuck = sum(1 for n in notes if back(n) is None)
            link: list[dict[str, Any]] = board.evaluate("window.boardLink")
            board_lost = [e["at"] / 1000 - killed for e in link
                          if e["what"] == "lost" and e["at"] / 1000 > killed]
            # The bench's own poll may be answered a moment after the board's request
            # (both wait in the listen queue): a figure just under 0 is "at once".
            board_live = [e["at"] / 1000 - answered for e in link
                          if e["what"] == "live" and e["at"] / 1000 > killed]
            print(f"phones, kill -> message shown: {percentiles(shown)}", flush=True)
            print(f"phones, server answering -> live again: {percentiles(live)}"
                  + (f"; {stuck} not back within the limit" if stuck else ""), flush=True)
            print(f"board, kill -> message shown: {percentiles(board_lost[:1])}; "
                  f"server answering -> live again: {percentiles(board_live[:1])}", flush=True)
            attempts = [f"{at - killed:.1f}" for what, at in notes[0]
                        if what == "attempt" and at > killed]
            print(f"phone 1 opened a websocket at {', '.join(attempts)} s after the kill",
                  flush=True)
            showing = 0
            for page in pages:
                left = deadline - time.monotonic()
                try:
                    # A reloaded page has its accessibility tree off again.
                    if page.locator("flt-semantics-placeholder").count():
                        page.eval_on_selector("flt-semantics-placeholder", "e => e.click()")
                    page.get_by_text("Score sheet").first.wait_for(
                        timeout=max(100.0, min(10.0, left) * 1000))
                    showing += 1
                except PlaywrightError:  # counted, not raised
                    pass
            print(f"phones showing their sheet afterwards: {showing} of {len(pages)}; "
                  f"load average {os.getloadavg()[0]:.1f}", flush=True)
            browser.close()
    finally:
        for process in (server, again):
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGINT)
                try:
                    process.wait(15)
                except subprocess.TimeoutExpired:
                    process.kill()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
