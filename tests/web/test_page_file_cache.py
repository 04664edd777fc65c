"""Compressed page files kept on disk: a later start of the table server compresses
nothing, a damaged copy is made again, the copies stay within their bound, and two
servers share them safely."""

from __future__ import annotations

import gzip
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import brotli
import pytest
import uvicorn
from test_compression_bounds import BIG, SpaStaticFiles, fetch_all, raw_get, wait_idle

from scorer import server
from scorer.machine.disk_cache import DiskCache
from scorer.web.compression import (
    BEST_LEVEL,
    FAST_LEVEL,
    CompressedCache,
    CompressionMiddleware,
    content_digest,
)

PAGE_FILES = ("/main.dart.mjs", "/flutter_bootstrap.js")
"""Real files of the Flet client, small enough to compress (even with Zopfli) quickly."""


def start(tmp_path: Path, name: str, disk: DiskCache,
          live_server: Callable[[Any], int]) -> tuple[int, CompressedCache]:
    """A table server as `tarabish` starts it, on its own data folder, sharing `disk`."""
    cache = CompressedCache(disk=DiskCache(disk.folder, disk.max_bytes))
    return live_server(server.build_app(tmp_path / name, cache)), cache


def page_files(port: int) -> dict[tuple[str, str], bytes]:
    got = {}
    for path in PAGE_FILES:
        for encoding in ("gzip", "br"):
            status, headers, body = raw_get(port, path, encoding)
            assert status == 200 and headers["content-encoding"] == encoding
            got[path, encoding] = body
    return got


def test_a_second_start_serves_the_same_bytes_without_compressing(
        tmp_path: Path, live_server: Callable[[Any], int]) -> None:
    disk = DiskCache(tmp_path / "cache", 1 << 30)
    port, first = start(tmp_path, "data", disk, live_server)
    page_files(port)
    wait_idle(first)
    assert first.compressions == 2 * len(PAGE_FILES) + len(PAGE_FILES)  # + gzip's best
    best = page_files(port)
    port, second = start(tmp_path, "data", disk, live_server)
    assert page_files(port) == best
    assert second.compressions == 0
    assert second.pending() == 0  # nothing left to upgrade either
    for (_path, encoding), body in best.items():
        assert (brotli.decompress(body) if encoding == "br" else gzip.decompress(body))


def test_two_servers_on_two_data_folders_share_the_copies(
        tmp_path: Path, live_server: Callable[[Any], int]) -> None:
    disk = DiskCache(tmp_path / "cache", 1 << 30)
    ports = [start(tmp_path, name, disk, live_server) for name in ("ann", "bob")]
    answers: list[dict[tuple[str, str], bytes]] = []
    threads = [threading.Thread(target=lambda p=port: answers.append(page_files(p)))
               for port, _cache in ports for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    for _port, cache in ports:
        wait_idle(cache)
    assert len(answers) == 4
    for got in answers:
        for (_path, encoding), body in got.items():
            plain = brotli.decompress(body) if encoding == "br" else gzip.decompress(body)
            assert plain
    checker = DiskCache(disk.folder, disk.max_bytes)
    kept = disk.names()
    assert len(kept) == 2 * len(PAGE_FILES)  # one copy per content and encoding
    assert all(checker.get(name) is not None for name in kept)
    assert checker.damaged == 0
    port, third = start(tmp_path, "cid", disk, live_server)
    page_files(port)
    assert third.compressions == 0


def middleware(root: Path, disk: DiskCache, upgrade: bool = False) -> tuple[Any, CompressedCache]:
    cache = CompressedCache(upgrade=upgrade, disk=DiskCache(disk.folder, disk.max_bytes))
    return CompressionMiddleware(SpaStaticFiles(directory=root), cache=cache), cache


@pytest.fixture
def root(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    site.mkdir()
    (site / "main.dart.wasm").write_bytes(BIG)
    for n in range(5):
        (site / f"part{n}.js").write_bytes(BIG + b"// part %d\n" % n)
    return site


@pytest.mark.parametrize("damage", ["flip a byte", "truncate"])
def test_a_damaged_copy_is_ignored_and_made_again(root: Path, tmp_path: Path,
                                                  damage: str) -> None:
    disk = DiskCache(tmp_path / "cache", 1 << 30)
    app, _cache = middleware(root, disk)
    fetch_all(app, ["/main.dart.wasm"])
    (name,) = disk.names()
    kept = disk.folder / name
    raw = bytearray(kept.read_bytes())
    if damage == "flip a byte":
        raw[-10] ^= 0xFF
    else:
        raw = raw[: len(raw) // 2]
    kept.write_bytes(bytes(raw))
    app, cache = middleware(root, disk)
    status, _headers, body = fetch_all(app, ["/main.dart.wasm"])[0]
    assert status == 200 and brotli.decompress(body) == BIG
    assert cache.compressions == 1 and cache.disk is not None and cache.disk.damaged == 1
    assert DiskCache(disk.folder, disk.max_bytes).get(kept.name) is not None  # rewritten
    app, later = middleware(root, disk)
    fetch_all(app, ["/main.dart.wasm"])
    assert later.compressions == 0


def test_the_copies_on_disk_stay_within_their_bound(root: Path, tmp_path: Path) -> None:
    one = len(fetch_all(middleware(root, DiskCache(tmp_path / "one", 1 << 30))[0],
                        ["/part0.js"])[0][2])
    disk = DiskCache(tmp_path / "cache", one * 5 // 2)
    app, _cache = middleware(root, disk)
    for n in range(5):
        fetch_all(app, [f"/part{n}.js"])
        assert DiskCache(disk.folder, disk.max_bytes).size() <= disk.max_bytes
    assert len(disk.names()) == 2  # the two most recent files


def test_a_copy_left_at_the_fast_level_is_upgraded_by_a_later_start(
        root: Path, tmp_path: Path) -> None:
    """A first start stopped before its best-level pass: the next one serves the fast
    copy at once, and makes the best one (once) in the background."""
    disk = DiskCache(tmp_path / "cache", 1 << 30)
    app, cache = middleware(root, disk, upgrade=False)
    cache.upgrade = True
    cache.max_jobs = 0  # stopped before the pass: only the fast level is kept
    _s, headers, _b = fetch_all(app, ["/main.dart.wasm"], "gzip")[0]
    assert headers["x-compression-level"] == str(FAST_LEVEL["gzip"])
    app, later = middleware(root, disk, upgrade=True)
    _s, headers, _b = fetch_all(app, ["/main.dart.wasm"], "gzip")[0]
    assert headers["x-compression-level"] == str(FAST_LEVEL["gzip"])
    wait_idle(later)
    assert later.compressions == 1  # the best level only
    app, third = middleware(root, disk, upgrade=True)
    _s, headers, body = fetch_all(app, ["/main.dart.wasm"], "gzip")[0]
    assert headers["x-compression-level"] == str(BEST_LEVEL["gzip"])
    assert gzip.decompress(body) == BIG
    assert third.compressions == 0 and third.pending() == 0


def test_the_best_level_waits_until_requests_stop(root: Path) -> None:
    cache = CompressedCache(upgrade=True, quiet_s=3600)
    app = CompressionMiddleware(SpaStaticFiles(directory=root), cache=cache)
    fetch_all(app, ["/main.dart.wasm"], "gzip")
    time.sleep(0.5)
    assert cache.pending() == 1 and cache.compressions == 1  # still waiting
    cache.quiet_s = 0
    wait_idle(cache)
    assert cache.compressions == 2


def test_a_first_start_says_in_one_line_that_it_compresses(
        tmp_path: Path, live_server: Callable[[Any], int],
        capsys: pytest.CaptureFixture[str]) -> None:
    disk = DiskCache(tmp_path / "cache", 1 << 30)
    running = cast(uvicorn.Server, SimpleNamespace(started=True, should_exit=False))
    for start_number in (1, 2):
        port, cache = start(tmp_path, "data", disk, live_server)
        server.warm_compression(running, f"http://127.0.0.1:{port}/", cache,
                                PAGE_FILES).join(60)
        said = [line for line in capsys.readouterr().out.splitlines() if line]
        if start_number == 1:
            assert len(said) == 1 and "compressing the page files" in said[0], said
            assert str(disk.folder) in said[0]
        else:
            assert said == [] and cache.compressions == 0
        wait_idle(cache)


def test_copies_are_kept_by_content_not_by_name(root: Path, tmp_path: Path) -> None:
    disk = DiskCache(tmp_path / "cache", 1 << 30)
    app, _cache = middleware(root, disk)
    fetch_all(app, ["/main.dart.wasm", "//x/../main.dart.wasm"])
    assert disk.names() == [f"{content_digest(BIG).hex()}.br"]


def test_the_rest_of_the_page_files_wait_until_the_first_phones_have_loaded(
        tmp_path: Path, live_server: Callable[[Any], int]) -> None:
    """What a phone at the table needs for its first screen is compressed at once; the
    files other browsers load only once the server has been quiet for `quiet_s`."""
    disk = DiskCache(tmp_path / "cache", 1 << 30)
    running = cast(uvicorn.Server, SimpleNamespace(started=True, should_exit=False))
    port, cache = start(tmp_path, "data", disk, live_server)
    cache.max_jobs = 0  # no best levels: only the warm's own compressions are counted
    cache.quiet_s = 3600
    first, later = PAGE_FILES[:1], PAGE_FILES[1:]
    warm = server.warm_compression(running, f"http://127.0.0.1:{port}/", cache, first, later)
    deadline = time.monotonic() + 30
    while cache.compressions < len(first) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    assert cache.compressions == len(first) and warm.is_alive()  # the rest waits
    cache.quiet_s = 0.2
    warm.join(30)
    assert not warm.is_alive() and cache.compressions == len(PAGE_FILES)
    assert all(name.endswith(".gzip") for name in disk.names())


def test_health_checks_do_not_hold_back_the_best_level(
        tmp_path: Path, live_server: Callable[[Any], int]) -> None:
    """Caddy asks every process for /alive every 2 s: counted as requests, they kept the
    best level from ever starting (it waits for quiet_s without one), and every start
    of a community said again that it was compressing."""
    disk = DiskCache(tmp_path / "cache", 1 << 30)
    port, cache = start(tmp_path, "data", disk, live_server)
    cache.quiet_s = 1.0
    page_files(port)
    assert cache.pending()
    stop = threading.Event()
    answers: list[int] = []

    def health_checks() -> None:
        while not stop.wait(0.2):
            answers.append(raw_get(port, "/alive", "gzip")[0])

    checker = threading.Thread(target=health_checks, daemon=True)
    checker.start()
    try:
        wait_idle(cache, timeout_s=60)
        assert cache.pending() == 0, "the best level waited for the health checks to stop"
    finally:
        stop.set()
        checker.join(10)
    assert len(answers) >= 3 and set(answers) == {204}, answers  # checks ran meanwhile


def test_a_start_that_finds_its_copies_on_disk_says_nothing(
        tmp_path: Path, live_server: Callable[[Any], int],
        capsys: pytest.CaptureFixture[str]) -> None:
    """A start stopped before the best level was made left fast copies on disk: the
    next start compresses nothing of them (it upgrades them, quietly), so it says
    nothing, not "First start of this version"."""
    disk = DiskCache(tmp_path / "cache", 1 << 30)
    running = cast(uvicorn.Server, SimpleNamespace(started=True, should_exit=False))
    port, first = start(tmp_path, "data", disk, live_server)
    first.quiet_s = 3600  # stopped before the best level: fast copies only
    server.warm_compression(running, f"http://127.0.0.1:{port}/", first, PAGE_FILES).join(60)
    assert "First start of this version" in capsys.readouterr().out
    port, second = start(tmp_path, "data", disk, live_server)
    second.quiet_s = 3600  # the best level waits: still pending when the warm ends
    server.warm_compression(running, f"http://127.0.0.1:{port}/", second, PAGE_FILES).join(60)
    assert second.compressions == 0 and second.pending() > 0
    assert capsys.readouterr().out == ""
