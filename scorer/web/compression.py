"""Compressed, revalidated page files: an ASGI middleware for the outer app.

The Flet web client is ~14 MB of wasm, JavaScript and fonts that Flet's
StaticFiles sends uncompressed and without `Cache-Control`. This middleware,
wrapped around the whole app:

- compresses GET responses of compressible types (wasm, JavaScript, JSON,
  fonts, HTML…) with brotli when the browser accepts it, else gzip; files
  under `minimum_size` and already-compressed types (woff2, png) are left as
  they are, and so are WebSocket connections, HEAD/Range requests it has no
  cached body for, and responses that are not 200;
- compresses each file ONCE: bytes are cached in memory, keyed by path, the
  inner ETag (Starlette's ETag changes with the file's mtime and size, so a
  new release of the app is recompressed) and encoding. The first request for
  a file gets a fast level (brotli 5 / gzip 6: ~0.2 s for the 8.5 MB
  main.dart.wasm, in a worker thread), and a background thread then replaces
  it with the best level (brotli 11, ~16 s for that file; gzip by Zopfli,
  ~12 s for it, 4-5 % smaller than gzip -9: the gzip that phones on plain-HTTP
  Wi-Fi get). Requests for a file being compressed wait for that one
  compression;
- sets `Cache-Control: no-cache` and a per-encoding strong ETag (`"<etag>-br"`)
  on files, so a reload asks "changed?" for each file and gets a 304 with no
  body. The inner StaticFiles answers the 304 itself (the encoding suffix is
  stripped from `If-None-Match` on the way in), without reading the file.

Both compression levels of one encoding decode to the same bytes, so they
share the ETag: a browser holding the fast version keeps it.
"""

from __future__ import annotations

import contextlib
import gzip
import logging
import os
import queue
import threading
from collections import OrderedDict
from dataclasses import dataclass

import anyio.to_thread
import brotli
import zopfli.gzip
from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

logger = logging.getLogger(__name__)

COMPRESSIBLE_TYPES = frozenset({
    "application/wasm", "application/javascript", "application/json",
    "application/manifest+json", "application/xml", "application/octet-stream",
    "image/svg+xml", "image/x-icon", "image/vnd.microsoft.icon",
    "font/ttf", "font/otf", "font/sfnt", "application/font-sfnt", "application/x-font-ttf",
    "application/x-font-otf", "application/vnd.ms-opentype",
})
"""Besides text/*. Left out on purpose: woff/woff2, png, jpeg, zip (already compressed)."""

ENCODINGS = ("br", "gzip")
ZOPFLI_LEVEL = 10
"""gzip "level" meaning Zopfli (one iteration): gzip-compatible output, 4-5 % smaller
than level 9 on the wasm files, ~1.5 s per MB; used for the background pass only."""
ZOPFLI_ITERATIONS = 1
"""More iterations gain under 0.5 % on the wasm files for several times the time."""
FAST_LEVEL = {"br": 5, "gzip": 6}
BEST_LEVEL = {"br": 11, "gzip": ZOPFLI_LEVEL}
ON_THE_FLY_LIMIT = 512 * 1024
"""A response without an ETag (not a file) is compressed per request up to this size."""
LEVEL_HEADER = "x-compression-level"
"""Response header naming the level sent (lets the benchmark tell fast from best)."""


def compress(data: bytes, encoding: str, level: int) -> bytes:
    """`data` compressed as `encoding` ("br" or "gzip"); gzip level ZOPFLI_LEVEL
    uses Zopfli (releases the GIL, like brotli)."""
    if encoding == "br":
        return bytes(brotli.compress(data, quality=level))
    if level >= ZOPFLI_LEVEL:
        return bytes(zopfli.gzip.compress(data, numiterations=ZOPFLI_ITERATIONS))
    return gzip.compress(data, compresslevel=level, mtime=0)


def choose_encoding(accept_encoding: str) -> str | None:
    """br if the browser takes it, else gzip, else None (identity).

    Honours q-values, including `q=0` to refuse an encoding and `*`.
    """
    weights: dict[str, float] = {}
    for item in accept_encoding.split(","):
        name, _, params = item.strip().partition(";")
        name = name.strip().lower()
        if not name:
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        weights[name] = q
    best: str | None = None
    best_q = 0.0
    for enc in ENCODINGS:  # in order of preference: a tie keeps the earlier one
        q = weights[enc] if enc in weights else weights.get("*", 0.0)
        if q > best_q:
            best, best_q = enc, q
    return best


def is_compressible(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media.startswith("text/") or media in COMPRESSIBLE_TYPES


def tagged(etag: str, encoding: str) -> str:
    """`"abc"` → `"abc-br"` (a weak `W/` prefix is kept)."""
    weak = etag.startswith("W/")
    core = etag[2:] if weak else etag
    if len(core) >= 2 and core.startswith('"') and core.endswith('"'):
        core = f'"{core[1:-1]}-{encoding}"'
    else:
        core = f'"{core}-{encoding}"'
    return ("W/" if weak else "") + core


def untagged(etag: str) -> str:
    """Inverse of `tagged` (an ETag without a suffix is returned as it is)."""
    weak = etag.startswith("W/")
    core = etag[2:] if weak else etag
    for enc in ENCODINGS:
        suffix = f'-{enc}"'
        if core.endswith(suffix):
            core = core[: -len(suffix)] + '"'
            break
    return ("W/" if weak else "") + core


@dataclass
class Entry:
    data: bytes
    level: int


class CompressedCache:
    """Compressed bodies by (path, etag, encoding), at most `max_bytes` in all."""

    def __init__(self, max_bytes: int = 128 * 1024 * 1024, upgrade: bool = True) -> None:
        self.max_bytes = max_bytes
        self.upgrade = upgrade
        self._entries: OrderedDict[tuple[str, str, str], Entry] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()
        self._key_locks: dict[tuple[str, str, str], threading.Lock] = {}
        self._jobs: queue.Queue[tuple[tuple[str, str, str], bytes]] = queue.Queue()
        self._worker: threading.Thread | None = None
        self._pending = 0
        """Best-level jobs queued or running (counted from queueing to the end of the job,
        so there is no moment when a job taken off the queue counts as done)."""
        self.compressions = 0
        """How many compressions were made (tests check a file is compressed once)."""

    def get(self, key: tuple[str, str, str]) -> Entry | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
            return entry

    def pending(self) -> int:
        """Best-level compressions queued or running."""
        with self._lock:
            return self._pending

    def get_or_compress(self, key: tuple[str, str, str], body: bytes) -> Entry:
        """The cached entry, or compress now (fast level) and queue the best level.
        Blocking: call from a worker thread. One compression per key at a time."""
        with self._lock:
            lock = self._key_locks.setdefault(key, threading.Lock())
        with lock:
            entry = self.get(key)
            if entry is not None:
                return entry
            encoding = key[2]
            level = FAST_LEVEL[encoding] if self.upgrade else BEST_LEVEL[encoding]
            entry = Entry(compress(body, encoding, level), level)
            with self._lock:
                self.compressions += 1
            self._put(key, entry)
        if self.upgrade and entry.level < BEST_LEVEL[encoding]:
            self._queue_upgrade(key, body)
        return entry

    def _put(self, key: tuple[str, str, str], entry: Entry) -> None:
        with self._lock:
            # A file changed (new ETag): drop its older versions.
            for old in [k for k in self._entries if k[0] == key[0] and k[2] == key[2]
                        and k != key]:
                self._size -= len(self._entries.pop(old).data)
            previous = self._entries.pop(key, None)
            if previous is not None:
                self._size -= len(previous.data)
            self._entries[key] = entry
            self._size += len(entry.data)
            while self._size > self.max_bytes and len(self._entries) > 1:
                _k, dropped = self._entries.popitem(last=False)
                self._size -= len(dropped.data)

    def _queue_upgrade(self, key: tuple[str, str, str], body: bytes) -> None:
        with self._lock:
            self._pending += 1
        self._jobs.put((key, body))
        with self._lock:
            if self._worker is None or not self._worker.is_alive():
                # A daemon thread: Ctrl-C never waits for a brotli-11 run.
                self._worker = threading.Thread(target=self._upgrade_loop,
                                                name="compress-best", daemon=True)
                self._worker.start()

    def _upgrade_loop(self) -> None:
        # Lower this thread's priority (Linux: per thread), so phones being served
        # always come before the best-level runs.
        with contextlib.suppress(AttributeError, OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
        while True:
            try:
                key, body = self._jobs.get(timeout=5)
            except queue.Empty:
                with self._lock:
                    if self._jobs.empty():
                        self._worker = None
                        return
                continue
            try:
                current = self.get(key)
                encoding = key[2]
                if current is not None and current.level < BEST_LEVEL[encoding]:
                    level = BEST_LEVEL[encoding]
                    entry = Entry(compress(body, encoding, level), level)
                    with self._lock:
                        self.compressions += 1
                        still = key in self._entries
                    if still:
                        self._put(key, entry)
            except Exception:
                logger.exception("could not compress %s", key[0])
            finally:
                with self._lock:
                    self._pending -= 1


class CompressionMiddleware:
    """See the module docstring."""

    def __init__(
        self,
        app: ASGIApp,
        minimum_size: int = 1024,
        cache: CompressedCache | None = None,
        cache_control: str = "no-cache",
    ) -> None:
        self.app = app
        self.minimum_size = minimum_size
        self.cache = cache or CompressedCache()
        self.cache_control = cache_control

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD"):
            await self.app(scope, receive, send)  # WebSocket, lifespan, POST...
            return
        headers = Headers(scope=scope)
        encoding = None if "range" in headers else choose_encoding(
            headers.get("accept-encoding", ""))
        sent_tags: dict[str, str] = {}
        inm = headers.get("if-none-match")
        if inm:
            # Our ETags carry the encoding; the inner app knows only its own.
            plain = []
            for tag in (t.strip() for t in inm.split(",")):
                if tag:
                    base = untagged(tag)
                    sent_tags.setdefault(base.removeprefix("W/"), tag)
                    plain.append(base)
            raw = [(k, v) for k, v in scope["headers"] if k.lower() != b"if-none-match"]
            raw.append((b"if-none-match", ", ".join(plain).encode("latin-1")))
            scope = {**scope, "headers": raw}
        responder = _Responder(self, scope, send, encoding, sent_tags)
        await self.app(scope, receive, responder.send)
        await responder.finish()


class _Responder:
    """Watches one response on its way out and rewrites it."""

    def __init__(self, mw: CompressionMiddleware, scope: Scope, send: Send,
                 encoding: str | None, sent_tags: dict[str, str]) -> None:
        self.mw = mw
        self.path = scope.get("root_path", "") + scope["path"]
        self.head = scope["method"] == "HEAD"
        self.inner_send = send
        self.encoding = encoding
        self.sent_tags = sent_tags
        self.mode = "pass"  # pass | buffer | done
        self.start: Message | None = None
        self.chunks: list[bytes] = []

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            await self._on_start(message)
        elif message["type"] == "http.response.body":
            await self._on_body(message)
        else:
            await self.inner_send(message)

    async def _on_start(self, message: Message) -> None:
        headers = MutableHeaders(raw=list(message.get("headers", [])))
        status = message["status"]
        etag = headers.get("etag")
        ctype = headers.get("content-type", "")
        compressible = is_compressible(ctype)
        if etag and "cache-control" not in headers and status in (200, 304):
            headers["cache-control"] = self.mw.cache_control
        if compressible or (status == 304 and etag):
            headers.add_vary_header("Accept-Encoding")
        if status == 304:
            if etag:  # tell the browser the same (encoded) ETag it sent
                headers["etag"] = self.sent_tags.get(etag.removeprefix("W/"), etag)
            await self.inner_send({**message, "headers": headers.raw})
            return
        length = headers.get("content-length")
        small = length is not None and length.isdigit() and int(length) < self.mw.minimum_size
        if (status != 200 or self.encoding is None or not compressible or small
                or "content-encoding" in headers):
            await self.inner_send({**message, "headers": headers.raw})
            return
        self.start = {**message, "headers": headers.raw}
        key = self._key(headers)
        cached = self.mw.cache.get(key) if key else None
        if cached is not None:
            await self._send_compressed(cached.data, cached.level)
            self.mode = "done"  # the inner body is not needed
        elif self.head:
            await self.inner_send(self.start)  # no body to compress: plain headers
        else:
            self.mode = "buffer"

    def _key(self, headers: MutableHeaders) -> tuple[str, str, str] | None:
        etag = headers.get("etag")
        if not etag or self.encoding is None:
            return None
        return (self.path, etag, self.encoding)

    async def _on_body(self, message: Message) -> None:
        if self.mode == "pass":
            await self.inner_send(message)
            return
        if self.mode == "done":
            return
        self.chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            await self._compress_and_send()

    async def _compress_and_send(self) -> None:
        assert self.start is not None and self.encoding is not None
        self.mode = "done"
        body = b"".join(self.chunks)
        self.chunks = []
        headers = MutableHeaders(raw=list(self.start["headers"]))
        key = self._key(headers)
        if len(body) < self.mw.minimum_size or (key is None and len(body) > ON_THE_FLY_LIMIT):
            await self.inner_send(self.start)
            await self.inner_send({"type": "http.response.body", "body": body})
            return
        if key is None:
            level = FAST_LEVEL[self.encoding]
            data = await anyio.to_thread.run_sync(compress, body, self.encoding, level)
        else:
            entry = await anyio.to_thread.run_sync(self.mw.cache.get_or_compress, key, body)
            data, level = entry.data, entry.level
        await self._send_compressed(data, level)

    async def _send_compressed(self, data: bytes, level: int) -> None:
        assert self.start is not None and self.encoding is not None
        headers = MutableHeaders(raw=list(self.start["headers"]))
        headers["content-encoding"] = self.encoding
        headers["content-length"] = str(len(data))
        headers[LEVEL_HEADER] = str(level)
        etag = headers.get("etag")
        if etag:
            headers["etag"] = tagged(etag, self.encoding)
        with contextlib.suppress(KeyError):
            del headers["accept-ranges"]
        await self.inner_send({**self.start, "headers": headers.raw})
        await self.inner_send({"type": "http.response.body", "body": b"" if self.head else data})

    async def finish(self) -> None:
        """The inner app returned; flush a body it ended without `more_body=False`."""
        if self.mode == "buffer":
            await self._compress_and_send()

