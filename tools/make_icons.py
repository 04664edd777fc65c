"""Draw the app's icons (assets/icons/*.png): a white spade on card-table green.

Pure Python (zlib PNG), so no image library is needed. The spade stays inside
the middle 60 % of the square, so the same picture works as a "maskable" icon
(phones cut it to a circle or a rounded square). Run again after a change:

    uv run python tools/make_icons.py
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

ICONS_DIR = Path(__file__).resolve().parent.parent / "assets" / "icons"
GREEN = (0x2E, 0x7D, 0x32)  # Material green 800, the app's felt colour
WHITE = (0xFF, 0xFF, 0xFF)
SIZES = {"icon-192.png": 192, "icon-512.png": 512, "apple-touch-icon-180.png": 180}
SAMPLES = 3  # per axis: antialiasing by supersampling


def inside_spade(x: float, y: float) -> bool:
    """Whether (x, y), in a unit square centred on 0.5, is inside the spade."""
    # The spade: an upside-down heart (two circles under a triangle) and a foot.
    cx, top, bottom = 0.5, 0.22, 0.66
    r = 0.135
    for lobe_x in (cx - 0.115, cx + 0.115):
        if (x - lobe_x) ** 2 + (y - 0.55) ** 2 <= r * r:
            return True
    # Triangle from the tip (cx, top) down to the lobes' outer tangents.
    if top <= y <= 0.56:
        half = (y - top) / (0.56 - top) * 0.245
        if abs(x - cx) <= half:
            return True
    # Foot: a flared stem under the lobes.
    if 0.56 <= y <= 0.80:
        half = 0.03 + (y - 0.56) / (0.80 - 0.56) * 0.09
        if abs(x - cx) <= half and y >= bottom - 0.1:
            return True
    return False


def draw(size: int) -> bytes:
    rows = bytearray()
    n = SAMPLES * SAMPLES
    for py in range(size):
        rows.append(0)  # PNG filter: none
        for px in range(size):
            hits = sum(
                inside_spade((px + (i + 0.5) / SAMPLES) / size, (py + (j + 0.5) / SAMPLES) / size)
                for i in range(SAMPLES) for j in range(SAMPLES)
            )
            t = hits / n
            rows.extend(round(g + (w - g) * t) for g, w in zip(GREEN, WHITE, strict=True))
    return png(size, size, bytes(rows))


def png(width: int, height: int, raw_rows: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw_rows, 9)) + chunk(b"IEND", b""))


def main() -> None:
    ICONS_DIR.mkdir(parents=True, exist_ok=True)
    for name, size in SIZES.items():
        (ICONS_DIR / name).write_bytes(draw(size))
        print(f"wrote {ICONS_DIR / name}")


if __name__ == "__main__":
    main()
