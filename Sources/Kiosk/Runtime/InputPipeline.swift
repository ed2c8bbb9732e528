import DRMOutput
import Geometry
import InputSources
import KioskConfiguration
import KioskSystem
import LayoutCore

/// The input pipeline: devices → router → menu input. Touches are mapped through the panel
/// geometry of the output, asked at each event (the output owns it); the knob's partial motion
/// and the key mapping live in the router.
final class InputPipeline {
    private(set) var router: InputRouter
    private var devices: InputDevices?
    private let panel: () -> PanelGeometry
    /// Receives each device event that meant something to the menu, with what it meant.
    var deliver: (_ inputs: [MenuInput], _ event: RawInputEvent) -> Void = { _, _ in }
    /// Told when a device came or went.
    var devicesChanged: () -> Void = {}
    /// Another program has the input (an `exec` item): events are not read until `resume()`.
    private(set) var isSuspended = false
    /// Swallows the input that wakes the panel.
    private(set) var wakeFilter = WakeFilter()
    /// Whether the panel is off now (asked at each event; `[power]` owns it).
    var panelIsOff: () -> Bool = { false }
    /// Told of every device event that is someone's input (any touch, turn or key; not a touch
    /// cancel) before it goes to the menu; `wakes`: it woke the panel and is swallowed.
    var activity: (_ event: RawInputEvent, _ wakes: Bool) -> Void = { _, _ in }

    init(settings: InputConfig, panel: @escaping () -> PanelGeometry) {
        router = InputRouter()
        self.panel = panel
        configure(settings)
    }

    var isStarted: Bool { devices != nil }

    /// Opens the seat's devices; their events arrive through `loop`.
    func start(seat: String, calibration: [Double]?, loop: EventLoop) {
        guard devices == nil else { return }
        devices = InputDevices(seat: seat, calibration: calibration?.map { Float($0) }, loop: loop,
                               deliver: { [unowned self] event in self.route(event) },
                               devicesChanged: { [unowned self] in self.devicesChanged() })
        devicesChanged()  // those present at start
    }

    /// Devices read now, by kind (none before `start`).
    var deviceKinds: [String: Int] { devices?.kindCounts ?? [:] }

    /// Events from a device that is not a seat's (a desktop window's mouse and keys).
    func route(_ event: RawInputEvent) {
        guard !isSuspended else { return }
        let (drop, wakes) = wakeFilter.filter(event, panelOff: panelIsOff())
        if wakes { router.knob.reset() }  // half a detent turned before the panel went off is gone
        if event.isSomeonesInput { activity(event, wakes) }
        if drop { return }
        let inputs = router.route(event, panel: panel())
        if !inputs.isEmpty { deliver(inputs, event) }
    }

    /// The config's knob and key settings (at start and after each reload).
    func configure(_ settings: InputConfig) {
        router.knob = KnobAccumulator(detentsPerItem: settings.detentsPerItem, direction: settings.knobDirection)
        router.keys = settings.keys.mapping
    }

    /// Another screen is shown: half a detent turned on the old one does not count on it.
    func screenChanged() { router.knob.reset() }

    func suspend() {
        // What letting the devices go says (a release for the Enter that started the program, a
        // touch cancel) is routed now, before the program runs, as the end of the input that came
        // before: left in libinput's queue it arrived with the first real input after the program
        // and counted as input, waking a blanked panel and letting that real input through.
        let lettingGo = devices?.suspend() ?? []
        for event in lettingGo { route(event) }
        isSuspended = true
    }

    func resume() {
        isSuspended = false
        devices?.resume()
    }
}
