"""A game's address (`/game/<id>`: Share, the QR code, a club night's table card) where
the app opens games (a community's default, scorer.web.phone_app).

It answers a tiny page that sends a phone able to run the app to the app on that game
(`/alone/game/<id>`, under the app's own scope, so its service worker stays under
/alone/), and any other phone to the server-drawn page (`/game/<id>?drawn=1`), with no
tap: no WebAssembly, no service worker (a plain-HTTP address), or too little memory
(`navigator.deviceMemory` under 2 GB where the browser tells). An app that fails to
start goes to the drawn page too (boot.js). The drawn address sets a cookie that sends
this browser's game addresses straight to the drawn pages for a while (a phone whose app
failed, or whose player chose the page); opening the app's address clears it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import parse_qs

from starlette.responses import HTMLResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

GAME_PATH = re.compile(r"/game/([0-9a-f]{8})/?")
DRAWN_COOKIE = "tarabish-drawn"
DRAWN_FOR_S = 12 * 3600
"""An evening's play: the drawn page is kept that long once a phone got it."""
MIN_MEMORY_GB = 2
"""Below this (as `navigator.deviceMemory` says) the app's Python and Flutter together
would crowd the phone: the drawn page, which costs it little."""

LAUNCHER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Tarabish</title>
<noscript><meta http-equiv="refresh" content="0; url={drawn}"></noscript>
<script>
(function () {{
  var able = typeof WebAssembly === "object" && !!navigator.serviceWorker &&
    !(navigator.deviceMemory && navigator.deviceMemory < {memory});
  location.replace(able ? "{app}" : "{drawn}");
}})();
</script></head>
<body><p><a href="{drawn}">Open the game</a></p></body></html>
"""


def launcher(game_id: str) -> str:
    """The page at a game's address: the app where the phone can run it, else the drawn
    page."""
    return LAUNCHER.format(app=f"/alone/game/{game_id}", drawn=f"/game/{game_id}?drawn=1",
                           memory=MIN_MEMORY_GB)


def asks_drawn(query: bytes) -> bool:
    return "drawn" in parse_qs(query.decode("latin-1"))


class GameAddress:
    """ASGI middleware: `/game/<id>` answers the launcher while `opens_games()`; with
    `?drawn=1` (or the cookie it sets) the drawn page, as every other address."""

    def __init__(self, app: ASGIApp, opens_games: Callable[[], bool]) -> None:
        self.app = app
        self.opens_games = opens_games

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] != "http" or scope["method"] not in ("GET", "HEAD")
                or (found := GAME_PATH.fullmatch(scope["path"])) is None
                or not self.opens_games()):
            await self.app(scope, receive, send)
            return
        if asks_drawn(scope.get("query_string", b"")):
            await self.app(scope, receive, _with_cookie(send))
            return
        if _has_cookie(scope):
            await self.app(scope, receive, send)
            return
        page = HTMLResponse(launcher(found.group(1)), headers={"Cache-Control": "no-store"})
        await page(scope, receive, send)


def _has_cookie(scope: Scope) -> bool:
    for name, value in scope.get("headers", ()):
        if name == b"cookie" and f"{DRAWN_COOKIE}=1".encode() in value:
            return True
    return False


def _with_cookie(send: Send) -> Send:
    cookie = (f"{DRAWN_COOKIE}=1; Max-Age={DRAWN_FOR_S}; Path=/; SameSite=Lax").encode()

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []),
                                              (b"set-cookie", cookie)]}
        await send(message)

    return sending
