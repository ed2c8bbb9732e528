#!/usr/bin/env python3
"""The image's boot-config (packaging/image/files-kiosk/usr/libexec/kiosk-image/boot-config) on a
scratch boot partition and /etc/kiosk: a config `kiosk check-config` accepts is copied (the
running kiosk's watch loads it: systemd is not asked for anything); icons alone changed ask for a
reload; one with a TOML syntax error or another error, or one that is not text (not UTF-8, empty,
a folder) is linked and the kiosk restarted once, so that its rescue screen names the boot
partition's file; none leaves the old. What it asks of systemd is recorded by a stand-in for
systemctl (SYSTEMCTL), not sent to this machine's systemd.

    KIOSK=.build-static/release/kiosk python3 Tests/image/boot_config_test.py
"""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(REPO, "packaging/image/files-kiosk/usr/libexec/kiosk-image/boot-config")
KIOSK = os.path.abspath(os.environ.get("KIOSK", os.path.join(REPO, ".build-static/release/kiosk")))
GOOD = """[screens.main]
style = "arc"
title = "Entrée"

[[screens.main.items]]
label = "Back"
action = "back"
"""


class BootConfigTest(unittest.TestCase):
    def setUp(self):
        if not os.access(KIOSK, os.X_OK):
            self.skipTest(f"no kiosk at {KIOSK} (KIOSK=...)")
        self.tmp = tempfile.TemporaryDirectory()
        self.boot = os.path.join(self.tmp.name, "boot")
        self.conf = os.path.join(self.tmp.name, "etc")
        os.makedirs(self.boot)
        os.makedirs(self.conf)
        self.src = os.path.join(self.boot, "kiosk.toml")
        self.dst = os.path.join(self.conf, "kiosk.toml")
        with open(self.dst, "w") as f:
            f.write("# the package's config\n")
        self.asked = os.path.join(self.tmp.name, "systemctl-calls")
        self.systemctl = os.path.join(self.tmp.name, "systemctl")
        with open(self.systemctl, "w") as f:
            f.write(f'#!/bin/sh\necho "$*" >> {self.asked}\n')
        os.chmod(self.systemctl, 0o755)

    def calls(self):
        """What the script asked systemctl since the last look."""
        if not os.path.exists(self.asked):
            return []
        with open(self.asked) as f:
            lines = f.read().splitlines()
        os.unlink(self.asked)
        return lines

    def tearDown(self):
        self.tmp.cleanup()

    def put(self, data):
        with open(self.src, "wb") as f:
            f.write(data)

    def run_script(self):
        r = subprocess.run(["sh", SCRIPT, self.boot, self.conf], capture_output=True, text=True,
                           env={**os.environ, "KIOSK": KIOSK, "SYSTEMCTL": self.systemctl})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        return r.stdout

    def assertLinked(self, out):
        self.assertTrue(os.path.islink(self.dst), out)
        self.assertEqual(os.readlink(self.dst), self.src, out)

    def test_a_valid_config_is_copied(self):
        self.put(GOOD.encode())
        out = self.run_script()
        self.assertFalse(os.path.islink(self.dst), out)
        with open(self.dst) as f:
            self.assertEqual(f.read(), GOOD)
        self.assertIn("copied", out)
        self.assertEqual(self.calls(), [], "a copy is loaded by the kiosk's watch, not a reload")
        self.assertIn("is the same as", self.run_script())
        self.assertEqual(self.calls(), [])

    def test_an_icon_changed_beside_the_same_config_is_copied(self):
        self.put(GOOD.encode())
        self.run_script()
        os.makedirs(os.path.join(self.boot, "icons"))
        with open(os.path.join(self.boot, "icons", "radio.png"), "wb") as f:
            f.write(b"first")
        self.run_script()
        with open(os.path.join(self.conf, "icons", "radio.png"), "rb") as f:
            self.assertEqual(f.read(), b"first")
        self.assertEqual(self.calls(), ["--no-block reload kiosk.service"], "only icons changed: the kiosk reloads")
        self.assertIn("is the same as", self.run_script())
        self.assertEqual(self.calls(), [])
        with open(os.path.join(self.boot, "icons", "radio.png"), "wb") as f:
            f.write(b"second")
        self.run_script()
        with open(os.path.join(self.conf, "icons", "radio.png"), "rb") as f:
            self.assertEqual(f.read(), b"second")

    def test_a_toml_syntax_error_is_linked(self):
        self.put(b'[screens.main]\ntitle = "Entr\xc3\xa9e\n')
        out = self.run_script()
        self.assertLinked(out)
        self.assertIn("has errors", out)
        self.assertIn("TOML syntax error", out)
        self.assertEqual(self.calls(), ["--no-block restart kiosk.service"], "a running kiosk keeps its config: a start shows the rescue screen")
        # The next boot, the file still broken: the link stays, the kiosk starts on it by itself.
        self.assertIn("still points at it", self.run_script())
        self.assertLinked(out)
        self.assertEqual(self.calls(), [])

    def test_a_config_the_kiosk_refuses_is_linked(self):
        self.put(GOOD.replace('"back"', '"fly"').encode())
        self.assertLinked(self.run_script())

    def test_a_link_becomes_a_copy_once_fixed(self):
        self.put(b"[screens.main\n")
        self.assertLinked(self.run_script())
        self.put(GOOD.encode())
        out = self.run_script()
        self.assertFalse(os.path.islink(self.dst), out)
        self.assertIn("copied", out)

    def test_not_text_is_linked(self):
        for data in (b"title = \"Caf\xe9\"\n", b"", b"\xef\xbb\xbf \n"):
            self.put(data)
            self.assertLinked(self.run_script())

    def test_a_folder_is_linked(self):
        os.mkdir(self.src)
        self.assertLinked(self.run_script())
        self.assertEqual(self.calls(), ["--no-block restart kiosk.service"])

    def test_no_boot_config_keeps_the_old(self):
        out = self.run_script()
        self.assertIn("keeping", out)
        with open(self.dst) as f:
            self.assertEqual(f.read(), "# the package's config\n")


if __name__ == "__main__":
    unittest.main(verbosity=2)
