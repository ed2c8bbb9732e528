import Geometry
import KioskConfiguration
import KioskSystem
import MenuScreens
import Raster

/// The stack of open screens and the change of screen in motion: pushes, pops and replacements,
/// each moving as the config's `transition` says, and the item the top screen last settled on.
/// Knows nothing of locks, banners or actions: the app decides what to open and close.
final class Navigator {
    /// What every screen is built from at this size; replaced on a reload or a new panel size.
    private(set) var resources: ScreenResources
    /// Home first; never empty.
    private(set) var stack: [MenuScreen]
    var transitionStyle: TransitionStyle
    private var transition: TransitionInMotion?
    /// The pictures transitions draw from, made at the first one; dropped when the size changes.
    private var transitionFrames: TransitionFrames?
    /// The item the top screen last settled on (the status file's `selection`).
    private(set) var settledSelection: Int
    /// Another screen came to the top since the runtime was last told.
    private var screenChangeUntold = false

    /// A change of screen in motion. `leaving` is the screen it leaves until the transition's
    /// pictures were made from it.
    private struct TransitionInMotion {
        var state: ScreenTransition
        var leaving: MenuScreen?
    }

    init(home: MenuScreen, resources: ScreenResources, transitionStyle: TransitionStyle) {
        self.resources = resources
        stack = [home]
        self.transitionStyle = transitionStyle
        settledSelection = home.selectedIndex
    }

    var current: MenuScreen { stack[stack.count - 1] }
    var names: [String] { stack.map(\.config.name) }
    var width: Int { resources.width }
    var height: Int { resources.height }
    var currentTransition: ScreenTransition? { transition?.state }

    // MARK: Changes of screen

    func push(_ screen: MenuScreen, now: Double) {
        let leaving = current
        stack.append(screen)
        shown(.push, leaving: leaving, now: now)
    }

    /// Takes the top screen off (never home); returns it.
    @discardableResult
    func pop(now: Double) -> MenuScreen? {
        guard stack.count > 1 else { return nil }
        let leaving = stack.removeLast()
        shown(.pop, leaving: leaving, now: now)
        return leaving
    }

    /// Takes the screens from `index` up off (never home), as one change; returns them, top first.
    func pop(from index: Int, now: Double) -> [MenuScreen] {
        guard index >= 1, index < stack.count else { return [] }
        let leaving = current
        let removed = Array(stack[index...].reversed())
        stack.removeSubrange(index...)
        shown(.pop, leaving: leaving, now: now)
        return removed
    }

    /// Every screen above home gives way to `screen`, as one change; returns those left, top first.
    func replaceAboveHome(with screen: MenuScreen, now: Double) -> [MenuScreen] {
        let leaving = current
        let removed = Array(stack.dropFirst().reversed())
        stack.removeSubrange(1...)
        stack.append(screen)
        shown(.push, leaving: leaving, now: now)
        return removed
    }

    /// The top screen gives way to `screen` (a keypad to the screen it opened).
    func replaceTop(with screen: MenuScreen, now: Double) {
        let leaving = stack.removeLast()
        stack.append(screen)
        shown(.replace, leaving: leaving, now: now)
    }

    /// The top screen redrawn as another of the same (a keypad's new title): no transition.
    func swapTop(for screen: MenuScreen) {
        stack[stack.count - 1] = screen
    }

    /// Another config: new resources and screens, shown as a replacement.
    func replaceAll(resources: ScreenResources, stack: [MenuScreen], now: Double) {
        let leaving = current
        self.resources = resources
        self.stack = stack
        shown(.replace, leaving: leaving, now: now)
    }

    /// Another panel size: the same screens laid out again, shown at once.
    func resize(resources: ScreenResources, stack: [MenuScreen]) {
        finishTransition()
        transitionFrames = nil
        self.resources = resources
        self.stack = stack
        settledSelection = current.selectedIndex
    }

    /// The top screen settled on `index`.
    func settled(on index: Int) { settledSelection = index }

    /// Whether another screen came to the top since the last call.
    func takeScreenChange() -> Bool {
        defer { screenChangeUntold = false }
        return screenChangeUntold
    }

    private func shown(_ change: ScreenChange, leaving: MenuScreen, now: Double) {
        settledSelection = current.selectedIndex
        screenChangeUntold = true
        // A slide moves in the reading direction of the deeper screen (the one opened or left).
        let deeper = change == .pop ? leaving : current
        transition = ScreenTransition(change, style: transitionStyle, start: now, reading: deeper.config.reading)
            .map { TransitionInMotion(state: $0, leaving: leaving) }
    }

    // MARK: Transitions

    var isTransitioning: Bool { transition != nil }

    /// Ends the transition in motion: the next frame shows the screen as it is.
    func finishTransition() { transition = nil }

    /// Moves the transition on to `now`: ended when its time is up; its pictures made from the
    /// screen left at its first step (so that drawing only draws). Without memory for the
    /// pictures there is no transition: the screen is shown at once.
    func advanceTransition(now: Double) {
        guard let t = transition else { return }
        if t.state.isFinished(at: now) {
            transition = nil
            return
        }
        guard let leaving = t.leaving else { return }
        if transitionFrames == nil {
            do {
                transitionFrames = try TransitionFrames(width: width, height: height)
            } catch {
                Log.error("transition: \(error)")
                transition = nil
                return
            }
        }
        transitionFrames?.begin(leaving: leaving)
        transition?.leaving = nil
    }

    // MARK: Drawing

    /// Draws the top screen, or the transition's frame at `now`; returns the damage.
    func draw(on canvas: Canvas, full: Bool, now: Double) -> PixelRect {
        if let t = transition, t.leaving == nil, let frames = transitionFrames {
            return frames.draw(t.state, coming: current, on: canvas, now: now)
        }
        return current.draw(on: canvas, full: full)
    }
}
