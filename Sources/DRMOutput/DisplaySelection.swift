import Glibc
import KioskConfiguration
import KioskSystem

extension ModeRequest {
    /// The best of `modes` matching this request: right size, closest refresh, preferred first.
    public func pick(from modes: [DisplayMode]) -> DisplayMode? {
        let sized = modes.filter { $0.width == width && $0.height == height }
        if let hz = refresh {
            return sized.filter { abs($0.refreshRate - hz) < 1 }.min { abs($0.refreshRate - hz) < abs($1.refreshRate - hz) }
        }
        return sized.first { $0.isPreferred } ?? sized.max { $0.refreshRate < $1.refreshRate }
    }
}

public enum DisplayError: Error, CustomStringConvertible {
    case noDevice(searched: String)
    case noConnectedOutput(cards: [String])
    case unknownConnector(String, available: [String])
    case connectorDisconnected(String)
    case unknownMode(ModeRequest, connector: String, available: [String])
    case noCRTC(connector: String)
    case noDumbBuffers(card: String)
    case system(SystemError)

    public var description: String {
        switch self {
        case .noDevice(let dir):
            return "no DRM display device in \(dir) (no GPU or display driver?); use `kiosk render` to preview without a display"
        case .noConnectedOutput(let cards):
            return "no connected display on \(cards.joined(separator: ", ")); plug a display in or name a connector in the config"
        case .unknownConnector(let name, let available):
            return "connector \(name) does not exist; available: \(available.joined(separator: ", "))"
        case .connectorDisconnected(let name):
            return "connector \(name) has no display connected"
        case .unknownMode(let m, let connector, let available):
            return "mode \(m) is not offered by \(connector); available: \(available.joined(separator: ", "))"
        case .noCRTC(let connector):
            return "no free CRTC can drive \(connector)"
        case .noDumbBuffers(let card):
            return "\(card) does not support dumb buffers"
        case .system(let e):
            if e.errno == 13 /* EACCES */ || e.errno == 1 /* EPERM */ {
                return "\(e) (is the user in the `video` group, and is another program the DRM master?)"
            }
            return e.description
        }
    }
}

/// The card, connector, mode and CRTC chosen for output.
public struct DisplayChoice {
    public var card: DRMCard
    public var connector: ConnectorInfo
    public var mode: DisplayMode
    public var crtc: CRTCID
}

extension DisplayChoice {
    /// Finds the output described by `request`, with errors that list what exists.
    public static func find(_ request: DisplayRequest, directory: String = "/dev/dri") throws(DisplayError) -> DisplayChoice {
        let paths = request.card.map { [$0] } ?? DRMCard.cardPaths(in: directory)
        guard !paths.isEmpty else { throw .noDevice(searched: directory) }
        var lastError: DisplayError?
        var seenConnectors: [String] = []
        for path in paths {
            let card: DRMCard, resources: DRMCard.Resources
            do { (card, resources) = try DRMCard.openWithResources(path: path) } catch { lastError = .system(error); continue }
            guard card.supportsDumbBuffers else { lastError = .noDumbBuffers(card: path); continue }
            let connectors = resources.connectors.compactMap { try? card.connector($0) }
            seenConnectors += connectors.map { "\($0.name) (\($0.state.rawValue))" }
            let chosen: ConnectorInfo?
            if let name = request.connector {
                chosen = connectors.first { $0.name == name }
                if let c = chosen, c.state != .connected { throw .connectorDisconnected(name) }
            } else {
                chosen = connectors.first { $0.state == .connected && !$0.modes.isEmpty }
            }
            guard let connector = chosen else { continue }
            let mode: DisplayMode
            if let m = request.mode {
                guard let picked = m.pick(from: connector.modes) else {
                    throw .unknownMode(m, connector: connector.name, available: uniqueModeNames(connector.modes))
                }
                mode = picked
            } else {
                guard let preferred = connector.modes.first(where: \.isPreferred) ?? connector.modes.first else { continue }
                mode = preferred
            }
            guard let crtc = try? pickCRTC(card: card, resources: resources, connector: connector) else {
                throw .noCRTC(connector: connector.name)
            }
            return DisplayChoice(card: card, connector: connector, mode: mode, crtc: crtc)
        }
        if let name = request.connector { throw .unknownConnector(name, available: seenConnectors) }
        if let e = lastError, seenConnectors.isEmpty { throw e }
        throw .noConnectedOutput(cards: paths)
    }

    /// Whether waiting can cure `error`: at boot the kiosk may start before its display's driver
    /// has bound (no card, no connector yet) or before udev has given the card to the `video`
    /// group (EACCES); a panel may be plugged in later. A config naming what does not exist cannot.
    static func mayAppear(_ error: DisplayError) -> Bool {
        switch error {
        case .noDevice, .noConnectedOutput, .connectorDisconnected: return true
        case .system(let e): return e.errno == EACCES || e.errno == EPERM || e.errno == ENOENT || e.errno == ENODEV
        case .unknownConnector, .unknownMode, .noCRTC, .noDumbBuffers: return false
        }
    }

    /// `find`, waiting up to `patience` seconds for a display that may yet appear (`mayAppear`),
    /// looking again every `interval`. The kiosk's unit is ordered after none of the boot's device
    /// work, so that the menu comes up as soon as the card does, not after all of it. `stop` ends
    /// the wait early (a SIGTERM waiting for the loop); `clock` and `sleep` are injected for tests.
    public static func awaitAvailable(
        _ request: DisplayRequest, directory: String = "/dev/dri", patience: Double, interval: Double = 0.05,
        stop: () -> Bool = { false }, clock: () -> Double = MonotonicClock.now, sleep: (Double) -> Void = { usleep(UInt32($0 * 1e6)) }
    ) throws(DisplayError) -> DisplayChoice {
        let start = clock()
        var waiting = false
        while true {
            do {
                let choice = try find(request, directory: directory)
                if waiting { Log.info("display \(choice.card.path) ready after \(Int(((clock() - start) * 1000).rounded())) ms") }
                return choice
            } catch {
                guard mayAppear(error), clock() - start + interval <= patience, !stop() else { throw error }
                if !waiting { Log.info("waiting up to \(Int(patience)) s for a display: \(error)") }
                waiting = true
                sleep(interval)
            }
        }
    }

    static func uniqueModeNames(_ modes: [DisplayMode]) -> [String] {
        var seen = Set<String>()
        return modes.map(\.description).filter { seen.insert($0).inserted }
    }

    /// The CRTC already driving the connector, else the first its encoders can drive.
    static func pickCRTC(card: DRMCard, resources: DRMCard.Resources, connector: ConnectorInfo) throws(SystemError) -> CRTCID? {
        if let e = connector.currentEncoder, let current = try card.encoder(e).current { return current }
        for e in connector.encoders {
            let mask = try card.encoder(e).possibleMask
            for (i, crtc) in resources.crtcs.enumerated() where mask & (1 << UInt32(i)) != 0 { return crtc }
        }
        return nil
    }
}
