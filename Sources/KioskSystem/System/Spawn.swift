import CLinux
import Glibc

/// Starts a child process: the one place `posix_spawnp` is called. The child gets descriptors 0,
/// 1 and 2 only (the kiosk's libraries open some without close-on-exec: libmosquitto's broker
/// socket and socketpair, which a child must not hold), default signal handling and an empty
/// signal mask (the kiosk blocks the signals it reads through signalfd; a child must not inherit
/// that).
public enum Spawn {
    /// Where a child's standard input or output comes from or goes to.
    public enum Stream: Sendable {
        /// The kiosk's own.
        case inherited
        /// `/dev/null`.
        case null
        /// This descriptor of the kiosk's (duplicated onto the child's 0, 1 or 2).
        case descriptor(Int32)
    }

    /// Starts `argv` (looked up in PATH when not absolute) with exactly `environment`
    /// (KEY=value entries). `ownGroup`: the child leads a process group of its own, so that what
    /// it forks can be ended with it (`kill(-pid, …)`).
    public static func start(argv: [String], environment: [String], input: Stream = .inherited, output: Stream = .inherited,
                             errors: Stream = .inherited, ownGroup: Bool = false) throws(SystemError) -> pid_t {
        guard let program = argv.first, !program.isEmpty else { throw SystemError("posix_spawn (empty argv)", errno: EINVAL) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (stream, target, mode) in [(input, Int32(0), O_RDONLY), (output, Int32(1), O_WRONLY), (errors, Int32(2), O_WRONLY)] {
            switch stream {
            case .inherited: break
            case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", mode, 0)
            case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, target)
            }
        }
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        var pid: pid_t = 0
        let status = withCStrings(argv) { argv in
            withCStrings(environment) { envp in
                posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
            }
        }
        guard status == 0 else { throw SystemError("start \(program)", errno: status) }
        return pid
    }

    /// This process's environment as KEY=value entries.
    public static var currentEnvironment: [String] {
        var entries: [String] = []
        var index = 0
        while let entry = environ[index] {
            entries.append(String(cString: entry))
            index += 1
        }
        return entries
    }
}

/// A NULL-terminated array of C strings that lives for the duration of `body`.
func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    return body(copies + [nil])
}
