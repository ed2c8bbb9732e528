#!/usr/bin/env python3
"""Tests/image/frames.py on drawn frames: text and a cursor on a dark screen are console, the
logo centred on a plain background is the splash, one stray light pixel beside it is not, a
plain grey screen is neither, one line of text in the middle of black is qemu's "output off". (The classifier on a real console: Tests/image/run --loud.)"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from frames import Splash, classify  # noqa: E402

W, H = 640, 400
NO_MENU = (0, 0, b"")


def screen(colour=(0, 0, 0)):
    return bytearray(bytes(colour) * (W * H))


def put(f, x, y, colour=(0xAA, 0xAA, 0xAA)):
    f[(y * W + x) * 3:(y * W + x) * 3 + 3] = bytes(colour)


class FramesTest(unittest.TestCase):
    def test_text_is_console_text(self):
        f = screen()
        for k in range(60):  # 60 glyph-like marks: two strokes 11 pixels high, 8 pixels apart
            x0, y0 = 8 * (k % 40), 16 * (k // 40)
            for y in range(y0 + 2, y0 + 13):
                put(f, x0 + 1, y)
                put(f, x0 + 5, y)
        self.assertEqual(classify(W, H, bytes(f), NO_MENU, None), "console text")

    def test_a_line_in_the_middle_is_the_output_off(self):
        # qemu's "Display output is not active." for a CRTC that shows nothing: one centred line.
        def line(x0, y0):
            f = screen()
            for k in range(30):
                for y in range(y0 + 2, y0 + 13):
                    put(f, x0 + 8 * k + 1, y)
                    put(f, x0 + 8 * k + 5, y)
            return bytes(f)
        self.assertEqual(classify(W, H, line(W // 2 - 120, H // 2 - 8), NO_MENU, None), "off")
        self.assertEqual(classify(W, H, line(0, 0), NO_MENU, None), "console text")
        self.assertEqual(classify(W, H, line(W // 2 - 120, 40), NO_MENU, None), "console text")

    def test_cursor(self):
        f = screen()
        for x in range(8):
            put(f, x, 14)
            put(f, x, 15)
        self.assertEqual(classify(W, H, bytes(f), NO_MENU, None), "console cursor")

    def test_black_and_plain(self):
        self.assertEqual(classify(W, H, bytes(screen()), NO_MENU, None), "black")
        self.assertEqual(classify(W, H, bytes(screen((40, 50, 60))), NO_MENU, None), "other")

    def test_splash(self):
        # A logo of four tiles with soft edges, one brighter (as a Plymouth theme's logo.png would
        # be: the image has none now, the classifier keeps the class for roots that do).
        lw = lh = 64
        rgba = bytearray(lw * lh * 4)
        for y in range(lh):
            for x in range(lw):
                tile = (x // 32) + 2 * (y // 32)
                inside = 4 <= x % 32 < 28 and 4 <= y % 32 < 28
                edge = x % 32 in (3, 28) or y % 32 in (3, 28)
                a = 255 if inside else (96 if edge else 0)
                c = (240, 200, 80) if tile == 0 else (90, 120, 160)
                rgba[(y * lw + x) * 4:(y * lw + x) * 4 + 4] = bytes((*c, a))
        rgba = bytes(rgba)
        splash = Splash(lw, lh, rgba)
        bg = (15, 23, 33)
        f = screen(bg)
        lx, ly = W // 2 - lw // 2, H // 2 - lh // 2
        for y in range(lh):
            for x in range(lw):
                r, g, b, a = rgba[(y * lw + x) * 4:(y * lw + x) * 4 + 4]
                put(f, lx + x, ly + y, [round((c * a + k * (255 - a)) / 255) for c, k in zip((r, g, b), bg)])
        self.assertEqual(classify(W, H, bytes(f), NO_MENU, splash), "splash")
        put(f, 10, 10, (255, 255, 255))
        self.assertEqual(classify(W, H, bytes(f), NO_MENU, splash), "other")
        self.assertEqual(classify(W, H, bytes(f), (W, H, bytes(f)), splash), "menu")


if __name__ == "__main__":
    unittest.main()
