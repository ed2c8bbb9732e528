import ArgumentParser
import KioskConfiguration

/// `kiosk svg-worker`: not for people. The kiosk starts it to parse and render SVG icons (and
/// decode PNGs) in a confined process of its own (`SVGRenderer`, `SVGWorkerServer`): requests on
/// standard input, replies on standard output. `--probe` is for people: it shows how far this
/// kernel confines the worker.
struct SVGWorker: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "svg-worker",
        abstract: "Renders SVG icons for the kiosk in a separate process (started by the kiosk itself).",
        discussion: """
            With --probe it renders nothing: it confines itself as the worker does, then tries to \
            write a file, read one of the kiosk's, open a socket, start a program and signal the \
            kiosk, and prints what was refused. Exit status 0 when everything was.
            """,
        shouldDisplay: false)

    @Flag(help: "Show what the worker's confinement refuses on this kernel instead of serving.")
    var probe = false

    @Option(help: ArgumentHelp("With --probe: the file the worker tries to create.", valueName: "path"))
    var write = "/var/tmp/kiosk-svg-worker-probe"

    @Option(help: ArgumentHelp("With --probe: the file the worker tries to read (the kiosk's config, say).", valueName: "path"))
    var read = "/etc/kiosk/kiosk.toml"

    func run() throws {
        if probe {
            let (lines, contained) = SVGWorkerServer.probe(writing: write, reading: read)
            print(lines.joined(separator: "\n"))
            if !contained { throw ExitCode(1) }
            return
        }
        let status = SVGWorkerServer.run()
        if status != 0 { throw ExitCode(status) }
    }
}
