@testable import DRMOutput
import Foundation
import Glibc
import Kiosk
@testable import KioskSystem
import Testing
import TestSupport
import Raster
import KioskConfiguration

/// SIGUSR1 before the first frame reached the screen writes nothing ("no frame yet" in the log)
/// instead of a black picture; once a frame is shown, it writes that frame.
@Suite(.serialized) struct RuntimeScreenshotTests {
    @Test func noFileBeforeTheFirstFrame() throws {
        let sandbox = AppTests.Sandbox()
        let shot = sandbox.dir + "/shot.png"
        sandbox.replace(AppTests.Sandbox.config(dir: sandbox.dir).replacingOccurrences(
            of: "home = \"main\"\n", with: "home = \"main\"\nscreenshot_file = \"\(shot)\"\n"))
        let (app, _) = try AppTests.makeApp(sandbox)
        let output = try HeadlessOutput(panelWidth: app.width, panelHeight: app.height, rotation: .none)
        // Handed over: no frame is drawn until it is taken back.
        output.handOver()
        let runtime = try Runtime(app: app, output: output, signals: try SignalSource(Runtime.handledSignals), config: nil,
                                  options: Runtime.Options(), startup: StartupTimeline())
        try runtime.start()
        raise(SIGUSR1)
        for _ in 0..<5 { try runtime.runOnce(timeout: 0.05) }
        usleep(300_000)  // a writer thread, had one started, would have written by now
        #expect(output.presentedFrames == 0)
        #expect(!FileManager.default.fileExists(atPath: shot) && !FileManager.default.fileExists(atPath: shot + ".txt"))

        output.takeBack()
        try AppTests.turn(runtime) { output.lastPresentedTime != nil }
        raise(SIGUSR1)
        try AppTests.turn(runtime) { FileManager.default.fileExists(atPath: shot + ".txt") }
        #expect(FileManager.default.fileExists(atPath: shot))
    }

    /// A screenshot shows the screen whole: asked for while the first frame lacks icons still being
    /// rendered off the loop (a load that rendered none of them), it waits for the frame that has
    /// them, and equals the screen drawn again with every icon in place.
    @Test func aScreenshotWaitsForIconsBeingRendered() throws {
        let dir = ScratchDirectory()
        let shot = dir.path + "/shot.png"
        let path = IconWarmUpTests.writeConfig(in: dir)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        _ = dir.write("kiosk.toml", text.replacingOccurrences(of: "home = \"arc\"\n", with: "home = \"arc\"\nscreenshot_file = \"\(shot)\"\n"))
        let (config, assets) = try IconWarmUpTests.load(path, outputSize: (800, 480), iconBudget: 0)
        let app = try KioskApp(config: config, assets: assets, width: 800, height: 480, now: MonotonicClock.now())
        let output = try HeadlessOutput(panelWidth: 800, panelHeight: 480, rotation: .none)
        let runtime = try Runtime(app: app, output: output, signals: try SignalSource(Runtime.handledSignals), config: nil,
                                  options: Runtime.Options(), startup: StartupTimeline())
        try runtime.start()
        #expect(app.lastFrameLacksIcons, "the first frame had every icon: nothing was left to render off the loop")
        raise(SIGUSR1)
        try AppTests.turn(runtime) { FileManager.default.fileExists(atPath: shot + ".txt") }
        #expect(!app.lastFrameLacksIcons)
        let written = try PNGCodec.read(path: shot)
        let whole = try PixelBuffer(width: 800, height: 480)
        _ = app.draw(on: Canvas(whole), full: true)
        #expect(!app.lastFrameLacksIcons)
        let difference = channelDifference(written, whole)
        #expect(difference.pixels == 0, "the screenshot differs from the screen with its icons in \(difference.pixels) pixels")
    }
}
