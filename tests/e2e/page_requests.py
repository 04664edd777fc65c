"""What pages asked of the network that they should not have: another host (a
third party learns the app is in use; offline, the page waits on a name that never
resolves), or an address this machine could not answer (a 404, a failed request).

A module of its own, not a conftest: tests/e2e and tests/pwa both watch their
browser contexts with it (every page and worker of a context is seen).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlsplit

from playwright.sync_api import BrowserContext, Request, Response

LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
NETWORK_SCHEMES = ("http", "https", "ws", "wss")
CANCELLED = "net::ERR_ABORTED"
"""The browser dropped the request itself (a page navigated away or closed while it
loaded): not an answer the server failed to give."""


def is_foreign(url: str, local_hosts: frozenset[str] = LOCAL_HOSTS) -> bool:
    """Aimed at a host other than this machine (data:, blob: and the like never are)."""
    parts = urlsplit(url)
    return parts.scheme in NETWORK_SCHEMES and parts.hostname not in local_hosts


@dataclass
class RequestWatch:
    """Requests to other hosts, answers >= 400 and failed requests of the contexts
    it watches, as lines a failing test prints."""

    local_hosts: frozenset[str] = LOCAL_HOSTS
    foreign: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def watch(self, context: BrowserContext) -> BrowserContext:
        context.on("request", self._request)
        context.on("response", self._response)
        context.on("requestfailed", self._failed)
        return context

    def _request(self, request: Request) -> None:
        if is_foreign(request.url, self.local_hosts):
            self.foreign.append(request.url)

    def _response(self, response: Response) -> None:
        if response.status >= 400:
            self.errors.append(f"{response.status} {response.url}")

    def _failed(self, request: Request) -> None:
        failure = request.failure or "failed"
        if CANCELLED not in failure and not is_foreign(request.url, self.local_hosts):
            self.errors.append(f"{failure} {request.url}")

    def problems(self, errors_expected: bool = False) -> list[str]:
        """What went wrong; `errors_expected` (a test that stops its server) keeps
        only the requests to other hosts."""
        found = [f"another host: {url}" for url in dict.fromkeys(self.foreign)]
        if not errors_expected:
            found += list(dict.fromkeys(self.errors))
        return found
