import DRMOutput
import Geometry
import KioskSystem
import LayoutCore
import Raster

/// Frame scheduling and presentation: draws the source into one long-lived frame buffer (and
/// its one canvas) and hands it to the output, at most one frame in flight.
///
/// Requests only wake the loop (`requestPass`); drawing happens in `drawIfDue`, called by the
/// runtime's pass after `followOutputSize`. Output callbacks (a flip completed, the display came
/// back) only note what the output needs and request a pass, so nothing is ever drawn from
/// inside `present` or a callback.
public final class FrameScheduler: OutputDelegate {
    let output: Output
    let source: FrameSource
    private(set) var frame: PixelBuffer
    private var canvas: Canvas
    /// Wakes the loop for the runtime's next pass.
    let wake: WakeSource
    private var passRequested = false
    /// What the output needs redrawn of its own accord: everything when it came back or changed size.
    private var outputNeed = FrameNeed.full
    /// Frames handed to the output, and frames it reported on screen.
    public private(set) var presented = 0
    public private(set) var shown = 0
    /// Time from starting a frame to the output taking it, for `kiosk_frame_draw_seconds`.
    public private(set) var drawTime = Histogram(bounds: Histogram.frameDrawBounds)
    /// Told (from the loop) each time a frame reached the screen, with the count so far.
    var onShown: (Int) -> Void = { _ in }
    /// What each frame carries to the screen: input to measure, the scroll position.
    private var frameContents = FrameContents()

    init(source: FrameSource, output: Output) throws {
        self.source = source
        self.output = output
        frame = try PixelBuffer(width: output.logicalWidth, height: output.logicalHeight)
        canvas = Canvas(frame)
        wake = try WakeSource()
    }

    /// Asks for a pass of the runtime at the loop's next turn; several requests make one pass.
    func requestPass() {
        guard !passRequested else { return }
        passRequested = true
        wake.signal()
    }

    /// The loop woke for a requested pass.
    func passStarted() {
        wake.acknowledge()
        passRequested = false
    }

    /// Input at kernel time `time` changed the state: its frame's arrival on screen is measured.
    func noteInput(time: Double, kind: String) { frameContents.noteInput(time: time, kind: kind) }

    /// Input at kernel time `time` woke the panel: the first frame after it is measured.
    func noteWake(time: Double) { frameContents.noteWake(time: time) }

    /// The scroll position in the frame on screen (for screenshots).
    var shownPosition: ScrollOffset { frameContents.shownPosition }

    /// The frame on screen, or the one on its way there, lacks icons still being rendered: a
    /// screenshot now would show placeholders.
    var screenLacksIcons: Bool { frameContents.lacksIcons }

    /// One line per kind of input: median, 99th percentile and worst input-to-screen latency.
    var latencySummary: [String] { frameContents.latencySummary }

    /// The output's logical size changed (another display, a mode set): the source lays out
    /// again and the frame buffer follows. The runtime calls this at the start of a pass, so that
    /// drawing only draws.
    func followOutputSize() {
        guard frame.width != output.logicalWidth || frame.height != output.logicalHeight else { return }
        do {
            try source.resize(width: output.logicalWidth, height: output.logicalHeight)
            frame = try PixelBuffer(width: output.logicalWidth, height: output.logicalHeight)
            canvas = Canvas(frame)
            outputNeed = .full
            Log.info("menu laid out again for \(frame.width)x\(frame.height)")
        } catch {
            Log.error("cannot draw at \(output.logicalWidth)x\(output.logicalHeight): \(error)")
        }
    }

    /// Draws and presents a frame if one is owed and the output can take it.
    func drawIfDue() {
        let need = max(outputNeed, source.frameNeed)
        guard output.isReady, need != .none, frame.width == output.logicalWidth, frame.height == output.logicalHeight else { return }
        let started = MonotonicClock.now()
        let full = need == .full
        canvas.resetClip()
        let position = source.position
        let damage = source.draw(on: canvas, full: full)
        guard output.present(frame, damage: full ? [frame.bounds] : damage) else { return }
        source.frameTaken()
        outputNeed = .none
        presented += 1
        drawTime.observe(MonotonicClock.now() - started)
        frameContents.presented(position: position, lacksIcons: source.lastFrameLacksIcons)
    }

    // MARK: OutputDelegate

    public func outputPresented() {
        shown += 1
        frameContents.shown(at: output.lastPresentedTime)
        onShown(shown)
        if source.frameNeed != .none || source.isAnimating || outputNeed != .none { requestPass() }
    }

    public func outputNeedsFullFrame() {
        outputNeed = .full
        requestPass()
    }

    /// Nothing to draw, but the metrics say whether a display is connected.
    public func outputConnectionChanged() { requestPass() }
}

/// What the frame in flight and the frame on screen carry: the oldest input not yet on screen
/// (its input-to-screen latency is measured when its frame is shown), the input that woke the
/// panel, and the scroll position (screenshots record it).
struct FrameContents {
    /// Input at kernel time `time` from a device of `kind`.
    private struct Input {
        var time: Double
        var kind: String
    }

    private var unshownInput: Input?
    private var inFlightInput: Input?
    private var unshownWake: Double?
    private var inFlightWake: Double?
    private var inFlightPosition = ScrollOffset.zero
    private(set) var shownPosition = ScrollOffset.zero
    /// Whether the frame in flight (nil: none) and the frame on screen lack icons. Kept per frame,
    /// because the source only knows about the frame it drew last, which may not be on screen yet.
    private var inFlightLacksIcons: Bool?
    private var shownLacksIcons = false
    /// Input-to-screen latencies by the kind of input, of all inputs together, and of waking input.
    private var latencies: [String: LatencyRecord] = [:]
    private var allLatencies = LatencyRecord()
    private var wakeLatencies = LatencyRecord()

    mutating func noteInput(time: Double, kind: String) {
        if unshownInput == nil { unshownInput = Input(time: time, kind: kind) }
    }

    mutating func noteWake(time: Double) { unshownWake = time }

    /// A frame showing `position` was handed to the output: it carries the input not yet shown.
    mutating func presented(position: ScrollOffset, lacksIcons: Bool) {
        inFlightLacksIcons = lacksIcons
        inFlightInput = unshownInput
        unshownInput = nil
        inFlightWake = unshownWake
        unshownWake = nil
        inFlightPosition = position
    }

    /// The frame in flight reached the screen at `time` (nil: the output cannot say when).
    mutating func shown(at time: Double?) {
        if let input = inFlightInput, let at = time {
            latencies[input.kind, default: LatencyRecord()].add(at - input.time)
            allLatencies.add(at - input.time)
        }
        inFlightInput = nil
        if let wake = inFlightWake, let at = time { wakeLatencies.add(at - wake) }
        inFlightWake = nil
        shownPosition = inFlightPosition
        shownLacksIcons = inFlightLacksIcons ?? shownLacksIcons
        inFlightLacksIcons = nil
    }

    /// The frame on screen lacks icons, or the frame in flight does (an output may already show a
    /// frame it has not reported yet).
    var lacksIcons: Bool { shownLacksIcons || inFlightLacksIcons == true }

    /// One line per kind of input: median, 99th percentile and worst input-to-screen latency.
    var latencySummary: [String] {
        let wake = wakeLatencies.summary.map { ["wake-to-flip latency (input that woke the panel to its first frame on screen) over \($0)"] } ?? []
        guard let all = allLatencies.summary else { return wake }
        return wake + ["input-to-flip latency over \(all)"] + latencies.sorted { $0.key < $1.key }.compactMap { kind, record in
            record.summary.map { "input-to-flip latency (\(kind)) over \($0)" }
        }
    }
}

/// Latencies counted for ever but kept for the figures only for the newest `capacity`: a kiosk
/// turned for years must not keep every sample it ever measured.
struct LatencyRecord {
    static let capacity = 4096
    private(set) var count = 0
    private var newest: [Double] = []

    mutating func add(_ seconds: Double) {
        if newest.count < Self.capacity { newest.append(seconds) } else { newest[count % Self.capacity] = seconds }
        count += 1
    }

    /// "N inputs: median …, p99 …, max …" (over the newest samples kept), or nil before the first.
    var summary: String? {
        guard !newest.isEmpty else { return nil }
        let sorted = newest.sorted()
        let median = sorted[sorted.count / 2], p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        let kept = count > newest.count ? " (figures over the newest \(newest.count))" : ""
        return "\(count) inputs: median \((median * 1000).formatted2) ms, p99 \((p99 * 1000).formatted2) ms, max \((sorted.last! * 1000).formatted2) ms\(kept)"
    }
}
