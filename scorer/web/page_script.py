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

The table server puts its page scripts (this one and `scorer.web.reconnect`'s tag)
into every HTML page it serves through one injector, `PageScripts`; `tarabish
build-web` writes PAGE_SCRIPT alone into the phone-alone site's index.html.
"""

from __future__ import annotations

from collections.abc import Sequence

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
#: Flet's index.html is well under this; anything bigger is passed on untouched.
MAX_PAGE_BYTES = 256 * 1024


def with_scripts(html: bytes, scripts: Sequence[bytes]) -> bytes:
    """The page with each of `scripts` it does not hold yet at the end of its head, in
    order (before any script of Flutter's runs; theirs are in the body, and Flet's
    bootstrap opens the first websocket). A page without exactly one head is unchanged."""
    end = HEAD_END.encode()
    if html.count(end) != 1:
        return html
    missing = b"".join(script for script in scripts if script not in html)
    return html.replace(end, missing + end) if missing else html


def with_page_script(html: str) -> str:
    """Flet's index.html with PAGE_SCRIPT at the end of its head (once)."""
    return with_scripts(html.encode("utf-8"), [PAGE_SCRIPT.encode("utf-8")]).decode("utf-8")


class PageScripts:
    """Puts `scripts` (HTML, each put in once) into every HTML page of the app:
    index.html, for `/` and every screen's address, and the server's own pages.
    Other responses, pages under a `skip` prefix (the phone-alone site: its own
    index.html) and HTML bigger than MAX_PAGE_BYTES pass as they are. The ETag is
    kept: the scripts are the same for the life of the process, and Flet writes
    index.html anew at every start."""

    def __init__(self, app: ASGIApp, scripts: Sequence[bytes], skip: tuple[str, ...] = ()) -> None:
        self.app = app
        self.scripts = tuple(scripts)
        self.skip = skip

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
                headers = MutableHeaders(raw=list(message.get("headers", [])))
                html = headers.get("content-type", "").startswith("text/html")
                if html and message["status"] == 200 and scope["method"] == "GET":
                    start = message  # held until the body is complete
                    return
                if html and scope["method"] == "HEAD" and "content-length" in headers:
                    del headers["content-length"]  # a GET's body is longer than the page's
                    message = {**message, "headers": headers.raw}
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
            headers = MutableHeaders(raw=list(start.get("headers", [])))
            if not more:  # the whole page: a bigger one goes on as it came
                body = with_scripts(body, self.scripts)
                if "content-length" in headers:
                    headers["content-length"] = str(len(body))
            start_message = {**start, "headers": headers.raw}
            start = None
            await send(start_message)
            await send({"type": "http.response.body", "body": body, "more_body": more})

        await self.app(scope, receive, patched_send)
