"""One phone's browser in the phone-alone tests (a module of its own, not the conftest:
every test folder has a conftest, so `from conftest import` could find another's)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import BrowserContext, Page, Request

LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost"})
START_TIMEOUT_MS = 120_000
"""Python starts inside the page: generous on a busy 2-core CI machine."""


@dataclass
class Phone:
    """One phone's browser (its storage lives as long as the context)."""

    context: BrowserContext
    requests: list[str] = field(default_factory=list)
    page: Page | None = None
    watch: Any = None
    """The context's own RequestWatch (tests/e2e/page_requests.py), beside the `phone`
    fixture's: read in the test (`problems()`), before a server it stops makes
    failures that are no fault."""

    def __post_init__(self) -> None:
        # Imported here: tests/pwa/conftest.py imports this module before it puts
        # tests/e2e (page_requests) on the path.
        from page_requests import RequestWatch

        self.watch = RequestWatch()
        self.watch.watch(self.context)

    def problems(self) -> list[str]:
        """So far: requests to another host, answers >= 400 and failed requests."""
        return list(self.watch.problems())

    def new_page(self) -> Page:
        self.page = self.context.new_page()
        self.page.on("request", self._seen)
        return self.page

    def _seen(self, request: Request) -> None:
        self.requests.append(request.url)

    def foreign(self) -> list[str]:
        """Requests aimed at any host but loopback (all of them fail here)."""
        return [u for u in self.requests
                if urlsplit(u).scheme in ("http", "https", "ws", "wss")
                and urlsplit(u).hostname not in LOCAL_HOSTS]


def start_again(page: Page, first_text: str) -> None:
    """The app started again in the page open, at its address (a reload: one load, from
    the service worker), until `first_text` shows."""
    page.reload(wait_until="commit", timeout=START_TIMEOUT_MS)
    show_app(page, first_text)


def show_app(page: Page, first_text: str) -> None:
    """In the document the page holds now (loaded by the test, or by the app itself):
    turn on Flutter's accessibility tree and wait for `first_text`."""
    page.wait_for_selector("flt-semantics-placeholder", state="attached",
                           timeout=START_TIMEOUT_MS)
    page.eval_on_selector("flt-semantics-placeholder", "e => e.click()")
    page.get_by_text(first_text).first.wait_for(state="visible", timeout=START_TIMEOUT_MS)
