import Geometry
import Kiosk
@testable import KioskConfiguration
import LayoutCore
@testable import MenuScreens
import Raster
import Testing
import TestSupport

/// The screens drawn through the plate and label caches of `ScreenResources` against the same
/// screens drawn plainly (no caches), at rest and while the selection moves.
@Suite struct DrawingCacheScreenTests {
    /// As `DrawingCacheTests.plateTolerance`: plates are recorded on a 1/16 px grid.
    static let tolerance: UInt32 = 12

    func compare(_ make: (ScreenResources) throws -> MenuScreen) throws {
        let plainResources = try ScreenFixtures.resources()
        plainResources.plates = nil
        plainResources.labels = nil
        let cachedResources = try ScreenFixtures.resources()
        let plain = try make(plainResources), cached = try make(cachedResources)
        for step in 0..<8 {
            let now = Double(step) * 0.04
            if step == 1 {
                for screen in [plain, cached] { screen.handle(.command(.next, count: 1), now: now) }
            }
            let a = try ScreenFixtures.frame(of: plain, now: now), b = try ScreenFixtures.frame(of: cached, now: now)
            let d = channelDifference(a, b)
            #expect(d.worst <= Self.tolerance, "\(cached.config.name) step \(step): \(d)")
        }
        #expect((cachedResources.plates?.count ?? 0) > 0 && (cachedResources.labels?.count ?? 0) > 0)
    }

    @Test func arc() throws {
        try compare { try ArcScreen(config: ScreenFixtures.arcConfig(), style: ArcStyle(rowsVisible: 7, rowLength: 0.3, wrap: true),
                                    resources: $0, showsBack: true) }
    }

    @Test func list() throws {
        try compare { try ListScreen(config: ScreenFixtures.listConfig(), style: ListStyle(columns: 2, rowHeight: 0.1),
                                     resources: $0, showsBack: false) }
    }

    @Test func dial() throws {
        try compare { try DialScreen(config: ScreenFixtures.dialConfig(), style: DialStyle(), resources: $0, showsBack: false) }
    }
}
