"""The best gzip level is Zopfli: gzip that any browser decodes, smaller than
gzip -9, made once in the background like the brotli-11 pass."""

from __future__ import annotations

import gzip
import time
import warnings
from pathlib import Path

from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from scorer.web.compression import (
    BEST_LEVEL,
    FAST_LEVEL,
    ZOPFLI_LEVEL,
    CompressedCache,
    CompressionMiddleware,
    compress,
)

with warnings.catch_warnings():  # starlette's TestClient on httpx: deprecated, still fine
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def sample() -> bytes:
    """A real page file: the JavaScript loader of the Flet client (~60 KB)."""
    from flet_web import get_package_web_dir

    return (Path(get_package_web_dir()) / "main.dart.mjs").read_bytes()


def test_best_gzip_is_zopfli_and_decodes_to_the_same_bytes() -> None:
    data = sample()
    assert BEST_LEVEL["gzip"] == ZOPFLI_LEVEL
    best = compress(data, "gzip", BEST_LEVEL["gzip"])
    assert best[:2] == b"\x1f\x8b"  # a gzip member
    assert gzip.decompress(best) == data
    assert len(best) < len(compress(data, "gzip", 9))
    assert compress(data, "gzip", BEST_LEVEL["gzip"]) == best  # deterministic


def test_the_background_pass_upgrades_gzip_to_zopfli(tmp_path: Path) -> None:
    data = sample()
    (tmp_path / "main.dart.mjs").write_bytes(data)
    cache = CompressedCache(upgrade=True)
    app = CompressionMiddleware(Starlette(routes=[Mount("/", StaticFiles(directory=tmp_path))]),
                                cache=cache)
    with TestClient(app) as client:
        first = client.get("/main.dart.mjs", headers={"Accept-Encoding": "gzip"})
        assert first.headers["x-compression-level"] == str(FAST_LEVEL["gzip"])
        deadline = time.monotonic() + 60
        while cache.pending() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.1)
        later = client.get("/main.dart.mjs", headers={"Accept-Encoding": "gzip"})
        assert later.headers["x-compression-level"] == str(ZOPFLI_LEVEL)
        assert later.headers["etag"] == first.headers["etag"]  # same decoded bytes
        assert later.content == data
        assert int(later.headers["content-length"]) < int(first.headers["content-length"])
