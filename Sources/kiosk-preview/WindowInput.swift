import CSDL2
import Geometry
import InputSources
import Kiosk

/// The window's mouse, wheel and keyboard as the devices of a kiosk: the left button is one
/// finger (slot 0) at the pointer's fraction of the window, the wheel is a knob in v120 units
/// (a notch towards the user is +120, "next", as libinput reports it), keys and the other
/// buttons are Linux key codes. Times are the moment of translation on CLOCK_MONOTONIC (SDL's
/// own timestamps count from its start, not on the kernel's clock).
struct WindowInput {
    /// The left button went down in the window and has not come up.
    private var touching = false

    /// The device event `event` stands for, if any; `width` x `height` is the window's size now.
    mutating func translate(_ event: SDL_Event, width: Int32, height: Int32, now: Double) -> RawInputEvent? {
        func fraction(_ x: Int32, _ y: Int32) -> Point {
            Point(x: Self.fraction(x, of: width), y: Self.fraction(y, of: height))
        }
        switch SDL_EventType(event.type) {
        case SDL_MOUSEBUTTONDOWN, SDL_MOUSEBUTTONUP:
            let b = event.button, pressed = event.type == SDL_MOUSEBUTTONDOWN.rawValue
            if Int32(b.button) == SDL_BUTTON_LEFT {
                guard pressed != touching else { return nil }
                touching = pressed
                return pressed ? .touchDown(slot: 0, fraction: fraction(b.x, b.y), time: now) : .touchUp(slot: 0, time: now)
            }
            return SDLKeyCodes.buttons[Int32(b.button)].map { .key(code: $0, pressed: pressed, time: now) }
        case SDL_MOUSEMOTION:
            guard touching else { return nil }
            return .touchMotion(slot: 0, fraction: fraction(event.motion.x, event.motion.y), time: now)
        case SDL_MOUSEWHEEL:
            // SDL: positive is away from the user; a device's v120: positive is towards the user.
            var away = Double(event.wheel.preciseY)
            if event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue { away = -away }
            let v120 = Int((-away * 120).rounded())
            return v120 == 0 ? nil : .wheel(v120: v120, time: now)
        case SDL_KEYDOWN, SDL_KEYUP:
            // libinput passes no auto-repeat: neither does the preview.
            guard event.key.repeat == 0, let code = SDLKeyCodes.linux[event.key.keysym.scancode.rawValue] else { return nil }
            return .key(code: code, pressed: event.type == SDL_KEYDOWN.rawValue, time: now)
        default:
            return nil
        }
    }

    /// The centre of pixel `position` as a fraction of `size` pixels, kept in 0...1 as a
    /// touchscreen's are (a drag may leave the window).
    static func fraction(_ position: Int32, of size: Int32) -> Double {
        guard size > 0 else { return 0 }
        return min(1, max(0, (Double(position) + 0.5) / Double(size)))
    }
}
