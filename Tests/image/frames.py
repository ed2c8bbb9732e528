"""What a screendump of the booting image shows: the splash, console text or a cursor, black,
the output off (qemu's own message on a black screen: dark on a panel), the menu, or something
else. Pure Python (the host needs no image libraries).

Console text is defined by what a text console is: a dark screen (at least 70% of its pixels
dark, as a screen full of systemd's coloured status lines still is) with light marks on it that
are all glyph-sized (connected light areas at most 24x32 pixels): three or more (text), or one
or two (a cursor). A frame with text beside a larger picture (the firmware's logo under its
messages) is "other", not console text. A splash is the image's logo
(the theme's logo.png) in the middle of a plain background; any other light mark on the
screen makes it not a splash."""

DARK = 48       # a channel at most this: dark
LIGHT = 96      # a channel above this (the brightest of the three): a light mark
GLYPH_W, GLYPH_H = 24, 32


def is_black(pixels):
    # Every channel at most 8 (of 255): black, whatever a scaler or firmware left.
    return max(pixels) <= 8


def _mask(pixels, above, combine):
    """Per pixel 1 or 0: a channel above `above` in any (combine "or") or every ("and") channel.
    Big-integer bit operations over whole channels: fast in pure Python."""
    table = bytes(1 if v > above else 0 for v in range(256))
    r, g, b = (int.from_bytes(pixels[c::3].translate(table), "little") for c in range(3))
    m = (r | g | b) if combine == "or" else (r & g & b)
    return m.to_bytes(len(pixels) // 3, "little")


def light_marks(w, h, pixels, limit=4000):
    """Connected light areas (8-neighbour) as (x0, y0, x1, y1) boxes (at most `limit`); None when
    the screen is not mostly dark."""
    if w * h - _mask(pixels, DARK, "or").count(1) < 0.7 * w * h:
        return None
    light = bytearray(_mask(pixels, LIGHT, "or"))
    if light.count(1) > 0.3 * w * h:
        return None
    boxes = []
    start = 0
    while True:
        start = light.find(1, start)
        if start < 0:
            break
        light[start] = 0
        stack = [start]
        x0 = x1 = start % w
        y0 = y1 = start // w
        while stack:
            i = stack.pop()
            x, y = i % w, i // w
            x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
            for dy in (-1, 0, 1):
                yy = y + dy
                if 0 <= yy < h:
                    for dx in (-1, 0, 1):
                        xx = x + dx
                        if 0 <= xx < w and light[yy * w + xx]:
                            light[yy * w + xx] = 0
                            stack.append(yy * w + xx)
        boxes.append((x0, y0, x1, y1))
        if len(boxes) > limit:
            break
    return boxes


def console_kind(w, h, pixels):
    """"text" or "cursor" when the frame looks like a text console, else None."""
    boxes = light_marks(w, h, pixels)
    if not boxes:
        return None
    glyphs = [b for b in boxes if b[2] - b[0] < GLYPH_W and b[3] - b[1] < GLYPH_H]
    if len(glyphs) < len(boxes):
        return None  # something larger than a character: not a text console
    return "text" if len(glyphs) >= 3 else "cursor"


class Splash:
    """The splash as the theme draws it: LOGO (RGBA) centred on one background colour."""

    def __init__(self, lw, lh, rgba):
        self.lw, self.lh, self.rgba = lw, lh, rgba

    def matches(self, w, h, pixels, tolerance=6):
        bg = pixels[0:3]
        lx, ly = w // 2 - self.lw // 2, h // 2 - self.lh // 2
        # Outside the logo's square: the background, row by row.
        row_bg = bg * w
        for y in range(h):
            row = pixels[y * w * 3:(y + 1) * w * 3]
            if ly <= y < ly + self.lh:
                if row[:lx * 3] != bg * lx or row[(lx + self.lw) * 3:] != bg * (w - lx - self.lw):
                    return False
            elif row != row_bg:
                return False
        # Inside: the logo over the background, within a rounding tolerance.
        for y in range(self.lh):
            for x in range(0, self.lw, 2):
                r, g, b, a = self.rgba[(y * self.lw + x) * 4:(y * self.lw + x) * 4 + 4]
                i = ((ly + y) * w + lx + x) * 3
                for c, fg in ((0, r), (1, g), (2, b)):
                    want = (fg * a + bg[c] * (255 - a)) / 255
                    if abs(pixels[i + c] - want) > tolerance:
                        return False
        return True


def is_output_off(w, h, pixels):
    """qemu's picture of a CRTC that shows nothing ("Display output is not active." in one line in
    the middle of a black screen): a panel would be dark. Glyph-sized light marks, all within a
    band around the centre; a console's text starts at the top left."""
    boxes = light_marks(w, h, pixels)
    if not boxes or any(b[2] - b[0] >= GLYPH_W or b[3] - b[1] >= GLYPH_H for b in boxes):
        return False
    cx, cy = w // 2, h // 2
    return all(abs(b[1] - cy) <= GLYPH_H and abs(b[3] - cy) <= GLYPH_H
               and abs(b[0] - cx) <= w // 4 and abs(b[2] - cx) <= w // 4 for b in boxes)


def classify(w, h, pixels, menu, splash):
    """menu: (w, h, pixels) of the expected home screen; splash: a Splash or None."""
    if (w, h) == menu[:2] and pixels == menu[2]:
        return "menu"
    if is_black(pixels):
        return "black"
    if splash is not None and splash.matches(w, h, pixels):
        return "splash"
    if is_output_off(w, h, pixels):
        return "off"
    kind = console_kind(w, h, pixels)
    if kind:
        return "console " + kind
    return "other"
