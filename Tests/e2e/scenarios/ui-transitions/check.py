"""Two fingers on an item open nothing; a tap pushes a screen, a flick scrolls it, Escape pops it,
each change a slide; the final screenshot equals `kiosk render` of the home screen. Noted: the
vblank-gap histogram (one flip per vblank is the goal) and the CPU time per frame over the
transitions and the flick (under TCG the CPU is the limit)."""
from e2e import kiosk


def check(r):
    r.expect_rc("kiosk", 0)
    err = r.text("kiosk.err")
    r.expect(r.text("screen-after-two-fingers.txt").strip() == "main",
             f"two fingers on 'Drinks' opened {r.text('screen-after-two-fingers.txt').strip()!r}")
    r.expect(r.text("screen-after-tap.txt").strip() == "drinks", "the tap did not open 'drinks'")
    r.expect(r.text("screen-after-back.txt").strip() == "main", "Escape did not go back to 'main'")
    r.expect(err.count("activated item 0") == 1, "'Drinks' was activated other than by the one tap")
    r.expect("moving" in err, "the flick was not released as a drag")

    stats = kiosk.frame_stats(r)
    kiosk.expect_flips_accounted(r, stats, 10)
    r.note(f"vblank gaps (gap in vblanks: count) over the whole run: {stats['vblank_gaps']}; frame stats {stats}")

    hz = int(r.text("clk-tck.txt").strip() or 100)
    (cpu0, f0), (cpu1, f1) = ([int(v) for v in r.text(f"{n}.txt").split()] for n in ("before", "after"))
    frames = f1 - f0
    r.expect(frames > 10, f"only {frames} frames over two transitions and a flick")
    if frames > 0:
        ms = (cpu1 - cpu0) * 1000 / hz
        r.note(f"CPU over the push, flick and pop (TCG guest): {ms:.0f} ms for {frames} frames = {ms / frames:.2f} ms/frame")

    r.expect_rc("render", 0)
    kiosk.expect_same_image(r, "final.png", "render-main.png")
