#!/usr/bin/env python3
"""Writes the small PNG fixtures of the PNG tests with a hand-rolled encoder (zlib + struct),
so they do not depend on libpng, the library under test. Each image is 4x3 (palette, grey,
grey+alpha, RGB 16-bit, RGBA, and an Adam7-interlaced RGB), with pixel values the tests know."""
import struct, zlib, pathlib

here = pathlib.Path(__file__).parent
W, H = 4, 3

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

def png(name, color_type, depth, rows, interlace=0, extra=b""):
    """rows: list of rows, each a list of per-pixel tuples of samples."""
    ihdr = struct.pack(">IIBBBBB", W, H, depth, color_type, 0, 0, interlace)
    def pack(row):
        out = b"\x00"
        for px in row:
            for s in px:
                out += struct.pack(">H", s) if depth == 16 else bytes([s])
        return out
    if interlace == 0:
        raw = b"".join(pack(r) for r in rows)
    else:
        raw = b""
        passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        for x0, y0, dx, dy in passes:
            sub = [[rows[y][x] for x in range(x0, W, dx)] for y in range(y0, H, dy)]
            if sub and sub[0]:
                raw += b"".join(pack(r) for r in sub)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    (here / name).write_bytes(data)

# The colours every fixture shows, as 8-bit RGBA: row-major, 4 wide, 3 high.
COLORS = [
    [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255), (255, 255, 255, 255)],
    [(0, 0, 0, 255), (128, 64, 32, 255), (10, 200, 100, 255), (255, 255, 0, 255)],
    [(255, 0, 0, 128), (0, 0, 0, 0), (40, 80, 120, 255), (200, 100, 50, 64)],
]

palette = []
for row in COLORS:
    for c in row:
        if c not in palette:
            palette.append(c)
plte = b"".join(bytes(c[:3]) for c in palette)
trns = bytes(c[3] for c in palette)
png("palette.png", 3, 8, [[(palette.index(c),) for c in row] for row in COLORS],
    extra=chunk(b"PLTE", plte) + chunk(b"tRNS", trns))
png("grey.png", 0, 8, [[(c[0],) for c in row] for row in COLORS])
png("grey-alpha.png", 4, 8, [[(c[0], c[3]) for c in row] for row in COLORS])
png("rgb16.png", 2, 16, [[tuple(v * 257 for v in c[:3]) for c in row] for row in COLORS])
png("rgba.png", 6, 8, [[c for c in row] for row in COLORS])
png("rgb-interlaced.png", 2, 8, [[c[:3] for c in row] for row in COLORS], interlace=1)
(here / "truncated.png").write_bytes((here / "rgba.png").read_bytes()[:60])
