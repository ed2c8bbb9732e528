import Glibc
@testable import KioskConfiguration
import Raster
import Testing
@testable import Kiosk

/// `docs/examples/world.toml`, a menu in thirteen scripts: it validates with no warning (no
/// character without a font on a machine with scripts/apt-packages.txt), and every screen renders
/// as `kiosk render` draws it, pixel for pixel against its golden.
@Suite(.serialized) struct WorldExampleTests {
    static let path = ConfigPaths.repository + "/docs/examples/world.toml"

    @Test func validatesWithoutWarnings() throws {
        let check = ConfigReader(path: Self.path, searchPath: "/usr/bin:/bin").check()
        #expect(check.isValid)
        #expect(check.problems.isEmpty, "\(check.report)")
    }

    @Test func everyScreenMatchesItsGolden() throws {
        let config = try #require(ConfigReader(path: Self.path).check().config)
        #expect(config.screens.count == 14)
        let dir = ScratchDirectory()
        for screen in config.screens {
            let file = dir.path + "/" + screen.name + ".png"
            try renderScreen(config, name: screen.name, width: 800, height: 480, rotation: .none, to: file)
            let frame = try PNGCodec.read(path: file)
            try goldens.expectMatches(frame, "world-\(screen.name)-800x480")
        }
    }
}
