import DRMOutput
import KioskConfiguration
import KioskSystem

/// `[power]` on one output: the policy (when to dim and blank), the backlight, and the output's
/// panel switch, kept in step. The one owner of the panel's power state; the runtime asks it at
/// each pass and tells it of input. Does nothing where the output does not switch its panel (a
/// desktop window) or when `[power]` asks for nothing (the backlight is then never opened).
final class PanelPower {
    private(set) var policy: PowerPolicy
    /// When someone last used the device; idle time counts from it.
    private let activity: Activity
    private let output: Output
    private let openBacklight: (BacklightChoice) -> Backlight?
    private var backlight: Backlight?
    private var backlightChoice: BacklightChoice?
    /// An `exec` program has the display: nothing dims or blanks meanwhile.
    private var paused = false
    /// Times input woke the panel from off (`kiosk_display_wakes_total`).
    private(set) var wakes = 0
    /// When something other than input (a notification) last lit the panel: it stays lit for
    /// the idle times from then, without counting as input (no screen is kept open by it).
    private var litAt = -Double.infinity

    init(settings: PowerConfig, output: Output, activity: Activity, now: Double, openBacklight: @escaping (BacklightChoice) -> Backlight?) {
        policy = PowerPolicy(settings)
        self.activity = activity
        self.output = output
        self.openBacklight = openBacklight
        configure(settings, now: now)
    }

    var state: DisplayPowerState { policy.state }
    var isOff: Bool { policy.state == .off }
    private var active: Bool { output.controlsPanelPower && policy.settings.isActive }

    /// The config's `[power]` (at start and after each reload): another backlight choice puts
    /// the old device back and opens the new one; the idle time already passed still counts.
    func configure(_ settings: PowerConfig, now: Double) {
        policy.configure(settings)
        let wanted: BacklightChoice? = output.controlsPanelPower && settings.isActive ? settings.backlight : nil
        if wanted != backlightChoice {
            backlight?.restore()
            backlight = wanted.flatMap(openBacklight)
            backlightChoice = wanted
            if let b = backlight { Log.info("backlight \(b.name): \(b.normal) of \(b.maxBrightness) at start") }
        }
        if !active, policy.state != .on {
            // [power] went away while dimmed or off: light the panel.
            _ = policy.input()
            apply(.on)
        }
    }

    /// Moves to the state due at `now` (the status, written at the pass's end, says it).
    func advance(now: Double) {
        guard active, !paused, let next = policy.advance(now: now, lastInput: idleSince) else { return }
        func seconds(_ s: Double?) -> String {
            guard let s else { return "?" }
            return s == s.rounded() ? "\(Int(s))" : "\(s)"
        }
        switch next {
        case .dimmed: Log.info("display dimmed after \(seconds(policy.settings.dimAfter)) s without input")
        case .off: Log.info("display off after \(seconds(policy.settings.blankAfter)) s without input")
        case .on: Log.info("display on")
        }
        apply(next)
    }

    /// Input from a device of `kind` (noted in `activity` first); the verdict says whether the
    /// panel woke (once per wake: the input that wakes it is swallowed, so the next one finds it on).
    func input(kind: String) -> PowerPolicy.Verdict {
        guard active, !paused else { return .pass }
        let verdict = policy.input()
        switch verdict {
        case .pass: break
        case .brighten:
            Log.info("display brightened by \(kind)")
            apply(.on)
        case .wake:
            wakes += 1
            Log.info("display woken by \(kind)")
            apply(.on)
        }
        return verdict
    }

    var nextDeadline: Double? { active && !paused ? policy.nextDeadline(lastInput: idleSince) : nil }

    private var idleSince: Double { max(activity.lastInput, litAt) }

    /// Lights a dimmed or blanked panel for something to be seen (`[control] notify_wakes`).
    func wake(by what: String, now: Double) {
        litAt = max(litAt, now)
        guard active, !paused, policy.state != .on else { return }
        _ = policy.input()
        Log.info("display lit by \(what)")
        apply(.on)
    }

    /// Another program gets the display: the panel on at the brightness it had at start.
    func handOver() {
        paused = true
        if policy.state != .on {
            _ = policy.input()
            output.setPanel(on: true)
        }
        backlight?.restore()
    }

    /// The display is back from the program (whose user is back too: the runtime notes it in `activity`).
    func takeBack() {
        paused = false
    }

    /// The brightness in force at start, back (exit).
    func restore() { backlight?.restore() }

    private func apply(_ state: DisplayPowerState) {
        // Dark before the panel goes off; the panel on (with its first frame) before it is lit.
        switch state {
        case .off:
            backlight?.set(.off, dimLevel: policy.settings.dimLevel)
            output.setPanel(on: false)
        case .on, .dimmed:
            output.setPanel(on: true)
            backlight?.set(state, dimLevel: policy.settings.dimLevel)
        }
    }
}
