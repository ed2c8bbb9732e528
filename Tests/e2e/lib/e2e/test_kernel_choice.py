"""kernel_choice against recorded archive answers (archive/*.json, made with apt-cache on the day
named in the file) and against edits of them that stand for the archive's other moods.

Run: python3 -m unittest discover -s Tests/e2e/lib -p 'test_*.py' (Tests/scripts/check does).
"""
import json
import unittest
from pathlib import Path

from e2e.kernel_choice import Answers, NoKernelSet, choose

ARCHIVE = Path(__file__).with_name("archive")


def recorded(name):
    return json.loads((ARCHIVE / name).read_text())["answers"]


def answers(table, cached=(), drop=(), only=None):
    """Replays table ({"madison linux-kbuild-6.1": stdout}); drop: madison lines containing any
    of these strings are removed (a version the archive no longer has)."""
    def ask(args):
        out = table.get(" ".join(args))
        if out is None:
            return None if only is None else ""
        return "".join(l + "\n" for l in out.splitlines() if not any(d in l for d in drop))
    return Answers(ask, cached)


class TodaysArchive(unittest.TestCase):
    def test_bookworm_2026_11_28_image_and_headers_at_one_version_kbuild_at_another_revision(self):
        # The day the bed broke: the image at 6.1.192-2, kbuild only at 6.1.192-3 and 6.1.176-1.
        got = choose(answers(recorded("2026-11-28-bookworm-amd64.json")), "linux-image-amd64", "amd64")
        self.assertEqual(got.abi, "6.1.0-56-amd64")
        self.assertEqual(got.packages, {
            "linux-image-6.1.0-56-amd64": "6.1.192-2",
            "linux-headers-6.1.0-56-amd64": "6.1.192-2",
            "linux-headers-6.1.0-56-common": "6.1.192-2",
            "linux-kbuild-6.1": "6.1.192-3",
            "linux-source-6.1": "6.1.192-2",
        })
        self.assertTrue(any("another Debian revision" in w and "linux-kbuild-6.1 6.1.192-3" in w for w in got.why), got.why)

    def test_bookworm_2026_11_30_the_archive_moved_on_to_a_complete_set(self):
        # Two days later: a new ABI (6.1.0-57) whose five packages are all at 6.1.192-3.
        got = choose(answers(recorded("2026-11-30-bookworm-amd64.json")), "linux-image-amd64", "amd64")
        self.assertEqual(got.abi, "6.1.0-57-amd64")
        self.assertEqual(got.packages, {
            "linux-image-6.1.0-57-amd64": "6.1.192-3",
            "linux-headers-6.1.0-57-amd64": "6.1.192-3",
            "linux-headers-6.1.0-57-common": "6.1.192-3",
            "linux-kbuild-6.1": "6.1.192-3",
            "linux-source-6.1": "6.1.192-3",
        })

    def test_trixie_arm64_2026_11_28_the_image_alone(self):
        got = choose(answers(recorded("2026-11-28-trixie-arm64.json")), "linux-image-arm64", "arm64", with_build=False)
        self.assertEqual(got.abi, "6.12.117+deb13-arm64")
        self.assertEqual(got.packages, {"linux-image-6.12.117+deb13-arm64": "6.12.117-1"})

    def test_trixie_arm64_image_gone_takes_the_older_abi(self):
        table = recorded("2026-11-28-trixie-arm64.json")
        got = choose(answers(table, drop=("6.12.117-1",)), "linux-image-arm64", "arm64", with_build=False)
        self.assertEqual(got.packages, {"linux-image-6.12.107+deb13-arm64": "6.12.107-1"})


class ArchiveMoods(unittest.TestCase):
    table = recorded("2026-11-28-bookworm-amd64.json")

    def test_no_kbuild_of_the_new_upstream_falls_back_to_the_newest_complete_older_set(self):
        got = choose(answers(self.table, drop=("linux-kbuild-6.1 |  6.1.192",)), "linux-image-amd64", "amd64")
        self.assertLess(got.abi, "6.1.0-56-amd64")
        ver = got.version
        self.assertTrue(ver.startswith("6.1.176"), got.describe())
        self.assertEqual(got.packages["linux-kbuild-6.1"], "6.1.176-1")
        self.assertEqual(got.packages["linux-headers-" + got.abi], ver)
        self.assertTrue(any("incomplete" in w and "linux-kbuild-6.1 6.1.192-*" in w for w in got.why), got.why)

    def test_exact_revision_preferred_when_there(self):
        # The archive in step (as before 2026-11-28): kbuild at the image's own revision too.
        table = dict(self.table)
        table["madison linux-kbuild-6.1"] += ("linux-kbuild-6.1 |  6.1.192-2 | http://deb.debian.org/debian-security "
                                              "bookworm-security/main amd64 Packages\n")
        got = choose(answers(table), "linux-image-amd64", "amd64")
        self.assertEqual(got.packages["linux-kbuild-6.1"], "6.1.192-2")
        self.assertFalse(any("another Debian revision" in w for w in got.why), got.why)

    def test_nothing_complete_names_the_packages_and_the_override(self):
        with self.assertRaises(NoKernelSet) as e:
            choose(answers(self.table, drop=("linux-kbuild-6.1 |",)), "linux-image-amd64", "amd64")
        msg = str(e.exception)
        self.assertIn("linux-image-6.1.0-56-amd64 6.1.192-2 lacks linux-kbuild-6.1 6.1.192-*", msg)
        self.assertIn("KIOSK_E2E_KERNEL=ABI=VERSION", msg)
        self.assertIn("apt-get update", msg)

    def test_pinned_set_is_the_only_one_considered(self):
        got = choose(answers(self.table), "linux-image-amd64", "amd64", pin=("6.1.0-50-amd64", "6.1.176-1"))
        self.assertEqual(got.abi, "6.1.0-50-amd64")
        self.assertEqual(got.packages["linux-source-6.1"], "6.1.176-1")

    def test_offline_chooses_from_the_cached_debs(self):
        cached = [("linux-image-6.1.0-50-amd64", "6.1.176-1"), ("linux-headers-6.1.0-50-amd64", "6.1.176-1"),
                  ("linux-headers-6.1.0-50-common", "6.1.176-1"), ("linux-kbuild-6.1", "6.1.176-1"),
                  ("linux-source-6.1", "6.1.176-1")]
        got = choose(Answers(lambda args: None, cached), "linux-image-amd64", "amd64", hint="6.1.0-56-amd64")
        self.assertEqual(got.describe().split(":")[0], "6.1.0-50-amd64")
        with self.assertRaises(NoKernelSet):
            choose(Answers(lambda args: None, cached[:-1]), "linux-image-amd64", "amd64", hint="6.1.0-56-amd64")

    def test_no_lists_at_all_says_to_update(self):
        with self.assertRaises(NoKernelSet) as e:
            choose(Answers(lambda args: None), "linux-image-amd64", "amd64")
        self.assertIn("apt-get update", str(e.exception))


if __name__ == "__main__":
    unittest.main()
