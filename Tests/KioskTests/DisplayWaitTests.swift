@testable import DRMOutput
import Foundation
import KioskConfiguration
import KioskSystem
import Testing
import TestSupport

/// The kiosk starts before its display's driver has bound (its unit waits for none of the boot's
/// device work): what may still appear is waited for, up to the patience; what cannot, is not.
@Suite struct DisplayWaitTests {
    /// A clock that moves only when the wait sleeps.
    final class ManualClock {
        var now = 100.0
        var sleeps = 0
        var onSleep: (Int) -> Void = { _ in }
        func sleep(_ seconds: Double) {
            now += seconds
            sleeps += 1
            onSleep(sleeps)
        }
    }

    func wait(in directory: String, patience: Double, clock: ManualClock, stop: @escaping () -> Bool = { false }) -> DisplayError? {
        do {
            _ = try DisplayChoice.awaitAvailable(DisplayRequest(), directory: directory, patience: patience, interval: 0.05,
                                                 stop: stop, clock: { clock.now }, sleep: clock.sleep)
            return nil
        } catch {
            return error
        }
    }

    @Test func noCardIsWaitedForUpToThePatience() throws {
        let scratch = ScratchDirectory()
        let clock = ManualClock()
        let error = wait(in: scratch.path, patience: 1, clock: clock)
        guard case .noDevice = error else { Issue.record("\(String(describing: error))"); return }
        #expect(clock.sleeps == 20)
        #expect(clock.now - 100 <= 1 + 1e-9)
    }

    @Test func noPatienceFailsAtOnce() {
        let scratch = ScratchDirectory()
        let clock = ManualClock()
        guard case .noDevice = wait(in: scratch.path + "/none", patience: 0, clock: clock) else { Issue.record("not noDevice"); return }
        #expect(clock.sleeps == 0)
    }

    /// A SIGTERM waiting for the loop ends the wait: a stop never waits for a display.
    @Test func aStopEndsTheWait() {
        let scratch = ScratchDirectory()
        let clock = ManualClock()
        let error = wait(in: scratch.path, patience: 20, clock: clock, stop: { clock.sleeps >= 3 })
        guard case .noDevice = error else { Issue.record("\(String(describing: error))"); return }
        #expect(clock.sleeps == 3)
    }

    /// Each look is a new look: a card node that appears is tried. This one is not a DRM device
    /// (a file): that cannot change by waiting, so it fails at once.
    @Test func whatAppearsIsTriedAndWhatCannotChangeIsNotWaitedFor() throws {
        let scratch = ScratchDirectory()
        let clock = ManualClock()
        clock.onSleep = { n in
            if n == 2 { _ = FileManager.default.createFile(atPath: scratch.path + "/card0", contents: Data("not a card".utf8)) }
        }
        let error = wait(in: scratch.path, patience: 20, clock: clock)
        // The DRM ioctl on a file: ENOTTY from the kernel, ENOSYS under qemu-user.
        guard let error, case .system = error else { Issue.record("\(String(describing: error))"); return }
        #expect(!DisplayChoice.mayAppear(error), "\(error)")
        #expect(clock.sleeps == 2)
    }

    @Test func whichErrorsMayClearUp() {
        #expect(DisplayChoice.mayAppear(.noDevice(searched: "/dev/dri")))
        #expect(DisplayChoice.mayAppear(.noConnectedOutput(cards: ["/dev/dri/card0"])))
        #expect(DisplayChoice.mayAppear(.system(SystemError("open", errno: EACCES))))
        #expect(!DisplayChoice.mayAppear(.system(SystemError("ioctl", errno: ENOTTY))))
        #expect(!DisplayChoice.mayAppear(.unknownConnector("HDMI-A-9", available: [])))
        #expect(!DisplayChoice.mayAppear(.noDumbBuffers(card: "/dev/dri/card0")))
    }

    @Test func signalsWaitingForTheLoopAreSeen() throws {
        let signals = try SignalSource([SIGUSR2])
        #expect(!SignalSource.isPending([SIGUSR2]))
        raise(SIGUSR2)
        #expect(SignalSource.isPending([SIGUSR2]))
        #expect(signals.drain() == [SIGUSR2])
        #expect(!SignalSource.isPending([SIGUSR2]))
    }
}
