#!/usr/bin/env python3
"""Writes the scenario's PNGs, tiny on disk because they are one colour:
huge-icon.png, 8000x8000 one-bit grey (17 KB; 256 MB decoded), which the kiosk must refuse from
its header; large-icon.png, 2048x2048 RGBA (16 KB; 16 MiB decoded), the largest it decodes.
Run again to regenerate."""
import struct
import zlib
from pathlib import Path


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(path, side, bit_depth, colour_type, row):
    data = (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, bit_depth, colour_type, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress((b"\0" + row) * side, 9))
            + chunk(b"IEND", b""))
    Path(__file__).with_name(path).write_bytes(data)


png("huge-icon.png", 8000, 1, 0, b"\xff" * (8000 // 8))          # white
png("large-icon.png", 2048, 8, 6, b"\x5f\xa8\xff\xff" * 2048)     # opaque blue
