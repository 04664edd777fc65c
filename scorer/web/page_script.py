"""The page asks nothing of the internet: a script put in Flet's index.html.

Flet's client (1.0.5) loads the Rive animation runtime on every start, from an
address compiled into main.dart.js and main.dart.wasm
(`https://cdn.jsdelivr.net/npm/@rive-app/flutter-native-wasm@44.0.0/`, a
`<script>` whose `src` is set, then a wait for its `load`). The app draws no Rive
animation, yet each load told a third party the app was in use, and offline the
page waited on a name that never resolved. The script below catches that one
`src` before the element is appended and gives it a `data:` script instead, which
answers "no Rive here" (`RiveNative()` resolves to null, as Flet's loader expects
when the runtime cannot start): no request at all, in the JavaScript and the wasm
build alike (both set `src` through the property).

The table server serves index.html through `PageScriptApp`; `tarabish build-web`
writes `with_page_script(...)` into its index.html.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

RIVE_CDN = "https://cdn.jsdelivr.net/npm/@rive-app/"
NO_RIVE = "data:text/javascript,window.RiveNative=()=>new Promise(()=>{})"
PAGE_SCRIPT = f"""<script>
// Flet's client asks a CDN for the Rive runtime (unused): answer "none", asking no one.
(() => {{
  const src = Object.getOwnPropertyDescriptor(HTMLScriptElement.prototype, "src");
  Object.defineProperty(HTMLScriptElement.prototype, "src", {{
    ...src,
    set(url) {{ src.set.call(this, String(url).startsWith("{RIVE_CDN}") ? "{NO_RIVE}" : url); }},
  }});
}})();
</script>
"""
HEAD_END = "</head>"


def with_page_script(html: str) -> str:
    """Flet's index.html with PAGE_SCRIPT at the end of its head (before any
    script of Flutter's runs; theirs are in the body)."""
    if html.count(HEAD_END) != 1 or PAGE_SCRIPT in html:
        return html
    return html.replace(HEAD_END, PAGE_SCRIPT + HEAD_END)


class PageScriptApp:
    """Wraps Flet's page app: its HTML answers (index.html, for `/` and every
    screen's address) get PAGE_SCRIPT. The ETag is kept: the script is the same for
    the life of the process, and Flet writes index.html anew at every start."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        chunks: list[bytes] = []

        async def watch(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = MutableHeaders(raw=list(message.get("headers", [])))
                html = headers.get("content-type", "").startswith("text/html")
                if html and message["status"] == 200 and scope["method"] == "GET":
                    start = message  # held until the body is read
                    return
                if html and scope["method"] == "HEAD":
                    del headers["content-length"]  # a GET's body is longer than Flet's
                    message = {**message, "headers": headers.raw}
            elif message["type"] == "http.response.body" and start is not None:
                chunks.append(message.get("body", b""))
                if message.get("more_body", False):
                    return
                body = with_page_script(b"".join(chunks).decode("utf-8")).encode("utf-8")
                headers = MutableHeaders(raw=list(start.get("headers", [])))
                headers["content-length"] = str(len(body))
                await send({**start, "headers": headers.raw})
                await send({"type": "http.response.body", "body": body})
                return
            await send(message)

        await self.app(scope, receive, watch)
