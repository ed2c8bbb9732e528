#!/usr/bin/env python3
"""Writes huge-icon.png: an 8000x8000 one-bit grey PNG of about 8 KB, which decodes to 256 MB of
premultiplied ARGB. The kiosk must refuse it from its header. Run again to regenerate."""
import struct
import zlib
from pathlib import Path

SIDE = 8000


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


row = b"\0" + b"\xff" * (SIDE // 8)  # filter 0, white
png = (b"\x89PNG\r\n\x1a\n"
       + chunk(b"IHDR", struct.pack(">IIBBBBB", SIDE, SIDE, 1, 0, 0, 0, 0))
       + chunk(b"IDAT", zlib.compress(row * SIDE, 9))
       + chunk(b"IEND", b""))
Path(__file__).with_name("huge-icon.png").write_bytes(png)
