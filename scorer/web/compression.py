"""Compressed, revalidated page files: an ASGI middleware for the outer app.

The Flet web client is ~14 MB of wasm, JavaScript and fonts that Flet's
StaticFiles sends uncompressed and without `Cache-Control`. This middleware,
wrapped around the whole app:

- compresses GET responses of compressible types (wasm, JavaScript, JSON,
  fonts, HTML…) with brotli when the browser accepts it, else gzip; files
  under `minimum_size` and already-compressed types (woff2, png) are left as
  they are, and so are WebSocket connections, HEAD/Range requests it has no
  cached body for, and responses that are not 200;
- compresses each file ONCE: bytes are cached in memory, keyed by the file's
  content and the encoding (see `CompressedCache`: however a guest spells the
  path, `//f`, `/./f`, `/x/../f`, and whatever page route index.html answers, one
  content is compressed once), and on disk (`page_file_cache`: the user cache
  folder), so a later start of the server compresses nothing. A new release of
  the app has new contents, so it is recompressed. The first request for a file
  gets a fast level (brotli 5 / gzip 4: ~0.1-0.2 s for the 8.5 MB main.dart.wasm, in a
  worker thread), and one background thread of low priority then replaces the
  gzip copy with the best level (Zopfli, ~13 s for that file, 4-5 % smaller than
  gzip -9: the gzip that phones on plain-HTTP Wi-Fi get), once the server has had
  no request for `quiet_s`. Brotli stays at the fast level: browsers ask for it
  over HTTPS or localhost only, so it reaches the laptop's own browser, where
  bytes cost nothing (brotli 11 would cost ~17 s of CPU for that file alone).
  Requests for a file being compressed wait for that one compression. Everything
  is bounded: the cache's bytes (in memory and on disk), its table of names, the
  best-level queue, and the bodies held while compressing;
- answers `If-None-Match: *` for an existing file with 304 (RFC 9110, 13.1.2);
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
import hashlib
import logging
import os
import posixpath
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

import anyio.to_thread
import brotli
import zopfli.gzip
from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from scorer.machine.disk_cache import DiskCache
from scorer.machine.paths import user_cache_dir

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
FAST_LEVEL = {"br": 5, "gzip": 4}
"""gzip 4: 2.90 MB for main.dart.wasm in ~0.11 s, against 2.81 MB in ~0.24 s at 6: a first
start's first phone waits for these copies (Zopfli replaces them within minutes)."""
BEST_LEVEL = {"br": FAST_LEVEL["br"], "gzip": ZOPFLI_LEVEL}
"""Brotli is not upgraded: see the module docstring."""
BEST_GZIP_ENV = "TARABISH_BEST_GZIP"
"""Set to "off": page files stay at the fast level, no Zopfli pass in the background.
For a server whose CPU counts more than 4-5 % of gzip bytes: the test suite's servers,
each of which would start the minutes-long pass again and be stopped before it ends."""
QUIET_S = 10.0
"""The best-level pass waits for this long without a request before each file: the
first phones of a start get the CPU first (a phone's page loads in 1-3 s, and its
later traffic goes over the WebSocket, which does not count)."""
PAGE_CACHE_BYTES = 128 * 1024 * 1024
"""The on-disk copies: ~24 MB per version of the web client (both encodings)."""
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


def canonical_path(path: str) -> str:
    """`//a/./b/../c/` → `/a/c`: one name for the spellings a static-file server
    resolves to the same file (the cache must not grow per spelling)."""
    return posixpath.normpath("/" + path.lstrip("/"))


def content_digest(body: bytes) -> bytes:
    """What the compressed bytes are cached under: the file's content itself, so
    every path that serves it (spellings, page routes answered by index.html)
    shares one compression."""
    return hashlib.blake2b(body, digest_size=16).digest()


def decompress(data: bytes, encoding: str) -> bytes:
    return bytes(brotli.decompress(data)) if encoding == "br" else gzip.decompress(data)


ContentKey = tuple[bytes, str]
"""(content digest, encoding)."""


def best_levels_wanted() -> bool:
    """Whether page files get their best level in the background (BEST_GZIP_ENV)."""
    return os.environ.get(BEST_GZIP_ENV, "").strip().lower() != "off"


def page_file_cache() -> DiskCache:
    """Where the table server keeps its compressed page files between starts."""
    return DiskCache(user_cache_dir() / "compressed", PAGE_CACHE_BYTES)


@dataclass
class Entry:
    data: bytes
    level: int


@dataclass(frozen=True)
class CacheStats:
    """What the cache holds now (tests and benchmarks check the bounds)."""

    entries: int
    bytes: int
    aliases: int
    jobs: int
    in_flight: int


class CompressedCache:
    """Compressed bodies by content and encoding, at most `max_bytes` in all.

    A request is matched to its content through an alias table, (canonical
    path, ETag) → content digest, of at most `max_aliases` rows: a file seen
    under a known name is answered from the cache as soon as its headers are
    seen; an unknown name costs one buffered body and one hash, never a
    compression of bytes already cached.
    Best-level passes wait in a queue of at most `max_jobs` contents (deduplicated;
    a pass re-reads its input from the cached fast-level bytes, so the queue holds
    no bodies).
    With `disk`, every compression is also kept there (content and encoding are the
    key, the level is kept with the bytes): a cache of a later start finds it there
    instead of compressing, and upgrades only what is not at the best level yet.
    """

    def __init__(self, max_bytes: int = 96 * 1024 * 1024, upgrade: bool = True,
                 max_aliases: int = 1024, max_jobs: int = 64,
                 disk: DiskCache | None = None, quiet_s: float = 0.0,
                 best: bool = True) -> None:
        self.max_bytes = max_bytes
        self.upgrade = upgrade
        self.best = best
        """False: every copy made at the fast level, none upgraded (a kept copy of
        either level is used as it is)."""
        self.max_aliases = max_aliases
        self.max_jobs = max_jobs
        self.disk = disk
        self.quiet_s = quiet_s
        self._last_request = time.monotonic()
        self._entries: OrderedDict[ContentKey, Entry] = OrderedDict()
        self._aliases: OrderedDict[bytes, bytes] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        """Signalled when a compression ends or a best-level job is queued."""
        self._in_flight: set[ContentKey] = set()
        """Keys being compressed now: at most one per worker thread, emptied as they end."""
        self._jobs: OrderedDict[ContentKey, None] = OrderedDict()
        self._running = 0
        self._worker: threading.Thread | None = None
        self.compressions = 0
        """How many compressions were made (tests check a file is compressed once)."""

    @staticmethod
    def _alias(path: str, etag: str) -> bytes:
        # Hashed, so a row costs the same for a 60 KB path as for "/".
        return hashlib.blake2b(f"{canonical_path(path)}\0{etag}".encode("utf-8", "replace"),
                               digest_size=16).digest()

    def lookup(self, path: str, etag: str, encoding: str) -> Entry | None:
        """The cached bytes for this file as last seen under this name, if any."""
        alias = self._alias(path, etag)
        with self._lock:
            digest = self._aliases.get(alias)
            if digest is None:
                return None
            self._aliases.move_to_end(alias)
            entry = self._entries.get((digest, encoding))
            if entry is not None:
                self._entries.move_to_end((digest, encoding))
            return entry

    def note_request(self) -> None:
        """A request came: the best-level pass waits until they stop (`quiet_s`)."""
        self._last_request = time.monotonic()

    def idle_s(self) -> float:
        """Seconds since the last request (`note_request`)."""
        return time.monotonic() - self._last_request

    def pending(self) -> int:
        """Best-level compressions queued or running."""
        with self._lock:
            return len(self._jobs) + self._running

    def stats(self) -> CacheStats:
        with self._lock:
            return CacheStats(len(self._entries), self._size, len(self._aliases),
                              len(self._jobs) + self._running, len(self._in_flight))

    def get_or_compress(self, path: str, etag: str, encoding: str, body: bytes) -> Entry:
        """The cached entry for `body`, or compress it now (fast level) and queue the
        best level. Blocking: call from a worker thread. One compression per
        content and encoding at a time; others asking for it wait for that one."""
        digest = content_digest(body)
        key = (digest, encoding)
        alias = self._alias(path, etag)
        with self._lock:
            self._aliases[alias] = digest
            self._aliases.move_to_end(alias)
            while len(self._aliases) > self.max_aliases:
                self._aliases.popitem(last=False)
            while key in self._in_flight:
                self._changed.wait()
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
                return entry
            self._in_flight.add(key)
        made = False
        try:
            entry = self._from_disk(key)
            if entry is None:
                level = (FAST_LEVEL[encoding] if self.upgrade or not self.best
                         else BEST_LEVEL[encoding])
                entry = Entry(compress(body, encoding, level), level)
                made = True
                self._to_disk(key, entry)
        finally:
            with self._lock:
                self._in_flight.discard(key)
                self._changed.notify_all()
        with self._lock:
            if made:
                self.compressions += 1
            self._put(key, entry)
            if self.upgrade and self.best and entry.level < BEST_LEVEL[encoding]:
                self._queue_upgrade(key)
        return entry

    @staticmethod
    def _disk_key(key: ContentKey) -> str:
        return f"{key[0].hex()}.{key[1]}"

    def _from_disk(self, key: ContentKey) -> Entry | None:
        """The copy kept by this or an earlier start, if any (and whole)."""
        if self.disk is None:
            return None
        kept = self.disk.get(self._disk_key(key))
        if not kept or kept[0] not in (FAST_LEVEL[key[1]], BEST_LEVEL[key[1]]):
            return None  # empty, or a level this version does not make: made again
        return Entry(kept[1:], kept[0])

    def _to_disk(self, key: ContentKey, entry: Entry) -> None:
        if self.disk is not None:
            self.disk.put(self._disk_key(key), bytes([entry.level]) + entry.data)

    def _put(self, key: ContentKey, entry: Entry) -> None:
        """Store an entry, dropping the least recently used past `max_bytes`.
        The caller holds the lock."""
        previous = self._entries.pop(key, None)
        if previous is not None:
            self._size -= len(previous.data)
        self._entries[key] = entry
        self._size += len(entry.data)
        while self._size > self.max_bytes and len(self._entries) > 1:
            _k, dropped = self._entries.popitem(last=False)
            self._size -= len(dropped.data)

    def _queue_upgrade(self, key: ContentKey) -> None:
        """Queue a best-level pass; the caller holds the lock. A full queue drops it:
        that content keeps its fast level, which is still a good compression."""
        if key in self._jobs:
            return
        if len(self._jobs) + self._running >= self.max_jobs:
            logger.debug("best-level queue full: keeping the fast level")
            return
        self._jobs[key] = None
        self._changed.notify_all()
        if self._worker is None or not self._worker.is_alive():
            # A daemon thread: Ctrl-C never waits for a brotli-11 run.
            self._worker = threading.Thread(target=self._upgrade_loop,
                                            name="compress-best", daemon=True)
            self._worker.start()

    def _next_job(self) -> ContentKey | None:
        """The next queued job, or None when the queue stayed empty for 5 s."""
        deadline = time.monotonic() + 5
        with self._lock:
            while not self._jobs:  # woken by any compression's end, hence the deadline
                left = deadline - time.monotonic()
                if left <= 0:
                    self._worker = None
                    return None
                self._changed.wait(left)
            key, _ = self._jobs.popitem(last=False)
            self._running += 1
            return key

    def _wait_for_quiet(self) -> None:
        while (idle := self.idle_s()) < self.quiet_s:
            time.sleep(min(0.25, self.quiet_s - idle))

    def _upgrade_loop(self) -> None:
        lower_this_threads_priority()  # phones being served come before the best level
        while (key := self._next_job()) is not None:
            try:
                self._wait_for_quiet()
                self._upgrade(key)
            except Exception:
                logger.exception("could not compress a page file at the best level")
            finally:
                with self._lock:
                    self._running -= 1

    def _upgrade(self, key: ContentKey) -> None:
        encoding = key[1]
        with self._lock:
            current = self._entries.get(key)
        if current is None or current.level >= BEST_LEVEL[encoding]:
            return  # dropped from the cache meanwhile, or already done
        body = decompress(current.data, encoding)
        level = BEST_LEVEL[encoding]
        entry = Entry(compress(body, encoding, level), level)
        self._to_disk(key, entry)
        with self._lock:
            self.compressions += 1
            if self._entries.get(key) is current:
                self._put(key, entry)


def lower_this_threads_priority() -> None:
    """Give the calling thread the lowest CPU share the system offers without rights
    (Linux: nice 10 for this thread alone; macOS, Python 3.12+: background); left as
    it is elsewhere."""
    darwin_thread = getattr(os, "PRIO_DARWIN_THREAD", None)
    with contextlib.suppress(AttributeError, OSError):
        if darwin_thread is not None:
            os.setpriority(darwin_thread, 0, os.PRIO_DARWIN_BG)  # type: ignore[attr-defined]
        else:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)


class CompressionMiddleware:
    """See the module docstring. `max_buffered_bytes` bounds the bodies held at once
    while they are being compressed; past it, a response goes out as it is."""

    def __init__(
        self,
        app: ASGIApp,
        minimum_size: int = 1024,
        cache: CompressedCache | None = None,
        cache_control: str = "no-cache",
        max_buffered_bytes: int = 64 * 1024 * 1024,
        unnoticed: frozenset[str] = frozenset(),
    ) -> None:
        self.app = app
        self.minimum_size = minimum_size
        self.cache = cache or CompressedCache()
        self.unnoticed = unnoticed
        """Paths whose requests do not hold back the best level (a proxy's health
        check every 2 s would otherwise keep the server from ever being quiet)."""
        self.cache_control = cache_control
        self.max_buffered_bytes = max_buffered_bytes
        self.buffered = 0
        """Bytes held by responses being buffered now (changed on the event loop only)."""

    def reserve(self, size: int) -> bool:
        if self.buffered + size > self.max_buffered_bytes:
            return False
        self.buffered += size
        return True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD"):
            await self.app(scope, receive, send)  # WebSocket, lifespan, POST...
            return
        if scope.get("path") not in self.unnoticed:
            self.cache.note_request()
        headers = Headers(scope=scope)
        encoding = None if "range" in headers else choose_encoding(
            headers.get("accept-encoding", ""))
        sent_tags: dict[str, str] = {}
        any_tag = False
        inm = headers.get("if-none-match")
        if inm:
            # Our ETags carry the encoding; the inner app knows only its own.
            plain = []
            for tag in (t.strip() for t in inm.split(",")):
                if tag == "*":
                    any_tag = True  # answered here: Starlette does not know "*"
                elif tag:
                    base = untagged(tag)
                    sent_tags.setdefault(base.removeprefix("W/"), tag)
                    plain.append(base)
            raw = [(k, v) for k, v in scope["headers"] if k.lower() != b"if-none-match"]
            if plain:
                raw.append((b"if-none-match", ", ".join(plain).encode("latin-1")))
            scope = {**scope, "headers": raw}
        responder = _Responder(self, scope, send, encoding, sent_tags, any_tag)
        try:
            await self.app(scope, receive, responder.send)
            await responder.finish()
        finally:
            responder.release()


NOT_MODIFIED_HEADERS = frozenset({"cache-control", "content-location", "date", "etag",
                                  "expires", "vary"})
"""What a 304 carries (RFC 9110, 15.4.5)."""


class _Responder:
    """Watches one response on its way out and rewrites it."""

    def __init__(self, mw: CompressionMiddleware, scope: Scope, send: Send,
                 encoding: str | None, sent_tags: dict[str, str], any_tag: bool) -> None:
        self.mw = mw
        self.path = scope.get("root_path", "") + scope["path"]
        self.head = scope["method"] == "HEAD"
        self.inner_send = send
        self.encoding = encoding
        self.sent_tags = sent_tags
        self.any_tag = any_tag
        self.mode = "pass"  # pass | buffer | done
        self.start: Message | None = None
        self.etag: str | None = None
        self.chunks: list[bytes] = []
        self.held = 0
        """Bytes of `chunks`, reserved from the middleware's budget."""

    def release(self) -> None:
        self.mw.buffered -= self.held
        self.held = 0

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
        encode = (status == 200 and self.encoding is not None and compressible and not small
                  and "content-encoding" not in headers)
        if self.any_tag and 200 <= status < 300:
            # `If-None-Match: *` and the resource exists: a GET or HEAD gets 304
            # (RFC 9110, 13.1.2), carrying the ETag a 200 would have had.
            if etag and encode and self.encoding is not None:
                headers["etag"] = tagged(etag, self.encoding)
            await self._not_modified(message, headers)
            return
        if not encode:
            await self.inner_send({**message, "headers": headers.raw})
            return
        self.start = {**message, "headers": headers.raw}
        self.etag = etag
        cached = self.mw.cache.lookup(self.path, etag, self.encoding or "") if etag else None
        if cached is not None:
            await self._send_compressed(cached.data, cached.level)
            self.mode = "done"  # the inner body is not needed
        elif self.head:
            await self.inner_send(self.start)  # no body to compress: plain headers
        else:
            self.mode = "buffer"

    async def _not_modified(self, message: Message, headers: MutableHeaders) -> None:
        kept = [(k, v) for k, v in headers.raw if k.decode("latin-1").lower()
                in NOT_MODIFIED_HEADERS]
        await self.inner_send({**message, "status": 304, "headers": kept})
        await self.inner_send({"type": "http.response.body", "body": b""})
        self.mode = "done"  # the inner body is dropped

    async def _on_body(self, message: Message) -> None:
        if self.mode == "pass":
            await self.inner_send(message)
            return
        if self.mode == "done":
            return
        chunk = message.get("body", b"")
        more = message.get("more_body", False)
        over = self.etag is None and self.held + len(chunk) > ON_THE_FLY_LIMIT
        if over or not self.mw.reserve(len(chunk)):
            await self._send_as_it_is(chunk, more)
            return
        self.held += len(chunk)
        self.chunks.append(chunk)
        if not more:
            await self._compress_and_send()

    async def _send_as_it_is(self, chunk: bytes, more: bool) -> None:
        """Too big to hold: what is buffered and the rest go out uncompressed."""
        assert self.start is not None
        self.mode = "pass"
        body = b"".join(self.chunks) + chunk
        self.chunks = []
        self.release()
        await self.inner_send(self.start)
        await self.inner_send({"type": "http.response.body", "body": body, "more_body": more})

    async def _compress_and_send(self) -> None:
        assert self.start is not None and self.encoding is not None
        self.mode = "done"
        body = b"".join(self.chunks)
        self.chunks = []
        if len(body) < self.mw.minimum_size:
            await self.inner_send(self.start)
            await self.inner_send({"type": "http.response.body", "body": body})
            return
        if self.etag is None:
            level = FAST_LEVEL[self.encoding]
            data = await anyio.to_thread.run_sync(compress, body, self.encoding, level)
        else:
            entry = await anyio.to_thread.run_sync(
                self.mw.cache.get_or_compress, self.path, self.etag, self.encoding, body)
            data, level = entry.data, entry.level
        del body
        self.release()
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
