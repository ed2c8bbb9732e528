
/// Every input device the kiosk reads, on one seat: libinput's (touch, wheels, keys, buttons)
/// and the REL_DIAL dials it ignores, all delivered as `RawInputEvent`s from the event loop.
/// Either part failing leaves the other working, with one warning.
public final class InputDevices {
    public private(set) var libinput: LibinputContext?
    public private(set) var dials: EvdevDials?

    public init(seat: String, calibration: [Float]?, loop: EventLoop, deliver: @escaping (RawInputEvent) -> Void) {
        do {
            let li = try LibinputContext(seat: seat, calibration: calibration)
            try loop.watch(li.fd) { [unowned li] in
                for e in li.dispatch() { deliver(e) }
            }
            // Devices already present are announced by the first dispatch.
            for e in li.dispatch() { deliver(e) }
            libinput = li
        } catch {
            Log.warning("no touch, wheel or key input: \(error)")
        }
        do {
            let d = try EvdevDials(deliver: deliver)
            try d.attach(to: loop)
            dials = d
        } catch {
            Log.warning("dials will not be read: \(error)")
        }
    }

    /// Another program has the screen and input: stop reading until `resume()`.
    public func suspend() { libinput?.suspend() }
    public func resume() { libinput?.resume() }
}
