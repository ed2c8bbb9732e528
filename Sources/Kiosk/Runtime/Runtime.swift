import DRMOutput
import Glibc
import Geometry
import InputSources
import KioskConfiguration
import KioskSystem
import LayoutCore
import Raster

/// Where the runtime offers the control API.
public enum ControlBus: Equatable, Sendable {
    case none
    case system
    /// A bus at this address (`unix:path=...`): tests run their own daemon.
    case address(String)
}

/// One runtime drives the kiosk app (`FrameSource`) on one `Output`, from one epoll loop on one
/// thread (config loads alone run on the `ConfigLoadWorker`'s thread and come back through the
/// loop). Single-purpose owners do the work: `FrameScheduler` (frames and presentation),
/// `InputPipeline` (devices to menu input), `ChildProcesses` (programs and exec handover),
/// `ConfigService` (watching and loading the config file; absent for built-in configs),
/// `PanelPower`, `ReportFiles` (status and metrics), `SystemdService` (notifications, watchdog),
/// `InputStart`; screenshots are taken here. When nothing moves, the process sleeps.
public final class Runtime {
    public struct Options: Sendable {
        /// Stop by itself after this many frames reached the screen (tests).
        public var exitAfterShownFrames: Int?
        /// Read the devices of this libinput seat (and evdev dials); nil: no device input.
        public var seat: String?
        /// Run the items that give the device away (`exec`, `poweroff`, `reboot`); false (a
        /// desktop preview): they are not run and the banner says what would have run.
        public var runsHandoverActions: Bool
        /// Write the status here instead of the config's `status_file` (a desktop preview, where
        /// the device's folder is usually not writable); nil: the config's.
        public var statusFile: String?
        /// Where `[power]`'s backlight devices are looked for (tests: a sysfs-shaped folder).
        public var backlightClassDirectory: String
        public var backlightFiles: BacklightFiles
        /// Where the control API is offered (when `[control] dbus` is on); none: not at all.
        public var controlBus: ControlBus
        /// The time the pass, the panel's power and the control API go by (tests: a clock they
        /// move by hand, so that a starved run cannot reach an idle time early).
        public var clock: @Sendable () -> Double
        /// Folders the programs the menu launches may not change (`kiosk run`: the PIN lockout's
        /// state folder and the config's); the folders of the status, metrics and screenshot
        /// files are kept from them too (`ChildProcesses.keepOut`).
        public var keptFromChildren: [String]
        /// Files the programs the menu launches may not read (`kiosk run`: the config, for its
        /// PIN hash, and the PIN lockout's state folder); `[mqtt]`'s credentials and key files
        /// are hidden from them too.
        public var hiddenFromChildren: [String]
        /// Where a Kiosk disk image's versions are read from (tests: a folder shaped like one);
        /// nil: not read at all.
        public var imageDisk: ImageDisk?
        public init(exitAfterShownFrames: Int? = nil, seat: String? = nil, runsHandoverActions: Bool = true, statusFile: String? = nil,
                    backlightClassDirectory: String = Backlight.classDirectory, backlightFiles: BacklightFiles = .system,
                    controlBus: ControlBus = .none, clock: @escaping @Sendable () -> Double = MonotonicClock.now,
                    keptFromChildren: [String] = [], hiddenFromChildren: [String] = [], imageDisk: ImageDisk? = ImageDisk()) {
            self.imageDisk = imageDisk
            self.controlBus = controlBus
            self.keptFromChildren = keptFromChildren
            self.hiddenFromChildren = hiddenFromChildren
            self.clock = clock
            self.exitAfterShownFrames = exitAfterShownFrames
            self.seat = seat
            self.runsHandoverActions = runsHandoverActions
            self.statusFile = statusFile
            self.backlightClassDirectory = backlightClassDirectory
            self.backlightFiles = backlightFiles
        }
    }

    public let app: KioskApp
    public let output: Output
    let options: Options
    let loop: EventLoop
    let signals: SignalSource
    let frames: FrameScheduler
    let input: InputPipeline
    let children = ChildProcesses()
    /// Reads the live values of the screen shown and runs toggles' switches.
    let probes: ValueProbes
    /// Encodes SIGUSR1 screenshots off the loop.
    let screenshots = ScreenshotWriter()
    /// When a SIGUSR1 screenshot was put off until the icons being rendered arrive (`screenshot`).
    private var screenshotPutOffAt: Double?
    /// Readable when an icon rendered off the loop arrived (`KioskApp.iconArrivals`).
    private let iconArrivals: WakeSource
    /// `[speech]`: says what the app asks on a thread of its own.
    let speech = SpeechOutput()
    let config: ConfigService?
    let service: SystemdService
    /// `[power]`: dimming and blanking the panel.
    let power: PanelPower
    /// The door for software on the device (`KioskControl`); transports (D-Bus) use it.
    public let control: KioskControl
    /// The control API on the system bus (or a test's); nil when the runtime offers none.
    private var dbus: DBusLink?
    private let reports: ReportFiles
    /// A Kiosk disk image's versions, for the status and the metrics.
    private let image: ImageWatch
    /// `[mqtt]`: the broker link, discovery, state out and commands in.
    let mqtt: MQTTService
    /// How the `[mqtt]` broker link stands; nil without one.
    public var mqttHealth: MQTTHealth? { mqtt.health }
    /// `[mqtt]`'s commands, carried out through `control`.
    private var mqttCommands: MQTTCommandHandler?
    private let inputStart: InputStart
    /// Wakes the loop for the next moment something changes by itself (a pass is due).
    private let deadlineTimer: TimerSource
    /// The config's part the runtime's owners use (input, power, files), as last applied.
    private var settings: RuntimeSettings

    /// TERM/INT stop, HUP reloads, USR1 takes a screenshot, USR2 is the VT's switch signal, CHLD reaps.
    public static var handledSignals: [Int32] {
        [SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2, SIGCHLD]
    }

    /// `signals` must be made first of all, so that a signal during start-up is queued, not fatal.
    public convenience init(app: KioskApp, output: Output, signals: SignalSource, config: ConfigService?,
                            options: Options, startup: StartupTimeline) throws {
        try self.init(app: app, output: output, signals: signals, config: config, options: options,
                      startup: startup, service: try SystemdService())
    }

    /// `service`: made before start-up's slow part (`launch`), so that its watchdog stretch covers it.
    init(app: KioskApp, output: Output, signals: SignalSource, config: ConfigService?,
         options: Options, startup: StartupTimeline, service: SystemdService) throws {
        self.app = app
        self.output = output
        self.signals = signals
        self.config = config
        self.options = options
        loop = try EventLoop()
        frames = try FrameScheduler(source: app, output: output)
        deadlineTimer = try TimerSource()
        iconArrivals = try WakeSource()
        self.service = service
        inputStart = try InputStart(timeline: startup)
        reports = ReportFiles(statusOverride: options.statusFile)
        image = ImageWatch(disk: options.imageDisk)
        mqtt = MQTTService(loop: loop)
        settings = app.runtimeSettings
        probes = ValueProbes(children: children, values: app.values, loop: loop)
        input = InputPipeline(settings: settings.input) { [unowned output] in output.panel }
        power = PanelPower(settings: settings.power, output: output, activity: app.activity, now: options.clock()) { [options] choice in
            Backlight.open(choice, classDirectory: options.backlightClassDirectory, files: options.backlightFiles)
        }
        control = KioskControl(app: app, power: power, clock: options.clock)
        if let disk = options.imageDisk {
            let updates = ImageUpdateRequests(disk: disk) { [image] in image.status }
            control.updates = updates
            image.askWhatIsOffered = { [unowned updates] url in updates.askWhatIsOffered(at: url) }
        }
    }

    /// Runs until SIGTERM/SIGINT (or `exitAfterShownFrames`); puts the display back on the way out.
    public func run() throws -> Int32 {
        defer {
            children.endAll()
            power.restore()
            output.restore()
        }
        try start()
        try loop.run()
        service.notify("STOPPING=1")
        reports.flushMetrics {
            var last = metrics
            last.up = false
            return last
        }
        for line in frames.latencySummary { Log.info(line) }
        Log.info("frame stats presented=\(frames.presented) \(output.statistics)")
        return 0
    }

    /// Registers every source with the loop and makes the first pass (the first frame);
    /// `run()` does this, tests and embedders that turn the loop themselves call it once.
    public func start() throws {
        try output.attach(to: loop, delegate: frames)
        try loop.watch(frames.wake.descriptor.rawValue) { [unowned self] in
            self.frames.passStarted()
            self.pass()
        }
        frames.onShown = { [unowned self] count in self.frameShown(count) }
        probes.changed = { [unowned self] in self.frames.requestPass() }
        control.changed = { [unowned self] in self.frames.requestPass() }
        control.settle = { [unowned self] now in self.settle(now: now) }
        control.updates?.displayHandedOver = { [unowned self] in self.children.hasDisplayOwner }
        control.updates?.requested = { [unowned self] in
            self.image.readSoon()
            self.frames.requestPass()
        }
        let commands = MQTTCommandHandler(control: control)
        mqttCommands = commands
        mqtt.commands = { [unowned self] message, topics in
            if let refusal = commands.handle(message, topics: topics) {
                self.mqtt.publishError(refusal)
            } else {
                // From the moment the link thread read it to the flip that shows it.
                self.frames.noteInput(time: message.arrived, kind: "mqtt")
            }
        }
        _ = control.subscribe { [unowned self] event in
            switch event {
            case .itemActivated(let id, let label):
                self.mqtt.publishEvent(StatusValue.object([("id", id.map { .string($0) } ?? .null), ("label", .string(label))]).json)
            case .toggleRequested(let id, let on):
                self.mqtt.publishToggleRequest(StatusValue.object([("id", .string(id)), ("on", .bool(on))]).json)
            default: break
            }
        }
        try probes.attach()
        probes.switchEnded = { [unowned self] id, label, failure in
            self.app.toggleSwitched(id, label: label, failure: failure, now: self.options.clock())
        }
        input.deliver = { [unowned self] inputs, event in self.received(inputs, from: event) }
        input.devicesChanged = { [unowned self] in self.frames.requestPass() }
        input.panelIsOff = { [unowned self] in self.power.isOff }
        input.activity = { [unowned self] event, _ in self.inputActivity(event) }
        try loop.watch(signals.descriptor.rawValue) { [unowned self] in self.signalsArrived() }
        keepChildrenOut()
        app.iconArrivals = iconArrivals
        try loop.watch(iconArrivals.descriptor.rawValue) { [unowned self] in
            self.iconArrivals.acknowledge()
            self.app.iconsArrived()
            self.frames.requestPass()
        }
        try loop.watch(deadlineTimer.descriptor.rawValue) { [unowned self] in
            self.deadlineTimer.acknowledge()
            self.pass()
        }
        try service.attach(to: loop)
        speech.attach(to: loop)
        speech.changed = { [unowned self] in self.updateStatus() }
        speech.configure(settings.speech)
        mqtt.healthChanged = { [unowned self] in self.frames.requestPass() }
        if options.seat != nil {
            try inputStart.attach(to: loop) { [unowned self] in
                if !self.input.isStarted {
                    Log.info("no frame on screen after \(Int(InputStart.deadline)) s; opening input anyway")
                    self.startInput()
                }
            }
        }
        if let config {
            config.loading = { [unowned self] in self.service.reloading() }
            config.apply = { [unowned self] loaded, reason in self.apply(loaded, reason: reason) }
            config.outputSize = { [unowned self] in (self.app.width, self.app.height) }
            try config.attach(to: loop)
        }
        startControlAPI()
        inputStart.mark("loop setup")
        pass()
        inputStart.mark("first frame drawn")
    }

    /// Events from a source the runtime does not open itself (a desktop window's mouse and keys).
    public func deliver(_ event: RawInputEvent) { input.route(event) }

    /// Waits at most `timeout` seconds for events and handles them (after `start()`).
    public func runOnce(timeout: Double?) throws { try loop.runOnce(timeout: timeout) }

    /// The loop, for an output or device that brings descriptors of its own (a desktop window).
    public var eventLoop: EventLoop { loop }

    // MARK: The pass: state moves on, effects are carried out, then a frame is drawn

    /// The pass's first step: the app moves on to `now` (animations, timers, relocks, the
    /// return home) and what that asks for is carried out. Input and control requests take this
    /// step too before they act (`inputActivity`, `KioskControl.settle`), so each acts on the
    /// state of its moment, never on one the next pass would already have changed.
    private func settle(now: Double) {
        for effect in app.advance(now: now) {
            switch effect {
            case .run(let action): perform(action, now: now)
            case .screenChanged: input.screenChanged()
            case .settingsChanged(let new): configure(new, now: now)
            case .switchToggle(let id, let command, let label): probes.startSwitch(id, command: command, label: label, now: now)
            case .speak(let text): speech.say(text)
            case .silence: speech.silence()
            case .event(let event): control.publish(event)
            }
        }
    }

    private func pass() {
        let now = options.clock()
        if options.seat != nil, !input.isStarted, frames.shown > 0 { inputStart.openedAfterFirstFrame(startInput) }
        frames.followOutputSize()
        settle(now: now)
        // Not while a program has the display or the panel is off: nobody sees the values then.
        let valuesPaused = children.hasDisplayOwner || power.isOff
        let revision = app.values.revision
        dbus?.advance(now: now)
        probes.advance(now: now, shownIDs: app.shownValueIDs, panelOff: valuesPaused)
        if app.values.revision != revision { app.presentValues(now: now) }
        // The status says the new power state at the end of this pass.
        if !children.hasDisplayOwner { power.advance(now: now) }
        // Not while a program has the display, even if the display came back meanwhile (a
        // hotplug while it runs): the output is not handed over in every state.
        if !children.hasDisplayOwner { frames.drawIfDue() }
        // After the frame: the first read of the disk image's state never delays the first menu.
        let update = image.status?.update
        if image.advance(now: now, offer: app.config.control.updateSource), let next = image.status?.update, next != update {
            control.publish(.updateChanged(next))
        }
        mqtt.update(config: app.config, generation: app.generation) { mqttState(now: now) }
        reports.updateMetrics(path: settings.metricsFile, now: now) { metrics }
        // A screenshot put off for icons is taken when its wait is over, frame or no frame.
        if let since = screenshotPutOffAt, now - since > Self.screenshotIconWait { screenshot() }
        let screenshotDue = screenshotPutOffAt.map { $0 + Self.screenshotIconWait + 0.01 }
        let dues = [app.nextDeadline, reports.nextWrite, power.nextDeadline, probes.nextDeadline(panelOff: valuesPaused), dbus?.nextDeadline,
                    screenshotDue, image.nextDeadline]
        if let due = dues.compactMap({ $0 }).min() {
            deadlineTimer.arm(after: due - now)
        } else {
            deadlineTimer.disarm()
        }
        updateStatus()
    }

    /// Any touch, turn or key, before it reaches the menu: the panel brightens, or wakes (and the
    /// event is swallowed by the input pipeline).
    private func inputActivity(_ event: RawInputEvent) {
        let now = options.clock()
        // What was due before this input happens first (a relock after `relock_after` idle): the
        // input must not count as the activity that would have prevented it.
        settle(now: now)
        app.activity.note(at: now)
        switch power.input(kind: event.kind) {
        case .pass:
            return
        case .brighten:
            break
        case .wake:
            frames.noteWake(time: event.time)
        }
        frames.requestPass()
    }

    /// Input that meant something to the menu (none arrives while an `exec` program has the
    /// input: the pipeline is suspended then).
    private func received(_ inputs: [MenuInput], from event: RawInputEvent) {
        let now = options.clock()
        for i in inputs { app.handle(i, now: now) }
        frames.noteInput(time: event.time, kind: event.kind)
        frames.requestPass()
    }

    private func frameShown(_ count: Int) {
        if count == 1 {
            inputStart.mark("flip")
            Log.info("menu on screen")
            service.ready(status: showingStatus)
            // Input is opened by the pass this asks for, not inside the flip's callback.
            if options.seat != nil { frames.requestPass() }
        }
        if let limit = options.exitAfterShownFrames, count >= limit { loop.stop() }
        // A screenshot put off: this frame may be the one it waits for (it puts itself off
        // again if not, its wait still counted from the request).
        if screenshotPutOffAt != nil { screenshot() }
    }

    /// Longest a screenshot waits for icons being rendered; past it, it shows the screen as it is.
    static let screenshotIconWait = 10.0

    private func startInput() {
        guard let seat = options.seat else { return }
        input.start(seat: seat, calibration: settings.input.calibration, loop: loop)
    }

    // MARK: Effects

    private func perform(_ effect: ActionRequest, now: Double) {
        if !options.runsHandoverActions, effect.handsOverDevice, let command = ChildProcesses.command(for: effect) {
            let result = "would run \(command.argv.joined(separator: " "))"
            Log.info("\"\(effect.label)\": \(result) (not run: actions that give the device away are off)")
            app.effectFinished(effect, result: result, failed: true, now: now)
            return
        }
        switch effect {
        case .reload:
            if let config { config.reload(reason: "menu item") } else { Log.info("reload: this menu is built in; nothing to read") }
        case .exec:
            handDisplayOver()
            do {
                let pid = try children.start(effect)
                Log.info("\"\(effect.label)\" has the display (pid \(pid))")
                service.notify("STATUS=Running \(effect.label)")
            } catch {
                Log.error("\"\(effect.label)\": \(error)")
                takeDisplayBack(now: now)
                app.effectFinished(effect, result: "failed to start: \(error)", failed: true, now: now)
            }
        case .spawn, .poweroff, .reboot:
            // The power items are tracked like a spawned program: when logind refuses (no polkit
            // rule for the kiosk's user), systemctl fails and the banner says so.
            do {
                let pid = try children.start(effect)
                if case .spawn = effect {
                    Log.info("started \"\(effect.label)\" in the background (pid \(pid))")
                } else {
                    Log.info("asked systemd to \(effect.kind) (systemctl pid \(pid))")
                }
            } catch {
                Log.error("\"\(effect.label)\": \(error)")
                app.effectFinished(effect, result: "failed to start: \(error)", failed: true, now: now)
            }
        }
    }

    /// Before an `exec` program starts: the panel lit as it was at start, no more drawing, DRM
    /// master dropped, input no longer read.
    private func handDisplayOver() {
        power.handOver()
        output.handOver()
        input.suspend()
    }

    /// The `exec` program ended or could not start: input read again, the display ours again
    /// (a whole frame is asked for), and its user back at the menu: idle time starts now.
    private func takeDisplayBack(now: Double) {
        input.resume()
        output.takeBack()
        power.takeBack()
        app.activity.note(at: now)
    }

    /// systemd's status line while the menu is up. The image's boot check
    /// (packaging/image/files-kiosk/usr/libexec/kiosk-image/boot-check) does not bless a boot
    /// whose line ends with " (the config has errors)": the rescue screen, or a refused config.
    private var showingStatus: String {
        "Showing \(app.currentScreen.config.name)" + (app.configValid ? "" : " (the config has errors)")
    }

    private func childrenEnded() {
        let now = options.clock()
        for (effect, pid, result, failed) in children.reap() {
            if case .exec = effect {
                Log.info("\"\(effect.label)\" \(result); taking the display back")
                takeDisplayBack(now: now)
                service.notify("STATUS=\(showingStatus)")
            } else if failed {
                Log.error("\"\(effect.label)\" (pid \(pid)) \(result)")
            } else {
                Log.info("\"\(effect.label)\" (pid \(pid)) \(result)")
            }
            app.effectFinished(effect, result: result, failed: failed, now: now)
        }
        probes.reaped(now: now)
        frames.requestPass()
    }

    // MARK: Config, status, signals

    private func apply(_ loaded: LoadedConfig, reason: String) {
        let check = loaded.check
        if app.apply(check, assets: loaded.assets, now: options.clock()) {
            Log.info("config reloaded (\(reason))")
        } else {
            for p in check.problems { Log.problem(p) }
            Log.error("config not applied (\(reason)); keeping the last good one")
        }
        service.ready(status: showingStatus)
        frames.requestPass()
        // The old screens, fonts and icons are gone.
        FreedMemory.returnToSystem()
    }

    /// A config was applied: input and panel power take their part (the files follow at the pass's end).
    private func configure(_ new: RuntimeSettings, now: Double) {
        settings = new
        keepChildrenOut()
        input.configure(new.input)
        power.configure(new.power, now: now)
        speech.configure(new.speech)
        // `[control] dbus` turned on or off by a reload.
        dbus?.enable(app.config.control.dbus, now: now)
    }

    /// The kiosk's own folders, which no program it launches may change, and its secrets, which
    /// none may read.
    private func keepChildrenOut() {
        let files = [options.statusFile ?? settings.statusFile, settings.metricsFile, settings.screenshotFile].compactMap { $0 }
        let secrets = [app.config.mqtt?.credentialsFile, app.config.mqtt?.keyFile].compactMap { $0 }
        children.keepOut(of: options.keptFromChildren + files.map(LaunchConfinement.folder(of:)),
                         hiding: options.hiddenFromChildren + secrets)
    }

    /// The metrics as their owners have them now.
    private var metrics: KioskMetrics {
        var m = KioskMetrics(startTime: reports.startTime, configGeneration: app.generation, configValid: app.configValid,
                             screen: app.currentScreen.config.name, displayConnected: output.isConnected)
        m.reloadsApplied = app.reloadsApplied
        m.reloadsRefused = app.reloadsRefused
        m.inputDevices = input.deviceKinds
        m.actions = app.actionCounts
        m.framesPresented = frames.presented
        m.frameDrawTime = frames.drawTime
        m.displayPower = power.state
        m.displayWakes = power.wakes
        m.speech = speech.status.map { .init(ready: $0.health.state == "ready", spoken: $0.health.spoken, cut: $0.health.cut) }
        m.values = Dictionary(uniqueKeysWithValues: app.values.health(now: options.clock()).map { ($0.id, $0.state) })
        m.image = image.status
        m.controlAPI = dbus.map { KioskMetrics.ControlAPICounts(state: $0.state, connects: $0.connects) }
        m.mqtt = mqtt.health.map { health in
            var h = health
            h.refused = mqttCommands?.refusals ?? 0
            return h
        }
        return m
    }

    /// The status as its owners have it now, written when it changed (every change passes
    /// through a pass, which ends here).
    private func updateStatus() {
        reports.updateStatus(path: settings.statusFile, KioskStatus(
            pid: Int(getpid()),
            config: app.configStatus(path: config?.path),
            display: DisplayStatus(name: output.name, connected: output.isConnected, power: power.state),
            menu: app.menuStatus, lock: app.lockStatus,
            running: children.displayOwner?.effect.label,
            values: app.values.health(now: options.clock()), speech: speech.status,
            controlAPI: controlAPI, mqtt: mqtt.health, image: image.status))
    }

    // MARK: Control API

    /// How the D-Bus API stands (the status file's `control_api`).
    public var controlAPI: ControlAPIState { dbus?.state ?? .off }

    /// Connections to the bus whose name was granted (the metrics' `kiosk_control_api_connects_total`).
    var controlAPIConnects: Int { dbus?.connects ?? 0 }
    /// Offers the D-Bus API where the options say, when the config asks for it; a kiosk that
    /// cannot connect runs on without it, says why (once in the log, and in the status) and
    /// connects again later (`DBusLink`).
    private func startControlAPI() {
        let address: String?
        switch options.controlBus {
        case .none: return
        case .system: address = nil
        case .address(let a): address = a
        }
        let link = DBusLink(control: control, address: address, loop: loop)
        // The status says the new state at the end of the pass this asks for.
        link.changed = { [unowned self] in self.frames.requestPass() }
        // From the moment the loop took the call off the bus to the flip that shows it.
        link.handled = { [unowned self] at in self.frames.noteInput(time: at, kind: "dbus") }
        dbus = link
        if app.config.control.dbus {
            link.enable(true, now: options.clock())
        } else {
            Log.info("control API (D-Bus) off: [control] dbus = false")
        }
    }
            
    /// What `[mqtt]` publishes retained, as the owners have it now.
    private func mqttState(now: Double) -> MQTTPublishedState {
        let menu = app.menuStatus
        let values = app.values
        var state = MQTTPublishedState(screen: menu.screen ?? app.currentScreen.config.name, selection: menu.selectedLabel, displayPower: power.state)
        if app.config.control.updateSource != nil { state.update = image.status?.homeAssistantUpdate }
        for id in values.ids {
            if values.toggle(id) != nil {
                if let on = values.isOn(id) { state.toggles[id] = on }
            } else if let text = values.shownText(id, now: now) {
                state.values[id] = text
            }
        }
        return state
    }

    private func signalsArrived() {
        for s in signals.drain() {
            switch s {
            case SIGTERM, SIGINT:
                Log.info("signal \(s): restoring the display and exiting")
                loop.stop()
            case SIGHUP:
                if let config { config.reload(reason: "SIGHUP") }
            case SIGCHLD:
                childrenEnded()
            case SIGUSR1:
                screenshot()
            default:
                _ = output.handle(signal: s)
            }
        }
    }

    /// Writes what is on screen, and beside it (`.txt`) the scroll position, rotation and size of
    /// that frame, so that a headless render can reproduce it exactly. The pixels are copied
    /// here; the PNG is encoded on a thread of its own (`ScreenshotWriter`).
    private func screenshot() {
        let path = settings.screenshotFile
        // Before the first frame the panel holds no picture of the menu: a file would be black.
        guard frames.presented > 0 else {
            Log.warning("screenshot to \(path) not taken: no frame yet")
            return
        }
        // A screenshot shows the screen whole: the first frame, drawn but not on screen yet (a
        // SIGUSR1 right at start), and icons still being rendered off the loop are waited for
        // (the frame that shows the last of them takes it, `frameShown`; past the wait, the pass
        // whose deadline it armed).
        if frames.shown == 0 || frames.screenLacksIcons {
            let now = options.clock()
            if screenshotPutOffAt == nil {
                screenshotPutOffAt = now
                Log.info("screenshot to \(path) put off until " + (frames.shown == 0 ? "the first frame is on screen"
                    : "\(app.iconRendersPending) icon(s) being rendered are drawn"))
            }
            if let since = screenshotPutOffAt, now - since <= Self.screenshotIconWait {
                frames.requestPass()
                return
            }
        }
        screenshotPutOffAt = nil
        let image: PixelBuffer
        do {
            image = try output.screenshot()
        } catch {
            Log.error("screenshot to \(path) failed: \(error)")
            return
        }
        let shown = frames.shownPosition
        let panel = output.panel
        let sidecar = "offset=\(shown.whole)+\(shown.fraction)\nrotation=\(panel.rotation.degrees)\nsize=\(panel.logicalWidth)x\(panel.logicalHeight)\n"
        let offset = "\(shown)"
        let started = screenshots.write(image, to: path, sidecar: sidecar) { result in
            switch result {
            case .success: Log.info("screenshot written to \(path) (offset \(offset))")
            case .failure(let error): Log.error("screenshot to \(path) failed: \(error)")
            }
        }
        if !started { Log.warning("screenshot to \(path) not taken: the previous one is still being written") }
    }
}
