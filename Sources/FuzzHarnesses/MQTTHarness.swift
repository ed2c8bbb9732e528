import Geometry
import Kiosk
import KioskConfiguration
import Raster

/// The broker's side of the kiosk without a broker: each record is a message (topic, newline,
/// payload) decoded by `MQTTCommand` and carried out through `KioskControl` as the broker's
/// requests are, on a fresh app per input, whose pass then runs and whose screen is drawn.
/// Traps when anything behind the PIN runs or shows (`ControlFixture`) or a refusal's message
/// grows with the input.
public enum MQTTHarness {
    static let topics = MQTTTopics(clientID: "fuzz", prefix: "kiosk/fuzz")

    /// One line per message, for a replay.
    public static func run(_ bytes: [UInt8]) -> String {
        let clock = FuzzClock()
        guard let app = try? KioskApp(config: ControlFixture.config, width: 320, height: 240, now: clock.now) else {
            fatalError("the MQTT harness's app cannot be made")
        }
        let control = KioskControl(app: app, clock: { clock.now })
        var outcomes: [String] = []
        for record in FuzzRecords.split(bytes) {
            // A broker delivers topics as UTF-8 (MQTT requires it); the payload is any bytes.
            let topic = String(decoding: record.head, as: UTF8.self)
            switch MQTTCommand.decode(topic: topic, payload: record.body, topics: topics) {
            case .failure(let refused):
                ControlFixture.check(message: refused.description)
                outcomes.append("refused: \(refused.name)")
            case .success(let request):
                switch control.handle(request, from: .broker) {
                case .success: outcomes.append("done")
                case .failure(let error):
                    ControlFixture.check(message: error.description)
                    outcomes.append("error: \(error.name)")
                }
            }
            clock.advance(by: 0.05)
            for effect in app.advance(now: clock.now) { ControlFixture.check(effect) }
            ControlFixture.check(app)
        }
        clock.advance(by: 1)
        for effect in app.advance(now: clock.now) { ControlFixture.check(effect) }
        FuzzFrame.draw(app)
        return outcomes.joined(separator: "; ")
    }
}

/// A harness's time: moved by hand, so that a run does not depend on how fast it went.
final class FuzzClock: @unchecked Sendable {
    private(set) var now = 1000.0
    func advance(by seconds: Double) { now += seconds }
}

/// The frame the control harnesses draw the app into after an input (what was set is shown);
/// one per input, so that inputs run on several threads (the tests) share nothing.
enum FuzzFrame {
    static func draw(_ app: KioskApp) {
        guard let buffer = try? PixelBuffer(width: 320, height: 240) else { return }
        _ = app.draw(on: Canvas(buffer), full: true)
    }
}
