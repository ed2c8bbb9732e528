import KioskConfiguration

/// What was done from the menu: the last action and how it went (the status file), and every
/// action counted by how it ended (`kiosk_actions_total`).
struct ActionRecord {
    private(set) var last: LastAction?
    /// `screen`, `back` and `reload` count when chosen, the others when their program ends (or fails to start).
    private(set) var counts: [ActionOutcome: Int] = [:]

    /// `item`'s `action` is under way or done, with `result` so far.
    mutating func record(_ item: String, _ action: ActionKind, _ result: String) {
        last = LastAction(item: item, action: action.rawValue, result: result)
    }

    mutating func count(_ action: ActionKind, failed: Bool) {
        counts[ActionOutcome(action, failed: failed), default: 0] += 1
    }
}
