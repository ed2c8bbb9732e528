import Foundation
import Glibc
@testable import KioskConfiguration
import KioskSystem
import Raster
import Testing

/// SVG icons are parsed and rendered in `kiosk svg-worker`, never in the kiosk's process: an SVG
/// that makes librsvg panic, run for seconds or allocate without end costs the worker, and the
/// config load goes on with the other icons. The worker is the `kiosk` built beside this test
/// bundle (`SVGRenderer.executable`).
@Suite struct SVGWorkerTests {
    static let hostile = ConfigPaths.fixture("hostile-svg")
    static let good = IconTests.themes + "/Kiosk-Test/scalable/actions/test-home-symbolic.svg"

    /// The hostile fixtures panic (convolve) and run for seconds (turbulence) in librsvg 2.54,
    /// Debian 12's; 2.60 (Debian 13's, the aarch64 tests' root) draws both at once. Where librsvg
    /// has the bug the worker must contain it; where it has not, the icon must load and draw.
    /// (The version from librsvg's exported variables, the library opened here as the kiosk opens it.)
    static let librsvgHasTheBugs: Bool = {
        guard let library = dlopen("librsvg-2.so.2", RTLD_NOW | RTLD_LOCAL),
              let major = dlsym(library, "rsvg_major_version"), let minor = dlsym(library, "rsvg_minor_version") else { return true }
        return (Int(major.load(as: UInt32.self)), Int(minor.load(as: UInt32.self))) <= (2, 54)
    }()

    static func config(_ icons: [String]) throws -> KioskConfig {
        try IconTests.decode(icons.enumerated().map { IconTests.item("Item \($0.offset)", $0.element) }.joined(separator: "\n"))
    }

    @Test func theWorkerIsFound() {
        #expect(SVGRenderer.executable != nil, "no kiosk beside the test bundle: build it (swift build)")
    }

    /// Every request and reply survives its frame, and a header announcing more than any render
    /// is refused before a byte of it is read.
    @Test func framesRoundTrip() {
        let requests: [SVGWorkerMessage.Request] = [.load(id: 7, name: "ä.svg", data: Array("<svg/>".utf8)), .render(id: 7, side: 2048),
                                                    .decodePNG(name: "ö.png", data: [0x89, 0x50])]
        for request in requests {
            let bytes = SVGWorkerMessage.encode(request)
            let header = SVGWorkerMessage.decodeHeader(Array(bytes[..<SVGWorkerMessage.headerSize]))
            #expect(header.flatMap { SVGWorkerMessage.decodeRequest($0, payload: Array(bytes[SVGWorkerMessage.headerSize...])) } == request)
        }
        let replies: [SVGWorkerMessage.Reply] = [.loaded(width: 48, height: 24, cpuSeconds: 0.25), .loaded(width: nil, height: nil, cpuSeconds: 0),
                                                 .rendered(side: 2, pixels: Array(0..<16), cpuSeconds: 1.5), .refused("no", cpuSeconds: 3),
                                                 .decoded(width: 2, height: 1, pixels: Array(0..<8), cpuSeconds: 0.5)]
        for reply in replies {
            let bytes = SVGWorkerMessage.encode(reply)
            let header = SVGWorkerMessage.decodeHeader(Array(bytes[..<SVGWorkerMessage.headerSize]))
            #expect(header.flatMap { SVGWorkerMessage.decodeReply($0, payload: Array(bytes[SVGWorkerMessage.headerSize...])) } == reply)
        }
        var huge = SVGWorkerMessage.encode(.render(id: 1, side: 1))
        huge[21] = 0xFF; huge[22] = 0xFF; huge[23] = 0xFF; huge[24] = 0x7F
        #expect(SVGWorkerMessage.decodeHeader(Array(huge[..<SVGWorkerMessage.headerSize])) == nil)
    }

    /// The worker draws what librsvg in this process draws, pixel for pixel.
    @Test func theWorkersRenderEqualsAnInProcessOne() throws {
        let renderer = SVGRenderer()
        let id = try renderer.load(try SVGDocument.readFile(Self.good), name: Self.good).get().id
        for side in [1, 17, 64, 300] {
            let render = renderer.render(id, side: side)
            let image = try #require(render.image, "\(render.problem ?? "")")
            let reference = try SVGDocument(path: Self.good).render(width: side, height: side)
            #expect(image.hasSamePixels(as: reference), "side \(side)")
        }
        #expect(renderer.workersEnded == 0)
    }

    /// librsvg and its ~30 libraries are opened by the worker, at its first SVG, never by the
    /// kiosk itself: `kiosk check-config` of a config with an SVG icon loads the icon, and the
    /// dynamic loader's log of the kiosk's own process (LD_DEBUG=files; the worker's environment
    /// does not carry it) lists its libraries but not librsvg.
    @Test func onlyTheWorkerOpensLibrsvg() throws {
        let executable = try #require(SVGRenderer.executable)
        let scratch = ScratchDirectory()
        let config = scratch.write("kiosk.toml", """
            [screens.main]
            style = "arc"

            [[screens.main.items]]
            label = "Home"
            icon = "\(Self.good)"
            action = "back"
            """)
        let logs = scratch.path + "/ld"
        var environment = Spawn.currentEnvironment.filter { !$0.hasPrefix("LD_DEBUG") }
        environment += ["LD_DEBUG=files", "LD_DEBUG_OUTPUT=\(logs)"]
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        let pid = try Spawn.start(argv: [executable, "check-config", config], environment: environment, input: .null, output: .descriptor(fds[1]))
        close(fds[1])
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fds[0], &buffer, buffer.count)
            if n <= 0 { break }
            output += buffer[..<n]
        }
        close(fds[0])
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        let said = String(decoding: output, as: UTF8.self)
        #expect((status >> 8) & 0xFF == 0 && said.contains("OK") && !said.contains("cannot be loaded"), "\(said)")
        let kiosk = try String(contentsOfFile: "\(logs).\(pid)", encoding: .utf8)
        #expect(kiosk.contains("libc.so"), "the log of the kiosk's own process lists no library at all")
        #expect(!kiosk.contains("librsvg"), "the kiosk's own process opened librsvg")
    }

    /// A worker started ahead of its first request (a config load starts it before the font, to
    /// start up meanwhile) is the one that request uses: one process, not two.
    @Test func aWorkerStartedAheadServesTheFirstRequest() throws {
        let renderer = SVGRenderer()
        #expect(renderer.workersStarted == 0)
        renderer.start()
        renderer.start()
        #expect(renderer.workersStarted == 1)
        let id = try renderer.load(try SVGDocument.readFile(Self.good), name: Self.good).get().id
        #expect(renderer.render(id, side: 16).image != nil)
        #expect(renderer.workersStarted == 1)
        #expect(renderer.workersEnded == 0)
    }

    /// Text in an SVG needs fontconfig and the system's fonts, which the confined worker may
    /// still read: it draws the text as this (unconfined) process does.
    @Test func theConfinedWorkerStillDrawsAnSVGsText() throws {
        let text = Array("""
            <svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#204060"/>\
            <text x="4" y="40" font-family="DejaVu Sans" font-size="28" fill="#ffffff">Ag</text></svg>
            """.utf8)
        let renderer = SVGRenderer()
        let id = try renderer.load(text, name: "text.svg").get().id
        let render = renderer.render(id, side: 64)
        let image = try #require(render.image, "\(render.problem ?? "")")
        let reference = try SVGDocument(data: text, name: "text.svg").render(width: 64, height: 64)
        #expect(image.hasSamePixels(as: reference))
        let background = try SVGDocument(data: Array(##"<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#204060"/></svg>"##.utf8),
                                         name: "plain.svg").render(width: 64, height: 64)
        #expect(!image.hasSamePixels(as: background), "no text was drawn")
    }

    /// What an SVG that took over librsvg in the worker would try is refused: writing a file,
    /// reading one of the kiosk's, a socket, a program, a signal to the kiosk; the system's files
    /// stay readable. (`kiosk svg-worker --probe` confines itself exactly as the worker does.)
    /// Not where the kernel has no Landlock: the aarch64 tests' qemu-user (7.2) has neither its
    /// system calls nor seccomp (it refuses a filter, which would apply to the host's calls).
    @Test(.enabled(if: LaunchConfinement.isAvailable, "no Landlock here"))
    func theWorkerCanNeitherWriteNorReadTheKiosksFilesNorReachOut() throws {
        let executable = try #require(SVGRenderer.executable)
        let scratch = ScratchDirectory()
        let secret = scratch.write("kiosk.toml", "pin = \"secret\"\n")
        let (output, status) = try Self.run([executable, "svg-worker", "--probe", "--write", scratch.path + "/planted", "--read", secret])
        #expect(status == 0, "\(output)")
        #expect(output.contains("write \(scratch.path)/planted: refused"), "\(output)")
        #expect(output.contains("read \(secret): refused"), "\(output)")
        #expect(output.contains("read /usr: allowed"), "\(output)")
        for refused in ["socket AF_INET: refused", "socket AF_UNIX: refused", "start /bin/true: refused", "signal the parent"] {
            #expect(output.contains(refused), "\(output)")
        }
        #expect(access(scratch.path + "/planted", F_OK) != 0)
    }

    /// Runs `argv`, returns its standard output and exit status.
    static func run(_ argv: [String]) throws -> (String, Int32) {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        let pid = try Spawn.start(argv: argv, environment: Spawn.currentEnvironment, input: .null, output: .descriptor(fds[1]))
        close(fds[1])
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fds[0], &buffer, buffer.count)
            if n <= 0 { break }
            bytes += buffer[..<n]
        }
        close(fds[0])
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        return (String(decoding: bytes, as: UTF8.self), (status >> 8) & 0xFF)
    }

    /// librsvg 2.54 panics on this filter: the worker dies, the icon is refused with a reason, the
    /// good icons on either side of it load, and this process is still here to tell.
    @Test func anSVGThatCrashesTheRendererIsRefusedAndTheRestLoad() throws {
        let panic = Self.hostile + "/convolve-panic.svg"
        let config = try Self.config([Self.good, panic, IconTests.themes + "/Kiosk-Base/scalable/apps/test-base.svg"])
        let assets = ConfigAssets.decode(config)
        #expect(assets.vectors[Self.good] != nil && assets.vectors[IconTests.themes + "/Kiosk-Base/scalable/apps/test-base.svg"] != nil)
        guard Self.librsvgHasTheBugs else {
            #expect(assets.vectors[panic]?.image(side: 40, tint: .original) != nil, "\(assets.imageProblems)")
            return
        }
        #expect(assets.vectors[panic] == nil)
        let problem = try #require(assets.imageProblems[panic])
        #expect(problem.contains("the SVG renderer crashed"), "\(problem)")
        // The icon after the crash renders in a new worker.
        #expect(assets.vectors[IconTests.themes + "/Kiosk-Base/scalable/apps/test-base.svg"]?.image(side: 40, tint: .original) != nil)
    }

    /// An image inside the SVG (a `data:` URI) that decodes to 576 MB: refused by its header
    /// before librsvg sees the document, naming its size, as check-config says; this process
    /// never holds it.
    @Test func anImageHiddenInADataURIIsRefusedByItsSize() throws {
        let bomb = Self.hostile + "/data-uri-12000.svg"
        let before = Self.residentKiB()
        let assets = ConfigAssets.decode(try Self.config([bomb]))
        #expect(assets.vectors[bomb] == nil)
        let problem = try #require(assets.imageProblems[bomb])
        #expect(problem.contains("embedded image 1 is a 12000x12000 PNG, over the 2048 pixels a side"), "\(problem)")
        #expect(Self.residentKiB() - before < 64 * 1024, "this process grew by \(Self.residentKiB() - before) KiB")
    }

    /// A filter that runs for seconds: refused (over the render budget, or ended by the worker's
    /// CPU limit); a later render of it on the loop, with the loop's short wall limit, gives up
    /// rather than wait.
    @Test func aFilterThatRunsForSecondsIsRefusedOrEnded() throws {
        let stall = Self.hostile + "/turbulence-stall.svg"
        let renderer = SVGRenderer()
        let id = try renderer.load(try SVGDocument.readFile(stall), name: stall).get().id
        renderer.wallLimit = 0.05
        let started = MonotonicClock.now()
        let render = renderer.render(id, side: 1024)
        guard Self.librsvgHasTheBugs else {
            // Fast enough for the load's budget (a render as large as 1024 px may still take
            // longer than the 50 ms given here).
            let assets = ConfigAssets.decode(try Self.config([Self.good, stall]))
            #expect(assets.vectors[stall] != nil && assets.vectors[Self.good] != nil, "\(assets.imageProblems)")
            return
        }
        #expect(render.image == nil)
        #expect(MonotonicClock.now() - started < 2, "the render held its caller for \(MonotonicClock.now() - started) s")
        #expect(renderer.render(id, side: 1024).problem == render.problem, "given up, not tried again")
        let assets = ConfigAssets.decode(try Self.config([Self.good, stall]), cost: { $0 > 0.5 ? 10 : $0 })
        #expect(assets.vectors[stall] == nil && assets.vectors[Self.good] != nil, "\(assets.imageProblems)")
    }

    static func residentKiB() -> Int {
        let status = String(decoding: (try? OwnedDescriptor.open("/proc/self/status", O_RDONLY).readUpTo(1 << 16)) ?? [], as: UTF8.self)
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    static let pngFixtures = ConfigPaths.repository + "/Tests/RasterTests/Fixtures"

    /// PNGs are decoded in the worker (libpng parses no file a config names in the kiosk's
    /// process): every colour type comes back as libpng in this process decodes it, pixel for pixel.
    @Test func theWorkersPNGDecodeEqualsAnInProcessOne() throws {
        let worker = SVGRenderer()
        for name in ["rgba", "rgb16", "grey-alpha", "grey", "rgb-interlaced", "palette"] {
            let path = "\(Self.pngFixtures)/\(name).png"
            let decoded = try worker.decodePNG(try PNGCodec.readFile(path), name: path).get()
            let expected = try PNGCodec.read(path: path)
            #expect(decoded.width == expected.width && decoded.height == expected.height, "\(name)")
            var same = true
            for y in 0..<expected.height { for x in 0..<expected.width where decoded[x, y] != expected[x, y] { same = false } }
            #expect(same, "\(name): the worker's pixels differ from an in-process decode")
        }
        #expect(worker.workersEnded == 0)
    }

    /// A PNG whose pixel data is damaged or cut short is refused by the worker with libpng's
    /// reason, and the same worker decodes the next one.
    @Test func aDamagedPNGIsRefusedAndTheNextDecodes() throws {
        let worker = SVGRenderer()
        var damaged = try PNGCodec.readFile("\(Self.pngFixtures)/rgba.png")
        for i in 45..<(damaged.count - 12) { damaged[i] ^= 0xA5 }
        for bytes in [damaged, try PNGCodec.readFile("\(Self.pngFixtures)/truncated.png")] {
            guard case .failure(let error) = worker.decodePNG(bytes, name: "bad.png") else {
                Issue.record("a damaged PNG was decoded")
                continue
            }
            #expect(error.description.contains("decoding bad.png failed: png_image"), "\(error)")
        }
        #expect(throws: Never.self) { try worker.decodePNG(try PNGCodec.readFile("\(Self.pngFixtures)/palette.png"), name: "palette.png").get() }
    }
}

