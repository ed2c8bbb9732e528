import KioskConfiguration

/// The keypad in front of a locked screen: a generated screen of twelve keys (a grid of three
/// columns, or a dial in front of a dial screen), so that touch and knob (turn through the keys, press to choose) work through the
/// same screen core as every menu. Its title shows dots for the digits, or the lockout countdown.
enum Keypad {
    /// In reading order: three columns fill row by row.
    static let labels = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "⌫", "0", "OK"]
    /// Where the keypad opens and where the selection goes after a digit: "5", a few detents from
    /// every key, so the key chosen is not left highlighted.
    static let restingIndex = 4

    /// The name a keypad screen goes by in the stack and the status: never a config screen's
    /// (a config's screen names are TOML keys; this one has a space and a colon).
    static func name(for target: String) -> String { "keypad: \(target)" }

    static func key(at index: Int) -> PinLock.Key? {
        guard labels.indices.contains(index) else { return nil }
        switch labels[index] {
        case "⌫": return .delete
        case "OK": return .ok
        default: return labels[index].utf8.first.map { .digit($0 - 0x30) }
        }
    }

    /// The title: the countdown during a lockout, else a dot per digit, else what to do.
    static func title(for target: ScreenConfig, lock: PinLock, now: Double) -> String {
        if let seconds = lock.lockoutRemaining(now: now) { return "Locked: try again in \(seconds) s" }
        if lock.enteredCount > 0 { return String(repeating: "●", count: lock.enteredCount) }
        return "\(target.title ?? target.name): enter PIN"
    }

    /// A dial in front of a dial screen (a round panel has no corners for a grid), else a grid.
    static func screen(for target: ScreenConfig, title: String) -> ScreenConfig {
        let layout: ScreenLayout = target.style == .dial
            ? .dial(DialStyle(slots: labels.count, wrap: true)) : .list(ListStyle(columns: 3, rowHeight: 0.16))
        return ScreenConfig(name: name(for: target.name), title: title, layout: layout,
                     background: target.background,
                     sections: [MenuSection(items: labels.map { MenuItem(label: $0, action: .back) })],
                     direction: .leftToRight)
    }
}
