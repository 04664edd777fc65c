"""Phone-alone tests: the site `tarabish build-web` writes, driven in Chromium.

The site is built once per session (it is slow: wheels, the app archive);
TARABISH_PWA_SITE=DIR reuses a site built before (`uv run tarabish build-web
DIR`). Chromium resolves no host but loopback, so nothing the page does can
reach the internet: what works here works in airplane mode.

Fixtures
    built_site      Path of the built site (session)
    site_server     factory: site_server() -> a running SiteServer (stopped after the test)
    table_server    factory: table_server(site=None, port=None, args=(), data=None) -> a
                    TableServer: `tarabish --phone-site` with the built site (or `site`)
                    under /alone/ (stopped after the test)
    phone           a fresh phone (browser context, 390x844) with its request log; the
                    test fails if a page asked another host or got an error (page_requests)
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Playwright
from pwa_phone import START_TIMEOUT_MS, Phone, show_app

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tests" / "e2e"))  # table_steps: what a player does

from browser_setup import CHROMIUM_ARGS as BROWSER_ARGS  # noqa: E402
from browser_setup import fewer_frames  # noqa: E402
from page_requests import RequestWatch  # noqa: E402

from scorer.webbuild.build_cache import BuildCache  # noqa: E402
from scorer.webbuild.site import build_site  # noqa: E402
from scorer.webbuild.static_server import SiteServer  # noqa: E402
from scorer.webbuild.tools import Tools  # noqa: E402
from tests.run_shared import made_once  # noqa: E402
from tests.server_zygote import ServerProcess, start_server_process  # noqa: E402

CHROMIUM = os.environ.get("TARABISH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    *BROWSER_ARGS,
    # No name resolves but loopback: the page cannot reach any other host.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
]
PHONE_VIEWPORT = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory,
               request: pytest.FixtureRequest) -> Path:
    """The site, built once for every worker of the run (the first to ask builds it, the
    others wait on a lock: tests/run_shared.py)."""
    reuse = os.environ.get("TARABISH_PWA_SITE", "").strip()
    if reuse:
        return Path(reuse)

    def build(folder: Path) -> None:
        wheels = request.getfixturevalue("phone_wheels")
        # Its own build cache, not the user's: every step is made, as on a first build.
        tools = Tools(cache=BuildCache(folder / "build-cache"))
        build_site(folder / "site", wheels, precompress=False, snapshot=True, tools=tools)

    return made_once(tmp_path_factory, "pwa", build) / "site"


@pytest.fixture
def site_server(built_site: Path) -> Iterator[Callable[..., SiteServer]]:
    servers: list[SiteServer] = []

    def start(port: int = 0) -> SiteServer:
        server = SiteServer(built_site, port=port).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        if server.running:
            server.stop()


@dataclass
class TableServer:
    """`tarabish --phone-site SITE` in a subprocess: the table server, the phone-alone
    site under /alone/ and the endpoint its games are sent to."""

    url: str
    data_dir: Path
    process: ServerProcess
    log_path: Path
    port: int = 0

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        """Like Ctrl-C; killed if it does not end."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


@pytest.fixture
def table_server(built_site: Path, tmp_path: Path) -> Iterator[Callable[..., TableServer]]:
    """table_server(site=None, port=None, args=(), data=None) -> a running TableServer
    serving `site` (default `built_site`) on `port` (default a free one; the same port
    keeps a phone's origin), with more `tarabish` options `args` (stopped after)."""
    started: list[TableServer] = []

    def start(site: Path | None = None, port: int | None = None, args: tuple[str, ...] = (),
              data: Path | None = None) -> TableServer:
        if port is None:
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                port = s.getsockname()[1]
        data = data or tmp_path / f"table{len(started)}"
        log_path = tmp_path / f"table{len(started)}.log"
        process = start_server_process(
            ["--no-open", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data),
             "--phone-site", str(site or built_site), *args],
            {**os.environ, "PYTHONUNBUFFERED": "1", "TARABISH_CACHE": str(tmp_path / "cache")},
            REPO_ROOT, log_path)
        server = TableServer(f"http://127.0.0.1:{port}/", data, process, log_path, port)
        started.append(server)
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"the table server exited:\n{server.log()}")
            with contextlib.suppress(OSError), urllib.request.urlopen(server.url, timeout=2):
                return server
            if time.monotonic() > deadline:
                raise RuntimeError(f"the table server did not answer:\n{server.log()}")
            time.sleep(0.1)

    yield start
    for server in started:
        server.stop()


@pytest.fixture(scope="session")
def pwa_browser(playwright: Playwright) -> Iterator[Browser]:
    """A Chromium of our own (its own flags), started by pytest-playwright's Playwright:
    a second sync Playwright in the same session would not start."""
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        message = f"Chromium not found at {CHROMIUM} (apt-get install -y chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    browser = _launch(playwright)
    yield browser
    browser.close()


def _launch(pw: Playwright) -> Browser:
    return pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)


@pytest.fixture
def phone(pwa_browser: Browser, request: pytest.FixtureRequest) -> Iterator[Phone]:
    """A fresh phone; the test fails if its pages asked another host, got an answer
    >= 400 or saw a request fail (@pytest.mark.server_stops: failures pass)."""
    watch = RequestWatch()
    context = watch.watch(fewer_frames(pwa_browser.new_context(viewport=PHONE_VIEWPORT,
                                                               accept_downloads=True)))
    yield Phone(context)
    stops = request.node.get_closest_marker("server_stops") is not None
    problems = watch.problems(errors_expected=stops)
    context.close()
    if problems:
        pytest.fail("the page asked the network for what it should not:\n  "
                    + "\n  ".join(problems[:20]), pytrace=False)


def open_site(page: Page, url: str, first_text: str = "New game") -> float:
    """Load the site, turn on Flutter's accessibility tree, wait for `first_text`;
    the seconds it took."""
    started = time.perf_counter()
    page.goto(url, wait_until="commit", timeout=START_TIMEOUT_MS)
    show_app(page, first_text)
    return time.perf_counter() - started


@pytest.fixture
def open_phone_site() -> Callable[..., float]:
    """open_phone_site(page, url, first_text="New game") -> seconds to interactive."""
    return open_site


def pytest_collection_modifyitems(items: list[Any]) -> None:
    for item in items:
        if "tests/pwa/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.slow)
