import ArgumentParser
import DRMOutput
import Geometry
import Kiosk
import KioskConfiguration
import KioskSystem
import Raster
import Text

@main
struct KioskCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk",
        abstract: "Boot-to-menu for Linux devices with a screen: DRM/KMS output, software rendering, touch and knobs.",
        version: KioskVersion.string,
        subcommands: [Run.self, CheckConfig.self, Status.self, Ctl.self, Render.self, Displays.self, Demo.self, HashPin.self, SVGWorker.self],
        defaultSubcommand: Run.self)
}


/// Options that choose the output, shared by the commands that drive a display.
struct DisplayOptions: ParsableArguments {
    @Option(help: ArgumentHelp("DRM device to use.", valueName: "path")) var card: String?
    @Option(help: ArgumentHelp("Connector name, as `kiosk displays` lists it (for example HDMI-A-1).", valueName: "name"))
    var connector: String?
    @Option(help: ArgumentHelp("Mode as WIDTHxHEIGHT or WIDTHxHEIGHT@HZ (for example 1920x1080@60).", valueName: "mode"))
    var mode: String?
    @Option(help: ArgumentHelp("Rotation of the panel: 0, 90, 180 or 270 degrees clockwise.", valueName: "degrees"))
    var rotation: Int = 0

    func validate() throws {
        if let mode, ModeRequest(parsing: mode) == nil {
            throw ValidationError("--mode '\(mode)' is not WIDTHxHEIGHT or WIDTHxHEIGHT@HZ")
        }
        if DisplayRotation(degrees: rotation) == nil {
            throw ValidationError("--rotation must be 0, 90, 180 or 270")
        }
    }

    var request: DisplayRequest {
        DisplayRequest(card: card, connector: connector, mode: mode.flatMap(ModeRequest.init(parsing:)))
    }
}

/// Turns known failures into one clear line and exit status 1.
func failing(_ body: () throws -> Int32) throws -> Int32 {
    do {
        return try body()
    } catch let e as DisplayError {
        Log.error(e.description)
    } catch let e as SystemError {
        Log.error(e.description)
    } catch let e as RasterError {
        Log.error("\(e)")
    } catch let e as TextError {
        Log.error("\(e)")
    }
    throw ExitCode.failure
}
