import CDRM
import Glibc

/// A dumb buffer with its mapping and framebuffer: the one owner of all three, released in deinit.
///
/// Its memory may be write-combined: the kiosk only writes it, except for the rare screenshot.
public final class DumbBuffer {
    public let card: DRMCard
    public let width: Int
    public let height: Int
    public let pitch: Int
    public let framebuffer: FramebufferID
    let handle: UInt32
    let size: Int
    let pixels: UnsafeMutableRawPointer

    public init(card: DRMCard, width: Int, height: Int) throws(SystemError) {
        var handle: UInt32 = 0, pitch: UInt32 = 0
        var size: UInt64 = 0
        try checkingNegativeErrno("drmModeCreateDumbBuffer \(width)x\(height)") {
            drmModeCreateDumbBuffer(card.fd, UInt32(width), UInt32(height), 32, 0, &handle, &pitch, &size)
        }
        var offset: UInt64 = 0
        do {
            try checkingNegativeErrno("drmModeMapDumbBuffer") { drmModeMapDumbBuffer(card.fd, handle, &offset) }
        } catch {
            _ = drmModeDestroyDumbBuffer(card.fd, handle)
            throw error
        }
        let map = mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, card.fd, off_t(offset))
        guard let map, map != MAP_FAILED else {
            let e = SystemError.last("mmap dumb buffer")
            _ = drmModeDestroyDumbBuffer(card.fd, handle)
            throw e
        }
        let fb: FramebufferID
        do {
            fb = try card.addFramebuffer(width: width, height: height, handle: handle, pitch: pitch)
        } catch {
            munmap(map, Int(size))
            _ = drmModeDestroyDumbBuffer(card.fd, handle)
            throw error
        }
        self.card = card
        self.width = width
        self.height = height
        self.pitch = Int(pitch)
        self.handle = handle
        self.size = Int(size)
        self.pixels = map
        self.framebuffer = fb
    }

    deinit {
        card.removeFramebuffer(framebuffer)
        munmap(pixels, size)
        _ = drmModeDestroyDumbBuffer(card.fd, handle)
    }

    /// The mapped pixels, for the copy from the shadow buffer; the pointer must not escape `body`.
    public func withPixels<R>(_ body: (UnsafeMutableRawPointer) throws -> R) rethrows -> R {
        try body(pixels)
    }
}
