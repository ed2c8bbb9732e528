import KioskSystem

/// Every input device the kiosk reads, on one seat: libinput's (touch, wheels, keys, buttons)
/// and the REL_DIAL dials it ignores, all delivered as `RawInputEvent`s from the event loop.
/// Either part failing leaves the other working, with one warning.
public final class InputDevices {
    public private(set) var libinput: LibinputContext?
    public private(set) var dials: EvdevDials?

    /// `devicesChanged` is told when a device came or went (after the events that said so).
    public init(seat: String, calibration: [Float]?, loop: EventLoop, deliver: @escaping (RawInputEvent) -> Void,
                devicesChanged: @escaping () -> Void = {}) {
        do {
            let li = try LibinputContext(seat: seat, calibration: calibration)
            try loop.watch(li.fd) { [unowned li] in
                let before = li.deviceKinds
                for e in li.dispatch() { deliver(e) }
                if li.deviceKinds != before { devicesChanged() }
            }
            // Devices already present are announced by the first dispatch.
            for e in li.dispatch() { deliver(e) }
            libinput = li
        } catch {
            Log.warning("no touch, wheel or key input: \(error)")
        }
        do {
            let d = try EvdevDials(deliver: deliver)
            d.devicesChanged = devicesChanged
            try d.attach(to: loop)
            dials = d
        } catch {
            Log.warning("dials will not be read: \(error)")
        }
    }

    /// Devices read now, by kind, for `kiosk_input_devices`: libinput's by capability (a touch
    /// screen with keys counts as both), and "dial" for each evdev dial.
    public var kindCounts: [String: Int] {
        var counts: [String: Int] = [:]
        if let libinput { for kinds in libinput.deviceKinds.values { for k in kinds { counts[k, default: 0] += 1 } } }
        if let dials, dials.count > 0 { counts["dial"] = dials.count }
        return counts
    }

    /// Another program has the screen and input: stop reading until `resume()`. Returns the events
    /// of letting the devices go (see `LibinputContext.suspend`).
    @discardableResult
    public func suspend() -> [RawInputEvent] { libinput?.suspend() ?? [] }
    public func resume() { libinput?.resume() }
}
