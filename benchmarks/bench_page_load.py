"""Page weight and time to interactive, Tarabish beside a bare Flet page.

    uv run python benchmarks/bench_page_load.py [--runs 3] [--json out.json]

Starts, on free loopback ports, (1) a hello-world `flet_web.fastapi` app
served by uvicorn with nothing added (no compression, no cache headers) and
(2) the Tarabish server (`python -m scorer.cli --host 127.0.0.1`), then loads
each in headless Chromium (390x844, fresh profile per run):

- first load: bytes transferred (Resource Timing transferSize, all requests
  until the network is idle) and seconds from navigation to interactive
  (accessibility tree on, first text visible, first frame painted);
- reload of the same tab, and a new tab in the same browser (new session,
  warm cache).

Tarabish is measured twice: over loopback as `http://127.0.0.1:PORT/` (a
secure context: Chromium asks for brotli and loads skwasm.wasm) and
"LAN-like" as `http://tarabish.test:PORT/`, a name Chromium maps to
127.0.0.1 (`--host-resolver-rules`): a plain-HTTP, non-localhost origin like
a phone opening the server's LAN address, so Chromium asks for gzip only and,
without ImageDecoder, loads skwasm_heavy.wasm; yet all traffic stays on
loopback (benchmark traffic never goes to a LAN address). Each is measured
"cold" (first phone right after a fresh server starts: files compressed at
the fast level on first request) and "warm" (after the background pass at the
best level). Targets: first load <= 5.5 MB, reload <= 0.3 MB, interactive <= 3 s.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

from scorer.web.compression import BEST_LEVEL, QUIET_S

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("TARABISH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
VIEWPORT = {"width": 390, "height": 844}
LAN_HOST = "tarabish.test"
"""Resolved to 127.0.0.1 by the browser only: a LAN-like origin on loopback."""
RESOLVER_ARGS = [f"--host-resolver-rules=MAP {LAN_HOST} 127.0.0.1"]
TARGETS = {"first_mb": 5.5, "reload_mb": 0.3, "interactive_s": 3.0}

BARE_APP = textwrap.dedent("""
    import sys
    import flet as ft
    import flet_web.fastapi as flet_fastapi
    import uvicorn

    def main(page: ft.Page) -> None:
        page.add(ft.Text("Hello, bare Flet"))

    app = flet_fastapi.FastAPI()
    app.mount("/", flet_fastapi.app(main, no_cdn=True))
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning",
                ws="websockets-sansio")
""")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_http(url: str, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer")


def start(cmd: list[str], url: str, log: Path, cwd: Path = REPO,
          env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True,
                                env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})})
    wait_http(url, proc)
    return proc


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def level(url: str, path: str, encoding: str) -> str:
    req = urllib.request.Request(url.rstrip("/") + path, method="HEAD",
                                 headers={"Accept-Encoding": encoding})
    with urllib.request.urlopen(req, timeout=10) as r:
        return str(r.headers.get("x-compression-level", ""))


def wait_best(url: str, timeout: float = 300) -> float:
    """Seconds until the big files are cached at the best level in both encodings
    (asked every 3 x QUIET_S: the best-level pass waits for QUIET_S without a request)."""
    start_t = time.monotonic()
    wanted = [(p, e, b) for p in ("/main.dart.wasm", "/canvaskit/skwasm.wasm",
                                  "/canvaskit/skwasm_heavy.wasm")
              for e, b in (("gzip", str(BEST_LEVEL["gzip"])), ("br", str(BEST_LEVEL["br"])))]
    while time.monotonic() - start_t < timeout:
        if all(level(url, p, e) == b for p, e, b in wanted):
            return time.monotonic() - start_t
        time.sleep(3 * QUIET_S)
    return float("nan")


def bytes_now(page: Page) -> int:
    entries = page.evaluate("""() => performance.getEntriesByType('navigation')
        .concat(performance.getEntriesByType('resource')).map(e => e.transferSize || 0)""")
    return int(sum(entries))


def interactive(page: Page, text: str, start_t: float) -> float:
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
    page.eval_on_selector("flt-semantics-placeholder", "e => e.click()")
    page.get_by_text(text, exact=True).first.wait_for(state="visible", timeout=60_000)
    page.wait_for_selector("flt-scene canvas", state="attached", timeout=60_000)
    return time.perf_counter() - start_t


def measure(browser: Browser, url: str, text: str) -> dict[str, float]:
    context = browser.new_context(viewport=VIEWPORT)
    try:
        page = context.new_page()
        t0 = time.perf_counter()
        page.goto(url, wait_until="commit")
        first_s = interactive(page, text, t0)
        page.wait_for_load_state("networkidle")
        first_b = bytes_now(page)
        if LAN_HOST in url:  # really measured as a phone on the Wi-Fi would load it?
            assert page.evaluate("window.isSecureContext") is False, url
            assert page.evaluate("""() => performance.getEntriesByType('resource')
                .some(e => e.name.includes('skwasm_heavy.wasm'))"""), url
        t0 = time.perf_counter()
        page.reload(wait_until="commit")
        reload_s = interactive(page, text, t0)
        page.wait_for_load_state("networkidle")
        reload_b = bytes_now(page)
        tab = context.new_page()
        t0 = time.perf_counter()
        tab.goto(url, wait_until="commit")
        tab_s = interactive(tab, text, t0)
        tab.wait_for_load_state("networkidle")
        tab_b = bytes_now(tab)
    finally:
        context.close()
    return {"first_mb": first_b / 1e6, "first_s": first_s, "reload_mb": reload_b / 1e6,
            "reload_s": reload_s, "tab_mb": tab_b / 1e6, "tab_s": tab_s}


def median_of(runs: list[dict[str, float]]) -> dict[str, float]:
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def start_tarabish(port: int, tmp: Path, name: str, repo: Path = REPO,
                   env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """The table server on loopback only, with its own empty data dir (from `repo`'s
    scorer/, e.g. another checkout to compare with)."""
    return start([sys.executable, "-m", "scorer.cli", "--no-open", "--host", "127.0.0.1",
                  "--port", str(port), "--data-dir", str(tmp / f"data-{name}")],
                 f"http://127.0.0.1:{port}/", tmp / f"{name}.log", cwd=repo, env=env)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="bench-page-"))
    bare_port, app_port, cold_port = free_port(), free_port(), free_port()
    bare_url = f"http://127.0.0.1:{bare_port}/"
    app_url = f"http://127.0.0.1:{app_port}/"
    lan_url = f"http://{LAN_HOST}:{app_port}/"
    bare = start([sys.executable, "-c", BARE_APP, str(bare_port)], bare_url, tmp / "bare.log")
    app = start_tarabish(app_port, tmp, "app")
    results: dict[str, dict[str, float]] = {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM,
                                         args=CHROMIUM_ARGS + RESOLVER_ARGS, headless=True)
            # Cold: the first phone right after start (fast-level compression),
            # each on a server of its own.
            results["tarabish, cold start (loopback, br)"] = measure(browser, app_url,
                                                                     "Tarabish")
            cold = start_tarabish(cold_port, tmp, "cold")
            try:
                results["tarabish, cold start (LAN-like, gzip)"] = measure(
                    browser, f"http://{LAN_HOST}:{cold_port}/", "Tarabish")
            finally:
                stop(cold)
            best_after = wait_best(app_url)
            print(f"best-level compression done {best_after:.0f} s after the cold run",
                  flush=True)
            for name, url, text in [
                ("bare Flet (no compression)", bare_url, "Hello, bare Flet"),
                ("tarabish (loopback, br)", app_url, "Tarabish"),
                ("tarabish (LAN-like, gzip)", lan_url, "Tarabish"),
            ]:
                runs = [measure(browser, url, text) for _ in range(args.runs)]
                results[name] = median_of(runs)
            browser.close()
    finally:
        stop(bare)
        stop(app)

    print()
    print(f"{'page':42} {'first MB':>9} {'first s':>8} {'reload MB':>10} {'reload s':>9} "
          f"{'new tab MB':>11} {'new tab s':>10}")
    for name, r in results.items():
        print(f"{name:42} {r['first_mb']:9.2f} {r['first_s']:8.2f} {r['reload_mb']:10.3f} "
              f"{r['reload_s']:9.2f} {r['tab_mb']:11.3f} {r['tab_s']:10.2f}")
    print(f"targets: first load <= {TARGETS['first_mb']} MB, reload <= "
          f"{TARGETS['reload_mb']} MB, interactive <= {TARGETS['interactive_s']} s "
          f"(medians of {args.runs} runs; cold starts: 1 run each)")
    if args.json:
        out: dict[str, Any] = {"runs": args.runs, "targets": TARGETS, "results": results}
        args.json.write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
