import Glibc
@testable import KioskConfiguration
@testable import KioskSystem
@testable import MenuScreens
import Raster
import TestSupport
import Text
import Testing
@testable import Kiosk

/// A PNG whose header says `width` x `height` and whose image data is not deflate data at all: a
/// refusal from the header alone says so; any attempt to decode the pixels fails differently.
func pngWithHeaderOnly(width: Int, height: Int) -> [UInt8] {
    func be32(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
    func chunk(_ kind: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(kind.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return be32(data.count) + body + be32(Int(~crc))
    }
    let ihdr = be32(width) + be32(height) + [8, 6, 0, 0, 0]  // 8-bit RGBA, not interlaced
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr)
        + chunk("IDAT", Array("not deflate data".utf8)) + chunk("IEND", [])
}

@Suite struct ImageBoundTests {
    @Test func aHugeHeaderIsRefusedBeforeDecoding() throws {
        let dir = ScratchDirectory()
        let path = dir.write("huge.png", bytes: pngWithHeaderOnly(width: 8000, height: 8000))
        let refusal = RasterError.imageTooLarge(name: path, width: 8000, height: 8000, limit: 2048)
        #expect(refusal.description == "\(path): 8000x8000 is larger than the 2048x2048 the kiosk decodes; scale it down")
        #expect(throws: refusal) { try PNGCodec.header(path: path) }
        // A decode would have failed on the image data; this is the header's refusal.
        #expect(throws: refusal) { try PNGCodec.read(path: path) }
        let tall = dir.write("tall.png", bytes: pngWithHeaderOnly(width: 16, height: 2049))
        #expect(throws: RasterError.imageTooLarge(name: tall, width: 16, height: 2049, limit: 2048)) { try PNGCodec.read(path: tall) }
    }

    @Test func anAllowedHeaderIsReadWithoutThePixels() throws {
        let dir = ScratchDirectory()
        let path = dir.write("big.png", bytes: pngWithHeaderOnly(width: 2048, height: 1024))
        #expect(try PNGCodec.header(path: path) == PNGCodec.Header(width: 2048, height: 1024))
        // The pixel data is broken: only a decode finds it.
        #expect {
            try PNGCodec.read(path: path)
        } throws: { error in
            guard let error = error as? RasterError, case .png = error else { return false }
            return true
        }
    }

    @Test func checkConfigRefusesAnOversizeIconByItsHeader() throws {
        let dir = ScratchDirectory()
        let icon = dir.write("icon.png", bytes: pngWithHeaderOnly(width: 8000, height: 8000))
        let config = dir.write("kiosk.toml", minimalConfig().replacingOccurrences(of: "label = \"Hello\"", with: "label = \"Hello\"\nicon = \"icon.png\""))
        let check = ConfigReader(path: config, displayName: "kiosk.toml").check()
        #expect(!check.isValid)
        #expect(check.report == "kiosk.toml:6:8: screens.main.items[0].icon: \(icon): 8000x8000 is larger than the 2048x2048 the kiosk decodes; scale it down",
                "\(check.report)")
    }

    @Test func theImagesOfOneConfigAreBoundedTogether() throws {
        let dir = ScratchDirectory()
        // Four 2048x2048 images reach the budget exactly; the fifth goes beyond it.
        var items = ""
        for i in 1...5 {
            dir.write("icon\(i).png", bytes: pngWithHeaderOnly(width: 2048, height: 2048))
            items += "\n[[screens.main.items]]\nlabel = \"Item \(i)\"\nicon = \"icon\(i).png\"\naction = \"back\"\n"
        }
        let check = ConfigReader(path: dir.write("kiosk.toml", minimalConfig(items)), displayName: "kiosk.toml").check()
        let budget = check.problems.filter { $0.message.contains("the kiosk holds") }
        #expect(budget.count == 1, "\(check.report)")
        #expect(budget.first?.description == "kiosk.toml:30:8: screens.main.items[5].icon: \"\(dir.path)/icon5.png\" (2048x2048) brings "
                + "the images this config names to 20971520 pixels, more than the 16777216 (64 MiB decoded) the kiosk holds; use smaller images",
                "\(check.report)")
        // The four within the budget were decoded, which found their broken pixel data.
        #expect(check.problems.filter { $0.message.contains("cannot be loaded as a PNG") }.count == 4, "\(check.report)")
    }
}

@Suite struct LoadedAssetsTests {
    @Test func iconsAreDecodedOnceAndBrokenOnesLeftOut() throws {
        let dir = ScratchDirectory()
        let good = ConfigPaths.repository + "/systemd/icons/radio.png"
        let broken = dir.write("broken.png", bytes: pngWithHeaderOnly(width: 4, height: 4))
        let assets = try LoadedAssets.load(fontPath: Font.dejaVuSansPath, imagePaths: [good, broken, good])
        #expect(assets.images.count == 1)
        #expect(assets.image(good).map { ($0.width, $0.height) } ?? (0, 0) == (48, 48))
        #expect(assets.image(broken) == nil)
        #expect(assets.problems.count == 1 && assets.problems[0].hasPrefix("image \(broken) left out: "), "\(assets.problems)")
        let resources = ScreenResources(theme: ThemeConfig(), assets: assets, width: 800, height: 480)
        #expect(resources.icon(good) === assets.image(good))
    }

    @Test func aConfigNamesItsTilesAndIcons() throws {
        let dir = ScratchDirectory()
        let text = "home = \"main\"\n" + minimalConfig("""

            [background]
            pattern = "image"
            image = "tile.png"

            [[screens.main.items]]
            label = "Icon"
            icon = "a.png"
            action = "back"

            [[screens.main.items]]
            label = "Same icon"
            icon = "a.png"
            action = "back"

            [screens.other]
            style = "dial"
            [screens.other.background]
            pattern = "checker"
            image = "unused.png"
            [[screens.other.items]]
            label = "B"
            icon = "b.png"
            action = "back"
            """)
        let result = ConfigReader.decode(text: text, file: "kiosk.toml", baseDirectory: dir.path)
        let decoded = try #require(result.config, "\(lines(result.problems))\n\(text)")
        #expect(decoded.imagePaths == ["tile.png", "a.png", "b.png"].map { dir.path + "/" + $0 })
    }
}

/// The worker loads on its own thread; the tests wait on its descriptor or run a loop, never a clock.
@Suite struct ConfigLoadWorkerTests {
    static func config(title: String) -> String {
        minimalConfig().replacingOccurrences(of: "[screens.main]", with: "[screens.main]\ntitle = \"\(title)\"")
    }

    /// Renames `text` over `path`, as a fleet pushes a config.
    static func replace(_ dir: ScratchDirectory, _ text: String) {
        let temporary = dir.write(".kiosk.toml.new", text)
        rename(temporary, dir.path + "/kiosk.toml")
    }

    /// Waits (without a deadline that could fail the test: 60 s only against a hang) for the
    /// worker's descriptor to become readable.
    static func waitForResult(_ worker: ConfigLoadWorker) {
        var pfd = pollfd(fd: worker.completionDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&pfd, 1, Patience.milliseconds)
    }

    static func title(_ loaded: LoadedConfig?) -> String? { loaded?.check.config?.screens.first?.title }

    @Test func aNewerRequestSupersedesAFinishedOne() throws {
        let dir = ScratchDirectory()
        Self.replace(dir, Self.config(title: "First"))
        let worker = try ConfigLoadWorker(path: dir.path + "/kiosk.toml")
        let first = worker.request()
        Self.waitForResult(worker)  // the first load has finished and waits to be taken
        Self.replace(dir, Self.config(title: "Second"))
        let second = worker.request()
        #expect(second == first + 1)
        var delivered: [LoadedConfig] = []
        while worker.isLoading {
            Self.waitForResult(worker)
            if let result = worker.takeResult() { delivered.append(result) }
        }
        #expect(delivered.map(\.request) == [second])
        #expect(Self.title(delivered.first) == "Second")
        #expect(delivered.first?.assets != nil)
    }

    @Test func requestsInARowDeliverOnlyTheLastThroughTheLoop() throws {
        let dir = ScratchDirectory()
        Self.replace(dir, Self.config(title: "One"))
        let worker = try ConfigLoadWorker(path: dir.path + "/kiosk.toml")
        let loop = try EventLoop()
        var delivered: [LoadedConfig] = []
        try worker.attach(to: loop) { delivered.append($0) }
        worker.request()
        Self.replace(dir, Self.config(title: "Two"))
        worker.request()
        Self.replace(dir, Self.config(title: "Three"))
        let last = worker.request()
        while worker.isLoading { try loop.runOnce(timeout: Patience.seconds) }
        #expect(delivered.map(\.request) == [last])
        #expect(Self.title(delivered.first) == "Three")
    }

    @Test func anInvalidFileIsDeliveredWithItsProblemsAndNoAssets() throws {
        let dir = ScratchDirectory()
        let icon = dir.write("icon.png", bytes: pngWithHeaderOnly(width: 8000, height: 8000))
        Self.replace(dir, minimalConfig().replacingOccurrences(of: "label = \"Hello\"", with: "label = \"Hello\"\nicon = \"icon.png\""))
        let worker = try ConfigLoadWorker(path: dir.path + "/kiosk.toml", displayName: "kiosk.toml")
        worker.request()
        Self.waitForResult(worker)
        let result = try #require(worker.takeResult())
        #expect(!result.check.isValid && result.assets == nil)
        #expect(result.check.report.hasSuffix("\(icon): 8000x8000 is larger than the 2048x2048 the kiosk decodes; scale it down"))
        #expect(!worker.isLoading)
    }
}
