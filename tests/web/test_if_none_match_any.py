"""`If-None-Match: *` (RFC 9110, 13.1.2): for a GET or HEAD of a resource that
exists, the condition is false and the answer is 304 with no body; for one that
does not exist, the header changes nothing."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from scorer import server
from scorer.web.compression import CompressedCache, CompressionMiddleware

with warnings.catch_warnings():  # starlette's TestClient on httpx: deprecated, still fine
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

BIG = b"".join(b"(func $f%d (param i32) (result i32) local.get 0)\n" % i for i in range(4000))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    (tmp_path / "main.dart.wasm").write_bytes(BIG)
    (tmp_path / "tiny.js").write_bytes(b"console.log(1)")
    app = CompressionMiddleware(Starlette(routes=[Mount("/", StaticFiles(directory=tmp_path))]),
                                cache=CompressedCache(upgrade=False))
    with TestClient(app) as c:
        yield c


@pytest.mark.parametrize("encoding", ["br", "gzip", "identity"])
@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_any_tag_on_an_existing_file_is_not_modified(client: TestClient, encoding: str,
                                                     method: str) -> None:
    full = client.get("/main.dart.wasm", headers={"Accept-Encoding": encoding})
    r = client.request(method, "/main.dart.wasm",
                       headers={"Accept-Encoding": encoding, "If-None-Match": "*"})
    assert r.status_code == 304
    assert r.content == b""
    assert r.headers["etag"] == full.headers["etag"]  # the tag a 200 would carry
    assert r.headers["cache-control"] == "no-cache"
    assert "content-encoding" not in r.headers
    assert "content-type" not in r.headers


@pytest.mark.parametrize("header", ['"nope", *', '*, "nope"', ' * '])
def test_any_tag_among_others(client: TestClient, header: str) -> None:
    r = client.get("/main.dart.wasm", headers={"Accept-Encoding": "br", "If-None-Match": header})
    assert r.status_code == 304 and r.content == b""


def test_any_tag_on_a_small_file(client: TestClient) -> None:
    r = client.get("/tiny.js", headers={"If-None-Match": "*"})
    assert r.status_code == 304 and r.content == b""


def test_any_tag_on_a_missing_file_changes_nothing(client: TestClient) -> None:
    r = client.get("/nothing.wasm", headers={"Accept-Encoding": "br", "If-None-Match": "*"})
    assert r.status_code == 404


def test_other_tags_still_work(client: TestClient) -> None:
    r = client.get("/main.dart.wasm", headers={"Accept-Encoding": "br", "If-None-Match": '"x"'})
    assert r.status_code == 200 and r.content == BIG


@pytest.mark.parametrize("path", ["/main.dart.wasm", "/", "/game/0123abcd",
                                  "/assets/FontManifest.json", server.ICON_FONT_URL])
def test_the_table_server_answers_any_tag_with_304(tmp_path: Path, path: str) -> None:
    with TestClient(server.build_app(tmp_path)) as client:
        r = client.get(path, headers={"Accept-Encoding": "gzip", "If-None-Match": "*"})
        assert r.status_code == 304
        assert r.content == b""
        missing = client.get("/nothing.wasm", headers={"If-None-Match": "*"})
        assert missing.status_code == 404
