import CLinux
import Glibc

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
    private var previousKeyboardMode: Int32 = 0
    private(set) var isActive = true

    /// Takes over the VT at `path` (for example /dev/tty1).
    public init(path: String, signal: Int32 = SIGUSR2) throws(SystemError) {
        self.path = path
        self.signal = signal
        let tty = try OwnedDescriptor.open(path, O_RDWR | O_NOCTTY)
        let fd = tty.rawValue
        var mode: Int32 = 0
        try retryingInterrupts("ioctl(KDGETMODE) \(path): not a virtual terminal?") { ioctl(fd, UInt(KDGETMODE), &mode) }
        var stat = vt_stat()
        try retryingInterrupts("ioctl(VT_GETSTATE)") { ioctl(fd, UInt(VT_GETSTATE), &stat) }
        descriptor = tty
        number = Int32(String(path.drop { !$0.isNumber })) ?? Int32(stat.v_active)
        isActive = Int32(stat.v_active) == number
        // Keyboard input reaches the kiosk through libinput, not the terminal.
        _ = ioctl(fd, UInt(KDGKBMODE), &previousKeyboardMode)
        _ = ioctl(fd, UInt(KDSKBMODE), Int32(K_OFF))
        try retryingInterrupts("ioctl(KDSETMODE graphics)") { ioctl(fd, UInt(KDSETMODE), Int32(KD_GRAPHICS)) }
        var vt = vt_mode()
        vt.mode = CChar(VT_PROCESS)
        vt.relsig = Int16(signal)
        vt.acqsig = Int16(signal)
        try retryingInterrupts("ioctl(VT_SETMODE process)") { ioctl(fd, UInt(VT_SETMODE), &vt) }
    }

    deinit {
        var vt = vt_mode()
        vt.mode = CChar(VT_AUTO)
        _ = ioctl(descriptor.rawValue, UInt(VT_SETMODE), &vt)
        _ = ioctl(descriptor.rawValue, UInt(KDSETMODE), Int32(KD_TEXT))
        _ = ioctl(descriptor.rawValue, UInt(KDSKBMODE), previousKeyboardMode)
    }

    public enum Switch { case release, acquire }

    /// Called when `signal` arrives: says whether the kernel wants the display back from us or gives it.
    /// `release` must be followed by `acknowledgeRelease()` once the display is dropped.
    public func pendingSwitch() -> Switch {
        isActive ? .release : .acquire
    }

    public func acknowledgeRelease() {
        _ = ioctl(descriptor.rawValue, UInt(VT_RELDISP), Int32(1))
        isActive = false
    }

    public func acknowledgeAcquire() {
        _ = ioctl(descriptor.rawValue, UInt(VT_RELDISP), Int32(VT_ACKACQ))
        isActive = true
    }
}
