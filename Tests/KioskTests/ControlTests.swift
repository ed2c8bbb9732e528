@testable import DRMOutput
@testable import Kiosk
@testable import KioskConfiguration
import Raster
import Testing
import KioskSystem
import TestSupport

/// The control seam (`KioskControl`) on the whole app, without a bus and with time moved by hand:
/// each request reaches the owner of what it changes, bad requests get their error and change
/// nothing, locked screens stay locked, notifications go over the keypad and end on time, and
/// the menu's events reach subscribers.
@Suite(.serialized) struct ControlTests {
    static let pin = "1357"
    static let hash = try! PinHash.make(pin: pin)

    static func config(notifyWakes: Bool = false) throws -> KioskConfig {
        let scratch = ScratchDirectory()
        let text = """
            home = "main"
            idle_timeout = 30

            [control]
            notify_wakes = \(notifyWakes)

            [mqtt]
            broker = "mqtt://127.0.0.1:1"

            [power]
            blank_after = 60

            [screens.main]
            style = "list"
            title = "Workshop"

            [[screens.main.sections]]
            [[screens.main.sections.items]]
            id = "kiln"
            label = "Kiln temperature {value}"
            action = "back"
            value = { command = ["/bin/cat", "/dev/null"], every = 5, format = "%.0f", unit = "°C" }

            [[screens.main.sections.items]]
            id = "extractor"
            label = "Dust extractor"
            toggle = { state = ["/bin/true"], on = ["/bin/true"], off = ["/bin/true"] }

            [[screens.main.sections.items]]
            id = "open-settings"
            label = "Settings"
            action = "screen"
            screen = "settings"

            [[screens.main.sections.items]]
            label = "Administration"
            action = "screen"
            screen = "admin"

            [[screens.main.sections.items]]
            id = "glaze"
            label = "Glaze batch {value}"
            action = "back"
            value = { api = true, format = "%.0f", unit = "kg" }

            [[screens.main.sections.items]]
            id = "door"
            label = "Kiln door"
            toggle = { api = true, on = ["/bin/true"], off = ["/bin/true"] }

            [[screens.main.sections.items]]
            id = "open-admin"
            label = "Admin from outside"
            action = "screen"
            screen = "admin"
            publish = true

            [[screens.main.sections.items]]
            id = "greet"
            label = "Greet"
            action = "spawn"
            command = ["/bin/true"]
            publish = true

            [screens.settings]
            style = "list"
            title = "Settings"

            [[screens.settings.sections]]
            [[screens.settings.sections.items]]
            label = "Back"
            action = "back"

            [screens.admin]
            style = "list"
            title = "Admin"
            pin_hash = "\(hash.text)"

            [[screens.admin.sections]]
            [[screens.admin.sections.items]]
            label = "Back"
            action = "back"

            [[screens.admin.sections.items]]
            id = "factory-reset"
            label = "Factory reset"
            action = "spawn"
            command = ["/bin/true"]
            publish = true

            [[screens.admin.sections.items]]
            id = "kiln-power"
            label = "Kiln power"
            toggle = { state = ["/bin/false"], on = ["/bin/true"], off = ["/bin/true"] }
            publish = true

            [[screens.admin.sections.items]]
            id = "kiln-offset"
            label = "Kiln offset {value}"
            action = "back"
            value = { api = true, format = "%.0f" }
            api_when_locked = true
            publish = true

            [[screens.admin.sections.items]]
            id = "open-danger"
            label = "Danger"
            action = "screen"
            screen = "danger"

            [screens.danger]
            style = "list"
            title = "Danger"

            [[screens.danger.sections]]
            [[screens.danger.sections.items]]
            id = "wipe"
            label = "Wipe"
            action = "spawn"
            command = ["/bin/true"]

            """
        let check = ConfigReader(path: scratch.write("kiosk.toml", text), displayName: "kiosk.toml", searchPath: "/usr/bin:/bin").check()
        #expect(check.problems.isEmpty, "\(check.report)")
        return try #require(check.config)
    }

    final class Harness {
        let app: KioskApp
        let output: HeadlessOutput
        let power: PanelPower
        let control: KioskControl
        let frame: PixelBuffer
        var now = 0.0
        var events: [ControlEvent] = []

        init(notifyWakes: Bool = false) throws {
            let config = try ControlTests.config(notifyWakes: notifyWakes)
            app = try KioskApp(config: config, width: 800, height: 480, now: 0)
            output = try HeadlessOutput(panelWidth: 800, panelHeight: 480, rotation: .none)
            power = PanelPower(settings: config.power, output: output, activity: app.activity, now: 0) { _ in nil }
            frame = try PixelBuffer(width: 800, height: 480)
            var clock: () -> Double = { 0 }
            control = KioskControl(app: app, power: power, clock: { clock() })
            clock = { [unowned self] in self.now }
            _ = control.subscribe { [unowned self] in self.events.append($0) }
            run(0.1)
        }

        /// Passes as the runtime makes them: the app moves on, its events are published, the
        /// panel's power follows, a frame is drawn.
        func run(_ seconds: Double) {
            let canvas = Canvas(frame)
            let end = now + seconds
            repeat {
                for case .event(let e) in app.advance(now: now) { control.publish(e) }
                power.advance(now: now)
                canvas.resetClip()
                _ = app.draw(on: canvas, full: false)
                app.frameTaken()
                now += 1.0 / 60
            } while now < end
        }

        /// Time passing without input: passes every quarter second, nothing drawn.
        func wait(_ seconds: Double) {
            let end = now + seconds
            repeat {
                now = min(end, now + 0.25)
                for case .event(let e) in app.advance(now: now) { control.publish(e) }
                power.advance(now: now)
            } while now < end
        }

        @discardableResult
        func ask(_ request: ControlRequest, from caller: ControlCaller = .bus) -> Result<ControlReply, ControlError> {
            let result = control.handle(request, from: caller)
            run(0.05)
            return result
        }

        func error(_ request: ControlRequest, from caller: ControlCaller = .bus) -> ControlError? {
            if case .failure(let e) = ask(request, from: caller) { return e }
            return nil
        }

        /// Opens the admin screen with its PIN, as the person at the panel does.
        func unlockAdmin() {
            app.handle(.command(.next, count: 3), now: now)
            run(0.5)
            app.handle(.command(.select, count: 1), now: now)
            run(0.5)
            for key in ControlTests.pin.map(String.init) + ["OK"] {
                let delta = Keypad.labels.firstIndex(of: key)! - app.currentScreen.selectedIndex
                if delta != 0 { app.handle(.command(delta > 0 ? .next : .previous, count: abs(delta)), now: now) }
                run(0.15)
                app.handle(.command(.select, count: 1), now: now)
                run(0.15)
            }
        }

        var state: ControlState { control.state(now: now) }
    }

    @Test func showsAScreenAndGoesHome() throws {
        let h = try Harness()
        #expect(h.ask(.showScreen("settings")) == .success(.done))
        #expect(h.app.screenNames == ["main", "settings"])
        #expect(h.events.contains(.screenChanged("settings")))
        #expect(h.state.screen == "settings" && h.state.selection == 0 && h.state.selectedLabel == "Back")
        // Shown again: nothing changes; home is home alone.
        #expect(h.ask(.showScreen("settings")) == .success(.done))
        #expect(h.app.screenNames == ["main", "settings"])
        #expect(h.ask(.showScreen("main")) == .success(.done))
        #expect(h.app.screenNames == ["main"])
        h.ask(.showScreen("settings"))
        #expect(h.ask(.goHome) == .success(.done))
        #expect(h.app.screenNames == ["main"])
        #expect(h.events.last == .screenChanged("main"))
    }

    @Test func unknownScreenNamesTheKnownOnes() throws {
        let h = try Harness()
        let e = try #require(h.error(.showScreen("setings")))
        #expect(e == .unknownScreen("setings", known: ["main", "settings", "admin", "danger"]))
        #expect(e.description == "no screen named \"setings\"; the screens are: main, settings, admin, danger")
        #expect(h.error(.showScreen("")) == .badArgument("the screen name is empty"))
        #expect(h.error(.showScreen(String(repeating: "x", count: 10_000)))?.name == "BadArgument")
        #expect(h.app.screenNames == ["main"])
    }

    @Test func lockedScreensStayLocked() throws {
        let h = try Harness()
        #expect(h.error(.showScreen("admin")) == .locked("admin"))
        #expect(h.app.screenNames == ["main"], "no keypad is put up from outside")
        // Opened with its PIN on the device, it may be shown again from outside while open.
        h.app.handle(.command(.next, count: 3), now: h.now)
        h.run(0.5)
        h.app.handle(.command(.select, count: 1), now: h.now)
        h.run(0.5)
        #expect(h.app.screenNames == ["main", "keypad: admin"])
        #expect(h.state.selection == nil, "the keypad's selected key is never told")
        // Another screen shown from outside leaves the keypad, its digits forgotten.
        h.ask(.showScreen("settings"))
        #expect(h.app.screenNames == ["main", "settings"])
        #expect(h.app.pinLock.enteredCount == 0)
        #expect(h.error(.showScreen("admin")) == .locked("admin"))
    }

    @Test func notifyDrawsOverTheKeypadAndEnds() throws {
        let h = try Harness()
        h.app.handle(.command(.next, count: 3), now: h.now)
        h.run(0.5)
        h.app.handle(.command(.select, count: 1), now: h.now)
        h.run(0.5)
        #expect(h.app.screenNames == ["main", "keypad: admin"])
        let before = try h.frame.copy()
        #expect(h.ask(.notify(text: "Kiln door open", seconds: 5, level: .warning)) == .success(.done))
        #expect(h.app.bannerText == "Warning: Kiln door open")
        #expect(h.app.screenNames == ["main", "keypad: admin"], "the notification does not leave the keypad")
        // The banner is drawn along the bottom, over the keypad.
        #expect(h.frame[10, 470] != before[10, 470])
        h.wait(4.8)
        #expect(h.app.bannerText != nil)
        h.wait(0.3)
        #expect(h.app.bannerText == nil)
    }

    @Test func notifyRefusesBadArguments() throws {
        let h = try Harness()
        #expect(h.error(.notify(text: "", seconds: 5, level: .info)) == .badArgument("the notification text is empty"))
        #expect(h.error(.notify(text: "  ", seconds: 5, level: .info))?.name == "BadArgument")
        #expect(h.error(.notify(text: "hi", seconds: 0, level: .info))?.name == "BadArgument")
        #expect(h.error(.notify(text: "hi", seconds: -1, level: .info))?.name == "BadArgument")
        #expect(h.error(.notify(text: "hi", seconds: .nan, level: .info))?.name == "BadArgument")
        #expect(h.error(.notify(text: "hi", seconds: 3601, level: .info))?.name == "BadArgument")
        let long = h.error(.notify(text: String(repeating: "é", count: 1_500), seconds: 5, level: .error))
        #expect(long == .badArgument("the notification text has 1500 characters; at most 1000"))
        // Bytes are counted first, before the characters (which takes as long as the text).
        let huge = h.error(.notify(text: String(repeating: "é", count: 10_000_000), seconds: 5, level: .error))
        #expect(huge == .badArgument("the notification text has 20000000 bytes; at most 4000"))
        #expect(h.app.bannerText == nil)
    }

    @Test func notifyWakesThePanelOnlyWhenConfigured() throws {
        for wakes in [false, true] {
            let h = try Harness(notifyWakes: wakes)
            h.wait(61)
            #expect(!h.output.panelOn && !h.state.displayOn)
            h.ask(.notify(text: "Delivery at the door", seconds: 10, level: .info))
            #expect(h.output.panelOn == wakes)
            #expect(h.state.displayOn == wakes)
            if wakes {
                // Lit for the idle time from the notification, which is not input: the menu's idle time is not reset.
                #expect(h.app.activity.lastInput == 0)
                h.wait(59)
                #expect(h.output.panelOn)
                h.wait(2)
                #expect(!h.output.panelOn)
            }
        }
    }

    @Test func setsValuesAndToggles() throws {
        let h = try Harness()
        let glazeBefore = try #require(h.state.values.first { $0.id == "glaze" })
        #expect(glazeBefore.text == "—" && glazeBefore.health.state == .pending)
        #expect(glazeBefore.health.why == "not set yet: only the control API sets it (api = true)")
        #expect(h.ask(.setValue(id: "glaze", text: "12.4")) == .success(.done))
        h.run(0.3)
        let glaze = try #require(h.state.values.first { $0.id == "glaze" })
        #expect(glaze.text == "12 kg" && glaze.health.state == .ok && !glaze.isToggle)
        #expect(LiveLabel.plain(h.app.currentScreen.config.items[4].label) == "Glaze batch 12 kg")
        // Never stale by time: a day later it is still what was set.
        h.wait(0.25)
        #expect(h.app.values.state("glaze", now: h.now + 86400) == .ok)
        // A toggle only the API sets: its state is set, nothing runs.
        #expect(h.ask(.setToggle(id: "door", on: true)) == .success(.done))
        let door = try #require(h.state.values.first { $0.id == "door" })
        #expect(door.text == "● On" && door.isToggle && !h.app.values.isSwitching("door"))
        // A toggle read from a command is switched: its `on` command is asked for, the item busy.
        #expect(h.ask(.setToggle(id: "extractor", on: true)) == .success(.done))
        #expect(h.state.values.first { $0.id == "extractor" }?.text == "◌ On…")
        #expect(h.error(.setToggle(id: "extractor", on: false)) == .badArgument("\"extractor\" is still switching; ask again when that ends"))
        // A value read from a command is not set from outside: its next reading would undo it.
        let refused = try #require(h.error(.setValue(id: "kiln", text: "1203.6")))
        #expect(refused == .readFromSource("kiln", source: "command /bin/cat") && refused.name == "ReadFromSource")
        #expect(refused.description.contains("\"kiln\" is read from command /bin/cat"))
        #expect(h.state.values.first { $0.id == "kiln" }?.health.state == .pending)
        // Wrong ids and kinds; a refused text leaves the value as it was (not failed).
        #expect(h.error(.setValue(id: "glaze", text: "heavy")) == .badArgument("glaze: not a number: \"heavy\""))
        #expect(h.state.values.first { $0.id == "glaze" }?.health.state == .ok)
        #expect(h.error(.setValue(id: "oven", text: "1")) == .unknownItem("oven"))
        #expect(h.error(.setValue(id: "extractor", text: "1"))?.name == "BadArgument")
        #expect(h.error(.setToggle(id: "kiln", on: true)) == .notAToggle("kiln"))
        #expect(h.error(.setToggle(id: "glaze", on: true)) == .notAToggle("glaze"))
        #expect(h.error(.setToggle(id: "oven", on: true)) == .unknownItem("oven"))
        // A value's text and an id are bounded in bytes, whatever the characters.
        #expect(h.error(.setValue(id: "glaze", text: String(repeating: "9", count: 20_000_000)))
            == .badArgument("glaze: the value has 20000000 bytes; at most 1024"))
        #expect(h.error(.setValue(id: String(repeating: "🙂", count: 100), text: "1"))
            == .badArgument("the id has 400 bytes; at most 256"))
        #expect(h.state.values.first { $0.id == "glaze" }?.text == "12 kg", "refused sets leave the value as it was")
    }

    @Test func aScreenShownFromOutsideGetsItsIdleTime() throws {
        let h = try Harness()
        h.wait(100)
        h.ask(.showScreen("settings"))
        h.wait(29)
        #expect(h.app.screenNames == ["main", "settings"], "idle_timeout counted from the last input, not the request")
        h.wait(1.5)
        #expect(h.app.screenNames == ["main"])
    }

    @Test func menuEventsReachSubscribers() throws {
        let h = try Harness()
        var second: [ControlEvent] = []
        let token = h.control.subscribe { second.append($0) }
        h.app.handle(.command(.next, count: 2), now: h.now)
        h.run(1)
        #expect(h.events.contains(.selectionChanged(index: 2, label: "Settings")))
        h.app.handle(.command(.select, count: 1), now: h.now)
        h.run(1)
        #expect(h.events.contains(.itemActivated(id: "open-settings", label: "Settings")))
        #expect(h.events.contains(.screenChanged("settings")))
        // Every subscriber gets the same events, in order, from when it subscribed.
        #expect(second.count >= 3 && second == Array(h.events.suffix(second.count)))
        let heard = second.count
        h.control.unsubscribe(token)
        h.ask(.goHome)
        #expect(second.count == heard && h.events.contains(.screenChanged("main")))
    }

    // MARK: The gate

    @Test func theLockGuardsWhatIsOnItsScreen() throws {
        let h = try Harness()
        // Every transport is refused, and nothing runs: the toggle, the press, a value set.
        for caller in [ControlCaller.bus, .broker] {
            #expect(h.error(.setToggle(id: "kiln-power", on: true), from: caller) == .itemBehindLock("kiln-power", lock: "admin"))
            #expect(h.error(.press(id: "factory-reset"), from: caller) == .itemBehindLock("factory-reset", lock: "admin"))
        }
        #expect(!h.app.values.isSwitching("kiln-power"), "its on command never started")
        #expect(h.app.lastAction == nil, "nothing was activated")
        let refused = try #require(h.error(.press(id: "factory-reset")))
        #expect(refused.name == "Locked")
        #expect(refused.description == "\"factory-reset\" is behind screen \"admin\"'s PIN, which is not open: nothing from outside acts on it then (api_when_locked = true on the item allows it)")
        // A screen reached only through the locked one, and its items.
        #expect(h.error(.showScreen("danger")) == .screenBehindLock("danger", lock: "admin"))
        #expect(h.error(.press(id: "wipe")) == .itemBehindLock("wipe", lock: "admin"))
        #expect(h.error(.press(id: "open-admin"), from: .broker) == .locked("admin"), "an item that opens the locked screen")
        #expect(h.app.screenNames == ["main"])
        // The item that says api_when_locked = true is set, over the broker too (it is published).
        #expect(h.ask(.setValue(id: "kiln-offset", text: "3"), from: .broker) == .success(.done))
        #expect(h.state.values.first { $0.id == "kiln-offset" }?.health.state == .ok)
        // Opened with the PIN on the panel, all of it may be acted on from outside.
        h.unlockAdmin()
        #expect(h.app.screenNames == ["main", "admin"])
        #expect(h.ask(.setToggle(id: "kiln-power", on: true)) == .success(.done))
        #expect(h.app.values.isSwitching("kiln-power"), "its on command runs")
        #expect(h.ask(.showScreen("danger")) == .success(.done))
        #expect(h.app.screenNames == ["main", "danger"])
        // Home again: the admin screen was left, so it is locked again, and so is what is behind it.
        h.ask(.goHome)
        #expect(h.error(.showScreen("danger")) == .screenBehindLock("danger", lock: "admin"))
        #expect(h.error(.setToggle(id: "kiln-power", on: false)) == .itemBehindLock("kiln-power", lock: "admin"))
    }

    /// The whole runtime on a clock the test moves, with the admin screen opened by its PIN from
    /// the panel's keys.
    final class OpenedAdmin {
        let clock = ManualClock()
        let app: KioskApp
        let runtime: Runtime

        init() throws {
            app = try KioskApp(config: try ControlTests.config(), width: 800, height: 480, now: clock.now)
            let output = try HeadlessOutput(panelWidth: 800, panelHeight: 480, rotation: .none)
            runtime = try Runtime(app: app, output: output, signals: try SignalSource(Runtime.handledSignals), config: nil,
                                  options: Runtime.Options(clock: clock.read), startup: StartupTimeline())
            try runtime.start()
            // Each key only once the menu is at rest again: a starved run (aarch64 under qemu-user)
            // may take many passes to settle, and a key during the motion lands elsewhere.
            try turn { output.presentedFrames > 0 && !app.currentScreen.isMoving }
            try press(KeyCode.down, times: 3)
            try turn { app.currentScreen.selectedIndex == 3 && !app.currentScreen.isMoving }
            try press(KeyCode.enter)
            try turn { app.currentScreen.config.name == Keypad.name(for: "admin") && !app.currentScreen.isMoving }
            for key in ControlTests.pin.map(String.init) + ["OK"] {
                let target = Keypad.labels.firstIndex(of: key)!
                let delta = target - app.currentScreen.selectedIndex
                try press(delta > 0 ? KeyCode.down : KeyCode.up, times: abs(delta))
                try turn { app.currentScreen.selectedIndex == target && !app.currentScreen.isMoving }
                try press(KeyCode.enter)
                try turn { !app.currentScreen.isMoving }
            }
            try turn { app.screenNames == ["main", "admin"] }
        }

        /// Passes 50 ms apart on the test's clock until `done` (or the test's patience is spent).
        func turn(until done: () -> Bool) throws {
            let deadline = MonotonicClock.now() + Patience.seconds
            while !done(), MonotonicClock.now() < deadline {
                clock.advance(by: 0.05)
                try runtime.runOnce(timeout: 0.005)
            }
        }

        /// A key as the panel's keyboard sends it, then a few passes.
        func press(_ code: UInt32, times: Int = 1) throws {
            for _ in 0..<times {
                runtime.deliver(.key(code: code, pressed: true, time: clock.now))
                runtime.deliver(.key(code: code, pressed: false, time: clock.now + 0.01))
                for _ in 0..<4 {
                    clock.advance(by: 0.05)
                    try runtime.runOnce(timeout: 0.005)
                }
            }
        }
    }

    /// A request is taken as part of a pass: the runtime moves the app on to the request's moment
    /// before the gate looks. The admin screen, opened with its PIN and then idle past
    /// `relock_after`, is locked to a request that arrives before the pass that relocks it.
    @Test func aRequestSeesTheRelockThatIsDueBeforeThePassMadeIt() throws {
        let h = try OpenedAdmin()
        #expect(h.app.screenNames == ["main", "admin"])
        // relock_after (60 s) passes with no pass: the timer's is still to come.
        h.clock.advance(by: 61)
        #expect(h.runtime.control.handle(.setToggle(id: "kiln-power", on: true), from: .bus)
                == .failure(.itemBehindLock("kiln-power", lock: "admin")))
        #expect(!h.app.values.isSwitching("kiln-power"), "its on command started")
        #expect(h.app.screenNames == ["main"], "the relock left the screen")
    }

    /// So is a key at the panel: idle past `relock_after`, the screen locks before the key is
    /// taken, which then acts on the screen below it.
    @Test func aKeyAfterTheRelockIsDueMeetsTheLockedScreen() throws {
        let h = try OpenedAdmin()
        #expect(h.app.screenNames == ["main", "admin"])
        h.clock.advance(by: 61)
        h.runtime.deliver(.key(code: KeyCode.enter, pressed: true, time: h.clock.now))
        #expect(h.app.screenNames == ["main"], "the key reached the admin screen after its relock was due")
        #expect(h.app.lockedScreens.contains("admin"))
    }

    @Test func theBrokerActsOnlyOnPublishedItems() throws {
        let h = try Harness()
        // Not published: refused over MQTT, allowed over D-Bus.
        #expect(h.error(.setToggle(id: "door", on: true), from: .broker) == .notPublished("door"))
        #expect(h.error(.setValue(id: "glaze", text: "4"), from: .broker) == .notPublished("glaze"))
        #expect(h.error(.press(id: "open-settings"), from: .broker) == .notPublished("open-settings"))
        #expect(h.error(.press(id: "open-settings"), from: .broker)?.name == "NotPublished")
        #expect(h.app.screenNames == ["main"] && h.app.values.isOn("door") != true)
        #expect(h.ask(.setToggle(id: "door", on: true)) == .success(.done))
        #expect(h.ask(.press(id: "open-settings")) == .success(.done))
        #expect(h.app.screenNames == ["main", "settings"])
        // Published: a press over MQTT activates it as on the panel.
        #expect(h.ask(.press(id: "greet"), from: .broker) == .success(.done))
        #expect(h.events.contains(.itemActivated(id: "greet", label: "Greet")))
        // Screens and notifications are not items: the broker may show an open screen.
        #expect(h.ask(.showScreen("settings"), from: .broker) == .success(.done))
        #expect(h.error(.showScreen("admin"), from: .broker) == .locked("admin"))
        #expect(h.error(.press(id: "nothing-here"), from: .bus)?.name == "BadArgument")
        // Sizes are checked before the gate looks anything up: an oversized id is too long,
        // not "not published", whoever sends it.
        let long = String(repeating: "a", count: 300)
        #expect(h.error(.press(id: long), from: .broker) == .badArgument("the id has 300 bytes; at most 256"))
        #expect(h.error(.showScreen(long), from: .broker) == .badArgument("the screen name has 300 bytes; at most 256"))
        #expect(h.error(.setValue(id: "glaze", text: String(repeating: "9", count: 2000)), from: .broker)
            == .badArgument("glaze: the value has 2000 bytes; at most 1024"))
    }
}
