import ArgumentParser
import DRMOutput
import Kiosk
import KioskSystem

/// A friendly `modetest`: every card, its connectors and their modes.
struct Displays: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List display devices, connectors and modes.")

    @Option(help: ArgumentHelp("Directory of DRM devices.", valueName: "dir")) var directory = "/dev/dri"

    func run() throws {
        let paths = DRMCard.cardPaths(in: directory)
        guard !paths.isEmpty else {
            Log.error(DisplayError.noDevice(searched: directory).description)
            throw ExitCode.failure
        }
        for path in paths {
            let card: DRMCard, resources: DRMCard.Resources
            do { (card, resources) = try DRMCard.openWithResources(path: path) } catch {
                print("\(path): cannot be read: \(DisplayError.system(error))")
                continue
            }
            print("\(path) (\(card.driverName))\(card.supportsDumbBuffers ? "" : ", no dumb buffers")")
            for id in resources.connectors {
                guard let c = try? card.connector(id) else { continue }
                let size = c.widthMillimetres > 0 ? ", \(c.widthMillimetres)x\(c.heightMillimetres) mm" : ""
                print("  \(c.name): \(c.state.rawValue)\(size)")
                for mode in c.modes { print("    \(mode)") }
            }
        }
    }
}
