import CLinux
import Glibc
import KioskSystem

/// The kiosk's virtual terminal, switched to graphics and put under process control
/// (VT_SETMODE/VT_PROCESS): the kernel asks before switching away, by a signal, and the kiosk
/// drops DRM master and acknowledges; switching back raises the signal again and the kiosk
/// takes the display back. Without this a console switch would draw text over the menu or
/// leave the kiosk writing to a display it no longer owns.
public final class VirtualTerminal {
    public let path: String
    let descriptor: OwnedDescriptor
    /// The signal the kernel sends both to ask for release and to announce acquisition.
    public let signal: Int32
    public let number: Int32
    /// The keyboard mode to put back on the way out; nil: it could not be read, so none is put back.
    private let previousKeyboardMode: Int32?
    private(set) var isActive = true

    /// Takes over the VT at `path` (for example /dev/tty1).
    public init(path: String, signal: Int32 = SIGUSR2) throws(SystemError) {
        self.path = path
        self.signal = signal
        let tty = try OwnedDescriptor.open(path, O_RDWR | O_NOCTTY)
        let fd = tty.rawValue
        var mode: Int32 = 0
        try Self.control(fd, "ioctl(KDGETMODE) \(path): not a virtual terminal?", KDGETMODE, &mode)
        var stat = vt_stat()
        try Self.control(fd, "ioctl(VT_GETSTATE)", VT_GETSTATE, &stat)
        descriptor = tty
        number = Int32(String(path.drop { !$0.isNumber })) ?? Int32(stat.v_active)
        isActive = Int32(stat.v_active) == number
        // Keyboard input reaches the kiosk through libinput, not the terminal. Neither failure
        // stops the kiosk (the menu works without them), so each is a warning.
        var keyboard: Int32 = 0
        do {
            try Self.control(fd, "ioctl(KDGKBMODE)", KDGKBMODE, &keyboard)
            previousKeyboardMode = keyboard
        } catch {
            Log.warning("\(path): \(error); its keyboard mode is not put back on exit")
            previousKeyboardMode = nil
        }
        do {
            try Self.control(fd, "ioctl(KDSKBMODE off)", KDSKBMODE, Int32(K_OFF))
        } catch {
            Log.warning("\(path): \(error); keys typed may also reach the console")
        }
        try Self.control(fd, "ioctl(KDSETMODE graphics)", KDSETMODE, Int32(KD_GRAPHICS))
        var vt = vt_mode()
        vt.mode = CChar(VT_PROCESS)
        vt.relsig = Int16(signal)
        vt.acqsig = Int16(signal)
        try Self.control(fd, "ioctl(VT_SETMODE process)", VT_SETMODE, &vt)
    }

    /// Puts the terminal back as it was; on the way out a failure can only be logged.
    deinit {
        let fd = descriptor.rawValue
        var vt = vt_mode()
        vt.mode = CChar(VT_AUTO)
        do {
            try Self.control(fd, "ioctl(VT_SETMODE auto)", VT_SETMODE, &vt)
            try Self.control(fd, "ioctl(KDSETMODE text)", KDSETMODE, Int32(KD_TEXT))
            if let previousKeyboardMode { try Self.control(fd, "ioctl(KDSKBMODE)", KDSKBMODE, previousKeyboardMode) }
        } catch {
            Log.warning("\(path) not put back: \(error)")
        }
    }

    public enum Switch { case release, acquire }

    /// Called when `signal` arrives: says whether the kernel wants the display back from us or gives it.
    /// `release` must be followed by `acknowledgeRelease()` once the display is dropped.
    public func pendingSwitch() -> Switch {
        isActive ? .release : .acquire
    }

    /// Lets the kernel switch away. On failure the switch does not happen and the VT stays ours.
    public func acknowledgeRelease() throws(SystemError) {
        try Self.control(descriptor.rawValue, "ioctl(VT_RELDISP release)", VT_RELDISP, 1)
        isActive = false
    }

    /// Tells the kernel the switch back was seen. The VT is ours whether or not this succeeds.
    public func acknowledgeAcquire() throws(SystemError) {
        isActive = true
        try Self.control(descriptor.rawValue, "ioctl(VT_RELDISP acquire)", VT_RELDISP, Int32(VT_ACKACQ))
    }

    /// The one way this type calls ioctl: with a value, or (below) with a pointer to one.
    private static func control(_ fd: Int32, _ call: String, _ request: some BinaryInteger, _ value: Int32) throws(SystemError) {
        try retryingInterrupts(call) { ioctl(fd, UInt(request), value) }
    }

    private static func control<T>(_ fd: Int32, _ call: String, _ request: some BinaryInteger, _ value: inout T) throws(SystemError) {
        try withUnsafeMutablePointer(to: &value) { (p) throws(SystemError) in
            _ = try retryingInterrupts(call) { ioctl(fd, UInt(request), UnsafeMutableRawPointer(p)) }
        }
    }
}
