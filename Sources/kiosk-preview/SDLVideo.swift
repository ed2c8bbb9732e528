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
    }

    deinit { SDL_Quit() }

    /// The video driver in use ("x11", "wayland").
    var driver: String { SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "unknown" }
}
