import DRMOutput
import Glibc
import Geometry
import KioskConfiguration
import KioskSystem
import MenuScreens
import LayoutCore
import Raster

/// `kiosk run`: the config from a file, on the display, with live reload.
public struct KioskRunOptions: Sendable {
    public var configPath: String
    /// The virtual terminal to control for console switching (for example /dev/tty1); nil: none.
    public var terminal: String?
    /// Where the PIN lockout is kept across restarts (`PinLockStore.directory(option:environment:)`).
    public var stateDirectory: String
    /// How long to wait at start for a display that is not there yet (its driver still loading).
    public var displayPatience: Double
    /// `displayPatience` unless told otherwise (`kiosk run --display-wait`).
    public static let defaultDisplayPatience = 20.0
    public init(configPath: String, terminal: String? = nil, stateDirectory: String = PinLockStore.defaultDirectory,
                displayPatience: Double = defaultDisplayPatience) {
        self.configPath = configPath
        self.terminal = terminal
        self.stateDirectory = stateDirectory
        self.displayPatience = displayPatience
    }
}

extension Runtime {
    /// Everything `kiosk run` needs, made in the order that gets the menu on screen soonest.
    public static func kiosk(_ options: KioskRunOptions) throws -> Runtime {
        try launch(configPath: options.configPath, lockStore: PinLockStore(directory: options.stateDirectory)) { config in
            try DisplaySession(request: config.display.request, rotation: config.display.rotation, terminalPath: options.terminal,
                               patience: options.displayPatience, stop: { SignalSource.isPending([SIGTERM, SIGINT]) })
        } options: { config in
            Options(seat: config.input.seat, controlBus: .system,
                    keptFromChildren: [options.stateDirectory, LaunchConfinement.folder(of: options.configPath)],
                    hiddenFromChildren: [options.configPath, options.stateDirectory])
        }
    }

    /// The start-up `kiosk run` and `kiosk-preview` share: signals, the config (or the rescue
    /// screen), the output `open` makes for it, the layout, the runtime. `adjust` may change a
    /// usable config before anything is laid out (the preview's start screen); the rescue
    /// config is never adjusted. `lockStore` keeps the PIN lockout across restarts (nil: memory only,
    /// as a desktop preview has it).
    public static func launch(configPath: String, lockStore: PinLockStore? = nil,
                              adjust: (inout KioskConfig) throws -> Void = { _ in },
                              output open: (KioskConfig) throws -> Output,
                              options: (KioskConfig) -> Options) throws -> Runtime {
        // First of all: a signal that arrives during start-up must be queued, not kill us.
        let signals = try SignalSource(handledSignals)
        let systemd = try SystemdService()
        FreedMemory.pinAllocatorSettings()
        var startup = StartupTimeline()
        let service = try ConfigService(path: configPath)
        // Start-up loads in place: there is nothing on screen to keep answering yet.
        let loaded = service.loadNow()
        let check = loaded.check
        startup.mark("config")
        var config: KioskConfig
        if var good = check.config {
            for p in check.problems { Log.problem(p) }
            try adjust(&good)
            config = good
        } else {
            // Never a blank screen and never a restart loop: show what is wrong.
            for p in check.problems { Log.problem(p) }
            Log.error("\(configPath) is not usable; showing the rescue screen until it is fixed")
            config = KioskConfig.rescue(problems: check.problems)
            // Where `kiosk status` and a fleet look: the file the broken config names, if it can be read.
            config.statusFile = ConfigReader.statusFile(ofConfigAt: configPath)
        }
        let output = try open(config)
        startup.mark("display")
        // The icons are rendered here, as a reload's worker renders them, so that no frame of the
        // loop does: the splash is still up, and the loop has not started.
        if check.isValid, let assets = loaded.assets {
            IconWarmUp.run(config, assets: assets, width: output.logicalWidth, height: output.logicalHeight)
            startup.mark("icons")
        }
        let app = try KioskApp(config: config, assets: check.isValid ? loaded.assets : nil, valid: check.isValid, problems: check.problems,
                               source: check.isValid ? check.source : nil, lockStore: lockStore,
                               width: output.logicalWidth, height: output.logicalHeight, now: MonotonicClock.now())
        startup.mark("layout")
        return try Runtime(app: app, output: output, signals: signals, config: service,
                           options: options(config), startup: startup, service: systemd)
    }
}

/// What a preview draws: a screen in a state the device can be in (`kiosk render`'s options).
public struct PreviewState {
    /// The screen; another than home is drawn opened above it (its back button shown).
    public var screen: String
    /// Live values and toggle states to show, by item id, as a reading would give them (a
    /// toggle's `on`/`off`, `1`/`0`).
    public var values: [(id: String, text: String)]
    /// Ids drawn as stale (their reading failed).
    public var stale: [String]
    /// The item (or keypad key) selected; nil: the screen's first.
    public var selection: Int?
    /// The keypad the screen's PIN puts up, instead of the screen.
    public var keypad: Bool

    public init(screen: String, values: [(id: String, text: String)] = [], stale: [String] = [], selection: Int? = nil, keypad: Bool = false) {
        self.screen = screen
        self.values = values
        self.stale = stale
        self.selection = selection
        self.keypad = keypad
    }
}

/// Draws `state` of `config` as a panel of `width` x `height` turned by `rotation` shows it, at
/// rest, through the app the device runs: writes the PNG to `path` (nil: none) and returns what
/// that same drawing reported (`kiosk render --layout`, `check-config --size`), in the unrotated
/// screen. `assets`: the config's font and images when a load already decoded them.
@discardableResult
public func renderPreview(_ config: KioskConfig, _ state: PreviewState, width: Int, height: Int, rotation: DisplayRotation,
                          assets: LoadedAssets? = nil, to path: String?) throws -> LayoutReport {
    var report: LayoutReport?
    try renderHeadless(config, width: width, height: height, rotation: rotation, assets: assets, to: path) { app throws in
        for (id, text) in state.values {
            if app.values.toggle(id) != nil {
                guard case .success(let on) = ValueReading.toggleState(Array(text.utf8)) else {
                    throw LiveValueError.reading(id, "a toggle's state is on or off, not \"\(text)\"")
                }
                try app.values.setToggle(id, on: on, now: 0)
            } else {
                try app.values.set(id, text: text, now: 0)
            }
        }
        for id in state.stale {
            guard app.values.source(id) != nil || app.values.toggle(id) != nil else { throw LiveValueError.unknownID(id) }
            app.values.failed(id, why: "shown stale by request", now: 0)
        }
        let made = LayoutReport(screen: state.screen, width: app.width, height: app.height)
        try app.preview(screen: state.screen, keypad: state.keypad, selection: state.selection, reportingTo: made)
        app.presentValues(now: 0)
        report = made
    }
    return report!
}

/// Screen `name` of `config` with `values` and `stale`, as `renderPreview` draws it, to the PNG at `path`.
public func renderScreen(_ config: KioskConfig, name: String, width: Int, height: Int, rotation: DisplayRotation,
                         assets: LoadedAssets? = nil, values: [(id: String, text: String)] = [], stale: [String] = [],
                         to path: String) throws {
    try renderPreview(config, PreviewState(screen: name, values: values, stale: stale), width: width, height: height, rotation: rotation,
                      assets: assets, to: path)
}

/// One frame of `config`'s home screen at rest through a headless output, written as a PNG to
/// `path` (nil: drawn only). `prepare` may move the app first (a scroll position, another screen).
/// Nothing advances: a screen is drawn as it stands, and no time passes that could report or
/// change anything.
func renderHeadless(_ config: KioskConfig, width: Int, height: Int, rotation: DisplayRotation, assets: LoadedAssets? = nil, to path: String?,
                    prepare: (KioskApp) throws -> Void = { _ in }) throws {
    let output = try HeadlessOutput(panelWidth: width, panelHeight: height, rotation: rotation)
    let app = try KioskApp(config: config, assets: assets, width: output.logicalWidth, height: output.logicalHeight, now: 0)
    try prepare(app)
    let frame = try PixelBuffer(width: output.logicalWidth, height: output.logicalHeight)
    output.present(frame, damage: app.draw(on: Canvas(frame), full: true))
    if let path { try output.writeScreenshot(to: path) }
}
