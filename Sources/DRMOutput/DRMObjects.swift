import CDRM
import KioskConfiguration

/// Typed ids so that a connector id is never passed where a CRTC id is wanted.
public struct ConnectorID: RawRepresentable, Hashable, Sendable { public var rawValue: UInt32; public init(rawValue: UInt32) { self.rawValue = rawValue } }
public struct CRTCID: RawRepresentable, Hashable, Sendable { public var rawValue: UInt32; public init(rawValue: UInt32) { self.rawValue = rawValue } }
public struct EncoderID: RawRepresentable, Hashable, Sendable { public var rawValue: UInt32; public init(rawValue: UInt32) { self.rawValue = rawValue } }
public struct FramebufferID: RawRepresentable, Hashable, Sendable { public var rawValue: UInt32; public init(rawValue: UInt32) { self.rawValue = rawValue } }

/// A display mode as the kernel describes it; `info` is kept verbatim for mode setting.
public struct DisplayMode: Hashable, @unchecked Sendable, CustomStringConvertible {
    public let info: drmModeModeInfo

    public init(_ info: drmModeModeInfo) { self.info = info }

    public var width: Int { Int(info.hdisplay) }
    public var height: Int { Int(info.vdisplay) }
    public var isPreferred: Bool { info.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 }
    public var isInterlaced: Bool { info.flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0 }

    /// Refresh rate in Hz, from the pixel clock and totals (more precise than `vrefresh`).
    public var refreshRate: Double {
        let total = Double(info.htotal) * Double(info.vtotal)
        guard total > 0 else { return Double(info.vrefresh) }
        var hz = Double(info.clock) * 1000 / total
        if isInterlaced { hz *= 2 }
        return hz
    }

    public var description: String {
        "\(width)x\(height)@\(refreshRate.formattedHz)\(isInterlaced ? "i" : "")\(isPreferred ? " (preferred)" : "")"
    }

    public static func == (a: DisplayMode, b: DisplayMode) -> Bool {
        withUnsafeBytes(of: a.info) { x in withUnsafeBytes(of: b.info) { y in x.elementsEqual(y) } }
    }

    public func hash(into h: inout Hasher) {
        withUnsafeBytes(of: info) { h.combine(bytes: $0) }
    }
}

public enum ConnectionState: String, Sendable {
    case connected, disconnected, unknown
}

/// A connector as read from the card: its name (`HDMI-A-1`), state, modes and encoders.
public struct ConnectorInfo: Sendable {
    public var id: ConnectorID
    public var name: String
    public var state: ConnectionState
    public var modes: [DisplayMode]
    public var encoders: [EncoderID]
    public var currentEncoder: EncoderID?
    /// Physical size in millimetres, when the panel reports it.
    public var widthMillimetres: Int
    public var heightMillimetres: Int
}

/// What a CRTC showed before the kiosk took it, to put back on exit.
public struct SavedCRTC: Sendable {
    public var crtc: CRTCID
    public var framebuffer: FramebufferID
    public var x: UInt32
    public var y: UInt32
    public var mode: DisplayMode?
}
