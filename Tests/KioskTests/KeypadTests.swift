import Foundation
import Geometry
@testable import Kiosk
@testable import KioskConfiguration
import LayoutCore
@testable import MenuScreens
import Raster
import Testing

/// A PIN-locked screen in the whole app, without devices and with hand-moved time: the keypad by
/// knob and by touch, wrong PINs and the lockout countdown, relocking when left and when idle, and
/// a status that never holds a digit of the PIN.
@Suite(.serialized) struct KeypadTests {
    static let pin = "2468"
    static let hash = try! PinHash.make(pin: pin)

    static func config(lock: LockConfig = LockConfig(attempts: 2, lockout: 10, relockAfter: 30)) -> KioskConfig {
        let main = ScreenConfig(name: "main", title: "Home", layout: .arc(ArcStyle(rowsVisible: 5, rowLength: 0.3)),
                                background: BackgroundConfig(pattern: .circles, cell: 48),
                                sections: [MenuSection(items: [MenuItem(label: "Admin", action: .screen("admin"))])])
        let admin = ScreenConfig(name: "admin", title: "Admin", layout: .list(ListStyle()),
                                 background: BackgroundConfig(pattern: .checker, cell: 32),
                                 sections: [MenuSection(items: [MenuItem(label: "Back", action: .back)])], pinHash: hash)
        return KioskConfig(home: "main", screens: [main, admin], lock: lock)
    }

    final class Harness {
        let app: KioskApp
        let frame: PixelBuffer
        var now = 0.0

        init(_ config: KioskConfig = KeypadTests.config()) throws {
            app = try KioskApp(config: config, width: 800, height: 480, now: 0)
            frame = try PixelBuffer(width: 800, height: 480)
            run(0.1)
        }

        func run(_ seconds: Double) {
            let canvas = Canvas(frame)
            let end = now + seconds
            while now < end {
                _ = app.advance(now: now)
                canvas.resetClip()
                _ = app.draw(on: canvas, full: false)
                app.frameTaken()
                now += 1.0 / 60
            }
        }

        /// Time passing without input: advanced every quarter second, drawn once at the end.
        func wait(_ seconds: Double) {
            let end = now + seconds
            while now < end {
                _ = app.advance(now: now)
                now = min(end, now + 0.25)
            }
            _ = app.advance(now: now)
            _ = app.draw(on: Canvas(frame), full: true)
        }

        func input(_ input: MenuInput) {
            app.handle(input, now: now)
            run(0.15)
        }

        /// Turns the knob to the key and presses it.
        func knob(_ label: String) {
            let target = Keypad.labels.firstIndex(of: label)!
            let delta = target - app.currentScreen.selectedIndex
            if delta != 0 { input(.command(delta > 0 ? .next : .previous, count: abs(delta))) }
            input(.command(.select, count: 1))
        }

        /// Taps the key where it is drawn.
        func tap(_ label: String) throws {
            let screen = try #require(app.currentScreen as? ListScreen)
            let row = screen.shape.layout.rows[Keypad.labels.firstIndex(of: label)!]
            let viewport = screen.shape.controller.viewport
            let at = Point(x: row.frame.midX, y: row.frame.midY + viewport.minY - screen.shape.controller.offset)
            input(.gesture(.pressed(at: at, time: now)))
            input(.gesture(.tap(at: at, time: now)))
        }

        func status() throws -> [String: Any] {
            let text = KioskStatus(pid: nil, config: app.configStatus(path: nil), menu: app.menuStatus, lock: app.lockStatus).json
            #expect(!text.contains(KeypadTests.pin))
            return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        }

        var title: String? { app.currentScreen.config.title }
    }

    @Test func knobEntersThePinAndLeavingRelocks() throws {
        let h = try Harness()
        h.input(.command(.select, count: 1))
        #expect(h.app.screenNames == ["main", "keypad: admin"])
        #expect(h.title == "Admin: enter PIN")
        var status = try h.status()
        #expect(status["locked_screens"] as? [String] == ["admin"])
        #expect(status["selection"] is NSNull)
        #expect(status["selected_label"] is NSNull)
        for d in ["2", "4", "6"] { h.knob(d) }
        #expect(h.title == "●●●")
        h.knob("⌫")
        #expect(h.title == "●●")
        h.knob("6")
        h.knob("8")
        #expect(h.title == "●●●●")
        #expect(h.app.currentScreen.selectedIndex == Keypad.restingIndex, "the last digit is not left highlighted")
        try goldens.expectMatches(h.frame, "keypad-800x480")
        status = try h.status()
        #expect(status["selected_label"] is NSNull)
        h.knob("OK")
        #expect(h.app.screenNames == ["main", "admin"])
        status = try h.status()
        #expect(status["locked_screens"] as? [String] == [])
        #expect(status["pin_failures"] as? Int == 0)
        // Leaving locks it again: the keypad comes back, empty.
        h.input(.command(.back, count: 1))
        #expect(h.app.screenNames == ["main"])
        #expect(try h.status()["locked_screens"] as? [String] == ["admin"])
        h.input(.command(.select, count: 1))
        #expect(h.app.screenNames == ["main", "keypad: admin"])
        #expect(h.title == "Admin: enter PIN")
        // The keypad's back leaves it and forgets the digits.
        h.knob("1")
        h.input(.command(.back, count: 1))
        #expect(h.app.screenNames == ["main"])
        #expect(h.app.pinLock.enteredCount == 0)
    }

    @Test func wrongPinsLockOutWithACountdown() throws {
        let h = try Harness()
        h.input(.command(.select, count: 1))
        for d in ["1", "1", "1", "1", "OK"] { h.knob(d) }
        #expect(h.app.bannerText == "Wrong PIN: 1 try left")
        #expect(try h.status()["pin_failures"] as? Int == 1)
        for d in ["2", "2", "2", "2", "OK"] { h.knob(d) }
        let lockedAt = h.now
        #expect(h.title == "Locked: try again in 10 s")
        #expect(h.app.bannerText == nil)
        #expect(try h.status()["pin_failures"] as? Int == 2)
        // The right PIN is refused while locked out; the countdown moves every second.
        for d in ["2", "4", "6", "8", "OK"] { h.knob(d) }
        #expect(h.app.screenNames == ["main", "keypad: admin"])
        let deadline = try #require(h.app.nextDeadline)
        #expect(deadline > h.now && deadline <= h.now + 1)
        h.wait(lockedAt + 6.5 - h.now)
        #expect(h.title == "Locked: try again in 4 s")
        h.wait(4)
        #expect(h.title == "Admin: enter PIN")
        for d in ["2", "4", "6", "8", "OK"] { h.knob(d) }
        #expect(h.app.screenNames == ["main", "admin"])
        #expect(try h.status()["pin_failures"] as? Int == 2)
    }

    @Test func touchEntersThePinAndIdleRelocks() throws {
        let h = try Harness()
        h.input(.command(.select, count: 1))
        for d in ["2", "4", "6", "8", "OK"] { try h.tap(d) }
        #expect(h.app.screenNames == ["main", "admin"])
        // Input keeps it open; 30 s without any locks it again and leaves it.
        h.wait(20)
        h.input(.command(.next, count: 1))
        h.wait(20)
        #expect(h.app.screenNames == ["main", "admin"])
        h.wait(10.5)
        #expect(h.app.screenNames == ["main"])
        #expect(try h.status()["locked_screens"] as? [String] == ["admin"])
    }

    /// Input that only wakes the panel reaches the menu as no input at all, but the runtime notes
    /// it in `Activity` first: the relock counts from it, as the return home does.
    @Test func inputThatOnlyWokeThePanelKeepsItOpen() throws {
        let h = try Harness()
        h.input(.command(.select, count: 1))
        for d in ["2", "4", "6", "8", "OK"] { try h.tap(d) }
        #expect(h.app.screenNames == ["main", "admin"])
        h.wait(20)
        h.app.activity.note(at: h.now)
        h.wait(20)
        #expect(h.app.screenNames == ["main", "admin"])
        h.wait(10.5)
        #expect(h.app.screenNames == ["main"])
    }

    @Test func relockAfterZeroKeepsItOpenUntilLeft() throws {
        let h = try Harness(Self.config(lock: LockConfig(relockAfter: 0)))
        h.input(.command(.select, count: 1))
        for d in ["2", "4", "6", "8", "OK"] { h.knob(d) }
        #expect(h.app.screenNames == ["main", "admin"])
        h.wait(120)
        #expect(h.app.screenNames == ["main", "admin"])
    }

    /// Another display size keeps the keypad (without the digits); a reload drops it, and an open
    /// screen whose PIN the new config changes is closed rather than kept.
    @Test func resizeKeepsTheKeypadAndReloadDropsIt() throws {
        let h = try Harness()
        h.input(.command(.select, count: 1))
        h.knob("2")
        try h.app.resize(width: 480, height: 800)
        #expect(h.app.screenNames == ["main", "keypad: admin"])
        #expect(h.title == "Admin: enter PIN")
        #expect(h.app.apply(ConfigCheck(config: KeypadTests.config(), problems: []), now: h.now))
        #expect(h.app.screenNames == ["main"])
        #expect(h.app.pinLock.enteredCount == 0)
        // Opened, then locked by a new config that gives it another hash: closed.
        h.input(.command(.select, count: 1))
        for d in ["2", "4", "6", "8", "OK"] { h.knob(d) }
        #expect(h.app.screenNames == ["main", "admin"])
        var relocked = KeypadTests.config()
        relocked.screens[1].pinHash = try PinHash.make(pin: "1357")
        #expect(h.app.apply(ConfigCheck(config: relocked, problems: []), now: h.now))
        #expect(h.app.screenNames == ["main"], "a new PIN is asked for")
        #expect(h.app.lockedScreens == ["admin"])
    }

    /// A dial screen gets a dial keypad: the knob turns through the keys around the circle.
    @Test func dialScreenGetsADialKeypad() throws {
        var config = KeypadTests.config()
        config.screens[1].layout = .dial(DialStyle())
        let h = try Harness(config)
        h.input(.command(.select, count: 1))
        #expect(h.app.currentScreen is DialScreen)
        for d in ["2", "4", "6"] { h.knob(d) }
        #expect(h.title == "●●●")
        try goldens.expectMatches(h.frame, "keypad-dial-800x480")
        for d in ["8", "OK"] { h.knob(d) }
        #expect(h.app.screenNames == ["main", "admin"])
    }
}
