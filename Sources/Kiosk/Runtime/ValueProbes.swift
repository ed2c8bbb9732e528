import CLinux
import Glibc
import KioskConfiguration
import KioskSystem

/// Reads the live values and toggle states of the screen shown, and runs toggles' switch
/// commands: a command's output comes through a pipe the loop watches (never waited for), capped
/// at `outputCap`, and a command past its timeout is killed; files are read without blocking.
/// A command's standard error comes through a pipe too (the last `errorCap` bytes kept): its
/// last line is logged with a failure, never copied whole into the journal, whatever it prints.
/// A value is read when its screen comes up and then every `every` seconds while it stays, never
/// while the panel is off; a file outside /sys and /proc also when inotify says it changed. The programs themselves are `ChildProcesses`' (started, reaped);
/// the readings go to `LiveValues`. Each problem is logged once, and again only when it changes;
/// at most `logBudget`'s lines a minute in all.
final class ValueProbes {
    /// Bytes of a command's output kept; the rest is read and dropped, so the program never blocks on a full pipe.
    static let outputCap = 64 * 1024
    /// Bytes of a value file read.
    static let fileCap = 4096
    /// Bytes of the end of a command's standard error kept (the rest is read and dropped).
    static let errorCap = 4096
    /// Characters of a standard error line in a log line.
    static let errorLineCap = 200
    /// Reads of 16 KiB per turn of the loop for one probe's output.
    static let drainChunks = 4

    /// A probe's two pipes.
    private enum Stream { case output, errors }

    private enum Kind: Equatable {
        case value, state
        case switching(label: String)
    }

    private struct Job {
        var id: String
        var kind: Kind
        var pipe: OwnedDescriptor?
        var output: [UInt8] = []
        var dropped = 0
        var deadline: Double
        var timeout: Double
        var timedOut = false
        /// Its value or toggle is gone (a reload dropped it): killed, and what it gave is not used.
        var orphaned = false
        var errorPipe: OwnedDescriptor?
        /// The end of what it wrote to standard error (at most `errorCap` bytes).
        var errors: [UInt8] = []
    }

    private let children: ChildProcesses
    private let values: LiveValues
    private let loop: EventLoop
    /// nil when inotify could not be had: files are then polled only.
    private let files: ValueFileWatch?
    private var jobs: [pid_t: Job] = [:]
    /// When each shown value is read next.
    private var due: [String: Double] = [:]
    private var shown: [String] = []
    /// The last problem logged per id.
    private var logged: [String: String] = [:]
    /// Problems and switch failures logged, all ids together: a value read every second whose
    /// error changes each time fills no journal.
    private var logBudget = LogBudget(lines: 30, per: 60)
    /// Where log lines go (the tests read them).
    var logLine: (Log.Level, String) -> Void = { Log.write($0, $1) }
    /// A toggle's switch ended: (id, label, failure or nil).
    var switchEnded: (String, String, String?) -> Void = { _, _, _ in }
    /// A reading arrived outside a pass (a pipe's output, a reaped probe).
    var changed: () -> Void = {}

    init(children: ChildProcesses, values: LiveValues, loop: EventLoop) {
        self.children = children
        self.values = values
        self.loop = loop
        do {
            files = try ValueFileWatch()
        } catch {
            Log.warning("value files are read every `every` seconds only: \(error)")
            files = nil
        }
    }

    /// Registers the file watch with the loop (once, at start).
    func attach() throws(SystemError) {
        guard let files else { return }
        try loop.watch(files.descriptor.rawValue) { [unowned self] in
            let changed = files.drain()
            guard !changed.isEmpty else { return }
            let now = MonotonicClock.now()
            for id in self.shown where self.filePath(id).map(changed.contains) == true { self.due[id] = now }
            self.changed()
        }
    }

    private func filePath(_ id: String) -> String? {
        if case .file(let path)? = values.source(id)?.origin { return path }
        if case .file(let path)? = values.toggle(id)?.state { return path }
        return nil
    }

    /// Whether `id` has a command or a file to read (an `api = true` one is only set from outside).
    private func isRead(_ id: String) -> Bool {
        if let source = values.source(id) { return source.origin != .api }
        if let toggle = values.toggle(id) { return toggle.state != .api }
        return false
    }

    var running: Int { jobs.count }

    /// Starts the readings due among `shownIDs` (those just shown at once); kills the probes past their timeout.
    func advance(now: Double, shownIDs: [String], panelOff: Bool) {
        // Also one still shown whose source a reload made readable (it was `api = true`).
        for id in shownIDs where isRead(id) && (!shown.contains(id) || due[id] == nil) { due[id] = now }
        // (Compared inside: a reload may move a shown value to another file.)
        files?.watch(shownIDs.compactMap(filePath))
        shown = shownIDs
        due = due.filter { shownIDs.contains($0.key) && isRead($0.key) }
        for (pid, job) in jobs where !job.timedOut && job.deadline <= now {
            jobs[pid]?.timedOut = true
            children.kill(probe: pid)
        }
        // A reading whose value a reload dropped (or made `api = true`) ends now, with its group,
        // not at its timeout; a switch is left to finish what it does.
        for (pid, job) in jobs where !job.orphaned && (job.kind == .value || job.kind == .state) && !isRead(job.id) {
            jobs[pid]?.orphaned = true
            children.kill(probe: pid)
        }
        guard !panelOff else { return }
        for id in shownIDs {
            guard let at = due[id], at <= now, !jobs.values.contains(where: { $0.id == id }) else { continue }
            if let source = values.source(id) {
                due[id] = now + source.every
                read(id, source.origin, kind: .value, timeout: source.timeout, now: now)
            } else if let toggle = values.toggle(id) {
                due[id] = now + toggle.every
                read(id, toggle.state, kind: .state, timeout: toggle.timeout, now: now)
            }
        }
    }

    /// The next moment something is due: a reading of a shown value, a timeout.
    func nextDeadline(panelOff: Bool) -> Double? {
        let readings = panelOff ? nil : due.values.min()
        let timeouts = jobs.values.filter { !$0.timedOut }.map(\.deadline).min()
        return [readings, timeouts].compactMap { $0 }.min()
    }

    /// Runs toggle `id`'s `on`/`off` command; its end is reported through `switchEnded`.
    func startSwitch(_ id: String, command: Command, label: String, now: Double) {
        let timeout = values.toggle(id)?.timeout ?? ToggleConfig.defaultTimeout
        do {
            let (errorRead, errorWrite) = try Self.pipe()
            let pid = try children.startProbe(command, output: nil, errors: errorWrite.rawValue)
            _ = errorWrite  // closed here: the child has its own copy
            jobs[pid] = Job(id: id, kind: .switching(label: label), deadline: now + timeout, timeout: timeout, errorPipe: errorRead)
            try watch(pid, .errors, errorRead)
            Log.info("\"\(label)\": switching (pid \(pid))")
        } catch {
            switchEnded(id, label, "cannot start \(command.argv[0]): \(error)")
        }
    }

    private func read(_ id: String, _ origin: ValueOrigin, kind: Kind, timeout: Double, now: Double) {
        switch origin {
        case .file(let path):
            let bytes: [UInt8]
            do {
                // A sensor's device node is read too (what it has ready); a long file is cut.
                bytes = try SmallFile.read(path, limit: Self.fileCap, regularOnly: false, cut: true)
            } catch {
                fail(id, "cannot read \(path): \(error)", now: now)
                return
            }
            deliver(id, kind: kind, bytes: bytes, code: 0, now: now)
        case .command(let command):
            do {
                let (readEnd, writeEnd) = try Self.pipe()
                let (errorRead, errorWrite) = try Self.pipe()
                let pid = try children.startProbe(command, output: kind == .value ? writeEnd.rawValue : nil, errors: errorWrite.rawValue)
                _ = (writeEnd, errorWrite)  // closed here: the child has its own copies
                jobs[pid] = Job(id: id, kind: kind, pipe: kind == .value ? readEnd : nil, deadline: now + timeout, timeout: timeout,
                                errorPipe: errorRead)
                if kind == .value { try watch(pid, .output, readEnd) }
                try watch(pid, .errors, errorRead)
            } catch {
                fail(id, "cannot start \(command.argv[0]): \(error)", now: now)
            }
        case .api:
            break  // never due (`isRead`)
        }
    }

    private func watch(_ pid: pid_t, _ stream: Stream, _ fd: OwnedDescriptor) throws(SystemError) {
        try loop.watch(fd.rawValue) { [unowned self] in self.drain(pid, stream) }
    }

    /// Reads what the probe `pid` printed so far on `stream`, at most `drainChunks` reads per call
    /// (a program that prints without end must not hold the loop: the loop comes back while more
    /// is there); at the end of it stops watching. `all`: until nothing is left (it has ended).
    private func drain(_ pid: pid_t, _ stream: Stream, all: Bool = false) {
        guard let job = jobs[pid], let fd = stream == .output ? job.pipe : job.errorPipe else { return }
        var chunk = [UInt8](repeating: 0, count: 16384)
        var reads = 0
        while all || reads < Self.drainChunks {
            reads += 1
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd.rawValue, $0.baseAddress, $0.count) }
            if n > 0 {
                keep(chunk.prefix(n), from: pid, stream)
                continue
            }
            if n < 0, errno == EINTR { continue }
            if n == 0 || (n < 0 && errno != EAGAIN) {
                // The end of it (or a broken pipe): nothing more comes.
                loop.unwatch(fd.rawValue)
                if stream == .output { jobs[pid]?.pipe = nil } else { jobs[pid]?.errorPipe = nil }
            }
            break
        }
    }

    /// Output: the first `outputCap` bytes; standard error: the last `errorCap` (where a failing
    /// program says why).
    private func keep(_ bytes: ArraySlice<UInt8>, from pid: pid_t, _ stream: Stream) {
        switch stream {
        case .output:
            let room = max(0, Self.outputCap - (jobs[pid]?.output.count ?? 0))
            jobs[pid]?.output.append(contentsOf: bytes.prefix(room))
            jobs[pid]?.dropped += max(0, bytes.count - room)
        case .errors:
            jobs[pid]?.errors.append(contentsOf: bytes.suffix(Self.errorCap))
            if let count = jobs[pid]?.errors.count, count > Self.errorCap { jobs[pid]?.errors.removeFirst(count - Self.errorCap) }
        }
    }

    /// The last line a program wrote to standard error that has something to say, made safe for
    /// one log line (control characters as spaces, at most `errorLineCap` characters); nil: none.
    static func lastErrorLine(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let line = text.split(whereSeparator: \.isNewline).last(where: { !$0.allSatisfy(\.isWhitespace) }) else { return nil }
        let spaced = String(String.UnicodeScalarView(line.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
        let clean = String(spaced.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        return clean.count > errorLineCap ? String(clean.prefix(errorLineCap)) + "…" : clean
    }

    /// Probes reaped: each one's reading delivered, or its switch reported.
    func reaped(now: Double) {
        for (pid, end) in children.takeProbeEnds() {
            drain(pid, .output, all: true)
            drain(pid, .errors, all: true)
            guard let job = jobs.removeValue(forKey: pid) else { continue }
            if let fd = job.pipe { loop.unwatch(fd.rawValue) }
            if let fd = job.errorPipe { loop.unwatch(fd.rawValue) }
            if job.orphaned { continue }
            let said = Self.lastErrorLine(job.errors)
            var failure: String?
            if job.timedOut {
                failure = "timed out after \(Self.seconds(job.timeout)) s (killed)"
            } else if end.code == nil {
                failure = end.result
            }
            if job.dropped > 0 { note(job.id, "output cut at \(Self.outputCap / 1024) KiB (\(job.dropped) bytes more were dropped)", now: now) }
            switch job.kind {
            case .switching(let label):
                if failure == nil, let code = end.code, code != 0 { failure = "exited with status \(code)" }
                if let failure {
                    logBudget.write(.warning, "\"\(label)\": switch \(failure)\(said.map { " (it said: \($0))" } ?? "")", now: now, to: logLine)
                } else {
                    Log.info("\"\(label)\": switch done")
                }
                switchEnded(job.id, label, failure)
                // What the switch did is read back at once.
                if isRead(job.id) { due[job.id] = now }
            case .value, .state:
                if let failure {
                    fail(job.id, failure, said: said, now: now)
                } else {
                    deliver(job.id, kind: job.kind, bytes: job.output, code: end.code ?? -1, said: said, now: now)
                }
            }
        }
        changed()
    }

    /// `said`: the last line of its standard error, logged with a failure.
    private func deliver(_ id: String, kind: Kind, bytes: [UInt8], code: Int32, said: String? = nil, now: Double) {
        do throws(LiveValueError) {
            switch kind {
            case .value:
                guard code == 0 else { return fail(id, "exited with status \(code)", said: said, now: now) }
                try values.set(id, bytes: bytes, now: now)
            case .state:
                let state = values.toggle(id).map { t -> Result<Bool, ReadingProblem> in
                    if case .file = t.state { return ValueReading.toggleState(bytes) }
                    return ValueReading.toggleState(exitStatus: code)
                } ?? .failure(.empty)
                switch state {
                case .success(let on): try values.setToggle(id, on: on, now: now)
                case .failure(let p): return fail(id, p.description, said: said, now: now)
                }
            case .switching:
                return
            }
            if logged.removeValue(forKey: id) != nil { Log.info("value \"\(id)\": read again") }
        } catch {
            // `set` stored the failure already.
            note(id, error.description, said: said, now: now)
        }
    }

    /// `why` goes to the value's state (status, screen); what the program said only to the log.
    private func fail(_ id: String, _ why: String, said: String? = nil, now: Double) {
        values.failed(id, why: why, now: now)
        note(id, why, said: said, now: now)
    }

    /// Logs a problem of `id` once (again only when `why` changes: not when only what the
    /// program said does, which may carry a time or a counter).
    private func note(_ id: String, _ why: String, said: String? = nil, now: Double) {
        guard logged[id] != why else { return }
        logged[id] = why
        logBudget.write(.warning, "value \"\(id)\": \(why)\(said.map { " (it said: \($0))" } ?? "")", now: now, to: logLine)
    }

    private static func seconds(_ s: Double) -> String { s == s.rounded() ? "\(Int(s))" : "\(s)" }

    /// A pipe whose ends close on exec; the read end does not block (the write end must, for the program).
    private static func pipe() throws(SystemError) -> (read: OwnedDescriptor, write: OwnedDescriptor) {
        var fds: [Int32] = [-1, -1]
        try retryingInterrupts("pipe2") { fds.withUnsafeMutableBufferPointer { pipe2($0.baseAddress, O_CLOEXEC) } }
        let read = OwnedDescriptor(taking: fds[0]), write = OwnedDescriptor(taking: fds[1])
        let flags = fcntl(read.rawValue, F_GETFL)
        try retryingInterrupts("fcntl(O_NONBLOCK)") { fcntl(read.rawValue, F_SETFL, flags | O_NONBLOCK) }
        return (read, write)
    }
}
