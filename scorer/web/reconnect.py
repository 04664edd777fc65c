"""Phones that lose the table server say so, and come back as soon as it answers.

`reconnect.js` (see its opening comment) goes into every page Flet serves: a
`<script>` tag put in index.html on its way out (`ReconnectScriptMiddleware`,
inside the compression middleware, so the compressed copy has it too). It asks
`/alive` (`ALIVE_PATH`, a bodiless answer) while the server is away. The
phone-alone site is built from Flet's own index.html and has neither.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from fastapi import FastAPI, Request, Response
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

ALIVE_PATH = "/alive"
SCRIPT_PATH = "/_page/reconnect.js"
SCRIPT_TAG = f'<script src="{SCRIPT_PATH}"></script>'.encode()
#: The script must run before Flet's client opens its first websocket, which
#: Flet's bootstrap (loaded `async` at the end of the body) does.
HEAD_END = b"</head>"
#: Flet's index.html is well under this; anything bigger is passed on untouched.
MAX_PAGE_BYTES = 256 * 1024
SCRIPT = (Path(__file__).with_name("reconnect.js")).read_bytes()
SCRIPT_ETAG = '"rc-' + hashlib.sha256(SCRIPT).hexdigest()[:20] + '"'


def with_script(html: bytes) -> bytes:
    """The page with the script tag before `</head>` (once; unchanged if it has no head)."""
    if SCRIPT_TAG in html or HEAD_END not in html:
        return html
    return html.replace(HEAD_END, SCRIPT_TAG + b"\n" + HEAD_END, 1)


def add_reconnect_routes(app: FastAPI) -> None:
    """`/alive` and the script; declared before the page's catch-all mount."""

    @app.api_route(ALIVE_PATH, methods=["GET", "HEAD"], include_in_schema=False)
    def alive() -> Response:
        return Response(status_code=204, headers={"Cache-Control": "no-store"})

    @app.get(SCRIPT_PATH, include_in_schema=False)
    def script(request: Request) -> Response:
        headers = {"ETag": SCRIPT_ETAG, "Cache-Control": "no-cache"}
        if SCRIPT_ETAG in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(SCRIPT, media_type="text/javascript", headers=headers)


class ReconnectScriptMiddleware:
    """Puts the script tag into every HTML page of the app (index.html answers every
    page route). Other responses, and HTML bigger than MAX_PAGE_BYTES, pass as they are."""

    def __init__(self, app: ASGIApp, skip: tuple[str, ...] = ()) -> None:
        self.app = app
        self.skip = skip
        """Path prefixes whose pages are not the app's (the phone-alone site)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] != "http" or scope["method"] not in ("GET", "HEAD")
                or scope["path"].startswith(self.skip)):
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        chunks: list[bytes] = []
        held = 0

        async def patched_send(message: Message) -> None:
            nonlocal start, held
            if message["type"] == "http.response.start":
                headers = MutableHeaders(raw=list(message["headers"]))
                html = headers.get("content-type", "").startswith("text/html")
                if message["status"] == 200 and html and scope["method"] == "GET":
                    start = message  # held until the body is complete
                    return
                await send(message)
                return
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            chunks.append(message.get("body", b""))
            held += len(chunks[-1])
            more = bool(message.get("more_body", False))
            if more and held <= MAX_PAGE_BYTES:
                return
            body = b"".join(chunks)
            headers = MutableHeaders(raw=list(start["headers"]))
            if not more:  # the whole page: a bigger one goes on as it came
                body = with_script(body)
                if "content-length" in headers:
                    headers["content-length"] = str(len(body))
            start_message = {**start, "headers": headers.raw}
            start = None
            await send(start_message)
            await send({"type": "http.response.body", "body": body, "more_body": more})

        await self.app(scope, receive, patched_send)
