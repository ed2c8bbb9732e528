import ArgumentParser
import KioskConfiguration

/// `kiosk svg-worker`: not for people. The kiosk starts it to parse and render SVG icons in a
/// process of its own (`SVGRenderer`, `SVGWorkerServer`): requests on standard input, replies on
/// standard output.
struct SVGWorker: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "svg-worker",
        abstract: "Renders SVG icons for the kiosk in a separate process (started by the kiosk itself).",
        shouldDisplay: false)

    func run() throws {
        let status = SVGWorkerServer.run()
        if status != 0 { throw ExitCode(status) }
    }
}
