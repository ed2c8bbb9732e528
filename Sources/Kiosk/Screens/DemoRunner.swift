import Geometry
import Glibc
import LayoutCore
import Raster

/// `kiosk demo`: scene S1's look with the menu scrolling by itself, one item a second, wrapping.
/// A display check for installers and the first thing the VM test bed runs. It answers touch,
/// knobs and keys; the first input stops the self-scrolling.
public struct DemoOptions: Sendable {
    public enum Motion: String, Sendable, CaseIterable {
        /// Scrolls continuously, one item a second.
        case auto
        /// One animated step a second, resting in between.
        case steps
        /// Still until input moves it.
        case none
    }

    public var display = DisplayRequest()
    public var rotation: DisplayRotation = .none
    public var pattern: ScenePattern = .checker
    public var motion: Motion = .auto
    /// Where SIGUSR1 writes a screenshot of what is on screen.
    public var screenshotPath = "/tmp/kiosk-screenshot.png"
    /// Stop by itself after this many completed flips (tests).
    public var exitAfterFlips: Int?
    public var fontPath = Font.dejaVuSansPath
    /// The virtual terminal to control for console switching (for example /dev/tty1); nil: none.
    public var terminal: String?
    /// Read input devices (libinput on this seat, plus evdev dials); nil: no input.
    public var seat: String? = "seat0"
    public var knob = KnobAccumulator()
    public var calibration: [Float]?

    public init() {}
}

public final class DemoRunner {
    static let itemCount = 12
    let options: DemoOptions
    let display: DisplaySession
    var scene: ArcMenuScene
    var shadow: PixelBuffer
    let loop: EventLoop
    let signals: SignalSource
    let stepTimer: TimerSource
    var menu: ArcMenuController
    var router: InputRouter
    var input: InputDevices?
    /// Self-scrolling until the first input.
    var autoScroll: Bool
    let start: Double
    /// The offset drawn into the buffer queued for flipping, and the one on screen.
    var queuedOffset = ScrollOffset.zero
    var onScreenOffset = ScrollOffset.zero
    var presented = 0
    /// Kernel time of the oldest input whose effect is not on screen yet, and of the input in the queued frame.
    var unshownInputTime: Double?
    var queuedInputTime: Double?
    /// Input-to-flip latencies in seconds, for the statistics at exit.
    var latencies: [Double] = []

    public init(options: DemoOptions) throws {
        self.options = options
        // First of all: a signal that arrives while the display is set up must be queued, not kill us.
        signals = try SignalSource([SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2])
        display = try DisplaySession(request: options.display, rotation: options.rotation, terminalPath: options.terminal)
        (scene, shadow) = try Self.makeScene(width: display.logicalWidth, height: display.logicalHeight, options: options)
        loop = try EventLoop()
        stepTimer = try TimerSource()
        start = MonotonicClock.now()
        autoScroll = options.motion == .auto
        menu = ArcMenuController(layout: scene.layout, count: Self.itemCount, wraps: true)
        let mode = display.output.mode
        router = InputRouter(rotation: options.rotation, panelWidth: Double(mode.width), panelHeight: Double(mode.height),
                             knob: options.knob)
    }

    static func makeScene(width: Int, height: Int, options: DemoOptions) throws -> (ArcMenuScene, PixelBuffer) {
        let scene = try ArcMenuScene(width: width, height: height, labels: (0..<itemCount).map { "Item \($0)" },
                                     pattern: options.pattern, fontPath: options.fontPath)
        return (scene, try PixelBuffer(width: width, height: height))
    }

    /// Runs until SIGTERM/SIGINT (or `exitAfterFlips`); restores the display on the way out.
    public func run() throws -> Int32 {
        defer { display.restore() }
        display.onFlipComplete = { [unowned self] in self.flipped() }
        display.onNeedsFullFrame = { [unowned self] width, height in
            if width != self.scene.width || height != self.scene.height {
                do {
                    (self.scene, self.shadow) = try Self.makeScene(width: width, height: height, options: self.options)
                } catch {
                    Log.error("cannot draw at \(width)x\(height): \(error)")
                    return
                }
            }
            let mode = self.display.output.mode
            self.router.setPanel(rotation: self.options.rotation, width: Double(mode.width), height: Double(mode.height))
            self.menu.layout = self.scene.layout
            self.frame(full: true)
        }
        try display.attach(to: loop)
        try loop.watch(signals.descriptor.rawValue) { [unowned self] in self.signalsArrived() }
        try loop.watch(stepTimer.descriptor.rawValue) { [unowned self] in
            self.stepTimer.acknowledge()
            self.menu.handle(.command(.next, count: 1), now: MonotonicClock.now())
            self.frame(full: false)
        }
        if options.motion == .steps { stepTimer.arm(after: 1, interval: 1) }
        startInput()
        frame(full: true)
        try loop.run()
        let gaps = display.output.vblankGaps.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
        if !latencies.isEmpty {
            let sorted = latencies.sorted()
            let median = sorted[sorted.count / 2], p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
            Log.info("input-to-flip latency over \(sorted.count) inputs: median \((median * 1000).formatted2) ms, p99 \((p99 * 1000).formatted2) ms, max \((sorted.last! * 1000).formatted2) ms")
        }
        Log.info("demo stats presented=\(presented) flips=\(display.output.completedFlips) pending=\(display.output.flipPending ? 1 : 0) vblank_gaps=\(gaps.isEmpty ? "none" : gaps)")
        return 0
    }

    private func startInput() {
        guard let seat = options.seat else { return }
        let mode = display.output.mode
        input = InputDevices(seat: seat, panelWidth: Double(mode.width), panelHeight: Double(mode.height),
                             calibration: options.calibration, loop: loop) { [unowned self] e in self.handle(e) }
    }

    func handle(_ event: RawInputEvent) {
        let inputs = router.route(event)
        Log.debug("input \(event) -> \(inputs)")
        guard !inputs.isEmpty else { return }
        let now = MonotonicClock.now()
        if autoScroll {
            // The first touch or turn takes over from the self-scrolling, from where it is.
            autoScroll = false
            menu.jump(toItem: ScrollOffset(now - start).nearestItem)
        }
        for input in inputs { menu.handle(input, now: now) }
        if unshownInputTime == nil { unshownInputTime = event.time }
        frame(full: false)
    }

    var isMoving: Bool { autoScroll || menu.isMoving }

    func frame(full: Bool) {
        guard display.canDraw else { return }
        let now = MonotonicClock.now()
        let offset: ScrollOffset
        if autoScroll {
            offset = ScrollOffset(now - start)
        } else {
            let (o, events) = menu.frame(now: now)
            offset = o
            for e in events { report(e) }
        }
        let damage = full ? scene.renderFull(into: shadow, offset: offset) : scene.renderStep(into: shadow, offset: offset)
        if display.present(shadow, damage: [damage]) {
            queuedOffset = offset
            queuedInputTime = unshownInputTime
            unshownInputTime = nil
            presented += 1
        }
    }

    /// One log line per menu event: what tests and operators read.
    private func report(_ event: MenuEvent) {
        switch event {
        case .selected(let i): Log.info("selected item \(i)")
        case .activated(let i): Log.info("activated item \(i)")
        case .tapped(let i): Log.info("tap on item \(i)")
        case .back: Log.info("back")
        case .released(let v, let moved): Log.info("drag released at \(v.formatted2) items/s: moving \(moved) items")
        }
    }

    func flipped() {
        onScreenOffset = queuedOffset
        if let input = queuedInputTime, let shown = display.output.lastFlipTime {
            latencies.append(shown - input)
            queuedInputTime = nil
        }
        if options.exitAfterFlips.map({ display.output.completedFlips >= $0 }) == true {
            loop.stop()
            return
        }
        if isMoving || menu.needsFrame { frame(full: false) }
    }

    func signalsArrived() {
        for s in signals.drain() {
            switch s {
            case SIGTERM, SIGINT:
                Log.info("signal \(s): restoring the display and exiting")
                loop.stop()
            case SIGUSR1:
                writeScreenshot()
            case display.terminalSignal:
                display.handleTerminalSignal()
            default:
                break
            }
        }
    }

    func writeScreenshot() {
        do {
            let image = try display.output.screenshot()
            try PNGCodec.write(image, to: options.screenshotPath)
            // The exact scroll position of the frame on screen, so a headless render can reproduce it.
            let meta = "offset=\(onScreenOffset.whole)+\(onScreenOffset.fraction)\nrotation=\(options.rotation.degrees)\nsize=\(display.logicalWidth)x\(display.logicalHeight)\n"
            try writeFile(options.screenshotPath + ".txt", meta)
            Log.info("screenshot written to \(options.screenshotPath) (offset \(onScreenOffset))")
        } catch {
            Log.error("screenshot to \(options.screenshotPath) failed: \(error)")
        }
    }
}

extension DemoRunner {
    /// Renders the demo frame at `offset` on a headless panel of `width` x `height`, turned by
    /// `options.rotation` exactly as the display would show it, and writes it to `path`.
    public static func renderHeadless(width: Int, height: Int, offset: ScrollOffset, options: DemoOptions, to path: String) throws {
        let output = try HeadlessOutput(panelWidth: width, panelHeight: height, rotation: options.rotation)
        let (scene, image) = try makeScene(width: output.logicalWidth, height: output.logicalHeight, options: options)
        output.present(image, damage: [scene.renderFull(into: image, offset: offset)])
        try output.writeScreenshot(to: path)
    }
}

/// Writes `text` to `path` (truncating), with a clear error.
public func writeFile(_ path: String, _ text: String) throws(SystemError) {
    let fd = try OwnedDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
    let bytes = Array(text.utf8)
    var done = 0
    while done < bytes.count {
        let n = try retryingInterrupts("write \(path)") {
            bytes.withUnsafeBytes { Glibc.write(fd.rawValue, $0.baseAddress! + done, $0.count - done) }
        }
        done += n
    }
}
