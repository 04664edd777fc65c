"""What a failed browser test's report says of its pages comes back even when a page has
stopped answering (a hung page once held a run for 45 minutes after its test's timeout:
the report's read of it had no bound), and a tap's wait for the next frames ends on a
page whose frames stopped."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from table_steps import DRAWN, shown_words_within

HANG = "() => { setTimeout(() => { for (;;) {} }, 50); }"
"""The page's own thread busy for ever, from 50 ms on."""


def test_a_page_that_stopped_answering_is_read_within_a_bound(
    new_context: Callable[..., Any],
) -> None:
    page = new_context().new_page()
    page.set_content("<flt-semantics><span>Hand 1: Dee deals</span></flt-semantics>")
    assert any("Hand 1: Dee deals" in w for w in shown_words_within(page))
    page.evaluate(HANG)
    page.wait_for_timeout(500)  # the hang begins (Playwright's own timer, not the page's)
    started = time.monotonic()
    with pytest.raises(PlaywrightTimeoutError):
        shown_words_within(page, timeout_ms=2_000)
    assert time.monotonic() - started < 30


def test_the_wait_for_the_next_frames_ends_when_no_frame_comes(
    new_context: Callable[..., Any],
) -> None:
    page = new_context().new_page()
    page.set_content("<p>x</p>")
    page.evaluate("() => { window.requestAnimationFrame = () => 0; }")  # frames stopped
    page.evaluate(DRAWN)  # returns (after its 3 s), not for ever
