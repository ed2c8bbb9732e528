import KioskSystem

/// Carries the broker's commands out through the control seam (`KioskControl`, as the broker:
/// its gate lets it act only on published items), and words each refusal for the error topic:
/// logged once per kind, counted always, so that a sender repeating a mistake a thousand times
/// fills no log.
final class MQTTCommandHandler {
    private let control: KioskControl
    private var logged: Set<String> = []
    /// Commands refused since start.
    private(set) var refusals = 0

    init(control: KioskControl) {
        self.control = control
    }

    /// Nil when `message` was carried out; else the JSON for `PREFIX/error`.
    func handle(_ message: MQTTMessage, topics: MQTTTopics) -> String? {
        let refusal: (name: String, message: String)?
        switch MQTTCommand.decode(topic: message.topic, payload: message.payload, topics: topics) {
        case .failure(let e):
            refusal = (e.name, e.description)
        case .success(let request):
            if case .failure(let e) = control.handle(request, from: .broker) { refusal = (e.name, e.description) } else { refusal = nil }
        }
        guard let refusal else { return nil }
        refusals += 1
        if logged.insert(refusal.name).inserted {
            Log.warning("mqtt: \(message.topic.prefix(200)): \(refusal.message) (answered on the error topic; further \(refusal.name) refusals are not logged)")
        }
        return StatusValue.object([("topic", .string(String(message.topic.prefix(200)))), ("error", .string(refusal.name)),
                                   ("message", .string(refusal.message))]).json
    }
}
