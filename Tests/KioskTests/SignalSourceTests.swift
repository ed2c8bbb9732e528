import Glibc
import Kiosk
@testable import KioskSystem
import Testing

@Suite struct SignalSourceTests {
    /// A signal raised after the source exists is queued for the loop, not delivered with its
    /// default action (SIGUSR1's would end the process): why the kiosk creates it first.
    @Test func raisedSignalIsQueuedNotFatal() throws {
        let source = try SignalSource([SIGUSR1])
        raise(SIGUSR1)
        #expect(source.drain() == [SIGUSR1])
        #expect(source.drain() == [])
    }
}
