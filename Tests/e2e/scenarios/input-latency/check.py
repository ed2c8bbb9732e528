"""200 wheel detents and 200 dial steps, 150 ms apart, each measured from its kernel time to the
flip that shows it; the latency figures are reported by kind (not asserted). A frame carries the
oldest input it shows: when the guest stalls past the next input (a loaded host: 199 of 200 in a
cold run beside fleet-ansible), two share a frame and one sample. So at least 190 of each are
measured, and the count is a figure; that every input moves the menu is input-devices' check. A
dial's times on another clock than the flips' (CLOCK_REALTIME, before EVIOCSCLOCKID) would give
latencies of decades or negative ones: the bound catches that."""
import re

LINE = r"input-to-flip latency \({kind}\) over (\d+) inputs: median ([\d.-]+) ms, p99 ([\d.-]+) ms, max ([\d.-]+) ms"


def check(r):
    r.expect_rc("kiosk", 0)
    err = r.text("kiosk.err")
    for kind, unit in (("wheel", "detents"), ("dial", "steps")):
        m = re.search(LINE.format(kind=kind), err)
        r.require(m, f"no {kind} latency line:\n{err[-2000:]}")
        count, median, p99, worst = int(m.group(1)), float(m.group(2)), float(m.group(3)), float(m.group(4))
        r.expect(190 <= count <= 200, f"{count} of 200 {kind} {unit} were measured")
        r.expect(0 < median <= worst < 10_000,
                 f"{kind} latencies are not on the flips' clock: median {median} ms, max {worst} ms")
        r.note(f"{kind} input-to-flip latency (TCG guest): median {median} ms, p99 {p99} ms, max {worst} ms over {count} {unit}")
