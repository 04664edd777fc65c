"""AtomicJSONStorage: whole files or nothing."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from tinydb import TinyDB

from scorer.store.atomic_storage import (
    AtomicJSONStorage,
    atomic_write_bytes,
    move_aside,
    remove_stale_temp_files,
)
from scorer.store.errors import DamagedFile


def test_tinydb_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "db.json"
    db = TinyDB(path, storage=AtomicJSONStorage)
    db.insert({"a": 1})
    db.table("other").insert({"b": "é"})
    again = TinyDB(path, storage=AtomicJSONStorage)
    assert again.all() == [{"a": 1}]
    assert again.table("other").all() == [{"b": "é"}]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["db.json"]  # no temp left


def test_missing_file_reads_as_empty(tmp_path: Path) -> None:
    assert AtomicJSONStorage(tmp_path / "none.json").read() is None


@pytest.mark.parametrize("content", [b"", b'{"_default": {"1": {"a"', b"\xff\xfe", b"[1, 2]"])
def test_unreadable_file_raises_damaged(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "db.json"
    path.write_bytes(content)
    with pytest.raises(DamagedFile) as err:
        AtomicJSONStorage(path).read()
    assert "db.json" in str(err.value)


def test_failed_replace_keeps_old_file_and_removes_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "f.json"
    atomic_write_bytes(path, b'{"v": 1}')

    def boom(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        atomic_write_bytes(path, b'{"v": 2}')
    assert json.loads(path.read_bytes()) == {"v": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["f.json"]


def test_stale_temp_files_removed_young_ones_kept(tmp_path: Path) -> None:
    old = tmp_path / ".g.json.abc.tmp"
    young = tmp_path / ".g.json.def.tmp"
    other = tmp_path / "keep.json"
    for p in (old, young, other):
        p.write_text("x")
    past = time.time() - 3600
    os.utime(old, (past, past))
    assert remove_stale_temp_files(tmp_path) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == [".g.json.def.tmp", "keep.json"]


def test_move_aside_stamps_and_never_overwrites(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged"
    first = tmp_path / "g.json"
    first.write_text("one")
    a = move_aside(first, damaged)
    first.write_text("two")
    b = move_aside(first, damaged)
    assert a != b and a.read_text() == "one" and b.read_text() == "two"
    assert a.name.startswith("g.") and a.name.endswith(".json")
    assert not first.exists()
