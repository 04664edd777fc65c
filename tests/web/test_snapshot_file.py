"""The site's form of the memory snapshot (scorer.webbuild.snapshot_file)."""

from __future__ import annotations

import struct

import pytest

from scorer.webbuild.snapshot_file import PAGE, SnapshotFormatError, pack, unpack


def pyodide_snapshot(heap: bytes) -> bytes:
    """Pyodide's layout: magic, heap offset, JSON length, then the header padded to 16."""
    state = b'{"hiwireKeys":[]}'
    header = struct.pack("<4I", 0x50594F44, 64, len(state), 0) + bytes(16) + state
    return header.ljust(64, b"\0") + heap


def test_only_the_heaps_nonzero_pages_are_kept_and_unpacking_gives_it_back() -> None:
    heap = bytearray(40 * PAGE)
    heap[5] = 1  # page 0
    heap[PAGE + 7] = 2  # page 1: joins page 0's run
    heap[10 * PAGE:12 * PAGE] = b"\x03" * (2 * PAGE)
    heap[-1] = 4  # the last page
    snapshot = pyodide_snapshot(bytes(heap))
    packed = pack(snapshot)
    magic, header_size, heap_size, runs = struct.unpack_from("<4sIII", packed)
    assert (magic, header_size, heap_size, runs) == (b"TSNP", 64, len(heap), 3)
    assert struct.unpack_from("<6I", packed, 16) == (0, 2 * PAGE, 10 * PAGE, 2 * PAGE,
                                                      39 * PAGE, PAGE)
    assert len(packed) == 16 + 3 * 8 + 64 + 5 * PAGE  # the zero pages are gone
    assert packed[16 + 24:16 + 24 + 64] == snapshot[:64]  # Pyodide's header as it was
    assert unpack(packed) == snapshot


def test_a_heap_with_a_partial_last_page_and_no_zeros_round_trips() -> None:
    snapshot = pyodide_snapshot(b"\x01" * (3 * PAGE + 100))
    assert unpack(pack(snapshot)) == snapshot
    empty = pyodide_snapshot(bytes(2 * PAGE))
    assert struct.unpack_from("<I", pack(empty), 12) == (0,)
    assert unpack(pack(empty)) == empty


@pytest.mark.parametrize("data", [b"", b"not a snapshot" * 10])
def test_what_is_not_a_snapshot_is_refused(data: bytes) -> None:
    with pytest.raises(SnapshotFormatError):
        unpack(data)
    with pytest.raises(SnapshotFormatError):
        pack(b"\0" * 4 + struct.pack("<I", 1 << 30) + bytes(8))


def test_a_truncated_file_is_refused() -> None:
    packed = pack(pyodide_snapshot(b"\x01" * PAGE))
    with pytest.raises(SnapshotFormatError):
        unpack(packed[:-1])
