import DRMOutput
import Foundation
import Glibc
@testable import Kiosk
@testable import KioskConfiguration
import KioskSystem
import TestSupport
import Testing

/// Programs the menu launches cannot change the kiosk's own folders (its PIN lockout state, its
/// config, its status) nor read its secrets (the config's PIN hash): they start from a thread
/// Landlock confines (`ConfinedLauncher`), and inherit it. What the rules allow is worked out
/// from the kept paths' ancestors (`LaunchConfinement.writable`, `readable`); the rest of the
/// file system stays as it was.
@Suite struct ChildConfinementTests {
    /// A file system of folders (names ending in "/"), files and one symbolic link.
    static let tree: [String: [LaunchConfinement.Entry]] = [
        "/": [.init(name: "etc", isDirectory: true, isSymlink: false), .init(name: "run", isDirectory: true, isSymlink: false),
              .init(name: "tmp", isDirectory: true, isSymlink: false), .init(name: "var", isDirectory: true, isSymlink: false),
              .init(name: "vmlinuz", isDirectory: false, isSymlink: true)],
        "/etc": [.init(name: "kiosk", isDirectory: true, isSymlink: false), .init(name: "hostname", isDirectory: false, isSymlink: false),
                 .init(name: "ssh", isDirectory: true, isSymlink: false)],
        "/run": [.init(name: "kiosk", isDirectory: true, isSymlink: false), .init(name: "user", isDirectory: true, isSymlink: false)],
        "/var": [.init(name: "lib", isDirectory: true, isSymlink: false), .init(name: "run", isDirectory: false, isSymlink: true),
                 .init(name: "cache", isDirectory: true, isSymlink: false)],
        "/var/lib": [.init(name: "kiosk", isDirectory: true, isSymlink: false), .init(name: "dpkg", isDirectory: true, isSymlink: false)],
    ]

    /// Whether probe `pid` of `children` ended (reaped) within the tests' patience.
    static func ended(_ pid: pid_t, _ children: ChildProcesses) -> Bool {
        waitUntil { _ = children.reap(); return children.takeProbeEnds()[pid] != nil }
    }

    /// Everything beside the kept folders and their ancestors is allowed; the kept folders, their
    /// ancestors and every symbolic link are not; a folder kept beneath another counts once, and
    /// a shared scratch folder (/tmp) is never kept.
    @Test func theRulesAllowEverythingBesideTheKeptFolders() {
        let confinement = LaunchConfinement(keeping: ["/var/lib/kiosk", "/etc/kiosk/", "/run/kiosk", "/run/kiosk/sub", "/tmp", "relative"])
        #expect(confinement.keptFolders == ["/etc/kiosk", "/run/kiosk", "/var/lib/kiosk"])
        let allowed = confinement.writable { Self.tree[$0] }
        #expect(allowed.map(\.path) == ["/etc/hostname", "/etc/ssh", "/run/user", "/tmp", "/var/cache", "/var/lib/dpkg"])
        #expect(allowed.map(\.isDirectory) == [false, true, true, true, true, true])
        #expect(LaunchConfinement(keeping: []).writable { Self.tree[$0] }.map(\.path) == ["/etc", "/run", "/tmp", "/var"])
        #expect(confinement.readable { Self.tree[$0] }.isEmpty, "nothing hidden: no read rules")
    }

    /// Hidden files are worked out the same way, apart from the kept folders: every file beside
    /// the config and beside its folders stays readable.
    @Test func theReadRulesAllowEverythingBesideTheHiddenFiles() {
        let tree = Self.tree.merging(["/etc/kiosk": [.init(name: "kiosk.toml", isDirectory: false, isSymlink: false),
                                                     .init(name: "scripts", isDirectory: true, isSymlink: false)]]) { $1 }
        let confinement = LaunchConfinement(keeping: ["/etc/kiosk"], hiding: ["/etc/kiosk/kiosk.toml", "/var/lib/kiosk", "/tmp"])
        #expect(confinement.hiddenFiles == ["/etc/kiosk/kiosk.toml", "/var/lib/kiosk"])
        let readable = confinement.readable { tree[$0] }
        #expect(readable.map(\.path) == ["/etc/hostname", "/etc/kiosk/scripts", "/etc/ssh", "/run", "/tmp", "/var/cache", "/var/lib/dpkg"])
        #expect(!confinement.writable { tree[$0] }.map(\.path).contains("/etc/kiosk/scripts"), "the kept folder stays unwritable")
    }

    /// A probe started by `ChildProcesses` once it keeps a folder out: writing, truncating,
    /// creating, renaming into, removing and making a folder there are refused; the files there
    /// are as they were; writing beside it works.
    @Test(.enabled(if: LaunchConfinement.isAvailable, "the kernel has no Landlock"))
    func aLaunchedProgramCannotChangeAKeptFolder() throws {
        let scratch = ScratchDirectory()
        let kept = scratch.path + "/kept"
        let free = scratch.path + "/free"
        mkdir(kept, 0o755)
        mkdir(free, 0o755)
        defer {
            for name in (try? Directory.names(in: kept)) ?? [] { unlink(kept + "/" + name) }
            for name in (try? Directory.names(in: free)) ?? [] { unlink(free + "/" + name) }
            rmdir(kept + "/made")
            rmdir(kept)
            rmdir(free)
        }
        FileManager.default.createFile(atPath: kept + "/pin-lock.state", contents: Data("kiosk-pin-lock 1\n".utf8))
        FileManager.default.createFile(atPath: free + "/spare", contents: Data("spare\n".utf8))
        let children = ChildProcesses()
        children.keepOut(of: [kept])
        let script = """
            echo 'lockouts 0' > \(kept)/pin-lock.state; echo "write $?" >> \(free)/log
            true > \(kept)/pin-lock.state; echo "truncate $?" >> \(free)/log
            echo x > \(kept)/new; echo "create $?" >> \(free)/log
            mv \(free)/spare \(kept)/pin-lock.state; echo "rename $?" >> \(free)/log
            rm -f \(kept)/pin-lock.state; echo "remove $?" >> \(free)/log
            mkdir \(kept)/made; echo "mkdir $?" >> \(free)/log
            echo ok > \(free)/beside; echo "beside $?" >> \(free)/log
            """
        let pid = try children.startProbe(Command(argv: ["/bin/sh", "-c", script]), output: nil)
        #expect(Self.ended(pid, children))
        let log = (try? String(contentsOfFile: free + "/log", encoding: .utf8)) ?? ""
        let codes = Dictionary(uniqueKeysWithValues: log.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: " ")
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        })
        for step in ["write", "truncate", "create", "rename", "remove", "mkdir"] {
            #expect(codes[step].map { $0 != "0" } == true, "\(step) in the kept folder was not refused: \(log)")
        }
        #expect(codes["beside"] == "0", "writing beside the kept folder was refused: \(log)")
        #expect((try? String(contentsOfFile: kept + "/pin-lock.state", encoding: .utf8)) == "kiosk-pin-lock 1\n")
        #expect(access(kept + "/new", F_OK) != 0 && access(kept + "/made", F_OK) != 0)
        // The kiosk's own thread is not confined: it still writes there.
        #expect(FileManager.default.createFile(atPath: kept + "/written-by-the-kiosk", contents: Data()))
    }

    /// A probe cannot read a hidden file (the config, for its PIN hash), while the script beside
    /// it still runs and reads the file beside it.
    @Test(.enabled(if: LaunchConfinement.isAvailable, "the kernel has no Landlock"))
    func aLaunchedProgramCannotReadAHiddenFile() throws {
        let scratch = ScratchDirectory()
        let config = scratch.write("kiosk.toml", "pin = \"$6$hash\"\n")
        scratch.write("beside.txt", "beside\n")
        // (The scratch folder removes them with itself.)
        let (out, kept) = (scratch.path + "/out", scratch.path + "/kept")
        mkdir(out, 0o755)
        mkdir(kept, 0o755)
        let script = scratch.write("probe.sh", """
            #!/bin/sh
            cat \(config) > \(out)/config 2>/dev/null; echo "config $?" >> \(out)/log
            cat \(scratch.path)/beside.txt > \(out)/beside; echo "beside $?" >> \(out)/log
            """, mode: 0o755)
        let children = ChildProcesses()
        children.keepOut(of: [kept], hiding: [config])
        let pid = try children.startProbe(Command(argv: [script]), output: nil)
        #expect(Self.ended(pid, children))
        let log = (try? String(contentsOfFile: out + "/log", encoding: .utf8)) ?? ""
        #expect(log.contains("config 1"), "the hidden config was read: \(log)")
        #expect(log.contains("beside 0"), "the file beside it was not: \(log)")
        #expect((try? String(contentsOfFile: out + "/config", encoding: .utf8)) == "")
        #expect((try? String(contentsOfFile: out + "/beside", encoding: .utf8)) == "beside\n")
    }

    /// Where Landlock scopes signals (ABI 6, Linux 6.12), a launched program cannot signal the
    /// kiosk (this process), while the kiosk still ends it.
    @Test(.enabled(if: (Landlock.abi ?? 0) >= 6, "the kernel's Landlock cannot scope signals"))
    func aLaunchedProgramCannotSignalTheKiosk() throws {
        let scratch = ScratchDirectory()
        // (The scratch folder removes them with itself.)
        let (out, kept) = (scratch.path + "/out", scratch.path + "/kept")
        mkdir(out, 0o755)
        mkdir(kept, 0o755)
        let children = ChildProcesses()
        children.keepOut(of: [kept])
        let probe = try children.startProbe(Command(argv: ["/bin/sh", "-c", "kill -0 \(getpid()) 2>/dev/null; echo \"signal $?\" > \(out)/log"]),
                                            output: nil)
        #expect(Self.ended(probe, children))
        #expect((try? String(contentsOfFile: out + "/log", encoding: .utf8)) == "signal 1\n")
        let sleeper = try children.startProbe(Command(argv: ["/bin/sleep", "1000"]), output: nil)
        children.kill(probe: sleeper)
        #expect(Self.ended(sleeper, children))
    }

    /// The runtime keeps the status file's folder (and `keptFromChildren`) from what its items
    /// run: a value command that tries to overwrite the status leaves it the kiosk's.
    @Test(.enabled(if: LaunchConfinement.isAvailable, "the kernel has no Landlock"))
    func theRuntimeKeepsItsStatusFromWhatItRuns() throws {
        let scratch = ScratchDirectory()
        let run = scratch.path + "/run"
        let state = scratch.path + "/state"
        // The program's own folder: nothing new can be made directly in a kept folder's parent.
        let own = scratch.path + "/own"
        mkdir(run, 0o755)
        mkdir(state, 0o700)
        mkdir(own, 0o755)
        defer {
            for dir in [run, state, own] {
                for name in (try? Directory.names(in: dir)) ?? [] { unlink(dir + "/" + name) }
                rmdir(dir)
            }
        }
        let attempt = scratch.write("attempt.sh", """
            #!/bin/sh
            echo hostile > \(run)/status.json; echo "status $?" >> \(own)/log
            echo hostile > \(state)/pin-lock.state; echo "state $?" >> \(own)/log
            cat \(scratch.path)/kiosk.toml > \(own)/config 2>/dev/null; echo "config $?" >> \(own)/log
            echo 7
            """, mode: 0o755)
        let path = scratch.write("kiosk.toml", """
            home = "main"
            status_file = "\(run)/status.json"

            [screens.main]
            style = "list"
            title = "Kept"

            [[screens.main.sections]]
            [[screens.main.sections.items]]
            id = "reading"
            label = "Reading {value}"
            action = "back"
            value = { command = ["\(attempt)"], every = 3600 }
            """)
        let check = ConfigReader(path: path).check()
        let app = try KioskApp(config: try #require(check.config, "\(check.report)"), width: 800, height: 480, now: MonotonicClock.now())
        let output = try HeadlessOutput(panelWidth: 800, panelHeight: 480, rotation: .none)
        let runtime = try Runtime(app: app, output: output, signals: try SignalSource(Runtime.handledSignals), config: nil,
                                  options: Runtime.Options(keptFromChildren: [state], hiddenFromChildren: [path]), startup: StartupTimeline())
        try runtime.start()
        try AppTests.turn(runtime) { ((try? String(contentsOfFile: own + "/log", encoding: .utf8)) ?? "").contains("config") }
        let log = (try? String(contentsOfFile: own + "/log", encoding: .utf8)) ?? ""
        #expect(!log.contains("status 0") && !log.contains("state 0"), "a value command wrote the kiosk's own files: \(log)")
        #expect(log.contains("config 1") && (try? String(contentsOfFile: own + "/config", encoding: .utf8)) == "",
                "a value command read the kiosk's config: \(log)")
        try AppTests.turn(runtime) { ((try? String(contentsOfFile: run + "/status.json", encoding: .utf8)) ?? "").contains("\"generation\"") }
        #expect(!((try? String(contentsOfFile: run + "/status.json", encoding: .utf8)) ?? "").contains("hostile"))
        #expect(access(state + "/pin-lock.state", F_OK) != 0)
    }
}
