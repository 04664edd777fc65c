"""Browser-test harness: the real table server in a subprocess, driven by
Debian's Chromium through Playwright (sync API, pytest-playwright fixtures).

Fixtures
    app_server      session-wide server (fresh data dir), an `AppServer`
    app_url         its page URL, "http://127.0.0.1:PORT/"
    start_server    factory for extra servers, stopped after the test:
                    start_server(data_dir=None, port=None, env=None) -> AppServer
    page, context   pytest-playwright's, with a 390x844 phone viewport;
                    dark: @pytest.mark.browser_context_args(color_scheme="dark")
                    or set_color_scheme(page, "dark") on a loaded page.
    new_context     pytest-playwright's factory: new_context(**context_args),
                    e.g. a second phone at the same table. Every context it
                    makes (so `page` and `context` too) is watched: a test
                    fails when a page asked another host, got an answer >= 400
                    or a request failed (@pytest.mark.server_stops: a test that
                    stops its server on purpose lets failed requests pass).
                    Its pages' sockets are followed: table_steps.tap waits for
                    the server's answer to a tap, not a fixed pause.

Helper fixtures (each returns a function; importing from a conftest is fragile)
    open_app            open_app(page, url, first_text="Tarabish",
                                 timeout_ms=60_000) -> float seconds to interactive
    screenshot          screenshot(page, name) -> Path  (test-artifacts/screenshots/);
                        table_steps.shoot(page, name, screenshot): NAME-light and
                        NAME-dark of the screen on show
    color_scheme        color_scheme(page, "dark" | "light") -> None
    request_log         a RequestLog recording the `page` fixture's requests:
                        .urls, .failed, .websockets, .foreign(), .foreign_hosts()
    page_transfer_size  page_transfer_size(page) -> int bytes fetched by this load
    page_resource_sizes page_resource_sizes(page) -> {url: bytes} for this load
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

import pytest
from browser_setup import CHROMIUM_ARGS, fewer_frames
from page_requests import RequestWatch
from playwright.sync_api import BrowserContext, Page, Request
from table_steps import (
    PHONE_SIZES,
    SMALL,
    Phone,
    Size,
    follow_answers,
    settled_shot,
    shown_words_within,
)

from tests.server_zygote import ServerProcess, start_server_process

REPO_ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS_DIR = REPO_ROOT / "test-artifacts"
SCREENSHOT_DIR = ARTIFACTS_DIR / "screenshots"

CHROMIUM = os.environ.get("TARABISH_CHROMIUM", "/usr/bin/chromium")
PHONE_VIEWPORT = {"width": 390, "height": 844}
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})


# --------------------------------------------------------------------------
# The app server
# --------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port that was free a moment ago on 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class AppServer:
    """A `tarabish` server running in a subprocess (a child of the worker's zygote,
    or with TARABISH_TEST_NO_FORK=1 a fresh interpreter)."""

    url: str
    port: int
    data_dir: Path
    log_path: Path
    process: ServerProcess = field(repr=False)

    def log(self) -> str:
        """Everything the server printed so far (stdout and stderr)."""
        return self.log_path.read_text(errors="replace")

    def is_running(self) -> bool:
        return self.process.poll() is None

    def stop(self, timeout: float = 15.0) -> int:
        """Stop like Ctrl-C (SIGINT), kill if it does not exit; the exit code."""
        if self.process.poll() is None:
            if sys.platform == "win32":
                self.process.terminate()
            else:
                self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        return int(self.process.returncode)


def start_app_server(
    data_dir: Path,
    port: int | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 60.0,
    cache: Path | None = None,
    args: tuple[str, ...] = (),
) -> AppServer:
    """Start `python -m scorer.cli --no-open` on 127.0.0.1 (forked from the worker's
    zygote: tests/server_zygote.py) and wait until it answers HTTP. Its output goes to
    DATA_DIR/../server-PORT.log. `cache`: its TARABISH_CACHE (the compressed page
    files)."""
    port = port or free_port()
    data_dir.mkdir(parents=True, exist_ok=True)
    log_path = data_dir.parent / f"{data_dir.name}-server-{port}.log"
    argv = [
        "--no-open",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--data-dir",
        str(data_dir),
        *args,
    ]
    child_env = {**os.environ, "PYTHONUNBUFFERED": "1",
                 **({"TARABISH_CACHE": str(cache)} if cache else {}), **(env or {})}
    process = start_server_process(argv, child_env, REPO_ROOT, log_path)
    url = f"http://127.0.0.1:{port}/"
    server = AppServer(url=url, port=port, data_dir=data_dir, log_path=log_path, process=process)
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"tarabish server exited with {process.returncode}:\n{server.log()}")
        try:
            with urllib.request.urlopen(url, timeout=2) as resp:
                if resp.status == 200:
                    return server
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() > deadline:
            server.stop()
            raise RuntimeError(f"tarabish server did not answer in {timeout} s:\n{server.log()}")
        time.sleep(0.1)


@pytest.fixture(scope="session")
def app_server(tmp_path_factory: pytest.TempPathFactory,
               page_file_cache: Path) -> Iterator[AppServer]:
    """One server for the whole test session, with its own empty data dir."""
    server = start_app_server(tmp_path_factory.mktemp("session") / "data",
                              cache=page_file_cache)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def app_url(app_server: AppServer) -> str:
    """Page URL of the session-wide server."""
    return app_server.url


StartServer = Callable[..., AppServer]


@pytest.fixture
def start_server(tmp_path: Path, page_file_cache: Path) -> Iterator[StartServer]:
    """Factory: `start_server(data_dir=None, port=None, env=None, args=()) -> AppServer`
    (`args`: more options of `tarabish`).

    No data_dir: a fresh one under tmp_path. To test a restart, `srv.stop()`
    then `start_server(data_dir=srv.data_dir, port=srv.port)` (same port, so
    an open page can reconnect). Every server started here is stopped after
    the test.
    """
    started: list[AppServer] = []

    def start(
        data_dir: Path | None = None,
        port: int | None = None,
        env: dict[str, str] | None = None,
        args: tuple[str, ...] = (),
    ) -> AppServer:
        server = start_app_server(data_dir or tmp_path / f"data{len(started)}", port, env,
                                  cache=page_file_cache, args=args)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


# --------------------------------------------------------------------------
# The browser (overrides of pytest-playwright fixtures)
# --------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Debian's Chromium, headless, with flags that keep it off the network.

    Playwright launches every browser with a fresh temporary profile.
    """
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        message = (
            f"Chromium not found at {CHROMIUM} "
            "(apt-get install -y chromium, or set TARABISH_CHROMIUM)"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return {
        "headless": True,
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": CHROMIUM_ARGS,
    }


@pytest.fixture
def new_context(new_context: Callable[..., BrowserContext],
                request: pytest.FixtureRequest) -> Iterator[Callable[..., BrowserContext]]:
    """pytest-playwright's factory, every context watched (page_requests): the page
    asks nothing of another host and gets no error, on every screen of every test."""
    watch = RequestWatch()
    made: list[BrowserContext] = []

    def make(**kwargs: Any) -> BrowserContext:
        made.append(follow_answers(watch.watch(fewer_frames(new_context(**kwargs)))))
        return made[-1]

    request.node.tarabish_contexts = made  # read by pytest_runtest_makereport
    yield make
    stops = request.node.get_closest_marker("server_stops") is not None
    if problems := watch.problems(errors_expected=stops):
        pytest.fail("the page asked the network for what it should not:\n  "
                    + "\n  ".join(problems[:20]), pytrace=False)


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """A phone-sized page (390x844 CSS pixels)."""
    return {**browser_context_args, "viewport": PHONE_VIEWPORT}


# --------------------------------------------------------------------------
# Helpers for tests. Test modules get them through the fixtures below
# (importing from a conftest is fragile): `def test_x(page, app_url, open_app)`.
# --------------------------------------------------------------------------


def enable_semantics(page: Page) -> None:
    """Turn on Flutter's accessibility tree, the only DOM Playwright can query.

    Flutter draws on a canvas; until the hidden placeholder button is
    clicked, controls have no DOM nodes.
    """
    page.wait_for_selector("flt-semantics-placeholder", state="attached")
    page.eval_on_selector("flt-semantics-placeholder", "e => e.click()")


def open_app_page(
    page: Page, url: str, first_text: str = "Tarabish", timeout_ms: float = 60_000
) -> float:
    """Load the app, enable the accessibility tree, wait until `first_text`
    is visible and the first frame is painted; returns the seconds from
    navigation to interactive."""
    start = time.perf_counter()
    page.goto(url, wait_until="commit", timeout=timeout_ms)
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=timeout_ms)
    page.eval_on_selector("flt-semantics-placeholder", "e => e.click()")
    page.get_by_text(first_text, exact=True).first.wait_for(state="visible", timeout=timeout_ms)
    # The semantics tree is built a few frames before the first paint: wait
    # for Flutter's canvas too (Playwright's CSS pierces the shadow root).
    page.wait_for_selector("flt-scene canvas", state="attached", timeout=timeout_ms)
    return time.perf_counter() - start


def save_screenshot(page: Page, name: str, settle_ms: int = 5_000) -> Path:
    """Save the page as test-artifacts/screenshots/NAME.png; returns the path.

    Flutter paints asynchronously (fonts arrive, ripples fade), so shots are
    taken until two in a row are identical (or `settle_ms` passes). Give
    dark-mode shots their own name (e.g. "home-dark"); `table_steps.shoot` saves
    a screen both ways."""
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOT_DIR / f"{name}.png"
    path.write_bytes(settled_shot(page, settle_ms))
    return path


def set_color_scheme(page: Page, scheme: Literal["dark", "light"]) -> None:
    """Emulate the device's dark/light setting on a loaded page (an app in
    ThemeMode.SYSTEM follows it). For a page that starts dark, mark the test
    @pytest.mark.browser_context_args(color_scheme="dark") instead."""
    page.emulate_media(color_scheme=scheme)


@dataclass
class RequestLog:
    """Requests made by one page (HTTP and WebSocket), recorded live."""

    requests: list[Request] = field(default_factory=list)
    failed: list[Request] = field(default_factory=list)
    websockets: list[str] = field(default_factory=list)

    @property
    def urls(self) -> list[str]:
        return [r.url for r in self.requests]

    def foreign(self) -> list[str]:
        """URLs that left this machine (not localhost; data:/blob: ignored)."""
        return [
            u
            for u in [*self.urls, *self.websockets]
            if urlsplit(u).scheme in ("http", "https", "ws", "wss")
            and urlsplit(u).hostname not in LOCAL_HOSTS
        ]

    def foreign_hosts(self) -> set[str]:
        return {urlsplit(u).hostname or "" for u in self.foreign()}


def record_requests(page: Page) -> RequestLog:
    """Start recording the page's requests; call before opening the app."""
    log = RequestLog()
    page.on("request", lambda r: log.requests.append(r))
    page.on("requestfailed", lambda r: log.failed.append(r))
    page.on("websocket", lambda ws: log.websockets.append(ws.url))
    return log


def resource_sizes(page: Page) -> dict[str, int]:
    """Bytes fetched over the network per URL by the current document load:
    Resource Timing transferSize (headers + encoded body; 0 for cache hits).
    WebSocket traffic is not included."""
    entries = page.evaluate(
        """() => performance.getEntriesByType('navigation')
                 .concat(performance.getEntriesByType('resource'))
                 .map(e => [e.name, e.transferSize || 0])"""
    )
    sizes: dict[str, int] = {}
    for name, size in entries:
        sizes[name] = sizes.get(name, 0) + int(size)
    return sizes


def transfer_size(page: Page) -> int:
    """Total bytes fetched by the current document load (see resource_sizes)."""
    return sum(resource_sizes(page).values())


@pytest.fixture
def open_app() -> Callable[..., float]:
    """`open_app(page, url, first_text="Tarabish", timeout_ms=60_000) -> float`:
    load the app, enable the accessibility tree, wait for `first_text`;
    returns seconds to interactive."""
    return open_app_page


@pytest.fixture
def size() -> Size | None:
    """The one size of a test marked `table_steps.each_size_walked` (its parameter);
    None for every other test."""
    return None


@pytest.fixture
def phone(new_context: Callable[..., Any], request: pytest.FixtureRequest,
          size: Size | None) -> Iterator[Phone]:
    """A light page (the test shoots each screen light and dark with
    `table_steps.shoot`). With `table_steps.each_size_checked` on the test: at 360x640,
    and the test must check its screens at both sizes (`table_steps.at_each_size`);
    with `each_size_walked`: at the test's `size`, its only one."""
    width, height = size or SMALL
    page = new_context(color_scheme="light").new_page()
    page.set_viewport_size({"width": width, "height": height})
    phone = Phone(page, (size,) if size else PHONE_SIZES)
    yield phone
    # A test that stopped early says why itself; one that passed must have checked both.
    passed = not getattr(request.node, "tarabish_call_failed", True)
    if passed and getattr(request.function, "each_size_checked", False):
        unchecked = [f"{w}x{h}" for w, h in phone.sizes if (w, h) not in phone.checked]
        assert not unchecked, f"no screen checked at {', '.join(unchecked)} (at_each_size)"


@pytest.fixture
def screenshot() -> Callable[[Page, str], Path]:
    """`screenshot(page, name) -> Path`: test-artifacts/screenshots/NAME.png."""
    return save_screenshot


@pytest.fixture
def color_scheme() -> Callable[[Page, Literal["dark", "light"]], None]:
    """`color_scheme(page, "dark")`: switch the emulated device setting."""
    return set_color_scheme


@pytest.fixture
def request_log(page: Page) -> RequestLog:
    """Requests of the `page` fixture, recorded from before the first goto."""
    return record_requests(page)


@pytest.fixture
def page_transfer_size() -> Callable[[Page], int]:
    """`page_transfer_size(page) -> int`: bytes fetched by the current load."""
    return transfer_size


@pytest.fixture
def page_resource_sizes() -> Callable[[Page], dict[str, int]]:
    """`page_resource_sizes(page) -> {url: bytes}` for the current load."""
    return resource_sizes


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None],
) -> Generator[None, Any, None]:
    """A failed browser test's report says what each of its pages showed then: a CI log
    is all there is to read of a failure on another machine."""
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.tarabish_call_failed = report.failed  # type: ignore[attr-defined]
    contexts = getattr(item, "tarabish_contexts", None)
    if report.failed and report.when == "call" and contexts:
        report.sections.append(("pages when it failed", pages_shown(contexts)))


def pages_shown(contexts: list[BrowserContext], most: int = 40) -> str:
    """Each open page's address and the words on its screen (`table_steps.shown_words`)."""
    lines: list[str] = []
    for number, context in enumerate(contexts, start=1):
        for page in context.pages:
            try:
                words = sorted(shown_words_within(page))
            except Exception as exc:  # a page gone or hung: say so, never hide the failure
                words = [f"(could not be read: {type(exc).__name__})"]
            lines.append(f"context {number}: {page.url}")
            lines += [f"    {w[:120]!r}" for w in words[:most]]
            if len(words) > most:
                lines.append(f"    ... and {len(words) - most} more")
    return "\n".join(lines) or "no page open"


def pytest_configure(config: pytest.Config) -> None:
    # pytest-playwright 0.10's fallback `base_url` fixture (used when
    # pytest-base-url is not installed) trips a pytest 9 deprecation warning.
    config.addinivalue_line(
        "filterwarnings",
        "ignore:Session-scoped fixtures defined as instance methods:pytest.PytestRemovedIn10Warning",
    )
