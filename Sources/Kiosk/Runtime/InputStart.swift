import KioskSystem

/// When the input devices are opened: by the first pass after the first frame is on screen
/// (enumerating and opening them, udev and libinput, would otherwise delay the menu, and no one
/// can touch a blank screen), or after `deadline` seconds without a frame (the display away at
/// start). Keeps start-up's timeline, logged once input is open.
final class InputStart {
    static let deadline = 2.0

    private let timer: TimerSource
    private var timeline: StartupTimeline

    init(timeline: StartupTimeline) throws {
        self.timeline = timeline
        timer = try TimerSource()
    }

    /// Marks the end of a start-up phase.
    func mark(_ phase: String) { timeline.mark(phase) }

    /// Arms the deadline; `open` is called when it passes (it does nothing if input is open).
    func attach(to loop: EventLoop, open: @escaping () -> Void) throws {
        try loop.watch(timer.descriptor.rawValue) { [unowned self] in
            self.timer.acknowledge()
            open()
        }
        timer.arm(after: Self.deadline)
    }

    /// The first frame is on screen and `open` opened input: start-up's phases are logged.
    func openedAfterFirstFrame(_ open: () -> Void) {
        let menuShown = timeline.summary
        open()
        timeline.mark("input")
        Log.info("start-up: \(menuShown); then input opened in \(StartupTimeline.ms(timeline.lastPhase))")
    }
}
