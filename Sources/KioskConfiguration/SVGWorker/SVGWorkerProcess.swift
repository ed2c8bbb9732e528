import Glibc
import KioskSystem

/// One running `kiosk svg-worker` and its end of the socket pair it talks over; the worker is
/// killed and waited for when this owner goes (`stop`, or deinit).
final class SVGWorkerProcess {
    /// Why an exchange failed: the worker is gone (or has been ended) either way.
    struct Failure: Error, Equatable {
        let description: String
    }

    let pid: pid_t
    private let socket: OwnedDescriptor
    /// Documents this worker has parsed.
    var loaded: Set<UInt32> = []
    private var stopped = false

    init(executable: String) throws(SystemError) {
        var fds: [Int32] = [-1, -1]
        try retryingInterrupts("socketpair") {
            fds.withUnsafeMutableBufferPointer { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, $0.baseAddress) }
        }
        let ours = OwnedDescriptor(taking: fds[0])
        let theirs = OwnedDescriptor(taking: fds[1])
        // The worker's environment: only what it needs to find the C library's locale and fonts;
        // and no Swift backtrace when librsvg panics in it (its own one line says what happened,
        // the kiosk's log line says which icon).
        let environment = Spawn.currentEnvironment.filter { entry in
            ["PATH=", "LANG=", "LC_ALL=", "FONTCONFIG_FILE=", "FONTCONFIG_PATH=", "XDG_CACHE_HOME=", "HOME="].contains { entry.hasPrefix($0) }
        } + ["SWIFT_BACKTRACE=enable=no"]
        // `theirs` is closed once the worker has it: the worker holds the only other end.
        pid = try withExtendedLifetime(theirs) { () throws(SystemError) -> pid_t in
            try Spawn.start(argv: [executable, "svg-worker"], environment: environment,
                            input: .descriptor(theirs.rawValue), output: .descriptor(theirs.rawValue))
        }
        socket = ours
    }

    deinit { stop() }

    /// Sends `request` and reads its reply, within `seconds` of wall time. On any failure the
    /// worker is ended and the failure says why (its exit, a signal, the time).
    func exchange(_ request: [UInt8], seconds: Double) -> Result<SVGWorkerMessage.Reply, Failure> {
        guard !stopped else { return .failure(Failure(description: "the SVG worker was stopped")) }
        let deadline = MonotonicClock.now() + seconds
        guard send(request) else { return .failure(end(because: "it stopped reading", hung: false)) }
        guard let headerBytes = receive(SVGWorkerMessage.headerSize, before: deadline),
              let header = SVGWorkerMessage.decodeHeader(headerBytes),
              let payload = receive(Int(header.length), before: deadline),
              let reply = SVGWorkerMessage.decodeReply(header, payload: payload) else {
            let late = MonotonicClock.now() >= deadline
            return .failure(end(because: late ? "it took more than \(seconds.formatted2) s" : "it stopped answering", hung: late))
        }
        return .success(reply)
    }

    /// Kills the worker and waits for it.
    func stop() {
        guard !stopped else { return }
        stopped = true
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = try? retryingInterrupts("waitpid") { waitpid(pid, &status, 0) }
    }

    /// Ends the worker after a failed exchange; says what became of it. One that `hung` is killed
    /// at once; one whose socket closed is given a moment to finish dying, so that its signal
    /// (a crash, SIGPROF) is what is told.
    private func end(because what: String, hung: Bool) -> Failure {
        var status: Int32 = 0
        var reaped: pid_t = 0
        for _ in 0..<(hung ? 1 : 200) {
            reaped = (try? retryingInterrupts("waitpid") { waitpid(pid, &status, WNOHANG) }) ?? -1
            if reaped != 0 { break }
            usleep(5_000)
        }
        stopped = true
        if reaped == 0 {
            kill(pid, SIGKILL)
            _ = try? retryingInterrupts("waitpid") { waitpid(pid, &status, 0) }
            return Failure(description: "the SVG renderer was ended: \(what)")
        }
        let signal = status & 0x7f
        if signal == 0 { return Failure(description: "the SVG renderer exited with status \((status >> 8) & 0xff): \(what)") }
        if signal == SIGPROF {
            return Failure(description: "the SVG renderer was ended after \(SVGWorkerServer.requestCPULimit.formatted2) s of CPU time")
        }
        let name = strsignal(signal).map { String(cString: $0) } ?? "signal \(signal)"
        return Failure(description: "the SVG renderer crashed (\(name))")
    }

    private func send(_ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = try? retryingInterrupts("send") {
                bytes.withUnsafeBytes { Glibc.send(socket.rawValue, $0.baseAddress! + done, $0.count - done, Int32(MSG_NOSIGNAL)) }
            }
            guard let n, n > 0 else { return false }
            done += n
        }
        return true
    }

    /// Exactly `count` bytes, or nil at the end of the stream, an error or the deadline.
    private func receive(_ count: Int, before deadline: Double) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let left = deadline - MonotonicClock.now()
            guard left > 0 else { return nil }
            var ready = pollfd(fd: socket.rawValue, events: Int16(POLLIN), revents: 0)
            let polled = try? retryingInterrupts("poll") { poll(&ready, 1, Int32(min(left * 1000 + 1, 60_000))) }
            guard let polled else { return nil }
            if polled == 0 { continue }
            let n = try? retryingInterrupts("recv") { bytes.withUnsafeMutableBytes { recv(socket.rawValue, $0.baseAddress! + done, count - done, 0) } }
            guard let n, n > 0 else { return nil }
            done += n
        }
        return bytes
    }
}
