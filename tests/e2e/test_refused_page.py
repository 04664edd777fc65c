"""A page refused because its device keeps too many open says so in the browser
(issue 9, item 4). The device's other pages are held by the hostile client."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from scorer.web.sessions import LIMITS
from tests.hostile.flet_client import FletClient


def test_a_refused_page_tells_the_phone_why(
    page: Page, start_server: Callable[..., Any], tmp_path: Path,
    screenshot: Callable[[Page, str], Path],
) -> None:
    server = start_server(data_dir=tmp_path / "data")
    held = []
    try:
        for _ in range(LIMITS.open_per_address):  # every page this address may keep
            held.append(FletClient(server.port, source="127.0.0.1", timeout=30))
        page.goto(server.url)
        page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=90_000)
        page.eval_on_selector("flt-semantics-placeholder", "e => e.click()")
        expect(page.get_by_text("Error running app")).to_be_visible(timeout=30_000)
        screenshot(page, "refused-too-many-pages")
    finally:
        for client in held:
            client.close()
    # With room again, a reload gets the app.
    page.reload()
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=90_000)
    page.eval_on_selector("flt-semantics-placeholder", "e => e.click()")
    expect(page.get_by_role("button", name="New game")).to_be_visible(timeout=60_000)
