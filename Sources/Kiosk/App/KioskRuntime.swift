import Glibc
import LayoutCore
import Raster

/// `kiosk run`: the app on a real display with real input, one thread, one epoll loop.
/// Sources: the DRM fd (flips), libinput and dials, inotify on the config's directory,
/// a signalfd (TERM, INT, HUP, USR1, CHLD, the VT's switch signal) and timers (config
/// debounce, idle timeout, watchdog). Nothing wakes it while nothing moves.
public final class KioskRuntime {
    public struct Options: Sendable {
        public var configPath: String
        public var terminal: String?
        public init(configPath: String, terminal: String? = nil) {
            self.configPath = configPath
            self.terminal = terminal
        }
    }

    let options: Options
    /// Reloads run on its thread; the loop applies what it delivers (`loaded(_:)`).
    let loader: ConfigLoadWorker
    /// Why the reload being loaded was asked for, for the log line when it is applied.
    var pendingReloadReason: String?
    let app: KioskApp
    let display: DisplaySession
    var shadow: PixelBuffer
    let loop: EventLoop
    let signals: SignalSource
    let reloadTimer: TimerSource
    let idleTimer: TimerSource
    let watchdogTimer: TimerSource
    /// Starts input if the first frame has not been flipped by then (display away at start).
    let inputStartTimer: TimerSource
    let notifier = SystemdNotifier()
    var watcher: ConfigWatcher?
    var router: InputRouter
    var input: InputDevices?
    /// The program that has the display (an `exec` item), if any.
    var execChild: (pid: pid_t, label: String)?
    /// Background programs and power requests still running: their menu label and action kind.
    var spawned: [pid_t: (label: String, action: String)] = [:]
    var firstFrameShown = false
    /// Input is opened after the first frame is on screen: enumerating and opening the devices
    /// (udev, libinput) would otherwise delay the menu, and no one can touch a blank screen.
    static let inputStartDeadline = 2.0
    var startup: StartupTimeline

    /// TERM/INT stop, HUP reloads, USR1 takes a screenshot, USR2 is the VT's switch signal, CHLD reaps.
    static var handledSignals: [Int32] {
        var signals = [SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2, SIGCHLD]
        #if KIOSK_TEST_HOOKS
        signals.append(SIGURG)  // test-only hang hook, see signalsArrived()
        #endif
        return signals
    }

    public init(options: Options) throws {
        self.options = options
        // First of all: a signal that arrives during start-up must be queued, not kill us.
        signals = try SignalSource(Self.handledSignals)
        startup = StartupTimeline()
        // Start-up loads in place: there is nothing on screen to keep answering yet.
        let loaded = LoadedConfig.load(using: ConfigChecker(path: options.configPath))
        let check = loaded.check
        startup.mark("config")
        var config: KioskConfig
        if let good = check.config {
            config = good
            for p in check.problems { Log.warning(p.description) }
        } else {
            // Never a blank screen and never a restart loop: show what is wrong.
            for p in check.problems { Log.error(p.description) }
            Log.error("\(options.configPath) is not usable; showing the rescue screen until it is fixed")
            config = KioskConfig.rescue(problems: check.problems)
        }
        display = try DisplaySession(request: config.display.request, rotation: config.display.rotation, terminalPath: options.terminal)
        startup.mark("display")
        let now = MonotonicClock.now()
        app = try KioskApp(config: config, assets: loaded.assets, valid: check.isValid, problems: check.problems,
                           width: display.logicalWidth, height: display.logicalHeight, now: now)
        shadow = try PixelBuffer(width: display.logicalWidth, height: display.logicalHeight)
        startup.mark("layout")
        loop = try EventLoop()
        reloadTimer = try TimerSource()
        idleTimer = try TimerSource()
        watchdogTimer = try TimerSource()
        inputStartTimer = try TimerSource()
        loader = try ConfigLoadWorker(path: options.configPath)
        let mode = display.output.mode
        router = InputRouter(rotation: config.display.rotation, panelWidth: Double(mode.width), panelHeight: Double(mode.height))
        configureInput(config)
    }

    private func configureInput(_ config: KioskConfig) {
        router.knob = KnobAccumulator(detentsPerItem: config.input.detentsPerItem, direction: config.input.knobDirection)
        router.keys = config.input.keys.mapping
    }

    public func run() throws -> Int32 {
        defer { display.restore() }
        display.onFlipComplete = { [unowned self] in self.flipped() }
        display.onNeedsFullFrame = { [unowned self] width, height in self.displayReturned(width: width, height: height) }
        try display.attach(to: loop)
        try loop.watch(signals.descriptor.rawValue) { [unowned self] in self.signalsArrived() }
        try loader.attach(to: loop) { [unowned self] loaded in self.loaded(loaded) }
        try loop.watch(reloadTimer.descriptor.rawValue) { [unowned self] in
            self.reloadTimer.acknowledge()
            self.reload(reason: "file changed")
        }
        try loop.watch(idleTimer.descriptor.rawValue) { [unowned self] in
            self.idleTimer.acknowledge()
            self.checkIdle()
        }
        try loop.watch(watchdogTimer.descriptor.rawValue) { [unowned self] in
            self.watchdogTimer.acknowledge()
            self.notifier.notify("WATCHDOG=1")
        }
        if let interval = notifier.watchdogInterval { watchdogTimer.arm(after: interval, interval: interval) }
        try loop.watch(inputStartTimer.descriptor.rawValue) { [unowned self] in
            self.inputStartTimer.acknowledge()
            if self.input == nil {
                Log.info("no frame on screen after \(Int(Self.inputStartDeadline)) s; opening input anyway")
                self.startInput()
            }
        }
        inputStartTimer.arm(after: Self.inputStartDeadline)
        do {
            let w = try ConfigWatcher(path: options.configPath)
            try loop.watch(w.fd) { [unowned self, unowned w] in
                // Several events come for one replacement: wait until they stop.
                if w.drain() { self.reloadTimer.arm(after: 0.1) }
            }
            watcher = w
        } catch {
            Log.warning("config changes will not be noticed (use SIGHUP): \(error)")
        }
        startup.mark("loop setup")
        checkIdle()
        frame()
        startup.mark("first frame drawn")
        try loop.run()
        notifier.notify("STOPPING=1")
        return 0
    }

    // MARK: Input

    private func startInput() {
        guard input == nil else { return }
        let config = app.config
        let mode = display.output.mode
        input = InputDevices(seat: config.input.seat, panelWidth: Double(mode.width), panelHeight: Double(mode.height),
                             calibration: config.input.calibration?.map { Float($0) }, loop: loop) { [unowned self] e in self.handle(e) }
    }

    private func handle(_ event: RawInputEvent) {
        guard execChild == nil else { return }  // the program has the input
        let inputs = router.route(event)
        guard !inputs.isEmpty else { return }
        let now = MonotonicClock.now()
        for input in inputs { app.handle(input, now: now) }
        checkIdle()
        frame()
    }

    private func checkIdle() {
        if let due = app.checkIdle(now: MonotonicClock.now()) {
            idleTimer.arm(after: due - MonotonicClock.now())
        }
        if app.needsFrame { frame() }
    }

    // MARK: Frames

    private func frame() {
        guard display.canDraw, execChild == nil else { return }
        let damage = app.render(into: shadow, now: MonotonicClock.now())
        display.present(shadow, damage: damage)
        afterAppChanged()
    }

    private func flipped() {
        if !firstFrameShown {
            firstFrameShown = true
            startup.mark("flip")
            Log.info("menu on screen")
            notifier.notify("READY=1\nSTATUS=Showing \(app.currentScreen.config.name)")
            let menuShown = startup.summary
            startInput()
            startup.mark("input")
            Log.info("start-up: \(menuShown); then input opened in \(StartupTimeline.ms(startup.lastPhase))")
        }
        if app.isMoving || app.needsFrame { frame() }
    }

    private func displayReturned(width: Int, height: Int) {
        if width != app.width || height != app.height {
            do {
                try app.resize(width: width, height: height)
                shadow = try PixelBuffer(width: width, height: height)
                let mode = display.output.mode
                router.setPanel(rotation: app.config.display.rotation, width: Double(mode.width), height: Double(mode.height))
                input?.libinput?.panelWidth = Double(mode.width)
                input?.libinput?.panelHeight = Double(mode.height)
                Log.info("menu laid out again for \(width)x\(height)")
            } catch {
                Log.error("cannot draw at \(width)x\(height): \(error)")
                return
            }
        }
        frame()
    }

    /// Carries out what the app asked for and writes the status when it changed.
    private func afterAppChanged() {
        for request in app.takeRequests() { perform(request) }
        if app.statusChanged { writeStatus() }
    }

    private func writeStatus() {
        let doc = app.status(extra: [
            "pid": .int(Int(getpid())),
            "config_path": .string(options.configPath),
            "display": .string("\(display.output.connector.name) \(display.output.mode)"),
            "running": execChild.map { .string($0.label) } ?? .null,
        ])
        do {
            try doc.write(to: app.config.statusFile)
        } catch {
            Log.debug("status file \(app.config.statusFile): \(error)")
        }
    }

    // MARK: Actions

    private func perform(_ request: AppRequest) {
        let now = MonotonicClock.now()
        switch request {
        case .reload:
            reload(reason: "menu item")
        case .spawn(let command, let label):
            do {
                let pid = try ProcessLauncher.start(command)
                spawned[pid] = (label, "spawn")
                Log.info("started \"\(label)\" in the background (pid \(pid))")
            } catch {
                Log.error("\"\(label)\": \(error)")
                app.actionFinished(label: label, action: "spawn", result: "failed to start: \(error)", failed: true, now: now)
            }
        case .exec(let command, let label):
            // Hand over: stop drawing, drop master, stop reading input, then start the program.
            display.suspend()
            input?.suspend()
            do {
                let pid = try ProcessLauncher.start(command)
                execChild = (pid, label)
                Log.info("\"\(label)\" has the display (pid \(pid))")
                notifier.notify("STATUS=Running \(label)")
            } catch {
                Log.error("\"\(label)\": \(error)")
                takeBack()
                app.actionFinished(label: label, action: "exec", result: "failed to start: \(error)", failed: true, now: now)
            }
        case .poweroff, .reboot:
            let verb = request == .poweroff ? "poweroff" : "reboot"
            do {
                // Tracked like a spawned program: when logind refuses (no polkit rule for the kiosk's
                // user), systemctl fails and the banner says so instead of nothing happening.
                // --no-ask-password: systemctl would otherwise start a polkit agent (pkttyagent) on
                // its stdin, the kiosk's tty1, which is in graphics mode: a password prompt there
                // nobody can see or answer would keep the request hanging instead of refused.
                let pid = try ProcessLauncher.start(Command(argv: ["systemctl", "--no-ask-password", verb]))
                spawned[pid] = (verb, verb)
                Log.info("asked systemd to \(verb) (systemctl pid \(pid))")
            } catch {
                app.actionFinished(label: verb, action: verb, result: "failed: \(error)", failed: true, now: now)
            }
        }
        writeStatus()
    }

    private func takeBack() {
        input?.resume()
        display.resume()
    }

    private func childrenEnded() {
        let now = MonotonicClock.now()
        for (pid, result, failed) in ProcessLauncher.reap() {
            if let exec = execChild, exec.pid == pid {
                execChild = nil
                Log.info("\"\(exec.label)\" \(result); taking the display back")
                takeBack()
                app.actionFinished(label: exec.label, action: "exec", result: result, failed: failed, now: now)
                notifier.notify("STATUS=Showing \(app.currentScreen.config.name)")
                frame()
            } else if let (label, action) = spawned.removeValue(forKey: pid) {
                if failed { Log.error("\"\(label)\" (pid \(pid)) \(result)") } else { Log.info("\"\(label)\" (pid \(pid)) \(result)") }
                app.actionFinished(label: label, action: action, result: result, failed: failed, now: now)
                frame()
            }
        }
        writeStatus()
    }

    // MARK: Config and signals

    /// Asks the loader for the file; the loop goes on until `loaded(_:)` gets it. A request while
    /// one is loading supersedes it.
    private func reload(reason: String) {
        notifier.reloading()
        Log.info("loading \(options.configPath) (\(reason))")
        pendingReloadReason = reason
        loader.request()
    }

    /// The newest requested load has finished: apply it, or keep the running config.
    private func loaded(_ loaded: LoadedConfig) {
        let reason = pendingReloadReason ?? "file changed"
        pendingReloadReason = nil
        let check = loaded.check
        let now = MonotonicClock.now()
        if app.apply(check, assets: loaded.assets, now: now) {
            configureInput(app.config)
            Log.info("config reloaded (\(reason))")
        } else {
            for p in check.problems { Log.error(p.description) }
            Log.error("config not applied (\(reason)); keeping the last good one")
        }
        notifier.notify("READY=1\nSTATUS=Showing \(app.currentScreen.config.name)")
        checkIdle()
        frame()
        writeStatus()
        // The old screens, fonts and icons are gone.
        FreedMemory.returnToSystem()
    }

    private func signalsArrived() {
        for s in signals.drain() {
            switch s {
            case SIGTERM, SIGINT:
                Log.info("signal \(s): restoring the display and exiting")
                loop.stop()
            case SIGHUP:
                reload(reason: "SIGHUP")
            case SIGCHLD:
                childrenEnded()
            case SIGUSR1:
                screenshot()
            case display.terminalSignal:
                display.handleTerminalSignal()
            #if KIOSK_TEST_HOOKS
            case SIGURG:
                // Test-only (built with -DKIOSK_TEST_HOOKS, never in release builds): the event loop
                // hangs, so WATCHDOG=1 stops and systemd's watchdog has to kill and restart the kiosk.
                Log.warning("test hook: SIGURG, hanging the event loop")
                while true { sleep(1) }
            #endif
            default:
                break
            }
        }
    }

    private func screenshot() {
        let path = app.config.screenshotFile
        do {
            try PNGCodec.write(try display.output.screenshot(), to: path)
            Log.info("screenshot written to \(path)")
        } catch {
            Log.error("screenshot to \(path) failed: \(error)")
        }
    }
}
