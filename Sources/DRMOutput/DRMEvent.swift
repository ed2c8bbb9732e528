/// Events read from a DRM file descriptor. Parsed here from the kernel's `struct drm_event`
/// records rather than through libdrm's C callbacks, so no Swift closure crosses into C.
public enum DRMEvent: Equatable, Sendable {
    /// A page flip finished: the buffer it named is now on screen.
    case flipComplete(token: UInt64, sequence: UInt32, seconds: UInt32, microseconds: UInt32, crtc: UInt32)
    case vblank(token: UInt64, sequence: UInt32)
    case other(type: UInt32)

    static let vblankType: UInt32 = 0x01  // DRM_EVENT_VBLANK
    static let flipCompleteType: UInt32 = 0x02  // DRM_EVENT_FLIP_COMPLETE

    /// Splits a read() of the DRM fd into events; a truncated tail is ignored.
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> [DRMEvent] {
        var events: [DRMEvent] = []
        var at = 0
        func u32(_ o: Int) -> UInt32 { bytes.loadUnaligned(fromByteOffset: o, as: UInt32.self) }
        func u64(_ o: Int) -> UInt64 { bytes.loadUnaligned(fromByteOffset: o, as: UInt64.self) }
        while at + 8 <= bytes.count {
            let type = u32(at), length = Int(u32(at + 4))
            guard length >= 8, at + length <= bytes.count else { break }
            // struct drm_event_vblank: base(8), user_data(8), tv_sec, tv_usec, sequence, crtc_id.
            if (type == flipCompleteType || type == vblankType), length >= 32 {
                let token = u64(at + 8), sec = u32(at + 16), usec = u32(at + 20), seq = u32(at + 24), crtc = u32(at + 28)
                events.append(type == flipCompleteType
                    ? .flipComplete(token: token, sequence: seq, seconds: sec, microseconds: usec, crtc: crtc)
                    : .vblank(token: token, sequence: seq))
            } else {
                events.append(.other(type: type))
            }
            at += length
        }
        return events
    }
}
