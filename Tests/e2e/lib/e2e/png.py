"""A small PNG decoder and encoder (zlib only) so checks can compare pixels on the host."""
import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # colour type -> samples per pixel


class Image:
    """8-bit RGBA pixels, row-major: rgba[(y * width + x) * 4 : ... + 4]."""

    def __init__(self, width, height, rgba):
        self.width, self.height, self.rgba = width, height, bytearray(rgba)

    def pixel(self, x, y):
        i = (y * self.width + x) * 4
        return tuple(self.rgba[i:i + 4])

    def colors(self):
        """The set of distinct RGBA colours."""
        px = self.rgba
        return {bytes(px[i:i + 4]) for i in range(0, len(px), 4)}

    def diff(self, other, tolerance=0):
        """(number of pixels differing by more than tolerance in any channel, max channel delta)."""
        if (self.width, self.height) != (other.width, other.height):
            raise ValueError(f"size {self.width}x{self.height} != {other.width}x{other.height}")
        a, b = self.rgba, other.rgba
        if a == b:
            return 0, 0
        count = worst = 0
        for i in range(0, len(a), 4):
            d = max(abs(a[i] - b[i]), abs(a[i + 1] - b[i + 1]), abs(a[i + 2] - b[i + 2]), abs(a[i + 3] - b[i + 3]))
            if d > tolerance:
                count += 1
            worst = max(worst, d)
        return count, worst

    def rotated(self, degrees):
        """The image turned clockwise by 90, 180 or 270 degrees."""
        turns = (degrees // 90) % 4
        img = self
        for _ in range(turns):
            w, h, src = img.width, img.height, img.rgba
            out = bytearray(len(src))
            for y in range(h):
                for x in range(w):
                    s = (y * w + x) * 4
                    d = (x * h + (h - 1 - y)) * 4  # (x, y) -> (h-1-y, x) in an h-wide image
                    out[d:d + 4] = src[s:s + 4]
            img = Image(h, w, out)
        return img

    def save(self, path):
        raw = b"".join(b"\0" + bytes(self.rgba[y * self.width * 4:(y + 1) * self.width * 4]) for y in range(self.height))
        with open(path, "wb") as f:
            f.write(SIGNATURE + _chunk(b"IHDR", struct.pack(">IIBBBBB", self.width, self.height, 8, 6, 0, 0, 0))
                    + _chunk(b"IDAT", zlib.compress(raw, 6)) + _chunk(b"IEND", b""))


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def read(path):
    data = open(path, "rb").read()
    if not data.startswith(SIGNATURE):
        raise ValueError(f"{path}: not a PNG")
    pos, idat, palette, trns = 8, [], None, None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = body
        elif kind == b"tRNS":
            trns = body
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if depth != 8 or interlace or ctype not in CHANNELS:
        raise ValueError(f"{path}: unsupported PNG (depth {depth}, colour type {ctype}, interlace {interlace})")
    n = CHANNELS[ctype]
    stride = width * n
    raw = zlib.decompress(b"".join(idat))
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(n, stride):
                line[i] = (line[i] + line[i - n]) & 255
        elif f == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif f == 3:
            for i in range(stride):
                line[i] = (line[i] + ((line[i - n] if i >= n else 0) + prev[i]) // 2) & 255
        elif f == 4:
            for i in range(stride):
                line[i] = (line[i] + _paeth(line[i - n] if i >= n else 0, prev[i], prev[i - n] if i >= n else 0)) & 255
        elif f != 0:
            raise ValueError(f"{path}: bad filter {f} in row {y}")
        rows.append(line)
        prev = line
    out = bytearray(width * height * 4)
    o = 0
    for line in rows:
        for x in range(width):
            s = line[x * n:(x + 1) * n]
            if ctype == 6:
                px = s
            elif ctype == 2:
                px = bytes(s) + b"\xff"
            elif ctype == 0:
                px = bytes((s[0], s[0], s[0], 255))
            elif ctype == 4:
                px = bytes((s[0], s[0], s[0], s[1]))
            else:
                i = s[0]
                alpha = trns[i] if trns and i < len(trns) else 255
                px = palette[i * 3:i * 3 + 3] + bytes((alpha,))
            out[o:o + 4] = px
            o += 4
    return Image(width, height, out)
