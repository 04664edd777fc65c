"""A hostile page client: speaks Flet 1.0.5's websocket protocol to a real server.

What a guest on the table's Wi-Fi could run instead of a browser. Every frame
is `[0x00][msgpack [action, body]]` (flet_web/fastapi/flet_app.py); actions are
flet.messaging.protocol.MessageAction: 1 register, 2 patch, 3 control event,
4 update control props, 5 invoke method, 6 session crashed.

The client keeps a flat map of every control dict the server ever sent (by its
`_i`), so a button can be found by its label and clicked, and answers the
server's method calls itself: SharedPreferences hands back whatever device
token the attacker chooses. It can bind its socket to any 127.0.0.x source
address, so a test sees several "phones" with real, distinct addresses while
only ever talking to loopback. Every wait is bounded.
"""

from __future__ import annotations

import contextlib
import secrets
import socket
import ssl
import struct
import time
from collections import deque
from collections.abc import Iterator
from typing import Any

import msgpack
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

REGISTER, PATCH, EVENT, UPDATE_PROPS, INVOKE, CRASHED = 1, 2, 3, 4, 5, 6
DEVICE_KEY = "tarabish.device"


def pack(action: int, body: Any) -> bytes:
    return b"\x00" + msgpack.packb([action, body])


def _ext(code: int, data: bytes) -> Any:
    return data.decode("utf-8", "replace") if code in (1, 2, 4) else None


def _walk(value: Any) -> Iterator[Any]:
    """Every value nested in a decoded message (bounded by the message itself)."""
    stack = [value]
    while stack:
        item = stack.pop()
        yield item
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)


class Refused(Exception):
    """The server would not take the connection (closed before or at registration)."""


class FletClient:
    """One page session, driven by hand."""

    def __init__(self, port: int, *, source: str = "127.0.0.1", route: str = "/",
                 device: str | None = None, user_agent: str | None = None,
                 page_extra: dict[str, Any] | None = None, session_id: str = "",
                 headers: dict[str, str] | None = None, timeout: float = 10.0,
                 max_queue: int | None = 16, tls: bool = False) -> None:
        self.port = port
        self.device = device or secrets.token_urlsafe(24)
        self.controls: dict[int, dict[str, Any]] = {}
        self.seen: dict[int, int] = {}  # control id -> message number it last came in
        self.strings: list[tuple[int, str]] = []
        self.count = 0
        self.frames: list[tuple[int, int]] = []  # (action, bytes) of each message, bounded
        self.calls: list[tuple[int, str]] = []  # (message number, name) of each method call
        self.first_messages: list[Any] = []  # the first few, whole (the page's set-up)
        self.recent: deque[tuple[int, Any]] = deque(maxlen=64)  # (number, message), whole
        self.session_id = ""
        self.register_error = ""
        self.crashed = ""
        self.closed = False
        self.hold_routes = False
        """Keep the announcements of the addresses the server sends (`release_routes`):
        a phone that has shown a screen and not yet taken its address."""
        self.held: list[str] = []
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.settimeout(timeout)
        try:
            sock.bind((source, 0))
            sock.connect(("127.0.0.1", port))
        except OSError:
            sock.close()
            raise
        context = None
        if tls:  # through Caddy (tests/caddy_proxy.py): its own CA, trusted by no one
            context = ssl.create_default_context()
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
        try:
            self.ws: ClientConnection = connect(
                f"{'wss' if tls else 'ws'}://127.0.0.1:{port}/ws", sock=sock, ssl=context,
                open_timeout=timeout,
                user_agent_header=user_agent or f"hostile-{secrets.token_hex(4)}",
                max_size=64 * 1024 * 1024, additional_headers=headers, legacy=True,
                max_queue=max_queue,
            )
        except Exception as exc:  # handshake refused (HTTP 403) or closed
            sock.close()
            raise Refused(str(exc)) from exc
        page = {"route": route, "width": 390, "height": 844, "web": True,
                "platform": "android", **(page_extra or {})}
        self.send(REGISTER, {"session_id": session_id, "page_name": "", "page": page})
        end = time.monotonic() + timeout
        while not self.session_id and not self.register_error and time.monotonic() < end:
            if not self.pump(0.2) and self.closed:
                break
        if self.register_error or not self.session_id:
            self.close()
            raise Refused(self.register_error or "no answer to the registration")
        self.page_id = 1

    # -- wire ------------------------------------------------------------------------------

    def send(self, action: int, body: Any) -> None:
        try:
            self.ws.send(pack(action, body))
        except ConnectionClosed:
            self.closed = True

    def pump(self, timeout: float = 0.2) -> bool:
        """Read what the server sent for up to `timeout` s; True if anything came."""
        got = False
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return got
            try:
                frame = self.ws.recv(timeout=left)
            except TimeoutError:
                return got
            except ConnectionClosed:
                self.closed = True
                return got
            got = True
            if isinstance(frame, bytes) and frame[:1] == b"\x00":
                message = msgpack.unpackb(frame[1:], strict_map_key=False, ext_hook=_ext)
                self.frames.append((message[0], len(frame)))
                del self.frames[:-20_000]
                self._take(message)

    def _take(self, message: Any) -> None:
        self.count += 1
        if len(self.first_messages) < 20:
            self.first_messages.append(message)
        self.recent.append((self.count, message))
        action, body = message[0], message[1]
        if action == REGISTER:
            self.session_id = body.get("session_id") or ""
            self.register_error = body.get("error") or ""
            body = body.get("page_patch")
        elif action == CRASHED:
            self.crashed = str(body.get("message", ""))
        elif action == INVOKE:
            self.calls.append((self.count, str(body.get("name", ""))))
            del self.calls[:-20_000]
            self._answer(body)
        for item in _walk(body):
            if isinstance(item, dict) and isinstance(item.get("_i"), int) and "_c" in item:
                self.controls[item["_i"]] = item
                self.seen[item["_i"]] = self.count
            elif isinstance(item, str):
                self.strings.append((self.count, item))
        del self.strings[:-20_000]  # bounded memory

    def _answer(self, call: dict[str, Any]) -> None:
        """Answer the server's method calls as a browser would (with our token)."""
        result: Any = None
        if call.get("name") == "get" and call.get("args", {}).get("key") == DEVICE_KEY:
            result = self.device
        self.send(INVOKE, {"control_id": call.get("control_id"), "call_id": call.get("call_id"),
                           "result": result, "error": None})
        route = call.get("args", {}).get("route")
        if call.get("name") == "push_route" and isinstance(route, str):
            if self.hold_routes:
                self.held.append(route)
            else:
                self.go(route)  # a browser follows, and says where it went

    def release_routes(self) -> None:
        """Announce the addresses held back, in the order they came."""
        held, self.held = self.held, []
        for route in held:
            self.go(route)

    # -- acting ----------------------------------------------------------------------------

    def event(self, control_id: int, name: str, data: Any = None) -> None:
        self.send(EVENT, {"target": control_id, "name": name, "data": data})

    def go(self, route: str) -> None:
        """What the browser sends when its address changes."""
        self.event(self.page_id, "route_change", {"route": route})

    def patch_page(self, **props: Any) -> None:
        """Change fields of our own page on the server (what `client_ip` spoofing uses)."""
        self.send(UPDATE_PROPS, {"id": self.page_id, "props": props})

    def buttons(self, label: str, kind: str | None = None, since: int = 0) -> list[int]:
        """Ids of clickable controls showing `label` (text or tooltip), newest first;
        only those sent after message number `since`."""
        found = []
        for cid, ctrl in self.controls.items():
            if not ctrl.get("on_click") or (kind and ctrl.get("_c") != kind):
                continue
            if self.seen[cid] <= since:
                continue
            texts = {ctrl.get("tooltip")}
            for part in _walk(ctrl):
                if isinstance(part, dict):
                    texts.update(part.get(k) for k in ("value", "content", "text")
                                 if isinstance(part.get(k), str))
            if label in texts:
                found.append(cid)
        return sorted(found, key=lambda c: self.seen[c], reverse=True)

    def click(self, label: str, kind: str | None = None, wait: float = 5.0,
              since: int = 0) -> None:
        end = time.monotonic() + wait
        while not (ids := self.buttons(label, kind, since)):
            if time.monotonic() > end:
                raise AssertionError(f"no button {label!r} on the screen")
            self.pump(0.1)
        self.event(ids[0], "click")

    def type_into(self, label: str, text: str) -> None:
        """Fill the newest text field labelled `label`, as a browser reports typing."""
        fields = [cid for cid, c in self.controls.items()
                  if c.get("_c") == "TextField" and c.get("label") == label]
        if not fields:
            raise AssertionError(f"no text field {label!r} on the screen")
        newest = max(fields, key=lambda c: self.seen[c])
        self.send(UPDATE_PROPS, {"id": newest, "props": {"value": text}})
        self.event(newest, "change", text)

    def mark(self) -> int:
        return self.count

    def said(self, since: int = 0) -> list[str]:
        return [s for n, s in self.strings if n > since]

    def wait_for(self, *needles: str, since: int = 0, timeout: float = 15.0) -> str:
        """The first string from the server (after `since`) containing any needle, within
        `timeout` s (as the browser tests wait: a loaded 2-core machine answers late)."""
        end = time.monotonic() + timeout
        while True:
            for text in self.said(since):
                if any(n in text for n in needles):
                    return text
            if time.monotonic() > end or self.closed:
                raise AssertionError(f"none of {needles} came; last: {self.said(since)[-8:]}")
            self.pump(0.1)

    def abort(self) -> None:
        """Vanish without a goodbye (a reset), as a phone that loses Wi-Fi."""
        with contextlib.suppress(OSError):
            self.ws.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                      struct.pack("ii", 1, 0))
            self.ws.socket.close()
        self.closed = True

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()
        self.closed = True

    def __enter__(self) -> FletClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
