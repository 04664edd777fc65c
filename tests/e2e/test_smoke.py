"""Smoke tests: the app page works offline in a phone-sized Chromium, and
the server starts, restarts and stops the way the harness expects."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

ARTIFACTS_DIR = Path(__file__).resolve().parents[2] / "test-artifacts"


def test_page_is_interactive_offline(
    page: Page,
    app_url: str,
    open_app: Callable[..., float],
    request_log: Any,
    screenshot: Callable[[Page, str], Path],
    page_resource_sizes: Callable[[Page], dict[str, int]],
) -> None:
    seconds = open_app(page, app_url)

    expect(page.get_by_text("Tarabish", exact=True)).to_be_visible()
    page.get_by_role("button", name="New game").click()
    expect(page.get_by_text("Who sits where")).to_be_visible()

    assert not request_log.foreign()  # not even Flet's Rive runtime (scorer.web.page_script)
    assert all(urlsplit(ws).hostname == "127.0.0.1" for ws in request_log.websockets)

    sizes = page_resource_sizes(page)
    size = sum(sizes.values())
    metrics: dict[str, Any] = {
        "seconds_to_interactive": round(seconds, 2),
        "first_load_bytes": size,
        "requests": len(request_log.requests),
        "failed_requests": [r.url for r in request_log.failed],
        "bytes_by_url": dict(sorted(sizes.items(), key=lambda kv: -kv[1])),
    }
    # Same tab again: the browser cache is warm, and Flet reattaches the tab
    # to its server session (main() does not run again, the screen is kept).
    again = open_app(page, app_url)
    expect(page.get_by_role("button", name="New game")).to_be_visible()
    metrics["repeat_load"] = {
        "seconds_to_interactive": round(again, 2),
        "bytes": sum(page_resource_sizes(page).values()),
    }
    (ARTIFACTS_DIR / "metrics").mkdir(parents=True, exist_ok=True)
    (ARTIFACTS_DIR / "metrics" / "first-load.json").write_text(json.dumps(metrics, indent=2))
    print(
        f"\nfirst load: interactive in {seconds:.2f} s, {size / 1e6:.1f} MB, "
        f"{metrics['requests']} requests; same tab again: {again:.2f} s, "
        f"{metrics['repeat_load']['bytes'] / 1e6:.1f} MB"
    )
    assert seconds < 30
    screenshot(page, "smoke-light")


def test_suit_symbols_light_and_dark(
    page: Page,
    app_url: str,
    open_app: Callable[..., float],
    screenshot: Callable[[Page, str], Path],
    color_scheme: Callable[[Page, str], None],
) -> None:
    """The bundled font draws ♠ ♥ ♦ ♣ (look at the screenshots); the page
    follows the device's dark setting."""
    open_app(page, app_url)
    for suit in ("spades", "hearts", "diamonds", "clubs"):
        expect(page.get_by_text(suit, exact=True)).to_be_visible()
    light = screenshot(page, "suits-light").read_bytes()
    color_scheme(page, "dark")
    page.wait_for_timeout(300)
    dark = screenshot(page, "suits-dark").read_bytes()
    assert dark != light


@pytest.mark.browser_context_args(color_scheme="dark")
def test_page_starts_dark(
    page: Page,
    app_url: str,
    open_app: Callable[..., float],
    screenshot: Callable[[Page, str], Path],
) -> None:
    open_app(page, app_url)
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    screenshot(page, "smoke-dark")


@pytest.mark.server_stops
def test_page_comes_back_after_server_restart(
    page: Page,
    start_server: Callable[..., Any],
    open_app: Callable[..., float],
) -> None:
    """Same data dir and port: an open page reconnects to the new server."""
    server = start_server()
    open_app(page, server.url)
    assert server.stop() == 0
    assert "stopped" in server.log()

    again = start_server(data_dir=server.data_dir, port=server.port)
    # Until the page has reattached, it still shows the old screen and a tap
    # can fall on it; a player simply taps again, and so does the test.
    for _attempt in range(10):
        page.get_by_role("button", name="New game").click()
        try:
            expect(page.get_by_text("Who sits where")).to_be_visible(timeout=3_000)
            break
        except AssertionError:
            continue
    expect(page.get_by_text("Who sits where")).to_be_visible()
    assert again.stop() == 0
