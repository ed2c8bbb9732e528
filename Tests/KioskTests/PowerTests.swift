@testable import DRMOutput
import Foundation
import Geometry
import Glibc
@testable import Kiosk
@testable import KioskConfiguration
@testable import KioskSystem
import LayoutCore
@testable import MenuScreens
import Raster
import TestSupport
import Testing

/// `[power]`: the config keys, the policy with hand-moved time, the input that wakes the panel
/// being swallowed, the backlight against a sysfs-shaped folder (and writes refused the way a
/// device refuses them), and the runtime on a headless panel.
@Suite(.serialized) struct PowerTests {
    // MARK: Config

    func check(_ power: String, scratch: ScratchDirectory) -> ConfigCheck {
        ConfigReader(path: scratch.write("k.toml", minimalConfig("[power]\n" + power + "\n")), displayName: "k.toml").check()
    }

    @Test func powerKeysDecode() throws {
        let scratch = ScratchDirectory()
        let none = try #require(ConfigReader(path: scratch.write("k.toml", minimalConfig())).check().config)
        #expect(none.power == PowerConfig())
        #expect(!none.power.isActive)
        let c = try #require(check("dim_after = 30\ndim_level = 0.25\nblank_after = 120.5\nbacklight = \"intel_backlight\"", scratch: scratch).config)
        #expect(c.power == PowerConfig(dimAfter: 30, dimLevel: 0.25, blankAfter: 120.5, backlight: .named("intel_backlight")))
        let zero = try #require(check("dim_after = 0\nblank_after = 0\nbacklight = \"none\"", scratch: scratch).config)
        #expect(zero.power == PowerConfig(dimAfter: nil, blankAfter: nil, backlight: .none), "0 means never")
        #expect(try #require(check("blank_after = 5\nbacklight = \"auto\"", scratch: scratch).config).power.backlight == .auto)
    }

    @Test func badPowerValuesNameTheKey() {
        let scratch = ScratchDirectory()
        func problems(_ text: String) -> [String] { check(text, scratch: scratch).problems.map(\.description) }
        #expect(problems("dim_after = \"soon\"") == [#"k.toml:8:13: power.dim_after: expected a number, got a string ("soon")"#])
        #expect(problems("blank_after = -1") == ["k.toml:8:15: power.blank_after: expected seconds >= 0 (0 means never), got -1.0"])
        #expect(problems("blank_after = 1e9") == ["k.toml:8:15: power.blank_after: 1000000000 is out of range 0...604800"])
        #expect(problems("dim_after = 10\ndim_level = 1.5") == ["k.toml:9:13: power.dim_level: 1.5 is out of range: expected more than 0 and at most 1"])
        #expect(problems("dim_after = 10\ndim_level = 0") == ["k.toml:9:13: power.dim_level: 0 is out of range: expected more than 0 and at most 1"])
        #expect(problems("dim_after = 60\nblank_after = 30")
                == ["k.toml:8:13: power.dim_after: 60 s is not before blank_after (30 s): the panel would be off before it dims"])
        #expect(problems("backlight = 3") == ["k.toml:8:13: power.backlight: expected a string, got an integer (3)"])
        #expect(problems("backlight = \"../../devices/x\"")
                == [#"k.toml:8:13: power.backlight: expected "auto", "none" or the name of a device in /sys/class/backlight ("intel_backlight"), got "../../devices/x""#])
        #expect(problems("blank_afer = 3") == [#"k.toml:8:1: power.blank_afer: unknown key (did you mean "blank_after"?)"#])
        #expect(problems("dim_after = 10\nbacklight = \"none\"") == [#"k.toml:8:13: power.dim_after: warning: dims nothing with backlight = "none""#])
        #expect(problems("[power.x]") .first?.contains("power.x") == true)
    }

    // MARK: Policy

    @Test func dimsThenBlanksThenInputWakes() {
        var p = PowerPolicy(PowerConfig(dimAfter: 10, blankAfter: 30))
        var last = 100.0
        #expect(p.nextDeadline(lastInput: last) == 110)
        #expect(p.advance(now: 109.9, lastInput: last) == nil)
        #expect(p.advance(now: 110, lastInput: last) == .dimmed)
        #expect(p.nextDeadline(lastInput: last) == 130)
        #expect(p.advance(now: 120, lastInput: last) == nil)
        last = 125
        #expect(p.input() == .brighten, "a dimmed panel is lit again and the input counts")
        #expect(p.state == .on && p.nextDeadline(lastInput: last) == 135)
        #expect(p.advance(now: 200, lastInput: last) == .off, "a late timer goes straight to off")
        #expect(p.nextDeadline(lastInput: last) == nil, "off: nothing is due without input")
        last = 300
        #expect(p.input() == .wake)
        #expect(p.input() == .pass, "only the first input wakes")
        #expect(p.advance(now: 309, lastInput: last) == nil)
    }

    @Test func blankWithoutDimAndReconfigure() {
        var p = PowerPolicy(PowerConfig(blankAfter: 5))
        #expect(p.nextDeadline(lastInput: 0) == 5)
        #expect(p.advance(now: 5, lastInput: 0) == .off)
        p.configure(PowerConfig(blankAfter: 50))
        #expect(p.advance(now: 6, lastInput: 0) == .on, "a longer blank_after lights the panel again until it is due")
        #expect(p.nextDeadline(lastInput: 0) == 50)
        p.configure(PowerConfig())
        #expect(p.nextDeadline(lastInput: 0) == nil && p.advance(now: 1000, lastInput: 0) == nil)
    }

    /// One "last input" for the panel and the menu: the tap that wakes the panel is swallowed
    /// (the menu never sees it), yet the menu's return home counts its idle time from it too.
    /// On a clock the test moves: under emulation the first frame alone can take longer than a
    /// short blank_after, and the panel must not blank before the select has opened its screen.
    @Test func theWakingTapRestartsTheMenusIdleTime() throws {
        let sys = SysfsBacklight(devices: [("panel", 255, 200)])
        let scratch = ScratchDirectory()
        let clock = ManualClock()
        let app = try Self.app("blank_after = 1", scratch: scratch, idleTimeout: 30, now: clock.now)
        let output = try HeadlessOutput(panelWidth: 320, panelHeight: 240, rotation: .none)
        let runtime = try Runtime(app: app, output: output, signals: try SignalSource(Runtime.handledSignals), config: nil,
                                  options: Runtime.Options(backlightClassDirectory: sys.classDirectory, clock: clock.read),
                                  startup: StartupTimeline())
        try runtime.start()
        try Self.turn(runtime) { output.presentedFrames > 0 }
        app.handle(.command(.select, count: 1), now: clock.now)  // "One" opens "two"
        clock.advance(by: 0.5)  // its press shown, then the screen open; half the blank_after
        try Self.turn(runtime) { app.screenNames == ["main", "two"] }
        #expect(output.panelOn)
        clock.advance(by: 0.6)
        try Self.turn(runtime) { !output.panelOn }
        #expect(app.screenNames == ["main", "two"])
        #expect(!output.panelOn)
        let idleDeadline = try #require(app.nextDeadline)
        clock.advance(by: 5)
        let wake = clock.now
        runtime.deliver(.key(code: KeyCode.enter, pressed: true, time: wake))
        runtime.deliver(.key(code: KeyCode.enter, pressed: false, time: wake + 0.05))
        try Self.turn(runtime) { output.panelOn }
        #expect(app.screenNames == ["main", "two"], "the waking key reached the menu")
        #expect(app.activity.lastInput == wake)
        #expect(try #require(app.nextDeadline) == wake + 30, "the menu's idle time did not restart at the wake")
        #expect(try #require(app.nextDeadline) > idleDeadline)
    }

    // MARK: Swallowing the waking input

    @Test func wakingTouchIsIgnoredUntilLift() {
        var f = WakeFilter()
        let at = Point(x: 0.5, y: 0.5)
        #expect(f.filter(.touchDown(slot: 0, fraction: at, time: 0), panelOff: true) == (true, true))
        #expect(f.filter(.touchMotion(slot: 0, fraction: at, time: 0.1), panelOff: false) == (true, false))
        // A second finger after the wake is a new contact.
        #expect(f.filter(.touchDown(slot: 1, fraction: at, time: 0.2), panelOff: false) == (false, false))
        #expect(f.filter(.touchUp(slot: 0, time: 0.3), panelOff: false) == (true, false))
        #expect(f.filter(.touchUp(slot: 1, time: 0.3), panelOff: false) == (false, false))
        #expect(f.filter(.touchDown(slot: 0, fraction: at, time: 1), panelOff: false) == (false, false), "the next contact counts")
        #expect(f.swallowedSlots.isEmpty)
    }

    @Test func wakingDetentAndKeyAreSwallowed() {
        var f = WakeFilter()
        #expect(f.filter(.dial(steps: 1, time: 0), panelOff: true) == (true, true))
        #expect(f.filter(.dial(steps: 1, time: 1), panelOff: false) == (false, false))
        // A high-resolution wheel: the waking detent is 120 units, whatever the events carry.
        #expect(f.filter(.wheel(v120: 30, time: 0), panelOff: true) == (true, true))
        #expect(f.filter(.wheel(v120: 30, time: 0.01), panelOff: false) == (true, false))
        #expect(f.filter(.wheel(v120: 60, time: 0.02), panelOff: false) == (true, false))
        #expect(f.filter(.wheel(v120: 30, time: 0.03), panelOff: false) == (false, false), "the next detent moves")
        #expect(f.filter(.wheel(v120: 120, time: 0), panelOff: true) == (true, true))
        #expect(f.filter(.wheel(v120: -120, time: 1), panelOff: false) == (false, false))
        #expect(f.filter(.key(code: 28, pressed: true, time: 0), panelOff: true) == (true, true))
        #expect(f.filter(.key(code: 28, pressed: false, time: 0.1), panelOff: false) == (true, false), "its release too")
        #expect(f.filter(.key(code: 28, pressed: true, time: 1), panelOff: false) == (false, false))
        #expect(f.filter(.key(code: 28, pressed: false, time: 1.1), panelOff: false) == (false, false))
    }

    // MARK: Backlight

    /// A folder shaped like /sys/class/backlight: DEVICE/{brightness,max_brightness}.
    final class SysfsBacklight {
        let scratch = ScratchDirectory()
        var classDirectory: String { scratch.path + "/class" }

        init(devices: [(String, Int, Int)]) {
            mkdir(classDirectory, 0o755)
            for (name, max, value) in devices {
                mkdir(classDirectory + "/" + name, 0o755)
                _ = FileManager.default.createFile(atPath: "\(classDirectory)/\(name)/max_brightness", contents: Data("\(max)\n".utf8))
                _ = FileManager.default.createFile(atPath: "\(classDirectory)/\(name)/brightness", contents: Data("\(value)\n".utf8))
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: classDirectory) }

        func brightness(_ name: String) -> String? {
            (try? String(contentsOfFile: "\(classDirectory)/\(name)/brightness", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// The real file operations, except that writes fail with `errno` while `refuse` says so.
    final class Refusing: @unchecked Sendable {
        var refuse: Int32?
        var files: BacklightFiles {
            BacklightFiles(read: BacklightFiles.system.read, write: { [self] (path: String, text: String) throws(SystemError) in
                if let e = self.refuse { throw SystemError("open \(path)", errno: e) }
                try BacklightFiles.system.write(path, text)
            }, list: BacklightFiles.system.list)
        }
    }

    @Test func autoTakesTheFirstDeviceAndRestoresItsBrightness() throws {
        let sys = SysfsBacklight(devices: [("b_panel", 255, 200), ("a_panel", 1000, 600)])
        let b = try #require(Backlight.open(.auto, classDirectory: sys.classDirectory))
        #expect(b.name == "a_panel" && b.maxBrightness == 1000 && b.normal == 600)
        #expect(b.set(.dimmed, dimLevel: 0.25))
        #expect(sys.brightness("a_panel") == "150")
        #expect(b.set(.off, dimLevel: 0.25))
        #expect(sys.brightness("a_panel") == "0")
        #expect(b.restore())
        #expect(sys.brightness("a_panel") == "600")
        #expect(sys.brightness("b_panel") == "200", "the other device is left alone")
        #expect(b.value(for: .dimmed, dimLevel: 0.0001) == 1, "dimmed is never dark")
    }

    @Test func missingDevicesAreNotFatal() throws {
        let sys = SysfsBacklight(devices: [])
        var said: [String] = []
        #expect(Backlight.open(.auto, classDirectory: sys.classDirectory, warn: { said.append($0) }, info: { said.append($0) }) == nil)
        #expect(Backlight.open(.named("gone"), classDirectory: sys.classDirectory, warn: { said.append($0) }) == nil)
        #expect(Backlight.open(.auto, classDirectory: sys.classDirectory + "/nonexistent", info: { said.append($0) }) == nil)
        #expect(said.count == 3)
        #expect(said[1].hasPrefix("backlight gone: open \(sys.classDirectory)/gone/max_brightness: No such file or directory"), "\(said[1])")
        #expect(Backlight.open(.none, classDirectory: sys.classDirectory) == nil)
    }

    @Test func aKioskRestartedWhileBlankedDoesNotKeepThePanelDark() throws {
        let sys = SysfsBacklight(devices: [("panel", 255, 0)])
        let b = try #require(Backlight.open(.auto, classDirectory: sys.classDirectory))
        #expect(b.normal == 255)
    }

    /// EACCES (no udev rule) and EROFS (the sandbox) from the write, and a device that vanishes:
    /// each logged once while it lasts, and the next success says so.
    @Test func refusedWritesAreLoggedOnce() throws {
        let sys = SysfsBacklight(devices: [("panel", 100, 80)])
        let refusing = Refusing()
        var warnings: [String] = []
        let b = try #require(Backlight.open(.auto, classDirectory: sys.classDirectory, files: refusing.files, warn: { warnings.append($0) }))
        refusing.refuse = EACCES
        #expect(!b.set(.dimmed, dimLevel: 0.5))
        #expect(!b.set(.off, dimLevel: 0.5))
        #expect(!b.set(.on, dimLevel: 0.5))
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("Permission denied (the udev rule") == true, "\(warnings)")
        #expect(sys.brightness("panel") == "80")
        refusing.refuse = nil
        #expect(b.set(.off, dimLevel: 0.5))
        #expect(sys.brightness("panel") == "0")
        refusing.refuse = EROFS
        #expect(!b.set(.on, dimLevel: 0.5))
        #expect(!b.set(.dimmed, dimLevel: 0.5))
        #expect(warnings.count == 2)
        #expect(warnings.last?.contains("Read-only file system (the service's sandbox") == true, "\(warnings)")
        // The device goes away for real.
        refusing.refuse = nil
        try FileManager.default.removeItem(atPath: sys.classDirectory + "/panel")
        #expect(!b.set(.on, dimLevel: 0.5))
        #expect(!b.restore())
        #expect(warnings.count == 3)
        #expect(warnings.last?.contains("No such file or directory (the device went away)") == true, "\(warnings)")
    }

    // MARK: The runtime

    static func app(_ power: String, scratch: ScratchDirectory, idleTimeout: Int = 0,
                    now: Double = MonotonicClock.now()) throws -> KioskApp {
        let text = """
            status_file = "\(scratch.path)/status.json"
            idle_timeout = \(idleTimeout)
            home = "main"
            [power]
            \(power)

            [screens.main]
            style = "arc"

            [[screens.main.items]]
            label = "One"
            action = "screen"
            screen = "two"

            [[screens.main.items]]
            label = "Two"
            action = "back"

            [screens.two]
            style = "arc"

            [[screens.two.items]]
            label = "Back"
            action = "back"
            """
        let check = ConfigReader(path: scratch.write("kiosk.toml", text)).check()
        #expect(check.problems.isEmpty, "\(check.report)")
        return try KioskApp(config: try #require(check.config), width: 320, height: 240, now: now)
    }

    /// Runs the loop until `done`, for at most `Patience.seconds`.
    static func turn(_ runtime: Runtime, until done: () -> Bool) throws {
        let deadline = MonotonicClock.now() + Patience.seconds
        while !done(), MonotonicClock.now() < deadline { try runtime.runOnce(timeout: 0.02) }
    }

    static func status(_ scratch: ScratchDirectory) -> String {
        (try? String(contentsOfFile: scratch.path + "/status.json", encoding: .utf8)) ?? ""
    }

    /// Idle blanks the panel: backlight 0 and no frame taken, the status says so; a tap on an item
    /// wakes it without activating the item, and the first frame after it is the menu.
    /// The runtime runs on the wall clock: the idle times are long enough (1 s, then 1 s more) for
    /// the first frame to come before the dimming on a starved run (the aarch64 tests under
    /// qemu-user at idle priority took longer than the 0.2 s this test once gave them).
    @Test func runtimeBlanksAndATapWakesWithoutActivating() throws {
        let sys = SysfsBacklight(devices: [("panel", 255, 200)])
        let scratch = ScratchDirectory()
        let created = MonotonicClock.now()
        let app = try Self.app("dim_after = 1\ndim_level = 0.5\nblank_after = 2", scratch: scratch)
        let output = try HeadlessOutput(panelWidth: 320, panelHeight: 240, rotation: .none)
        let runtime = try Runtime(app: app, output: output, signals: try SignalSource(Runtime.handledSignals), config: nil,
                                  options: Runtime.Options(backlightClassDirectory: sys.classDirectory), startup: StartupTimeline())
        try runtime.start()
        try Self.turn(runtime) { output.presentedFrames > 0 }
        #expect(output.presentedFrames > 0, "no frame before the idle times")
        try Self.turn(runtime) { Self.status(scratch).contains("\"display_power\": \"dimmed\"") }
        // Dimmed: half the brightness, unless a starved run is already past the second idle time
        // (counted from no earlier than the app's making), where the panel may be off.
        let dimmed = sys.brightness("panel")
        let blankPossible = MonotonicClock.now() - created >= 2
        #expect(dimmed == "100" || (dimmed == "0" && blankPossible), "dimmed: brightness \(dimmed)")
        try Self.turn(runtime) { Self.status(scratch).contains("\"display_power\": \"off\"") }
        #expect(sys.brightness("panel") == "0")
        #expect(!output.panelOn)
        let framesWhenOff = output.presentedFrames
        let before = try PixelBuffer(width: 320, height: 240)
        try before.copyPixels(from: output.pixels)
        try runtime.runOnce(timeout: 0.2)
        #expect(output.presentedFrames == framesWhenOff, "a frame was drawn while the panel was off")

        // A tap on the selected item (the arc's apex, where "One" sits): it would open "two".
        let now = MonotonicClock.now()
        let arc = try #require(app.currentScreen as? ArcScreen)
        let c = arc.shape.controller
        let centre = try #require(c.layout.visibleRows(at: c.viewOffset, domain: c.scroller.domain).first { $0.index == 0 }?.center)
        let fraction = Point(x: centre.x / 320, y: centre.y / 240)
        runtime.deliver(.touchDown(slot: 0, fraction: fraction, time: now))
        runtime.deliver(.touchUp(slot: 0, time: now + 0.05))
        try Self.turn(runtime) { output.presentedFrames > framesWhenOff }
        #expect(output.panelOn)
        #expect(sys.brightness("panel") == "200")
        #expect(Self.status(scratch).contains("\"display_power\": \"on\""))
        #expect(app.screenNames == ["main"], "the waking tap opened \(app.screenNames)")
        #expect(app.lastAction == nil)
        var differing = 0
        for y in 0..<240 { for x in 0..<320 where output.pixels[x, y] != before[x, y] { differing += 1 } }
        #expect(differing == 0, "the first frame after waking differs from the menu as it was in \(differing) pixels")
        // The next tap is a tap.
        let later = MonotonicClock.now()
        runtime.deliver(.touchDown(slot: 0, fraction: fraction, time: later))
        runtime.deliver(.touchUp(slot: 0, time: later + 0.05))
        try Self.turn(runtime) { app.screenNames == ["main", "two"] }
        #expect(app.screenNames == ["main", "two"])
    }
    /// After an `exec` program, libinput's touch cancel for the devices it suspended arrives with
    /// the next real input: on a blanked panel that cancel must not count as someone's input, so
    /// the tap, detent or Enter behind it only wakes the panel (nothing opens, nothing moves).
    @Test(arguments: ["tap", "detent", "enter"])
    func aTouchCancelBeforeTheWakingInputIsNotInput(_ kind: String) throws {
        let sys = SysfsBacklight(devices: [("panel", 255, 200)])
        let scratch = ScratchDirectory()
        // 1.5 s idle, not less: under qemu-user at full load the passes after the wake can take
        // longer than a shorter idle, which then blanks the panel again before it is looked at.
        let app = try Self.app("blank_after = 1.5", scratch: scratch)
        let output = try HeadlessOutput(panelWidth: 320, panelHeight: 240, rotation: .none)
        let runtime = try Runtime(app: app, output: output, signals: try SignalSource(Runtime.handledSignals), config: nil,
                                  options: Runtime.Options(backlightClassDirectory: sys.classDirectory), startup: StartupTimeline())
        try runtime.start()
        try Self.turn(runtime) { Self.status(scratch).contains("\"display_power\": \"off\"") }
        #expect(!output.panelOn)
        let selected = app.currentScreen.selectedIndex
        let now = MonotonicClock.now()
        let arc = try #require(app.currentScreen as? ArcScreen)
        let c = arc.shape.controller
        let centre = try #require(c.layout.visibleRows(at: c.viewOffset, domain: c.scroller.domain).first { $0.index == 0 }?.center)
        runtime.deliver(.touchCancel(time: now))
        switch kind {
        case "tap":
            runtime.deliver(.touchDown(slot: 0, fraction: Point(x: centre.x / 320, y: centre.y / 240), time: now))
            runtime.deliver(.touchUp(slot: 0, time: now + 0.05))
        case "detent":
            runtime.deliver(.wheel(v120: 120, time: now))
        default:
            runtime.deliver(.key(code: KeyCode.enter, pressed: true, time: now))
            runtime.deliver(.key(code: KeyCode.enter, pressed: false, time: now + 0.05))
        }
        try Self.turn(runtime) { output.panelOn && Self.status(scratch).contains("\"display_power\": \"on\"") }
        try runtime.runOnce(timeout: 0.3)
        #expect(output.panelOn)
        #expect(app.screenNames == ["main"], "the waking \(kind) opened \(app.screenNames)")
        #expect(app.lastAction == nil)
        #expect(app.currentScreen.selectedIndex == selected, "the waking \(kind) moved the selection")
    }
}
