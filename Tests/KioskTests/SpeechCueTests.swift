import Geometry
@testable import Kiosk
@testable import KioskConfiguration
import LayoutCore
@testable import MenuScreens
import Raster
import Testing

/// What the menu says and when (`[speech]`), with time moved by hand: the rules of `SpeechCues`
/// alone, then the whole app's `.speak` and `.silence` effects for a knob, a fast turn, screens
/// that open and the PIN keypad by knob and by touch.
@Suite struct SpeechCueTests {
    // MARK: The rules alone

    @Test func aSelectionIsSaidOnceItRestedTheSettleTime() {
        var cues = SpeechCues(settle: 0.3)
        cues.settled(on: "Coffee", now: 1)
        #expect(cues.take(now: 1.29) == nil)
        #expect(cues.deadline == 1.3)
        #expect(cues.take(now: 1.3)?.text == "Coffee")
        #expect(cues.take(now: 2) == nil, "said once")
    }

    @Test func movementDropsWhatWaitsAndSilencesWhatWasSaid() {
        var cues = SpeechCues(settle: 0.3)
        cues.settled(on: "Coffee", now: 1)
        #expect(cues.moved(touch: false) == false, "nothing was said yet: nothing to silence")
        #expect(cues.take(now: 5) == nil)
        cues.settled(on: "Tea", now: 5)
        #expect(cues.take(now: 5.3)?.text == "Tea")
        #expect(cues.moved(touch: false) == true)
        #expect(cues.moved(touch: false) == false, "silenced once")
    }

    @Test func aScreenSaysItsTitleThenTheItemAndItsFirstSettlingIsThatOne() {
        var cues = SpeechCues(settle: 0.3)
        cues.screenOpened(title: "Drinks", focused: "Coffee", now: 0)
        // The new screen reports its first selection: the same item, not said twice.
        cues.settled(on: "Coffee", now: 0.05)
        #expect(cues.take(now: 0.3)?.text == "Drinks. Coffee")
        cues.settled(on: "Tea", now: 1)
        #expect(cues.take(now: 1.3)?.text == "Tea")
    }

    @Test func keypadKeysByNameNeverWhatWasPressed() {
        var cues = SpeechCues(settle: 0.3)
        cues.screenOpened(title: "Admin: enter PIN", focused: "5", keypad: true, now: 0)
        #expect(cues.take(now: 0.3)?.text == "Admin: enter PIN. 5")
        _ = cues.moved(touch: false)
        cues.keypadSettled(on: "⌫", now: 1)
        #expect(cues.take(now: 1.3)?.text == "Delete")
        _ = cues.moved(touch: false)
        cues.keypadSettled(on: "3", now: 2)
        #expect(cues.take(now: 2.3)?.text == "3")
        // Pressed: "Entered", and the return to the middle key is not said.
        _ = cues.moved(touch: false)
        cues.keypadPressed(digit: true, now: 3)
        cues.keypadSettled(on: "5", now: 3.01)
        #expect(cues.take(now: 3.5)?.text == "Entered")
        #expect(cues.take(now: 4) == nil)
        // A touch on a key: nothing of the key is said.
        _ = cues.moved(touch: true)
        cues.keypadSettled(on: "7", now: 5)
        cues.keypadPressed(digit: true, now: 5.01)
        cues.keypadSettled(on: "5", now: 5.02)
        #expect(cues.take(now: 6)?.text == "Entered")
        #expect(cues.take(now: 7) == nil)
        #expect(SpeechCues.keyName("OK") == "OK")
    }

    // MARK: The whole app

    static let pin = "2468"
    static let hash = try! PinHash.make(pin: pin)

    static func config() -> KioskConfig {
        let drinks = (1...12).map { MenuItem(label: "Drink \($0)", action: .back) }
        let main = ScreenConfig(name: "main", title: "Home", layout: .list(ListStyle()),
                                sections: [MenuSection(items: [MenuItem(label: "Admin", action: .screen("admin"))] + drinks)])
        let admin = ScreenConfig(name: "admin", title: "Admin", layout: .list(ListStyle()),
                                 sections: [MenuSection(items: [MenuItem(label: "Back", action: .back)])], pinHash: hash)
        return KioskConfig(home: "main", screens: [main, admin], speech: SpeechConfig(enabled: true, settle: 0.3))
    }

    final class Harness {
        let app: KioskApp
        var now = 0.0
        var said: [String] = []
        var silences = 0

        init(_ config: KioskConfig = SpeechCueTests.config()) throws {
            app = try KioskApp(config: config, width: 800, height: 480, now: 0)
        }

        func run(_ seconds: Double) {
            let end = now + seconds
            while now < end {
                for effect in app.advance(now: now) {
                    if case .speak(let text) = effect { said.append(text) }
                    if case .silence = effect { silences += 1 }
                }
                now += 1.0 / 60
            }
        }

        func input(_ input: MenuInput, then seconds: Double = 0.05) {
            app.handle(input, now: now)
            run(seconds)
        }

        func turn(_ detents: Int, then seconds: Double = 0.05) {
            input(.command(detents > 0 ? .next : .previous, count: abs(detents)), then: seconds)
        }
    }

    @Test func theHomeScreenIsSaidAtStart() throws {
        let h = try Harness()
        h.run(1)
        #expect(h.said == ["Home. Admin"])
    }

    @Test func aFastTurnOfTenDetentsSaysOnlyTheLastItem() throws {
        let h = try Harness()
        h.run(1)
        h.said = []
        // Ten detents 50 ms apart (a brisk turn), then rest.
        for _ in 0..<10 { h.turn(1, then: 0.05) }
        h.run(1.5)
        #expect(h.said == ["Drink 10"])
        #expect(h.app.currentScreen.selectedIndex == 10)
        // The first detent silenced the title said at start.
        #expect(h.silences == 1)
    }

    @Test func slowTurnsSayEachItemAndEachTurnSilencesTheLast() throws {
        let h = try Harness()
        h.run(1)
        h.said = []
        for _ in 0..<3 { h.turn(1, then: 1) }
        #expect(h.said == ["Drink 1", "Drink 2", "Drink 3"])
        #expect(h.silences == 3)
    }

    @Test func theKeypadNeverSaysTheDigitsEntered() throws {
        let h = try Harness()
        h.run(1)
        h.input(.command(.select, count: 1), then: 1)
        #expect(h.app.screenNames == ["main", "keypad: admin"])
        // The keys the knob rests on are said; pressing says "Entered".
        for digit in Self.pin {
            let target = Keypad.labels.firstIndex(of: String(digit))!
            let delta = target - h.app.currentScreen.selectedIndex
            if delta != 0 { h.turn(delta, then: 0.8) }
            h.input(.command(.select, count: 1), then: 0.8)
        }
        let target = Keypad.labels.firstIndex(of: "OK")!
        h.turn(target - h.app.currentScreen.selectedIndex, then: 0.8)
        h.input(.command(.select, count: 1), then: 1)
        #expect(h.app.screenNames == ["main", "admin"])
        #expect(h.said == ["Home. Admin", "Admin: enter PIN. 5", "2", "Entered", "4", "Entered", "6", "Entered", "8", "Entered", "OK", "Admin. Back"])
    }

    @Test func aTouchedKeypadSaysNoKey() throws {
        let h = try Harness()
        h.run(1)
        h.input(.command(.select, count: 1), then: 1)
        h.said = []
        for digit in Self.pin {
            let screen = try #require(h.app.currentScreen as? ListScreen)
            let row = screen.shape.layout.rows[Keypad.labels.firstIndex(of: String(digit))!]
            let viewport = screen.shape.controller.viewport
            let at = Point(x: row.frame.midX, y: row.frame.midY + viewport.minY - screen.shape.controller.offset)
            h.input(.gesture(.pressed(at: at, time: h.now)), then: 0.1)
            h.input(.gesture(.tap(at: at, time: h.now)), then: 1)
        }
        #expect(h.app.pinLock.enteredCount == 4)
        #expect(h.said == ["Entered", "Entered", "Entered", "Entered"])
    }

    @Test func offByDefault() throws {
        var config = Self.config()
        config.speech = SpeechConfig()
        let h = try Harness(config)
        h.run(1)
        h.turn(1, then: 1)
        #expect(h.said.isEmpty && h.silences == 0)
    }
}
