import CDRM
import Glibc
import KioskSystem

/// An open DRM device node. The one owner of its file descriptor; every libdrm call goes
/// through here and fails with a `SystemError` naming the call.
public final class DRMCard {
    public let path: String
    let descriptor: OwnedDescriptor
    public var fd: Int32 { descriptor.rawValue }

    public init(path: String) throws(SystemError) {
        self.path = path
        descriptor = try OwnedDescriptor.open(path, O_RDWR)
    }

    /// Opens the card at `path` and reads its resources: where both choosing an output and
    /// listing the displays start, and fail alike when either step does.
    public static func openWithResources(path: String) throws(SystemError) -> (card: DRMCard, resources: Resources) {
        let card = try DRMCard(path: path)
        return (card, try card.resources())
    }

    /// `/dev/dri/card*` in numeric order. No folder (no DRM driver loaded) is no card; a folder
    /// that cannot be read is logged and no card.
    public static func cardPaths(in directory: String = "/dev/dri") -> [String] {
        let names: [String]
        do {
            names = try Directory.names(in: directory)
        } catch {
            if error.errno != ENOENT { Log.warning("listing the display cards: \(error)") }
            return []
        }
        return names.filter { $0.hasPrefix("card") && Int($0.dropFirst(4)) != nil }
            .sorted { Int($0.dropFirst(4))! < Int($1.dropFirst(4))! }.map { "\(directory)/\($0)" }
    }

    /// The kernel driver's name (`vkms`, `i915`, ...).
    public var driverName: String {
        guard let v = drmGetVersion(fd) else { return "unknown" }
        defer { drmFreeVersion(v) }
        return v.pointee.name.map { String(cString: $0) } ?? "unknown"
    }

    /// True when the card can do dumb buffers, the only kind the kiosk uses.
    public var supportsDumbBuffers: Bool {
        var value: UInt64 = 0
        return drmGetCap(fd, UInt64(DRM_CAP_DUMB_BUFFER), &value) == 0 && value != 0
    }

    // MARK: Resources

    public struct Resources: Sendable {
        public var connectors: [ConnectorID]
        public var crtcs: [CRTCID]
        public var encoders: [EncoderID]
    }

    public func resources() throws(SystemError) -> Resources {
        guard let res = drmModeGetResources(fd) else { throw .last("drmModeGetResources \(path)") }
        defer { drmModeFreeResources(res) }
        let r = res.pointee
        func ids<T>(_ p: UnsafeMutablePointer<UInt32>?, _ n: Int32, _ make: (UInt32) -> T) -> [T] {
            guard let p, n > 0 else { return [] }
            return UnsafeBufferPointer(start: p, count: Int(n)).map(make)
        }
        return Resources(
            connectors: ids(r.connectors, r.count_connectors) { ConnectorID(rawValue: $0) },
            crtcs: ids(r.crtcs, r.count_crtcs) { CRTCID(rawValue: $0) },
            encoders: ids(r.encoders, r.count_encoders) { EncoderID(rawValue: $0) })
    }

    /// Reads a connector; `probe` asks the driver to re-detect (slow on some hardware, used on hotplug).
    public func connector(_ id: ConnectorID, probe: Bool = true) throws(SystemError) -> ConnectorInfo {
        let ptr = probe ? drmModeGetConnector(fd, id.rawValue) : drmModeGetConnectorCurrent(fd, id.rawValue)
        guard let ptr else { throw .last("drmModeGetConnector \(id.rawValue)") }
        defer { drmModeFreeConnector(ptr) }
        let c = ptr.pointee
        let typeName = drmModeGetConnectorTypeName(c.connector_type).map { String(cString: $0) } ?? "Unknown"
        let state: ConnectionState
        switch c.connection {
        case DRM_MODE_CONNECTED: state = .connected
        case DRM_MODE_DISCONNECTED: state = .disconnected
        default: state = .unknown
        }
        let modes = c.modes.map { UnsafeBufferPointer(start: $0, count: Int(c.count_modes)).map(DisplayMode.init) } ?? []
        let encoders = c.encoders.map { UnsafeBufferPointer(start: $0, count: Int(c.count_encoders)).map { EncoderID(rawValue: $0) } } ?? []
        return ConnectorInfo(
            id: id, name: "\(typeName)-\(c.connector_type_id)", state: state, modes: modes, encoders: encoders,
            currentEncoder: c.encoder_id == 0 ? nil : EncoderID(rawValue: c.encoder_id),
            widthMillimetres: Int(c.mmWidth), heightMillimetres: Int(c.mmHeight))
    }

    /// The CRTC an encoder drives now, and the CRTCs it could drive (as indices into `resources().crtcs`).
    public func encoder(_ id: EncoderID) throws(SystemError) -> (current: CRTCID?, possibleMask: UInt32) {
        guard let e = drmModeGetEncoder(fd, id.rawValue) else { throw .last("drmModeGetEncoder \(id.rawValue)") }
        defer { drmModeFreeEncoder(e) }
        let crtc = e.pointee.crtc_id
        return (crtc == 0 ? nil : CRTCID(rawValue: crtc), e.pointee.possible_crtcs)
    }

    public func savedState(of crtc: CRTCID) throws(SystemError) -> SavedCRTC {
        guard let c = drmModeGetCrtc(fd, crtc.rawValue) else { throw .last("drmModeGetCrtc \(crtc.rawValue)") }
        defer { drmModeFreeCrtc(c) }
        let s = c.pointee
        return SavedCRTC(crtc: crtc, framebuffer: FramebufferID(rawValue: s.buffer_id), x: s.x, y: s.y,
                         mode: s.mode_valid != 0 ? DisplayMode(s.mode) : nil)
    }

    // MARK: Mode setting and flipping

    public func setCRTC(_ crtc: CRTCID, framebuffer: FramebufferID, connector: ConnectorID?, mode: DisplayMode?, x: UInt32 = 0, y: UInt32 = 0) throws(SystemError) {
        var connectorID = connector?.rawValue ?? 0
        var info = mode?.info ?? drmModeModeInfo()
        let count: Int32 = connector == nil ? 0 : 1
        try checkingNegativeErrno("drmModeSetCrtc") {
            withUnsafeMutablePointer(to: &connectorID) { conn in
                withUnsafeMutablePointer(to: &info) { m in
                    drmModeSetCrtc(fd, crtc.rawValue, framebuffer.rawValue, x, y, count == 0 ? nil : conn, count, mode == nil ? nil : m)
                }
            }
        }
    }

    /// Queues a flip to `framebuffer` at the next vblank; a flip-complete event carrying `token` follows.
    public func pageFlip(_ crtc: CRTCID, to framebuffer: FramebufferID, token: UInt64) throws(SystemError) {
        try checkingNegativeErrno("drmModePageFlip") {
            drmModePageFlip(fd, crtc.rawValue, framebuffer.rawValue, UInt32(DRM_MODE_PAGE_FLIP_EVENT), UnsafeMutableRawPointer(bitPattern: UInt(token)))
        }
    }

    public func addFramebuffer(width: Int, height: Int, handle: UInt32, pitch: UInt32) throws(SystemError) -> FramebufferID {
        var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (pitch, 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var id: UInt32 = 0
        let format = UInt32(fourcc: "XR24")
        try checkingNegativeErrno("drmModeAddFB2") {
            withUnsafeMutableBytes(of: &handles) { h in
                withUnsafeMutableBytes(of: &pitches) { p in
                    withUnsafeMutableBytes(of: &offsets) { o in
                        drmModeAddFB2(fd, UInt32(width), UInt32(height), format,
                                      h.baseAddress!.assumingMemoryBound(to: UInt32.self),
                                      p.baseAddress!.assumingMemoryBound(to: UInt32.self),
                                      o.baseAddress!.assumingMemoryBound(to: UInt32.self), &id, 0)
                    }
                }
            }
        }
        return FramebufferID(rawValue: id)
    }

    public func removeFramebuffer(_ id: FramebufferID) {
        _ = drmModeRmFB(fd, id.rawValue)
    }

    // MARK: Dumb buffers (owned by `DumbBuffer`, which frees them in its deinit)

    /// Creates a 32-bit-per-pixel dumb buffer: its GEM handle, bytes per row and size in bytes.
    func createDumbBuffer(width: Int, height: Int) throws(SystemError) -> (handle: UInt32, pitch: UInt32, size: Int) {
        var handle: UInt32 = 0, pitch: UInt32 = 0
        var size: UInt64 = 0
        try checkingNegativeErrno("drmModeCreateDumbBuffer \(width)x\(height)") {
            drmModeCreateDumbBuffer(fd, UInt32(width), UInt32(height), 32, 0, &handle, &pitch, &size)
        }
        return (handle, pitch, Int(size))
    }

    func destroyDumbBuffer(_ handle: UInt32) {
        _ = drmModeDestroyDumbBuffer(fd, handle)
    }

    /// Maps `size` bytes of a dumb buffer into memory, shared with the card.
    func mapDumbBuffer(_ handle: UInt32, size: Int) throws(SystemError) -> UnsafeMutableRawPointer {
        var offset: UInt64 = 0
        try checkingNegativeErrno("drmModeMapDumbBuffer") { drmModeMapDumbBuffer(fd, handle, &offset) }
        guard let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset)), map != MAP_FAILED else {
            throw .last("mmap dumb buffer")
        }
        return map
    }

    func unmapDumbBuffer(_ pixels: UnsafeMutableRawPointer, size: Int) {
        munmap(pixels, size)
    }

    // MARK: Properties

    /// The id and current value of the property `name` of a connector; nil when it has none.
    public func connectorProperty(_ connector: ConnectorID, named name: String) throws(SystemError) -> (id: UInt32, value: UInt64)? {
        guard let props = drmModeObjectGetProperties(fd, connector.rawValue, UInt32(DRM_MODE_OBJECT_CONNECTOR)) else {
            throw .last("drmModeObjectGetProperties connector \(connector.rawValue)")
        }
        defer { drmModeFreeObjectProperties(props) }
        for i in 0..<Int(props.pointee.count_props) {
            guard let prop = drmModeGetProperty(fd, props.pointee.props[i]) else { continue }
            defer { drmModeFreeProperty(prop) }
            let propName = withUnsafeBytes(of: prop.pointee.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if propName == name { return (prop.pointee.prop_id, props.pointee.prop_values[i]) }
        }
        return nil
    }

    /// Sets a connector property through the legacy interface (DPMS: the kernel maps it to the
    /// CRTC's active state on atomic drivers).
    public func setConnectorProperty(_ connector: ConnectorID, property: UInt32, value: UInt64) throws(SystemError) {
        try checkingNegativeErrno("drmModeConnectorSetProperty \(connector.rawValue)") {
            drmModeConnectorSetProperty(fd, connector.rawValue, property, value)
        }
    }

    // MARK: Master

    /// Gives the display up (VT switch, another program taking over).
    public func dropMaster() throws(SystemError) {
        try checkingNegativeErrno("drmDropMaster") { drmDropMaster(fd) }
    }

    public func setMaster() throws(SystemError) {
        try checkingNegativeErrno("drmSetMaster") { drmSetMaster(fd) }
    }
}

extension UInt32 {
    /// A DRM fourcc code from its four characters (`XR24` is XRGB8888).
    init(fourcc: StaticString) {
        precondition(fourcc.utf8CodeUnitCount == 4)
        let b = fourcc.utf8Start
        self = UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
    }
}
