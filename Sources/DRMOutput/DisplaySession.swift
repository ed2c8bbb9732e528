import Geometry
import Glibc
import KioskConfiguration
import KioskSystem
import Raster

/// The display across everything that can happen to it while the kiosk runs: the connector
/// unplugged and plugged again (udev "drm" events), a VT switch (VT_PROCESS signals), another
/// DRM master taking the card (flips fail with EACCES/EPERM; retried slowly while lost), and
/// handing the screen to a program and taking it back. Drawing stops quietly while the
/// display is away; when it returns, the delegate is asked for a full frame.
public final class DisplaySession: Output {
    public enum State: Equatable, Sendable {
        case showing
        /// Given away on purpose (VT switch, `exec` action).
        case suspended
        /// The connector has no display.
        case disconnected
        /// Another master has the card; retried every `retryInterval` seconds.
        case lost
    }

    public let request: DisplayRequest
    public let rotation: DisplayRotation
    public private(set) var output: ScanoutOutput
    public private(set) var state: State = .showing
    /// The first frame, and the next after the display comes back, is shown with a mode set, not
    /// a flip: the CRTC still shows whatever was there before (a splash, the console) or whoever
    /// had the display may have changed or switched it off.
    private var needsModeSet = true
    let hotplug: UdevMonitor?
    let terminal: VirtualTerminal?
    let retryTimer: TimerSource
    let retryInterval = 2.0
    private weak var loop: EventLoop?
    private weak var delegate: OutputDelegate?
    /// A frame shown by a mode set has no flip event: its completion is reported from the loop
    /// through this, never from inside `present`.
    private let shownByModeSet: WakeSource

    /// Finds and takes the display, waiting up to `patience` seconds for one that may yet appear
    /// (`DisplayChoice.awaitAvailable`). `terminalPath` names the VT to control (nil: none).
    public init(request: DisplayRequest, rotation: DisplayRotation, terminalPath: String? = nil,
                patience: Double = 0, stop: () -> Bool = { false }) throws {
        self.request = request
        self.rotation = rotation
        let choice = try DisplayChoice.awaitAvailable(request, patience: patience, stop: stop)
        Log.info("display \(choice.card.path) (\(choice.card.driverName)) \(choice.connector.name) \(choice.mode), rotation \(rotation)")
        output = try ScanoutOutput(choice: choice, rotation: rotation)
        do {
            hotplug = try UdevMonitor(subsystem: "drm")
        } catch {
            Log.warning("display hotplug will not be noticed: \(error)")
            hotplug = nil
        }
        terminal = try terminalPath.map { (path) throws -> VirtualTerminal in try VirtualTerminal(path: path) }
        retryTimer = try TimerSource()
        shownByModeSet = try WakeSource()
    }

    public var panel: PanelGeometry { PanelGeometry(width: output.mode.width, height: output.mode.height, rotation: rotation) }
    public var isReady: Bool { state == .showing && panelOn && !output.flipPending && !modeSetCompletionQueued }
    /// `[power]` wants the panel on; off, no frame is taken.
    private var panelOn = true
    /// How the panel is off now (nil: it is not, or not by us: the display is away).
    private var blanking: PanelBlanking?
    /// The panel was off by DPMS: after the mode set that shows the first frame, DPMS on.
    private var dpmsOnOwed: PanelBlanking?
    public var controlsPanelPower: Bool { true }
    private var modeSetCompletionQueued = false
    /// Frames shown by a mode set (the first, and the first after regaining the display): they
    /// have no flip event, so the statistics count them apart from flips.
    private var modeSetFrames = 0
    public var lastPresentedTime: Double? { output.lastFlipTime }
    public var name: String { "\(output.connector.name) \(output.mode)" }
    public var isConnected: Bool { state != .disconnected }
    public var statistics: String {
        let gaps = output.vblankGaps.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
        return "flips=\(output.completedFlips) mode_sets=\(modeSetFrames) pending=\(output.flipPending ? 1 : 0) vblank_gaps=\(gaps.isEmpty ? "none" : gaps)"
    }

    public func attach(to loop: EventLoop, delegate: OutputDelegate) throws {
        self.loop = loop
        self.delegate = delegate
        try loop.watch(shownByModeSet.descriptor.rawValue) { [unowned self] in
            self.shownByModeSet.acknowledge()
            self.modeSetCompletionQueued = false
            self.delegate?.outputPresented()
        }
        try loop.watch(output.card.fd) { [unowned self] in self.cardReadable() }
        if let hotplug { try loop.watch(hotplug.fd) { [unowned self] in self.hotplugEvents() } }
        try loop.watch(retryTimer.descriptor.rawValue) { [unowned self] in
            self.retryTimer.acknowledge()
            self.tryToRegain()
        }
    }

    /// Queues `shadow` for display. Returns false when nothing was queued (display away or a flip pending).
    @discardableResult
    public func present(_ shadow: PixelBuffer, damage: [PixelRect]) -> Bool {
        guard isReady else { return false }
        do {
            if needsModeSet {
                try output.presentBySettingMode(shadow)
                needsModeSet = false
                modeSetFrames += 1
                if let owed = dpmsOnOwed {
                    output.dpmsOn(owed)
                    dpmsOnOwed = nil
                }
                modeSetCompletionQueued = true
                shownByModeSet.signal()
                return true
            }
            return try output.present(shadow, damage: damage)
        } catch {
            lose(error)
            return false
        }
    }

    /// Puts the original CRTC back (exit), the panel on.
    public func restore() {
        unblankForOthers()
        output.restore()
    }

    // MARK: Panel power

    public func setPanel(on: Bool) {
        guard on != panelOn else { return }
        panelOn = on
        if on {
            guard let how = blanking else { return }
            blanking = nil
            // The current menu is drawn and shown by a mode set, which lights the CRTC with it:
            // the first light is that frame, never black, never an older one.
            if case .dpms = how { dpmsOnOwed = how }
            needsModeSet = true
            delegate?.outputNeedsFullFrame()
        } else if !output.flipPending {
            blankNow()
        }  // else when the flip in flight completes
    }

    /// Turns the panel off if it should be and can be (the display is ours, no flip in flight).
    private func blankNow() {
        guard !panelOn, blanking == nil, state == .showing, !output.flipPending else { return }
        do {
            blanking = try output.panelOff()
            dpmsOnOwed = nil
        } catch {
            Log.warning("turning \(output.connector.name) off: \(error); it stays on")
        }
    }

    /// The panel on again before someone else shows something on it (exit, VT switch, `exec`).
    private func unblankForOthers() {
        if let how = blanking ?? dpmsOnOwed { output.dpmsOn(how) }
        blanking = nil
        dpmsOnOwed = nil
    }

    public func screenshot() throws -> PixelBuffer { try output.screenshot() }

    /// For an `exec` program: the kiosk's last frame stays on the CRTC until the program shows
    /// its own, and the program finds no master to fight. Putting back what was there before the
    /// kiosk would show the console, or nothing at all where that was a splash that has quit.
    public func handOver() { suspend(keepingFrame: true) }
    public func takeBack() { resume() }

    public func handle(signal: Int32) -> Bool {
        guard let terminal, signal == terminal.signal else { return false }
        handleTerminalSignal()
        return true
    }

    // MARK: Giving the screen away on purpose

    /// Stops drawing and drops master so that another program can have the display: with the CRTC
    /// as it was before the kiosk (a VT switch: the console's), or `keepingFrame`, as it is.
    public func suspend(keepingFrame: Bool = false) {
        guard state == .showing || state == .lost else { return }
        unblankForOthers()
        if !keepingFrame { output.restore() }
        try? output.card.dropMaster()
        state = .suspended
        retryTimer.disarm()
        Log.info("display handed over")
    }

    /// Takes the display back after `suspend()` and asks for a full frame.
    public func resume() {
        guard state == .suspended else { return }
        state = .lost
        tryToRegain()
    }

    func handleTerminalSignal() {
        guard let terminal else { return }
        switch terminal.pendingSwitch() {
        case .release:
            suspend()
            do {
                try terminal.acknowledgeRelease()
                Log.info("console switched away from \(terminal.path)")
            } catch {
                // The kernel did not switch: the VT is still ours, so the display is taken back.
                Log.error("console switch away from \(terminal.path) refused: \(error); keeping the display")
                resume()
            }
        case .acquire:
            do {
                try terminal.acknowledgeAcquire()
            } catch {
                Log.warning("console switch back to \(terminal.path) not acknowledged: \(error)")
            }
            Log.info("console switched back to \(terminal.path)")
            resume()
        }
    }

    // MARK: Events

    private func cardReadable() {
        do {
            if try output.handleEvents() {
                delegate?.outputPresented()
                blankNow()
            }
        } catch {
            Log.error("reading display events: \(error)")
        }
    }

    private func hotplugEvents() {
        guard let hotplug else { return }
        let events = hotplug.drain()
        guard !events.isEmpty, state != .suspended else { return }
        let info: ConnectorInfo
        do {
            info = try output.card.connector(output.connector.id)
        } catch {
            Log.warning("reading \(output.connector.name) after hotplug: \(error)")
            return
        }
        switch (info.state, state) {
        case (.connected, .disconnected), (.connected, .lost):
            Log.info("\(info.name) connected")
            state = .lost
            tryToRegain()
        case (.connected, .showing) where !info.modes.contains(output.mode):
            Log.info("\(info.name) now offers different modes; setting the display up again")
            state = .lost
            tryToRegain()
        case (.disconnected, .showing), (.disconnected, .lost):
            Log.info("\(info.name) disconnected; drawing stops until a display is connected")
            state = .disconnected
            retryTimer.disarm()
            delegate?.outputConnectionChanged()
        default:
            break
        }
    }

    private func lose(_ error: SystemError) {
        guard state == .showing else { return }
        switch error.errno {
        case EACCES, EPERM, EBUSY, EINVAL:
            Log.warning("display taken by another program (\(error)); waiting to take it back")
        case ENOENT, ENODEV:
            Log.warning("display went away (\(error)); waiting for it")
        default:
            Log.error("display failed (\(error)); retrying every \(Int(retryInterval)) s")
        }
        state = .lost
        retryTimer.arm(after: retryInterval, interval: retryInterval)
    }

    /// Tries to become master and set the mode again, picking a new output if the old one is gone.
    private func tryToRegain() {
        guard state == .lost || state == .disconnected else { return }
        _ = try? output.card.setMaster()
        do {
            let info = try output.card.connector(output.connector.id)
            if info.state == .connected, info.modes.contains(output.mode) {
                state = .showing
                needsModeSet = true
                retryTimer.disarm()
                delegate?.outputNeedsFullFrame()
                blankNow()
                return
            }
            // A different display (or none): choose again, which may mean new buffers and a new size.
            let choice = try DisplayChoice.find(request)
            let replacement = try ScanoutOutput(choice: choice, rotation: rotation)
            loop?.unwatch(output.card.fd)
            output = replacement
            needsModeSet = true
            blanking = nil
            dpmsOnOwed = nil
            try loop?.watch(output.card.fd) { [unowned self] in self.cardReadable() }
            state = .showing
            retryTimer.disarm()
            Log.info("display \(choice.connector.name) \(choice.mode)")
            delegate?.outputNeedsFullFrame()
            blankNow()
        } catch {
            if state == .lost { retryTimer.arm(after: retryInterval, interval: retryInterval) }
            Log.debug("display not back yet: \(error)")
        }
    }
}
