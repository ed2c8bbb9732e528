import CInput
import KioskSystem

/// A udev monitor on one subsystem ("drm" for display hotplug, "input" for devices):
/// the one owner of its `udev` and `udev_monitor` objects.
public final class UdevMonitor {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    public let subsystem: String

    public struct Event: Sendable {
        public var action: String
        public var deviceNode: String?
        public var systemPath: String
        /// The HOTPLUG=1 property a DRM driver sets when a connector changed.
        public var isHotplug: Bool
    }

    public init(subsystem: String) throws(SystemError) {
        guard let udev = udev_new() else { throw SystemError("udev_new", errno: 12) }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            udev_unref(udev)
            throw .last("udev_monitor_new_from_netlink")
        }
        self.udev = udev
        self.monitor = monitor
        self.subsystem = subsystem
        try checkingNegativeErrno("udev_monitor_filter_add_match_subsystem_devtype") {
            udev_monitor_filter_add_match_subsystem_devtype(monitor, subsystem, nil)
        }
        try checkingNegativeErrno("udev_monitor_enable_receiving") { udev_monitor_enable_receiving(monitor) }
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// Readable when events are waiting (non-blocking).
    public var fd: Int32 { udev_monitor_get_fd(monitor) }

    /// Events received since the last call.
    public func drain() -> [Event] {
        var events: [Event] = []
        while let device = udev_monitor_receive_device(monitor) {
            defer { udev_device_unref(device) }
            let action = udev_device_get_action(device).map { String(cString: $0) } ?? "change"
            let node = udev_device_get_devnode(device).map { String(cString: $0) }
            let syspath = udev_device_get_syspath(device).map { String(cString: $0) } ?? ""
            let hotplug = udev_device_get_property_value(device, "HOTPLUG").map { String(cString: $0) } == "1"
            events.append(Event(action: action, deviceNode: node, systemPath: syspath, isHotplug: hotplug))
        }
        return events
    }
}
