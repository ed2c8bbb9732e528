import KioskConfiguration

/// Who sent a request from outside the panel: what it may do differs.
public enum ControlCaller: Sendable {
    /// The D-Bus API (`kiosk ctl` too): local software the bus policy let in.
    case bus
    /// The MQTT broker: whoever may publish on it, often anyone on the network.
    case broker
}

/// The one place that decides whether a request from outside the panel may go ahead, before
/// anything acts on it: a screen behind a PIN that is not open (or reached only through one) is
/// never shown and its items are never pressed, switched or set, unless an item says
/// `api_when_locked = true`; and the broker acts only on items with `publish = true`. The person
/// at the panel reaches only what the keypad let them see, so their input needs no gate.
struct ActionGate {
    let reach: LockedReach
    /// Each item and screen title with an id, and the screen it is on.
    private let byID: [String: (item: MenuItem?, screen: String)]
    private let updateSource: String?

    /// `isLocked`: whether a screen with a PIN is closed now.
    init(config: KioskConfig, isLocked: (ScreenConfig) -> Bool) {
        reach = LockedReach(config: config, isLocked: isLocked)
        var byID: [String: (item: MenuItem?, screen: String)] = [:]
        for screen in config.screens {
            if let id = screen.id, byID[id] == nil { byID[id] = (nil, screen.name) }
            for item in screen.items { if let id = item.id, byID[id] == nil { byID[id] = (item, screen.name) } }
        }
        self.byID = byID
        updateSource = config.control.updateSource
    }

    /// Refuses `request` from `caller`, or returns; an unknown id is left to the owner of what the
    /// request changes, which names what it knows.
    func check(_ request: ControlRequest, from caller: ControlCaller) throws(ControlError) {
        switch request {
        case .showScreen(let name):
            try checkShow(name)
        case .setValue(let id, _), .setToggle(let id, _):
            try checkItem(id, from: caller)
        case .press(let id):
            try checkItem(id, from: caller)
            if let item = byID[id]?.item, case .screen(let target) = item.action { try checkShow(target) }
        case .update(let source, _, let force):
            // The broker installs only what the config offers, and never under someone's hand.
            if caller == .broker, source != nil || force || updateSource == nil { throw .notOffered }
        case .notify, .goHome, .state, .image:
            break
        }
    }

    private func checkShow(_ name: String) throws(ControlError) {
        guard let lock = reach.lock(of: name) else { return }
        throw lock == name ? .locked(name) : .screenBehindLock(name, lock: lock)
    }

    private func checkItem(_ id: String, from caller: ControlCaller) throws(ControlError) {
        guard let (item, screen) = byID[id] else { return }
        // A screen's title value has no keys of its own for the broker or the lock.
        if caller == .broker, item?.publish != true { throw .notPublished(id) }
        if item?.apiWhenLocked != true, let lock = reach.lock(of: screen) { throw .itemBehindLock(id, lock: lock) }
    }
}
