"""Every one of 200 detents reached the screen; the latency figures are reported (not asserted)."""
import re


def check(r):
    r.expect_rc("kiosk", 0)
    err = r.text("kiosk.err")
    m = re.search(r"input-to-flip latency over (\d+) inputs: median ([\d.]+) ms, p99 ([\d.]+) ms, max ([\d.]+) ms", err)
    r.require(m, f"no latency line:\n{err[-2000:]}")
    r.expect(int(m.group(1)) == 200, f"{m.group(1)} of 200 detents were measured")
    r.note(f"input-to-flip latency (TCG guest): median {m.group(2)} ms, p99 {m.group(3)} ms, max {m.group(4)} ms over {m.group(1)} detents")
