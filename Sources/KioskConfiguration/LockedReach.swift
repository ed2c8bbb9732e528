/// Which screens a PIN guards: each screen with a `pin_hash` that is not open, and every screen
/// the menu reaches from home only through one of those. A screen the menu reaches without a
/// locked screen on the way is not guarded, whatever else links to it; nor is a screen nothing
/// links to (one only the control API shows), unless it has a PIN itself.
public struct LockedReach: Sendable, Equatable {
    /// For each guarded screen, the locked screen it is behind (itself when it has the PIN).
    public let lockOf: [String: String]

    /// `isLocked`: whether a screen with a PIN is closed now (`{ $0.pinHash != nil }` for the
    /// config as written, before any PIN was entered).
    public init(config: KioskConfig, isLocked: (ScreenConfig) -> Bool) {
        var byName: [String: ScreenConfig] = [:]
        for screen in config.screens where byName[screen.name] == nil { byName[screen.name] = screen }
        func links(_ screen: ScreenConfig) -> [ScreenConfig] {
            screen.items.compactMap { item in
                if case .screen(let name) = item.action { return byName[name] }
                return nil
            }
        }
        // What the menu reaches from home without entering a locked screen.
        var open: Set<String> = []
        var queue: [ScreenConfig] = []
        if let home = byName[config.home], !isLocked(home) {
            open.insert(home.name)
            queue.append(home)
        }
        while let screen = queue.popLast() {
            for next in links(screen) where !open.contains(next.name) && !isLocked(next) {
                open.insert(next.name)
                queue.append(next)
            }
        }
        // Every locked screen guards itself and what it reaches that the menu does not reach openly.
        var lockOf: [String: String] = [:]
        var behind: [(screen: ScreenConfig, lock: String)] = []
        for screen in config.screens where isLocked(screen) && lockOf[screen.name] == nil {
            lockOf[screen.name] = screen.name
            behind.append((screen, screen.name))
        }
        var next = 0
        while next < behind.count {
            let (screen, lock) = behind[next]
            next += 1
            for linked in links(screen) where !open.contains(linked.name) && lockOf[linked.name] == nil {
                lockOf[linked.name] = lock
                behind.append((linked, lock))
            }
        }
        self.lockOf = lockOf
    }

    /// The locked screen that `screen` is behind, or nil when it is not guarded.
    public func lock(of screen: String) -> String? { lockOf[screen] }
}
