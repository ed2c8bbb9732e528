import CInput
import Geometry
import Glibc
import KioskSystem

/// libinput on a udev seat: touchscreens, wheels, keys and buttons, with hotplug. The one owner
/// of the `libinput` and `udev` objects and of the interface table libinput keeps a pointer to.
public final class LibinputContext {
    private let udev: OpaquePointer
    private let context: OpaquePointer
    private let interface: UnsafeMutablePointer<libinput_interface>
    private let access: DeviceAccess
    /// Applied to every touch device as it appears (libinput's 6-float calibration matrix).
    public let calibration: [Float]?
    /// The kinds ("touch", "pointer", ...) of each device libinput has added and not removed.
    public private(set) var deviceKinds: [OpaquePointer: [String]] = [:]

    /// Opens devices for libinput and reports, once per device, those it cannot open.
    final class DeviceAccess {
        var reported = Set<String>()
        func open(_ path: String, _ flags: Int32) -> Int32 {
            let fd = Glibc.open(path, flags | O_CLOEXEC)
            if fd >= 0 {
                reported.remove(path)
                return fd
            }
            let e = errno
            if reported.insert(path).inserted {
                let hint = e == EACCES || e == EPERM ? " (is the user in the `input` group?)" : ""
                Log.warning("cannot open input device \(path): \(SystemError("open", errno: e))\(hint)")
            }
            return -e
        }
    }

    public init(seat: String, calibration: [Float]? = nil) throws(SystemError) {
        guard let udev = udev_new() else { throw SystemError("udev_new", errno: ENOMEM) }
        let access = DeviceAccess()
        let interface = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
        interface.initialize(to: libinput_interface(
            open_restricted: { path, flags, data in
                guard let path, let data else { return -EINVAL }
                return Unmanaged<DeviceAccess>.fromOpaque(data).takeUnretainedValue().open(String(cString: path), flags)
            },
            close_restricted: { fd, _ in _ = Glibc.close(fd) }))
        guard let context = libinput_udev_create_context(interface, Unmanaged.passUnretained(access).toOpaque(), udev) else {
            interface.deallocate()
            udev_unref(udev)
            throw SystemError("libinput_udev_create_context", errno: ENOMEM)
        }
        self.udev = udev
        self.context = context
        self.interface = interface
        self.access = access
        self.calibration = calibration
        try checkingNegativeErrno("libinput_udev_assign_seat \(seat)") { libinput_udev_assign_seat(context, seat) }
    }

    deinit {
        libinput_unref(context)
        interface.deallocate()
        udev_unref(udev)
    }

    public var fd: Int32 { libinput_get_fd(context) }

    /// Stops reading devices (another program has the screen and input); `resume()` reopens them.
    /// Returns what libinput says as it lets them go (a release for each key still down, such as
    /// the Enter that started an `exec` item, a cancel for a touch; each removal is logged): left
    /// in its queue, that would arrive with the first real input after the program.
    @discardableResult
    public func suspend() -> [RawInputEvent] {
        libinput_suspend(context)
        return dispatch()
    }
    public func resume() { _ = libinput_resume(context) }

    /// Reads what libinput has and returns it as raw events.
    public func dispatch() -> [RawInputEvent] {
        _ = libinput_dispatch(context)
        var events: [RawInputEvent] = []
        var removed = false
        while let event = libinput_get_event(context) {
            defer { libinput_event_destroy(event) }
            removed = removed || libinput_event_get_type(event) == LIBINPUT_EVENT_DEVICE_REMOVED
            translate(event, into: &events)
        }
        if removed { FreedMemory.returnToSystem() }
        return events
    }

    private func translate(_ event: OpaquePointer, into events: inout [RawInputEvent]) {
        switch libinput_event_get_type(event) {
        case LIBINPUT_EVENT_DEVICE_ADDED:
            deviceAdded(libinput_event_get_device(event))
        case LIBINPUT_EVENT_DEVICE_REMOVED:
            let device = libinput_event_get_device(event)
            Log.info("input device removed: \(name(of: device))")
            if let device { deviceKinds[device] = nil }
            if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TOUCH) != 0 {
                events.append(.touchCancel(time: MonotonicClock.now()))
            }
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION:
            let touch = libinput_event_get_touch_event(event)
            // Fractions of the panel (a "width" of 1): the output, which owns the panel's size, maps them.
            let p = Point(x: libinput_event_touch_get_x_transformed(touch, 1), y: libinput_event_touch_get_y_transformed(touch, 1))
            let slot = libinput_event_touch_get_seat_slot(touch)
            let t = seconds(libinput_event_touch_get_time_usec(touch))
            events.append(libinput_event_get_type(event) == LIBINPUT_EVENT_TOUCH_DOWN
                          ? .touchDown(slot: slot, fraction: p, time: t) : .touchMotion(slot: slot, fraction: p, time: t))
        case LIBINPUT_EVENT_TOUCH_UP:
            let touch = libinput_event_get_touch_event(event)
            events.append(.touchUp(slot: libinput_event_touch_get_seat_slot(touch), time: seconds(libinput_event_touch_get_time_usec(touch))))
        case LIBINPUT_EVENT_TOUCH_CANCEL:
            let touch = libinput_event_get_touch_event(event)
            events.append(.touchCancel(time: seconds(libinput_event_touch_get_time_usec(touch))))
        case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL:
            let pointer = libinput_event_get_pointer_event(event)
            let axis = LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL
            guard libinput_event_pointer_has_axis(pointer, axis) != 0 else { return }
            let v120 = libinput_event_pointer_get_scroll_value_v120(pointer, axis)
            events.append(.wheel(v120: Int(v120.rounded()), time: seconds(libinput_event_pointer_get_time_usec(pointer))))
        case LIBINPUT_EVENT_POINTER_BUTTON:
            let pointer = libinput_event_get_pointer_event(event)
            events.append(.key(code: libinput_event_pointer_get_button(pointer),
                               pressed: libinput_event_pointer_get_button_state(pointer) == LIBINPUT_BUTTON_STATE_PRESSED,
                               time: seconds(libinput_event_pointer_get_time_usec(pointer))))
        case LIBINPUT_EVENT_KEYBOARD_KEY:
            let key = libinput_event_get_keyboard_event(event)
            events.append(.key(code: libinput_event_keyboard_get_key(key),
                               pressed: libinput_event_keyboard_get_key_state(key) == LIBINPUT_KEY_STATE_PRESSED,
                               time: seconds(libinput_event_keyboard_get_time_usec(key))))
        default:
            break
        }
    }

    private func deviceAdded(_ device: OpaquePointer?) {
        guard let device else { return }
        var caps: [String] = []
        let known: [(libinput_device_capability, String)] = [
            (LIBINPUT_DEVICE_CAP_KEYBOARD, "keyboard"), (LIBINPUT_DEVICE_CAP_POINTER, "pointer"),
            (LIBINPUT_DEVICE_CAP_TOUCH, "touch"), (LIBINPUT_DEVICE_CAP_SWITCH, "switch"),
        ]
        for (cap, word) in known where libinput_device_has_capability(device, cap) != 0 { caps.append(word) }
        deviceKinds[device] = caps
        var note = ""
        if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TOUCH) != 0, let m = calibration, m.count == 6,
           libinput_device_config_calibration_has_matrix(device) != 0 {
            let status = m.withUnsafeBufferPointer { libinput_device_config_calibration_set_matrix(device, $0.baseAddress) }
            note = status == LIBINPUT_CONFIG_STATUS_SUCCESS ? ", calibrated" : ", calibration refused"
        }
        Log.info("input device added: \(name(of: device)) (\(caps.isEmpty ? "no capabilities the kiosk uses" : caps.joined(separator: ", "))\(note))")
    }

    private func name(of device: OpaquePointer?) -> String {
        guard let device, let n = libinput_device_get_name(device) else { return "unknown" }
        let sys = libinput_device_get_sysname(device).map { String(cString: $0) } ?? "?"
        return "\(String(cString: n)) [\(sys)]"
    }

    private func seconds(_ usec: UInt64) -> Double { Double(usec) / 1e6 }
}
