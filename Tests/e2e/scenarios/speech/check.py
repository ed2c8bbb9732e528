"""The menu speaks (issue 23): what the kiosk played into snd-aloop, as arecord captured it on the
other side, against `espeak-ng -w` of the same text and voice on the host.

The comparison is the normalised cross-correlation of log-magnitude spectrograms (64 frequencies
from 100 Hz to 5 kHz, 512-sample Hann frames every 256 samples, best shift within 20 frames), not
of raw samples: espeak-ng carries its voice source's phase from one utterance to the next, so the
same word said twice in one process has the same spectrogram but other samples (raw correlation
0.38, spectrograms 0.98, for "قهوة" said after "Coffee"). SAME = 0.93: with espeak-ng 1.51 the
same text and voice scores 0.97 or more, another word at most 0.45, a near word ("Toffee" for
"Coffee") 0.82, the same word in another voice (German "Coffee") 0.83 (the SpeechTests suite
checks the same numbers in Swift). Each check also shows the comparison failing for another text.
"""
import json
import math
import re
import subprocess
import tempfile
from pathlib import Path

RATE = 22050
SAME = 0.93


def samples(path, header=0):
    data = Path(path).read_bytes()[header:]
    n = len(data) // 2
    return list(memoryview(data[:n * 2]).cast("h"))


def segments(x, floor=300, gap=0.6, min_len=0.08):
    """Runs of sound in x: (start, end) sample indices, 10 ms frames louder than `floor` (RMS),
    joined across gaps shorter than `gap` seconds, at least `min_len` seconds long."""
    hop = RATE // 100
    loud = []
    for i in range(0, len(x) - hop, hop):
        f = x[i:i + hop]
        loud.append(math.sqrt(sum(v * v for v in f) / hop) > floor)
    runs, start, last = [], None, None
    for k, on in enumerate(loud):
        if on:
            if start is None:
                start = k
            elif k - last > gap * 100:
                runs.append((start, last))
                start = k
            last = k
    if start is not None:
        runs.append((start, last))
    return [(a * hop, (b + 1) * hop) for a, b in runs if (b - a + 1) / 100 >= min_len]


def trimmed(x, floor=200):
    idx = [i for i, v in enumerate(x) if abs(v) > floor]
    return x[idx[0]:idx[-1] + 1] if idx else []


def spectrogram(x, size=512, hop=256):
    try:
        import numpy as np
    except ImportError:
        np = None
    freqs = [100 + k * 4900 / 63 for k in range(64)]
    window = [0.5 - 0.5 * math.cos(2 * math.pi * t / (size - 1)) for t in range(size)]
    if np is not None:
        t = np.arange(size)
        basis = np.exp(-2j * np.pi * np.outer(freqs, t) / RATE) * np.array(window)
        a = np.array(x, dtype=float)
        return [list(np.log1p(np.abs(basis @ a[s:s + size]))) for s in range(0, len(a) - size, hop)]
    cos_b = [[math.cos(2 * math.pi * f * t / RATE) * window[t] for t in range(size)] for f in freqs]
    sin_b = [[math.sin(2 * math.pi * f * t / RATE) * window[t] for t in range(size)] for f in freqs]
    frames = []
    for s in range(0, len(x) - size, hop):
        seg = x[s:s + size]
        frames.append([math.log1p(math.hypot(sum(map(float.__mul__, c, map(float, seg))), sum(map(float.__mul__, sn, map(float, seg)))))
                       for c, sn in zip(cos_b, sin_b)])
    return frames


def similarity(a, b, max_lag=20):
    x, y = spectrogram(trimmed(a)), spectrogram(trimmed(b))
    if not x or not y:
        return 0.0
    mx = sum(map(sum, x)) / (len(x) * 64)
    my = sum(map(sum, y)) / (len(y) * 64)
    norm = math.sqrt(sum((v - mx) ** 2 for r in x for v in r) * sum((v - my) ** 2 for r in y for v in r))
    best = -1.0
    for lag in range(-max_lag, max_lag + 1):
        xs, ys = (lag, 0) if lag >= 0 else (0, -lag)
        n = min(len(x) - xs, len(y) - ys)
        if n <= 0:
            continue
        s = sum((p - mx) * (q - my) for f in range(n) for p, q in zip(x[xs + f], y[ys + f]))
        best = max(best, s / norm)
    return best


def reference(r, text, voice):
    with tempfile.TemporaryDirectory() as d:
        wav = Path(d) / "ref.wav"
        r.host("espeak-ng", "-v", voice, "-s", "175", "-w", wav, text)
        return samples(wav, header=44)


def spoken_lines(journal):
    """(monotonic seconds, what the app logged it said) for each `speech: ...` line of the kiosk."""
    out = []
    for line in journal.splitlines():
        m = re.match(r"\[\s*([0-9.]+)\].*kiosk\[\d+\]: (?:info: )?speech: (\"(.*)\"|a key of the keypad) \(settled at (\d+) ms\)", line)
        if m:
            out.append((float(m.group(1)), m.group(3) if m.group(3) is not None else "<key>", int(m.group(4)) / 1000))
    return out


def phase(r, name, journal):
    times = dict(kv.split("=") for kv in r.text(f"{name}.times").split())
    start = float(times["grew"]) - int(times["bytes"]) / 2 / RATE
    action = float(times["action"])
    ends = start + len(samples(r.path(f"{name}.raw"))) / RATE + 1
    said = [(t, text, settled) for t, text, settled in spoken_lines(journal) if action - 0.1 <= t <= ends]
    return start, said


def check(r):
    r.expect_rc("install", 0)
    r.require(r.exists("asound-cards.txt") and "Loopback" in r.text("asound-cards.txt"), f"no snd-aloop card: {r.text('asound-cards.txt') if r.exists('asound-cards.txt') else '-'}")
    journal = r.text("journal-kiosk.txt")
    r.expect("speech: playing on ALSA device plughw:Loopback,0,0" in journal, "the kiosk did not open the loopback")
    r.expect("speech: \"Drinks. Admin\"" in journal, "the start did not say the screen's title and item")

    def compare(name, text, voice, other):
        x = samples(r.path(f"{name}.raw"))
        segs = segments(x)
        r.expect(len(segs) == 1, f"{name}: {len(segs)} utterances captured, wanted 1 ({text!r}): {segs}")
        if not segs:
            return None
        a, b = segs[0]
        said = x[a:b]
        same = similarity(said, reference(r, text, voice))
        diff = similarity(said, reference(r, *other))
        r.expect(same > SAME, f"{name}: the capture matches espeak-ng's {text!r} ({voice}) only {same:.3f} (> {SAME} wanted)")
        r.expect(diff < SAME, f"{name}: the capture also matches {other[0]!r} ({other[1]}): {diff:.3f}")
        r.note(f"{name}: {text!r} in {voice}: {same:.3f}; against {other[0]!r} in {other[1]}: {diff:.3f}")
        return a

    # One detent: "Coffee".
    start, said = phase(r, "one", journal)
    r.expect([t for _, t, _ in said] == ["Coffee"], f"one detent: said {said}")
    first = compare("one", "Coffee", "en", ("Tea", "en"))
    if first is not None and said:
        settled = said[0][2]
        r.note(f"speech latency: settled at {settled:.3f} s, first captured sound at {start + first / RATE:.3f} s: "
                f"{(start + first / RATE - settled) * 1000:.0f} ms (settle delay 300 ms included; the capture's start taken as "
                f"when its file first grew less what it held, within the guest's polling)")

    # The kiosk's own clock: from the settle moment to its first non-silent sample handed to ALSA.
    firsts = [int(m.group(1)) / 1000 for m in re.finditer(r"speech: first sound at (\d+) ms", journal)]
    gaps = []
    settles = [settled for _, _, settled in spoken_lines(journal)]
    for i, settled in enumerate(settles):
        until = settles[i + 1] if i + 1 < len(settles) else float("inf")
        after = [f for f in firsts if settled <= f < until]
        if after:  # none: cut off before its first sound
            gaps.append((after[0] - settled) * 1000)
    if gaps:
        gaps.sort()
        r.note(f"settle to first sample written (kiosk log, {len(gaps)} utterances): min {gaps[0]:.0f} ms, "
               f"median {gaps[len(gaps) // 2]:.0f} ms, max {gaps[-1]:.0f} ms (settle delay 300 ms included)")

    # Ten fast detents: only where they stopped, in the Arabic voice.
    _, said = phase(r, "fast", journal)
    r.expect([t for _, t, _ in said] == ["قهوة"], f"ten fast detents said {[t for _, t, _ in said]}, wanted only 'قهوة'")
    compare("fast", "قهوة", "ar", ("قهوة", "en"))
    fast = json.loads(r.text("status-fast.json"))
    r.expect(fast.get("selected_label") == "قهوة", f"after ten detents the selection is {fast.get('selected_label')!r}")

    # The keypad by touch: "Entered" per digit, then the opened screen; never a digit.
    _, said = phase(r, "keypad", journal)
    texts = [t for _, t, _ in said]
    r.expect(texts == ["Entered"] * 4 + ["Settings. Back"], f"the keypad said {texts}")
    x = samples(r.path("keypad.raw"))
    segs = segments(x)
    r.expect(len(segs) == 5, f"keypad: {len(segs)} utterances captured, wanted 5 (4 x Entered, 'Settings. Back'): {segs}")
    entered = reference(r, "Entered", "en")
    digits = {d: reference(r, d, "en") for d in "2580"}
    for i, (a, b) in enumerate(segs[:4]):
        s = similarity(x[a:b], entered)
        r.expect(s > SAME, f"keypad utterance {i + 1} matches 'Entered' only {s:.3f}")
        for d, ref in digits.items():
            v = similarity(x[a:b], ref)
            r.expect(v < SAME, f"keypad utterance {i + 1} sounds like the digit {d}: {v:.3f}")
    end = json.loads(r.text("status-end.json"))
    r.expect(end["screen"] == "admin", f"the PIN did not open the screen: {end['screen']}")
    sp = end.get("speech") or {}
    r.expect(sp.get("state") == "ready" and sp.get("device") == "plughw:Loopback,0,0", f"status speech: {sp}")
    r.note(f"status speech: {sp}")
    r.expect("PIN" not in "".join(texts) and not any(c in "".join(texts) for c in "2580"), "a digit reached the log")

    # A reload that turns speech off closes the ALSA device (the same process: not a restart).
    pids = r.text("pids-off.txt").split() if r.exists("pids-off.txt") else []
    r.expect(len(pids) == 2 and pids[0] == pids[1], f"the kiosk restarted instead of reloading: {pids}")
    pcm = re.compile(r"/dev/snd/pcmC\d+D\d+p")
    speaking = pcm.findall(r.text("fds-speaking.txt")) if r.exists("fds-speaking.txt") else []
    off = pcm.findall(r.text("fds-off.txt")) if r.exists("fds-off.txt") else ["?"]
    r.expect(len(speaking) == 1, f"while speaking the kiosk holds {speaking}, wanted one playback PCM")
    r.expect(off == [], f"after the reload without speech the kiosk still holds {off}")
    r.expect("speech: off; ALSA device plughw:Loopback,0,0 closed" in journal, "the worker did not log the device closed")
    after = json.loads(r.text("status-off.json")) if r.exists("status-off.json") else {}
    r.expect(after.get("speech") is None, f"status speech after the reload: {after.get('speech')}")
