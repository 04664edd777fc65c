"""A guest cannot grow the compression cache or its background work by spelling
one file many ways (`//f`, `/./f`, `/x/../f`) or by asking many page routes.

Requests go straight to the ASGI app: an HTTP client would tidy the dot
segments of the path before sending it, and a hostile guest does not.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import brotli
import pytest
from in_thread import run_async
from starlette.middleware import Middleware
from starlette.staticfiles import StaticFiles
from starlette.types import Message, Scope

from scorer.web.compression import (
    BEST_LEVEL,
    CompressedCache,
    CompressionMiddleware,
    untagged,
)

BIG = b"".join(b"(func $f%d (param i32) (result i32) local.get 0)\n" % i for i in range(4000))
INDEX = b"<html>" + b"<p>route</p>" * 400 + b"</html>"


class SpaStaticFiles(StaticFiles):
    """Like Flet's static files: a path with no extension falls back to index.html."""

    def lookup_path(self, path: str) -> tuple[str, os.stat_result | None]:
        full, st = super().lookup_path(path)
        if st is None and os.path.splitext(path)[1] in ("", ".html"):
            return super().lookup_path("index.html")
        return full, st


def spellings(name: str, count: int) -> list[str]:
    """`count` different request paths that all name the file `/name`."""
    found: list[str] = []
    i = 0
    while len(found) < count:
        found += ["/" * (i + 2) + name, "/" + "./" * (i + 1) + name,
                  "/" + "x/../" * (i + 1) + name, f"/y{i}/.." + "/" * (i + 1) + name]
        i += 1
    return found[:count]


async def fetch(app: Any, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str],
                                                                        bytes]:
    """One GET through the ASGI app, the path sent exactly as given."""
    scope: Scope = {
        "type": "http", "http_version": "1.1", "method": "GET", "scheme": "http",
        "path": path, "raw_path": path.encode(), "root_path": "", "query_string": b"",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8550),
    }
    sent = False
    got: list[Message] = []

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.sleep(3600)  # the app never needs a disconnect here
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        got.append(message)

    await asyncio.wait_for(app(scope, receive, send), timeout=30)
    start = next(m for m in got if m["type"] == "http.response.start")
    head = {k.decode().lower(): v.decode() for k, v in start["headers"]}
    body = b"".join(m.get("body", b"") for m in got if m["type"] == "http.response.body")
    return start["status"], head, body


def fetch_all(app: Any, paths: list[str], encoding: str = "br") -> list[tuple[int, dict[str, str],
                                                                              bytes]]:
    async def run() -> list[tuple[int, dict[str, str], bytes]]:
        return [await fetch(app, p, {"Accept-Encoding": encoding}) for p in paths]

    return run_async(run())


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "main.dart.wasm").write_bytes(BIG)
    (tmp_path / "index.html").write_bytes(INDEX)
    for n in range(5):
        (tmp_path / f"part{n}.js").write_bytes(BIG + b"// part %d\n" % n)
    return tmp_path


def wait_idle(cache: CompressedCache, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while cache.pending() and time.monotonic() < deadline:
        time.sleep(0.05)


def test_forty_spellings_of_one_file_are_compressed_once(root: Path) -> None:
    cache = CompressedCache(upgrade=False)
    app = CompressionMiddleware(SpaStaticFiles(directory=root), cache=cache)
    paths = spellings("main.dart.wasm", 40)
    assert len(set(paths)) == 40
    answers = fetch_all(app, paths)
    for status, headers, body in answers:
        assert status == 200 and headers["content-encoding"] == "br"
        assert brotli.decompress(body) == BIG
    assert cache.compressions == 1
    stats = cache.stats()
    assert stats.entries == 1
    assert stats.bytes == len(answers[0][2])
    assert stats.in_flight == 0  # no lock left behind per spelling


def test_page_routes_share_the_one_index(root: Path) -> None:
    cache = CompressedCache(upgrade=False, max_aliases=8)
    app = CompressionMiddleware(SpaStaticFiles(directory=root), cache=cache)
    answers = fetch_all(app, [f"/game/{n:08x}" for n in range(40)], encoding="gzip")
    assert all(status == 200 for status, _h, _b in answers)
    assert cache.compressions == 1
    stats = cache.stats()
    assert stats.entries == 1
    assert stats.aliases <= 8  # the table of spellings seen is bounded too


def test_background_work_is_one_job_per_file_not_per_spelling(root: Path) -> None:
    cache = CompressedCache(upgrade=True)
    app = CompressionMiddleware(SpaStaticFiles(directory=root), cache=cache)
    fetch_all(app, spellings("main.dart.wasm", 40), "gzip")
    assert cache.pending() <= 1
    wait_idle(cache)
    assert cache.pending() == 0
    assert cache.compressions == 2  # the fast level, then the best level once
    status, headers, _body = fetch_all(app, ["//x/../main.dart.wasm"], "gzip")[0]
    assert status == 200 and headers["x-compression-level"] == str(BEST_LEVEL["gzip"])


def test_the_best_level_queue_is_bounded(root: Path) -> None:
    cache = CompressedCache(upgrade=True, max_jobs=2)
    app = CompressionMiddleware(SpaStaticFiles(directory=root), cache=cache)
    for n in range(5):
        for encoding in ("br", "gzip"):
            status, _h, _b = fetch_all(app, [f"/part{n}.js"], encoding)[0]
            assert status == 200
            assert cache.pending() <= 2
    wait_idle(cache)
    assert cache.compressions <= 10 + 2  # ten fast ones, at most two best ones
    assert cache.stats().in_flight == 0


def test_the_cache_holds_at_most_max_bytes(root: Path) -> None:
    one = len(fetch_all(CompressionMiddleware(SpaStaticFiles(directory=root),
                                              cache=CompressedCache(upgrade=False)),
                        ["/part0.js"])[0][2])
    cache = CompressedCache(upgrade=False, max_bytes=one * 5 // 2)
    app = CompressionMiddleware(SpaStaticFiles(directory=root), cache=cache)
    for n in range(5):
        fetch_all(app, [f"/part{n}.js"])
        assert cache.stats().bytes <= cache.max_bytes
    assert cache.stats().entries == 2  # the two most recent files
    etag = untagged(fetch_all(app, ["/part4.js"])[0][1]["etag"])
    assert cache.lookup("//part4.js", etag, "br") is not None


def test_buffered_bodies_are_bounded(root: Path) -> None:
    """Past the budget for bodies being compressed, a file goes out as it is."""
    cache = CompressedCache(upgrade=False)
    app = CompressionMiddleware(SpaStaticFiles(directory=root), cache=cache,
                                max_buffered_bytes=len(BIG) // 2)
    status, headers, body = fetch_all(app, ["/main.dart.wasm"])[0]
    assert status == 200
    assert "content-encoding" not in headers
    assert body == BIG and int(headers["content-length"]) == len(BIG)
    assert cache.compressions == 0 and app.buffered == 0


def raw_get(port: int, path: str, encoding: str) -> tuple[int, dict[str, str], bytes]:
    """A GET with the path sent exactly as given (http.client does not tidy it)."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.putrequest("GET", path, skip_accept_encoding=True)
        conn.putheader("Accept-Encoding", encoding)
        conn.endheaders()
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def test_the_table_server_compresses_a_page_file_once_for_all_spellings(
        tmp_path: Path, live_server: Callable[[Any], int]) -> None:
    from scorer import server

    cache = CompressedCache(upgrade=False)
    app = server.build_app(tmp_path / "data")
    app.user_middleware = [m if m.cls is not CompressionMiddleware
                           else Middleware(CompressionMiddleware, cache=cache)
                           for m in app.user_middleware]
    port = live_server(app)
    # main.dart.mjs: a real file of the Flet client, small enough to compress quickly.
    for path in spellings("main.dart.mjs", 40):
        status, headers, body = raw_get(port, path, "gzip")
        assert status == 200 and headers["content-encoding"] == "gzip", path
    for n in range(40):  # page routes: all answered by index.html
        status, headers, body = raw_get(port, f"/game/{n:08x}", "gzip")
        assert status == 200 and body, n
    assert cache.compressions == 2
    assert cache.stats().entries == 2


def test_spellings_asked_at_once_wait_for_one_compression(root: Path) -> None:
    cache = CompressedCache(upgrade=False)
    app = CompressionMiddleware(SpaStaticFiles(directory=root), cache=cache)

    async def run() -> list[tuple[int, dict[str, str], bytes]]:
        return list(await asyncio.gather(*(fetch(app, p, {"Accept-Encoding": "br"})
                                           for p in spellings("main.dart.wasm", 12))))

    answers = run_async(run())
    assert all(brotli.decompress(body) == BIG for _s, _h, body in answers)
    assert cache.compressions == 1
    stats = cache.stats()
    assert stats.entries == 1 and stats.in_flight == 0
    assert app.buffered == 0  # every body held for compressing was let go


def test_a_budget_for_one_body_serves_two_at_once(root: Path) -> None:
    cache = CompressedCache(upgrade=False)
    app = CompressionMiddleware(SpaStaticFiles(directory=root), cache=cache,
                                max_buffered_bytes=len(BIG) * 3 // 2)

    async def run() -> list[tuple[int, dict[str, str], bytes]]:
        return list(await asyncio.gather(*(fetch(app, p, {"Accept-Encoding": "br"})
                                           for p in ("/part0.js", "/part1.js"))))

    answers = run_async(run())
    for n, (status, headers, body) in enumerate(answers):
        assert status == 200
        plain = brotli.decompress(body) if headers.get("content-encoding") == "br" else body
        assert plain == BIG + b"// part %d\n" % n
    assert any(h.get("content-encoding") == "br" for _s, h, _b in answers)
    assert app.buffered == 0
