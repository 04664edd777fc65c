"""One phone's browser in the phone-alone tests (a module of its own, not the conftest:
every test folder has a conftest, so `from conftest import` could find another's)."""

from __future__ import annotations

from dataclasses import dataclass, field
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


def show_app(page: Page, first_text: str) -> None:
    """In the document the page holds now (loaded by the test, or by the app itself):
    turn on Flutter's accessibility tree and wait for `first_text`."""
    page.wait_for_selector("flt-semantics-placeholder", state="attached",
                           timeout=START_TIMEOUT_MS)
    page.eval_on_selector("flt-semantics-placeholder", "e => e.click()")
    page.get_by_text(first_text).first.wait_for(state="visible", timeout=START_TIMEOUT_MS)
