@testable import DRMOutput
import Foundation
import Glibc
import Kiosk
@testable import KioskSystem
import Testing

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
}
