import KioskSystem

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
        let (handle, pitch, size) = try card.createDumbBuffer(width: width, height: height)
        let pixels: UnsafeMutableRawPointer
        do {
            pixels = try card.mapDumbBuffer(handle, size: size)
        } catch {
            card.destroyDumbBuffer(handle)
            throw error
        }
        let fb: FramebufferID
        do {
            fb = try card.addFramebuffer(width: width, height: height, handle: handle, pitch: pitch)
        } catch {
            card.unmapDumbBuffer(pixels, size: size)
            card.destroyDumbBuffer(handle)
            throw error
        }
        self.card = card
        self.width = width
        self.height = height
        self.pitch = Int(pitch)
        self.handle = handle
        self.size = size
        self.pixels = pixels
        self.framebuffer = fb
    }

    deinit {
        card.removeFramebuffer(framebuffer)
        card.unmapDumbBuffer(pixels, size: size)
        card.destroyDumbBuffer(handle)
    }

    /// The mapped pixels, for the copy from the shadow buffer; the pointer must not escape `body`.
    public func withPixels<R>(_ body: (UnsafeMutableRawPointer) throws -> R) rethrows -> R {
        try body(pixels)
    }
}
