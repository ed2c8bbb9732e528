import CSDL2

/// A failed SDL call, with SDL's own message.
struct SDLError: Error, CustomStringConvertible {
    let call: String
    let message: String

    /// The error SDL recorded for the failed `call`.
    static func last(_ call: String) -> SDLError { SDLError(call: call, message: String(cString: SDL_GetError())) }

    var description: String { "\(call): \(message)" }
}

/// SDL's video subsystem, from `SDL_Init` to `SDL_Quit`: the one owner, held by every object
/// made through it so that it is shut down after them.
final class SDLVideo {
    /// Connects to the desktop's display server (X11 or Wayland, as SDL chooses).
    init() throws(SDLError) {
        // The runtime takes SIGINT and SIGTERM through its signalfd; a preview window must not
        // keep the screensaver away.
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
        SDL_SetHint(SDL_HINT_VIDEO_ALLOW_SCREENSAVER, "1")
        guard SDL_Init(SDL_INIT_VIDEO) == 0 else { throw SDLError.last("SDL_Init(video)") }
        // Without a desktop SDL falls back to drivers with no window anyone sees ("offscreen").
        let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none"
        guard Self.desktopDrivers.contains(driver) else {
            SDL_Quit()
            throw SDLError(call: "SDL_Init(video)", message: "no X11 or Wayland display (SDL chose the \(driver) driver)")
        }
    }

    /// The video drivers whose windows are on a desktop, with a connection the loop can wait on.
    static let desktopDrivers = ["x11", "wayland"]

    deinit { SDL_Quit() }

    /// The video driver in use ("x11", "wayland").
    var driver: String { SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "unknown" }
}
