"""A phone never loses its rights (issue 31, section 1), in a real browser.

Flutter's shared_preferences keeps the phone's device token in localStorage (key
`flutter.tarabish.device`), read with `Storage.getItem`. An init script makes that
throw for a page's first reads, or for all of them, as a busy laptop's timed-out
reads did: the phone that holds the game keeps holding it, says it is being checked
rather than watching, and a reload in the same tab reads again and recovers."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect
from table_steps import enter_seeded_code, see, seed_game

HAND = {"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 92}}
WATCHING = "Watching: enter the table code to record hands"
CHECKING = "Checking this phone's rights…"
TOKEN_KEY = "flutter.tarabish.device"

STORAGE_FAILS = """
(() => {
  const get = Storage.prototype.getItem;
  const plan = get.call(window.localStorage, 'test.fail-reads');
  let left = plan === 'always' ? Infinity : Number(plan || 0);
  window.__failedReads = 0;
  Storage.prototype.getItem = function (key) {
    if (left > 0 && String(key).startsWith('flutter.')) {
      left -= 1;
      window.__failedReads += 1;
      throw new DOMException('The operation is insecure.', 'SecurityError');
    }
    return get.call(this, key);
  };
})();
"""
"""Each page fails its first `localStorage['test.fail-reads']` reads of Flutter's keys
('always': every one)."""


def fail_reads(page: Page, plan: str) -> None:
    """How the next page loaded in this browser will fail its reads."""
    page.evaluate(f"localStorage.setItem('test.fail-reads', {plan!r})")


def record_hand_button(page: Page) -> None:
    expect(page.get_by_role("button", name="Record hand")).to_be_visible(timeout=30_000)


def test_a_phone_that_holds_a_game_keeps_it_when_its_storage_fails(
        tmp_path: Path, start_server: Callable[..., Any], new_context: Callable[..., BrowserContext],
        open_app: Callable[..., float], screenshot: Callable[[Page, str], Path],
        color_scheme: Callable[[Page, str], None]) -> None:
    data = tmp_path / "data"
    game = seed_game(data, [HAND])
    srv = start_server(data_dir=data)
    sheet = f"{srv.url}game/{game}"
    browser = new_context()
    browser.add_init_script(STORAGE_FAILS)

    first = browser.new_page()  # the phone takes the game: its token is kept
    open_app(first, sheet, first_text="Score sheet")
    enter_seeded_code(first, game)
    record_hand_button(first)
    deadline = time.monotonic() + 10
    while first.evaluate(f"localStorage.getItem({TOKEN_KEY!r})") is None:
        assert time.monotonic() < deadline, "the device token is not in localStorage"
        first.wait_for_timeout(200)
    token = first.evaluate(f"localStorage.getItem({TOKEN_KEY!r})")

    # Its first reads fail, then the storage answers: never a watcher, then its rights.
    fail_reads(first, "3")
    again = browser.new_page()
    open_app(again, sheet, first_text="Score sheet")
    watching = again.get_by_text(WATCHING)
    record = again.get_by_role("button", name="Record hand")
    deadline = time.monotonic() + 30
    while not record.count():
        assert not watching.count(), "a phone that holds the game was shown as a watcher"
        assert time.monotonic() < deadline, "the phone never got its rights back"
        again.wait_for_timeout(100)
    assert again.evaluate("window.__failedReads") == 3
    again.close()  # read no more: an open tab keeps the browser busy

    # Every read fails: it is checked a while, then may only watch (on a token for
    # this session); once the storage answers, a reload in the same tab recovers.
    fail_reads(first, "always")
    first.close()
    broken = browser.new_page()
    open_app(broken, sheet, first_text="Score sheet")
    see(broken, CHECKING)
    for width, height in ((390, 844), (360, 640)):  # while it is checked (about 8 s)
        broken.set_viewport_size({"width": width, "height": height})
        for scheme in ("light", "dark"):
            color_scheme(broken, scheme)
            screenshot(broken, f"rights-checking-{width}x{height}-{scheme}")
    see(broken, WATCHING, timeout=40_000)
    assert broken.evaluate("window.__failedReads") > 3
    fail_reads(broken, "0")
    broken.reload()
    broken.wait_for_selector("flt-semantics-placeholder", state="attached")
    broken.eval_on_selector("flt-semantics-placeholder", "e => e.click()")
    record_hand_button(broken)
    expect(broken.get_by_text(WATCHING)).to_have_count(0)
    assert broken.evaluate(f"localStorage.getItem({TOKEN_KEY!r})") == token  # kept as it was
