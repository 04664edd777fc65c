"""The disk cache under compressed page files and build steps: bounded, atomic,
shared safely between processes, and a damaged entry is only a miss."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scorer.machine.disk_cache import LEDGER, STALE_TMP_S, CacheKeyError, DiskCache, digest_of
from scorer.machine.paths import user_cache_dir

REPO = Path(__file__).resolve().parents[2]


def test_what_is_put_is_got_back(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path / "c", max_bytes=1 << 20)
    assert cache.get("a1") is None
    assert cache.put("a1", b"hello")
    assert cache.get("a1") == b"hello"
    assert DiskCache(tmp_path / "c", max_bytes=1 << 20).get("a1") == b"hello"  # a later run
    assert (cache.hits, cache.misses, cache.writes) == (1, 1, 1)


@pytest.mark.parametrize("damage", ["flip a byte", "truncate", "empty", "not ours"])
def test_a_damaged_entry_is_a_miss_and_is_replaced(tmp_path: Path, damage: str) -> None:
    cache = DiskCache(tmp_path, max_bytes=1 << 20)
    data = os.urandom(5000)
    cache.put("k", data)
    raw = bytearray((tmp_path / "k").read_bytes())
    if damage == "flip a byte":
        raw[len(raw) // 2] ^= 0x40
    elif damage == "truncate":
        raw = raw[:-100]
    elif damage == "empty":
        raw = bytearray()
    else:
        raw = bytearray(b"x" * len(raw))
    (tmp_path / "k").write_bytes(bytes(raw))
    assert cache.get("k") is None
    assert cache.damaged == 1
    assert cache.put("k", data)  # made again by the caller: replaces it
    assert cache.get("k") == data


def test_the_cache_never_grows_past_its_bound(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path, max_bytes=10_000)
    for n in range(30):
        assert cache.put(f"e{n}", os.urandom(900))
        if n == 20:
            time.sleep(0.01)
            assert cache.get("e15") is not None  # used lately: kept longer
        assert cache.size() <= 10_000
    kept = set(cache.names())
    assert "e29" in kept and "e0" not in kept
    assert len(kept) >= 8  # the bound is used, not emptied at each trim


def test_an_entry_bigger_than_the_bound_is_not_kept(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path, max_bytes=1000)
    assert not cache.put("big", b"x" * 2000)
    assert cache.get("big") is None


def test_a_folder_that_cannot_be_written_only_costs_the_cache(tmp_path: Path) -> None:
    (tmp_path / "file").write_bytes(b"")
    cache = DiskCache(tmp_path / "file" / "cache", max_bytes=1 << 20)
    assert not cache.put("k", b"data")
    assert cache.get("k") is None


def test_temporary_files_left_by_a_crash_are_removed(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path, max_bytes=1 << 20)
    stale = tmp_path / ".tmp-k.123.abcd"
    stale.write_bytes(b"half an entry")
    old = time.time() - STALE_TMP_S - 10
    os.utime(stale, (old, old))
    fresh = tmp_path / ".tmp-j.124.abcd"  # being written by another process now
    fresh.write_bytes(b"half")
    cache.trim()
    assert not stale.exists() and fresh.exists()


def test_keys_are_plain_file_names(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path, max_bytes=1 << 20)
    for bad in ("../x", "a/b", "", ".hidden", "x" * 200):
        with pytest.raises(CacheKeyError):
            cache.get(bad)
    assert digest_of("ab", "c") != digest_of("a", "bc")


WRITER = """
import sys
from pathlib import Path
from scorer.machine.disk_cache import DiskCache
cache = DiskCache(Path(sys.argv[1]), max_bytes=1 << 30)
me = int(sys.argv[2])
for n in range(300):
    cache.put("shared", bytes([me]) * (64 * 1024 + n))
"""


def test_processes_sharing_the_folder_never_see_half_an_entry(tmp_path: Path) -> None:
    """Two servers (or builds) writing the same entry at once: a reader always sees one
    writer's whole entry, never a mix or a torn file."""
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path), str(me)],
                                cwd=REPO) for me in (1, 2)]
    reader = DiskCache(tmp_path, max_bytes=1 << 30)
    seen = 0
    running = True
    while running:
        running = any(w.poll() is None for w in writers)  # one more read once both ended
        got = reader.get("shared")
        if got is not None:
            seen += 1
            assert got[0] in (1, 2) and got == bytes([got[0]]) * len(got)
    assert all(w.wait() == 0 for w in writers)
    assert reader.damaged == 0
    assert seen > 0
    # no temporary file left, only the entry and the ledger of the folder's size
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["shared", LEDGER])


FILLER = """
import os
import sys
import time
from pathlib import Path
from scorer.machine.disk_cache import DiskCache
folder, me, go = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
while not go.exists():
    time.sleep(0.005)
cache = DiskCache(folder, max_bytes=100_000)
for n in range(90):
    cache.put(f"p{me}-{n}", os.urandom(1000))
    time.sleep(0.002)
"""


def test_processes_sharing_the_folder_keep_it_within_the_bound(tmp_path: Path) -> None:
    """Two processes filling one folder at once, each to 90 % of the bound: together
    they never leave it past the bound (each counting only its own entries would
    leave 1.8 times the bound)."""
    folder, go = tmp_path / "cache", tmp_path / "go"
    writers = [subprocess.Popen([sys.executable, "-c", FILLER, str(folder), str(me), str(go)],
                                cwd=REPO) for me in (1, 2)]
    time.sleep(1.0)  # both started: they fill at the same time
    go.touch()
    checker = DiskCache(folder, max_bytes=100_000)
    largest = 0
    while any(w.poll() is None for w in writers):
        # during the fill, at most one entry per writer in flight beyond the bound
        largest = max(largest, checker.size())
    assert all(w.wait() == 0 for w in writers)
    assert checker.size() <= 100_000
    assert largest <= 100_000 + 2 * 1100
    assert len(checker.names()) >= 80  # the bound is used, not emptied
    assert {k[:2] for k in checker.names()} == {"p1", "p2"}


def test_the_cache_folder_is_the_users_not_the_data_folder(tmp_path: Path) -> None:
    home = {"HOME": "/home/ann"}
    assert user_cache_dir(environ=home, platform="linux") == Path("/home/ann/.cache/tarabish")
    assert user_cache_dir(environ={**home, "XDG_CACHE_HOME": "/c"},
                          platform="linux") == Path("/c/tarabish")
    assert user_cache_dir(environ={**home, "XDG_CACHE_HOME": "rel"},
                          platform="linux") == Path("/home/ann/.cache/tarabish")
    assert user_cache_dir(environ={**home, "TARABISH_CACHE": str(tmp_path)},
                          platform="linux") == tmp_path
    assert user_cache_dir(environ=home, platform="darwin") == Path(
        "/home/ann/Library/Caches/Tarabish")
    assert user_cache_dir(environ={"USERPROFILE": "/u/ann", "LOCALAPPDATA": "/u/ann/local"},
                          platform="win32") == Path("/u/ann/local/Tarabish/Cache")
