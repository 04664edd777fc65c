"""The compression middleware: encoding negotiation, compress-once cache, ETag/304,
and what it must leave alone (small files, compressed types, WebSockets, Range)."""

from __future__ import annotations

import gzip
import os
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import brotli
import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

with warnings.catch_warnings():  # starlette's TestClient on httpx: deprecated, still fine
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from scorer.web.compression import (
    BEST_GZIP_ENV,
    BEST_LEVEL,
    FAST_LEVEL,
    CompressedCache,
    CompressionMiddleware,
    best_levels_wanted,
    choose_encoding,
    tagged,
    untagged,
)

BIG = b"".join(b"(func $f%d (param i32) (result i32) local.get 0)\n" % i for i in range(4000))


async def echo(ws: WebSocket) -> None:
    await ws.accept()
    await ws.send_text("x" * 5000)
    await ws.close()


def plain(_request: object) -> PlainTextResponse:
    return PlainTextResponse("hello " * 1000)


def build(root: Path, cache: CompressedCache) -> TestClient:
    inner = Starlette(routes=[
        Route("/text", plain),
        WebSocketRoute("/ws", echo),
        Mount("/", StaticFiles(directory=root)),
    ])
    return TestClient(CompressionMiddleware(inner, cache=cache))


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "main.dart.wasm").write_bytes(BIG)
    (tmp_path / "tiny.js").write_bytes(b"console.log(1)")
    (tmp_path / "roboto.woff2").write_bytes(os.urandom(20_000))
    (tmp_path / "index.html").write_bytes(b"<html>" + b"<p>hi</p>" * 500 + b"</html>")
    return tmp_path


@pytest.fixture
def cache() -> CompressedCache:
    return CompressedCache(upgrade=False)


@pytest.fixture
def client(root: Path, cache: CompressedCache) -> Iterator[TestClient]:
    with build(root, cache) as c:
        yield c


def get(client: TestClient, path: str, encoding: str, **headers: str) -> object:
    return client.get(path, headers={"Accept-Encoding": encoding, **headers})


@pytest.mark.parametrize(("header", "expected"), [
    ("gzip, deflate, br, zstd", "br"),
    ("gzip, deflate", "gzip"),
    ("br;q=0.5, gzip", "gzip"),
    ("br;q=0, gzip;q=0", None),
    ("identity", None),
    ("", None),
    ("*", "br"),
    ("*;q=0.1, br;q=0", "gzip"),
    ("GZIP", "gzip"),
    ("gzip;q=bogus, br", "br"),
])
def test_choose_encoding(header: str, expected: str | None) -> None:
    assert choose_encoding(header) == expected


def test_etag_tags_round_trip() -> None:
    assert tagged('"abc"', "br") == '"abc-br"'
    assert tagged('W/"abc"', "gzip") == 'W/"abc-gzip"'
    assert untagged('"abc-br"') == '"abc"'
    assert untagged('W/"abc-gzip"') == 'W/"abc"'
    assert untagged('"abc"') == '"abc"'


@pytest.mark.parametrize("encoding", ["br", "gzip"])
def test_large_file_is_compressed_with_the_accepted_encoding(
    client: TestClient, encoding: str,
) -> None:
    r = client.get("/main.dart.wasm", headers={"Accept-Encoding": encoding})
    assert r.status_code == 200
    assert r.headers["content-encoding"] == encoding
    assert int(r.headers["content-length"]) < len(BIG) / 5
    assert r.content == BIG  # httpx decoded it
    assert r.headers["etag"].endswith(f'-{encoding}"')
    assert r.headers["cache-control"] == "no-cache"
    assert "accept-encoding" in r.headers["vary"].lower()
    assert "accept-ranges" not in r.headers


def test_raw_bytes_decode(root: Path, cache: CompressedCache) -> None:
    with build(root, cache) as c:
        for enc, decode in (("br", brotli.decompress), ("gzip", gzip.decompress)):
            with c.stream("GET", "/main.dart.wasm", headers={"Accept-Encoding": enc}) as r:
                raw = b"".join(r.iter_raw())
            assert decode(raw) == BIG


def test_no_compression_without_accept_encoding(client: TestClient) -> None:
    r = client.get("/main.dart.wasm", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in r.headers
    assert int(r.headers["content-length"]) == len(BIG)
    assert r.headers["cache-control"] == "no-cache"
    assert not r.headers["etag"].endswith('-br"')


def test_each_file_is_compressed_once(client: TestClient, cache: CompressedCache) -> None:
    for _ in range(5):
        assert client.get("/main.dart.wasm", headers={"Accept-Encoding": "br"}).status_code == 200
    assert cache.compressions == 1
    client.get("/main.dart.wasm", headers={"Accept-Encoding": "gzip"})
    assert cache.compressions == 2  # one per encoding


def test_a_changed_file_is_compressed_again(root: Path, client: TestClient,
                                            cache: CompressedCache) -> None:
    first = client.get("/main.dart.wasm", headers={"Accept-Encoding": "br"})
    newer = BIG + b";; new release\n"
    (root / "main.dart.wasm").write_bytes(newer)
    future = time.time() + 10
    os.utime(root / "main.dart.wasm", (future, future))
    second = client.get("/main.dart.wasm", headers={"Accept-Encoding": "br"})
    assert second.content == newer
    assert second.headers["etag"] != first.headers["etag"]
    assert cache.compressions == 2
    # A browser holding the old version asks, and gets the new one.
    third = client.get("/main.dart.wasm", headers={"Accept-Encoding": "br",
                                                   "If-None-Match": first.headers["etag"]})
    assert third.status_code == 200 and third.content == newer


@pytest.mark.parametrize("encoding", ["br", "gzip", "identity"])
def test_revalidation_is_a_304_without_a_body(client: TestClient, encoding: str) -> None:
    first = client.get("/main.dart.wasm", headers={"Accept-Encoding": encoding})
    etag = first.headers["etag"]
    again = client.get("/main.dart.wasm", headers={"Accept-Encoding": encoding,
                                                   "If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["etag"] == etag
    assert again.headers["cache-control"] == "no-cache"
    assert "accept-encoding" in again.headers["vary"].lower()


def test_revalidation_among_several_tags(client: TestClient) -> None:
    etag = client.get("/main.dart.wasm", headers={"Accept-Encoding": "gzip"}).headers["etag"]
    again = client.get("/main.dart.wasm", headers={"Accept-Encoding": "gzip",
                                                   "If-None-Match": f'"nope", {etag}'})
    assert again.status_code == 304
    assert again.headers["etag"] == etag


def test_small_files_are_sent_as_they_are(client: TestClient) -> None:
    r = client.get("/tiny.js", headers={"Accept-Encoding": "br, gzip"})
    assert "content-encoding" not in r.headers
    assert r.content == b"console.log(1)"
    assert r.headers["cache-control"] == "no-cache"


def test_compressed_types_are_left_alone(client: TestClient, root: Path) -> None:
    r = client.get("/roboto.woff2", headers={"Accept-Encoding": "br, gzip"})
    assert "content-encoding" not in r.headers
    assert r.content == (root / "roboto.woff2").read_bytes()


def test_html_is_compressed(client: TestClient) -> None:
    r = client.get("/index.html", headers={"Accept-Encoding": "gzip"})
    assert r.headers["content-encoding"] == "gzip"
    assert r.content.startswith(b"<html>")


def test_a_response_without_etag_is_compressed_per_request(client: TestClient,
                                                           cache: CompressedCache) -> None:
    r = client.get("/text", headers={"Accept-Encoding": "gzip"})
    assert r.headers["content-encoding"] == "gzip"
    assert r.text == "hello " * 1000
    assert "cache-control" not in r.headers
    assert cache.compressions == 0  # not cached: it is not a file


def test_range_requests_and_errors_pass_through(client: TestClient) -> None:
    r = client.get("/main.dart.wasm", headers={"Accept-Encoding": "br", "Range": "bytes=0-9"})
    assert r.status_code == 206
    assert "content-encoding" not in r.headers
    assert r.content == BIG[:10]
    missing = client.get("/nothing.wasm", headers={"Accept-Encoding": "br"})
    assert missing.status_code == 404
    assert missing.headers.get("content-encoding") is None


def test_head_is_plain_until_cached_then_matches_get(client: TestClient) -> None:
    head = client.head("/main.dart.wasm", headers={"Accept-Encoding": "br"})
    assert head.status_code == 200
    assert int(head.headers["content-length"]) == len(BIG)
    get = client.get("/main.dart.wasm", headers={"Accept-Encoding": "br"})
    head = client.head("/main.dart.wasm", headers={"Accept-Encoding": "br"})
    assert head.headers["content-encoding"] == "br"
    assert head.headers["content-length"] == get.headers["content-length"]
    assert head.content == b""


def test_websocket_is_never_touched(client: TestClient) -> None:
    with client.websocket_connect("/ws", headers={"Accept-Encoding": "br"}) as ws:
        assert ws.receive_text() == "x" * 5000


def test_post_passes_through(client: TestClient) -> None:
    r = client.post("/text", headers={"Accept-Encoding": "br"})
    assert r.status_code == 405


def test_fast_level_first_then_best_in_the_background(root: Path) -> None:
    cache = CompressedCache(upgrade=True)
    with build(root, cache) as c:
        first = c.get("/main.dart.wasm", headers={"Accept-Encoding": "gzip"})
        assert first.headers["x-compression-level"] == str(FAST_LEVEL["gzip"])
        deadline = time.monotonic() + 30
        while cache.pending() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.1)
        later = c.get("/main.dart.wasm", headers={"Accept-Encoding": "gzip"})
        assert later.headers["x-compression-level"] == str(BEST_LEVEL["gzip"])
        assert later.headers["etag"] == first.headers["etag"]  # same decoded bytes
        assert later.content == BIG
        assert cache.compressions == 2


def test_best_off_keeps_the_fast_level_and_queues_nothing(
        root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """TARABISH_BEST_GZIP=off (the test suite's servers): no Zopfli pass is queued."""
    monkeypatch.setenv(BEST_GZIP_ENV, "off")
    cache = CompressedCache(upgrade=True, best=best_levels_wanted())
    with build(root, cache) as c:
        first = c.get("/main.dart.wasm", headers={"Accept-Encoding": "gzip"})
        assert first.headers["x-compression-level"] == str(FAST_LEVEL["gzip"])
        assert cache.pending() == 0 and cache.compressions == 1
        assert first.content == BIG
    monkeypatch.setenv(BEST_GZIP_ENV, " On ")
    assert best_levels_wanted()
    monkeypatch.delenv(BEST_GZIP_ENV)
    assert best_levels_wanted()


def test_brotli_stays_at_the_fast_level(root: Path) -> None:
    """Brotli reaches only the laptop's own browser (HTTPS or localhost): no
    best-level pass is spent on it."""
    cache = CompressedCache(upgrade=True)
    with build(root, cache) as c:
        first = c.get("/main.dart.wasm", headers={"Accept-Encoding": "br"})
        assert first.headers["x-compression-level"] == str(FAST_LEVEL["br"])
        assert cache.pending() == 0 and cache.compressions == 1


def test_cache_is_bounded(root: Path) -> None:
    cache = CompressedCache(max_bytes=1, upgrade=False)
    with build(root, cache) as c:
        c.get("/main.dart.wasm", headers={"Accept-Encoding": "br"})
        c.get("/index.html", headers={"Accept-Encoding": "br"})
        assert cache.stats().entries == 1
