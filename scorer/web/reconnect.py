"""Phones that lose the table server say so, and come back as soon as it answers.

`reconnect.js` (see its opening comment) goes into every page Flet serves: a
`<script>` tag (`SCRIPT_TAG`) put in index.html on its way out by the server's page
script injector (`scorer.web.page_script.PageScripts`, inside the compression
middleware, so the compressed copy has it too). It asks `/alive` (`ALIVE_PATH`, a
bodiless answer) while the server is away. The phone-alone site is built from
Flet's own index.html and has neither.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from fastapi import FastAPI, Request, Response

from scorer.web.frame_hold import with_frame_hold
from scorer.web.page_script import with_scripts

ALIVE_PATH = "/alive"
SCRIPT_PATH = "/_page/reconnect.js"
SCRIPT_TAG = f'<script src="{SCRIPT_PATH}"></script>'.encode()
#: What goes at the end of each page's head: the script must run before Flet's client
#: opens its first websocket, which Flet's bootstrap (loaded `async` at the end of
#: the body) does.
PAGE_TAG = SCRIPT_TAG + b"\n"
SCRIPT = with_frame_hold(Path(__file__).with_name("reconnect.js").read_text(encoding="utf-8")
                         ).encode("utf-8")
SCRIPT_ETAG = '"rc-' + hashlib.sha256(SCRIPT).hexdigest()[:20] + '"'


def with_script(html: bytes) -> bytes:
    """The page with the script tag before `</head>` (once; unchanged if it has no head)."""
    return html if SCRIPT_TAG in html else with_scripts(html, [PAGE_TAG])


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
