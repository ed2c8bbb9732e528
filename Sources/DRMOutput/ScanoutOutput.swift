import Geometry
import CDRM
import Glibc
import KioskSystem
import Raster

/// How the panel was turned off, so that it is turned on the same way.
public enum PanelBlanking: Equatable, Sendable {
    case dpms(property: UInt32)
    case inactiveCRTC
}

/// The screen, through two dumb buffers and page flips.
///
/// The kiosk draws into an ordinary-memory shadow buffer in logical orientation; a frame copies
/// only damaged rectangles into the back buffer (rotating them), then flips. Each buffer keeps
/// the damage it has not yet received, so a buffer that missed a frame catches up on the next.
/// A buffer is written only after the flip event says it is off screen: no tearing.
public final class ScanoutOutput {
    public let card: DRMCard
    public let connector: ConnectorInfo
    public let mode: DisplayMode
    public let crtc: CRTCID
    public let rotation: DisplayRotation
    /// What the CRTC showed before the kiosk; put back by `restore()`.
    public let saved: SavedCRTC?
    private var buffers: [DumbBuffer]
    private var owed: [DamageRegion]
    private let copier: ScanoutCopy
    /// Index of the buffer on screen.
    public private(set) var front = 0
    public private(set) var flipPending = false
    private var flipToken: UInt64 = 0
    /// Flips completed since the mode was set.
    public private(set) var completedFlips = 0
    /// How many vblanks passed between consecutive flips (1 = every refresh), counted.
    public private(set) var vblankGaps: [UInt32: Int] = [:]
    private var lastSequence: UInt32?
    /// When the last completed flip reached the screen (the kernel's CLOCK_MONOTONIC stamp, seconds).
    public private(set) var lastFlipTime: Double?

    /// Makes the buffers; the CRTC is left as it is (a boot splash, the console) until the first
    /// frame is shown by `presentBySettingMode`: the first thing scanned out is a whole frame,
    /// never a black buffer, and where the mode already matches no mode set is visible.
    public init(choice: DisplayChoice, rotation: DisplayRotation) throws(SystemError) {
        card = choice.card
        connector = choice.connector
        mode = choice.mode
        crtc = choice.crtc
        self.rotation = rotation
        saved = try? card.savedState(of: crtc)
        let a = try DumbBuffer(card: card, width: mode.width, height: mode.height)
        let b = try DumbBuffer(card: card, width: mode.width, height: mode.height)
        buffers = [a, b]
        let logical = rotation.logicalSize(forPanel: Size(width: Double(mode.width), height: Double(mode.height)))
        copier = ScanoutCopy(rotation: rotation, logicalWidth: Int(logical.width), logicalHeight: Int(logical.height))
        owed = [DamageRegion(), DamageRegion()]
        invalidateAll()
    }

    /// Size the layout sees: the panel's, turned by the rotation.
    public var logicalWidth: Int { copier.logicalWidth }
    public var logicalHeight: Int { copier.logicalHeight }
    public var logicalBounds: PixelRect { PixelRect(x: 0, y: 0, width: logicalWidth, height: logicalHeight) }

    /// Both buffers owe the whole screen (after a mode set or a regained display).
    public func invalidateAll() {
        for i in owed.indices {
            owed[i].removeAll()
            owed[i].add(logicalBounds)
        }
    }

    /// Copies what the back buffer is owed from `shadow` and queues a flip to it.
    /// Returns false (and does nothing) while the previous flip has not completed.
    @discardableResult
    public func present(_ shadow: PixelBuffer, damage: [PixelRect]) throws(SystemError) -> Bool {
        guard !flipPending else { return false }
        for i in owed.indices {
            for r in damage { owed[i].add(r, within: logicalBounds) }
        }
        let back = 1 - front
        copy(owed[back].rects, from: shadow, into: buffers[back])
        owed[back].removeAll()
        flipToken &+= 1
        try card.pageFlip(crtc, to: buffers[back].framebuffer, token: flipToken)
        flipPending = true
        return true
    }

    /// Shows the back buffer at once with a mode set (no flip event): the first frame, and the
    /// first after regaining the display. Where the CRTC already runs this mode, the kernel only
    /// changes the buffer it scans out.
    public func presentBySettingMode(_ shadow: PixelBuffer) throws(SystemError) {
        invalidateAll()
        let back = 1 - front
        copy(owed[back].rects, from: shadow, into: buffers[back])
        owed[back].removeAll()
        try card.setCRTC(crtc, framebuffer: buffers[back].framebuffer, connector: connector.id, mode: mode)
        front = back
        flipPending = false
        // The mode set returns once the frame is on screen; it has no flip event and no sequence.
        lastFlipTime = MonotonicClock.now()
        lastSequence = nil
    }

    /// Turns the panel off: DPMS off through the connector's property or, without one (or when
    /// the driver refuses it), the CRTC made inactive. Says how, for `panelOn`.
    public func panelOff() throws(SystemError) -> PanelBlanking {
        do {
            if let dpms = try card.connectorProperty(connector.id, named: "DPMS") {
                try card.setConnectorProperty(connector.id, property: dpms.id, value: UInt64(DRM_MODE_DPMS_OFF))
                return .dpms(property: dpms.id)
            }
            if !saidNoDPMS { Log.info("\(connector.name) has no DPMS property: the panel is blanked by making the CRTC inactive") }
        } catch {
            if !saidNoDPMS { Log.warning("DPMS off on \(connector.name): \(error); the panel is blanked by making the CRTC inactive") }
        }
        saidNoDPMS = true
        try card.setCRTC(crtc, framebuffer: FramebufferID(rawValue: 0), connector: nil, mode: nil)
        return .inactiveCRTC
    }
    private var saidNoDPMS = false

    /// DPMS on after `panelOff` turned it off that way (a mode set also turns it on for atomic
    /// drivers; this is for the others, and for putting the console back).
    public func dpmsOn(_ blanking: PanelBlanking) {
        guard case .dpms(let property) = blanking else { return }
        do {
            try card.setConnectorProperty(connector.id, property: property, value: UInt64(DRM_MODE_DPMS_ON))
        } catch {
            Log.warning("DPMS on on \(connector.name): \(error)")
        }
    }

    private func copy(_ rects: [PixelRect], from shadow: PixelBuffer, into buffer: DumbBuffer) {
        buffer.withPixels { copier.copy(rects, from: shadow, to: $0, destinationStride: buffer.pitch) }
    }

    /// Reads pending events from the card; returns true if our flip completed.
    public func handleEvents() throws(SystemError) -> Bool {
        var completed = false
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 8)
        defer { storage.deallocate() }
        while true {
            let n = try card.descriptor.read(into: storage)
            guard n > 0 else { break }
            let events = DRMEvent.parse(UnsafeRawBufferPointer(rebasing: storage[0..<n]))
            for case .flipComplete(let token, let sequence, let sec, let usec, _) in events {
                guard token == flipToken, flipPending else {
                    Log.warning("unexpected flip event \(token) (expected \(flipPending ? "\(flipToken)" : "none"))")
                    continue
                }
                front = 1 - front
                flipPending = false
                completedFlips += 1
                if let last = lastSequence { vblankGaps[sequence &- last, default: 0] += 1 }
                lastSequence = sequence
                lastFlipTime = Double(sec) + Double(usec) / 1e6
                completed = true
            }
            if n < storage.count { break }
        }
        return completed
    }

    /// A copy of what is on screen now, in panel orientation, read from the scanout buffer itself
    /// (slow on write-combined memory; for screenshots only).
    public func screenshot() throws(RasterError) -> PixelBuffer {
        let b = buffers[front]
        let image = try PixelBuffer(width: b.width, height: b.height, format: .xrgb8888)
        b.withPixels { src in
            image.withUnsafePixels { dst, stride in
                for y in 0..<b.height {
                    (dst + y * stride).copyMemory(from: src + y * b.pitch, byteCount: b.width * 4)
                }
            }
        }
        return image
    }

    /// Puts back the CRTC as it was before the kiosk (or turns it off when nothing was there).
    public func restore() {
        if let s = saved, s.framebuffer.rawValue != 0, let m = s.mode {
            if (try? card.setCRTC(s.crtc, framebuffer: s.framebuffer, connector: connector.id, mode: m, x: s.x, y: s.y)) != nil {
                return
            }
        }
        try? card.setCRTC(crtc, framebuffer: FramebufferID(rawValue: 0), connector: nil, mode: nil)
    }
}
