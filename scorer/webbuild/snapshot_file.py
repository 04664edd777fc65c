"""The memory snapshot as the site keeps it: Pyodide's header, then only the parts of
the heap that are not zero.

Pyodide's own snapshot is its header (magic, offset of the heap, JSON state, build id)
followed by the whole heap: 45 MB here, 40 % of it zero. The phone reads the snapshot
from its cache at every start, so the site keeps the heap's nonzero pages only, and
worker.js gives Pyodide the header at once (it creates the runtime meanwhile) and
writes the pages into the heap itself, zeros between them.

Layout (little-endian u32s):

    "TSNP" | header size H | heap size | run count N
    N x (offset, length)          the heap's nonzero runs, in order, page-aligned
    Pyodide's header (H bytes)    its heap offset field is H: the heap it names is empty
    the runs' bytes, one after another
"""

from __future__ import annotations

import struct

MAGIC = b"TSNP"
PAGE = 4096
"""Runs are whole pages: few runs (17 here) and nearly every zero byte left out."""
_HEAD = struct.Struct("<4sIII")
_RUN = struct.Struct("<II")


class SnapshotFormatError(ValueError):
    """Not a snapshot this module wrote or Pyodide made."""


def pack(snapshot: bytes, page: int = PAGE) -> bytes:
    """Pyodide's snapshot (`makeMemorySnapshot`) in the site's form."""
    if len(snapshot) < 16:
        raise SnapshotFormatError("too short for a Pyodide snapshot")
    (header_size,) = struct.unpack_from("<I", snapshot, 4)
    if header_size > len(snapshot) or header_size % 4:
        raise SnapshotFormatError("not a Pyodide snapshot (heap offset)")
    header, heap = snapshot[:header_size], memoryview(snapshot)[header_size:]
    zero = bytes(page)
    runs: list[tuple[int, int]] = []
    for start in range(0, len(heap), page):
        chunk = heap[start:start + page]
        if chunk == zero[:len(chunk)]:
            continue
        if runs and runs[-1][0] + runs[-1][1] == start:
            runs[-1] = (runs[-1][0], runs[-1][1] + len(chunk))
        else:
            runs.append((start, len(chunk)))
    parts: list[bytes | memoryview] = [_HEAD.pack(MAGIC, header_size, len(heap), len(runs))]
    parts += [_RUN.pack(offset, length) for offset, length in runs]
    parts.append(header)
    parts += [heap[offset:offset + length] for offset, length in runs]
    return b"".join(parts)


def unpack(packed: bytes) -> bytes:
    """The site's form back to Pyodide's (the heap's zeros written out)."""
    if len(packed) < _HEAD.size:
        raise SnapshotFormatError("too short")
    magic, header_size, heap_size, count = _HEAD.unpack_from(packed)
    if magic != MAGIC:
        raise SnapshotFormatError("not a Tarabish snapshot file")
    at = _HEAD.size
    runs = [_RUN.unpack_from(packed, at + i * _RUN.size) for i in range(count)]
    at += count * _RUN.size
    heap = bytearray(heap_size)
    header = packed[at:at + header_size]
    at += header_size
    for offset, length in runs:
        heap[offset:offset + length] = packed[at:at + length]
        at += length
    if at != len(packed) or len(header) != header_size:
        raise SnapshotFormatError("truncated or too long")
    return header + bytes(heap)
