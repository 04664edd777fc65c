"""Session crashes: a short notice for the phone, the details for the server's log.

When a page session fails (an exception in `main` or in an event handler),
Flet 1.0.5 sends the browser a SESSION_CRASHED frame whose text is the
exception and, for a handler, its whole traceback: file paths and code of
the server, shown to whoever holds the page (flet/messaging/session.py
`Session.error`, flet_web/fastapi/flet_app.py). This ASGI middleware, on the
outer app, replaces that text on its way out with a short notice and a
reference, and logs the original text under the same reference, so the host
can find it in the terminal. Flet logs the traceback there too.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

import msgpack
from flet.messaging.protocol import MessageAction
from starlette.types import ASGIApp, Message, Receive, Scope, Send

logger = logging.getLogger(__name__)

SESSION_CRASHED: int = MessageAction.SESSION_CRASHED.value
CRASH_FRAME_PREFIX = b"\x00\x92" + bytes([SESSION_CRASHED])
"""A Flet protocol packet (0x00), a msgpack array of 2 (0x92), action SESSION_CRASHED."""

NOTICE = ("Something went wrong on the table server (reference {ref}). "
          "Reload the page to carry on.")


def _original_text(frame: bytes) -> str:
    try:
        body: Any = msgpack.unpackb(frame[1:], strict_map_key=False)[1]
        text = body.get("message") if isinstance(body, dict) else body
    except Exception:  # whatever it was, it is not sent on
        return repr(frame[:2000])
    return str(text)


def player_notice_frame(frame: bytes) -> bytes:
    """The SESSION_CRASHED `frame` with its text replaced by the short notice;
    the original text goes to the log under the notice's reference."""
    ref = secrets.token_hex(3)
    logger.error("page session crashed (reference %s): %s", ref, _original_text(frame))
    # SessionCrashedBody as Flet's encoder writes a dataclass: a map of its fields.
    body = {"message": NOTICE.format(ref=ref)}
    return b"\x00" + bytes(msgpack.packb([SESSION_CRASHED, body]))


class CrashNoticeMiddleware:
    """See the module docstring. Only WebSocket frames are looked at, and only
    by their first three bytes, unless they are a crash report."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return

        async def send_without_details(message: Message) -> None:
            if message["type"] == "websocket.send":
                data = message.get("bytes")
                if data is not None and data.startswith(CRASH_FRAME_PREFIX):
                    message = {**message, "bytes": player_notice_frame(data)}
            await send(message)

        await self.app(scope, receive, send_without_details)
