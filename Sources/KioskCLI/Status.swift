import ArgumentParser
import Glibc
import Kiosk
import KioskConfiguration

/// The status file read back for a person or a script, with an exit status monitoring can use.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the running kiosk's status; exit 0 when it is healthy.",
        discussion: """
            Reads the status file the kiosk rewrites on every change (--file, else the config's \
            status_file, else \(KioskConfig.defaultStatusFile)) and judges it. The exit status is \
            an init script's:

              0  healthy: running, config valid, display connected
              1  unhealthy: config invalid (last good one shown), display lost, or (a disk \
            image) a newer version failed its tries and the device went back to this one
              3  no status: no file, cut short, not a status, or its writer is gone

            """)

    @Option(help: ArgumentHelp("The status file to read.", valueName: "path"))
    var file: String?
    @Option(name: .shortAndLong, help: ArgumentHelp("Config whose status_file to read (\(KioskConfig.pathDefaultHelp)).", valueName: "path"))
    var config: String?
    @Flag(help: "Print the verdict and the status as JSON: {\"health\", \"exit_status\", \"problems\", \"file\", \"status\"}.")
    var json = false

    func validate() throws {
        if let file, file.isEmpty { throw ValidationError("--file needs a path") }
    }

    /// The config's `status_file` (read without validating the config), else the default.
    var statusPath: String {
        if let file { return file }
        return ConfigReader.statusFile(ofConfigAt: KioskConfig.path(given: config))
    }

    func run() throws {
        let report = StatusReport(path: statusPath)
        print(json ? report.json : report.text, terminator: "")
        if report.health != .healthy { throw ExitCode(report.health.rawValue) }
    }
}
