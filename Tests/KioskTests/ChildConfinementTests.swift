import DRMOutput
import Foundation
import Glibc
@testable import Kiosk
@testable import KioskConfiguration
import KioskSystem
import TestSupport
import Testing

/// Programs the menu launches cannot change the kiosk's own folders (its PIN lockout state, its
/// config, its status): they start from a thread Landlock confines (`ConfinedLauncher`), and
/// inherit it. What the rules allow is worked out from the folders' ancestors
/// (`WriteConfinement.allowed`); the rest of the file system stays writable.
@Suite struct ChildConfinementTests {
    /// A file system of folders (names ending in "/"), files and one symbolic link.
    static let tree: [String: [WriteConfinement.Entry]] = [
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

    /// Everything beside the kept folders and their ancestors is allowed; the kept folders, their
    /// ancestors and every symbolic link are not; a folder kept beneath another counts once, and
    /// a shared scratch folder (/tmp) is never kept.
    @Test func theRulesAllowEverythingBesideTheKeptFolders() {
        let confinement = WriteConfinement(keeping: ["/var/lib/kiosk", "/etc/kiosk/", "/run/kiosk", "/run/kiosk/sub", "/tmp", "relative"])
        #expect(confinement.keptFolders == ["/etc/kiosk", "/run/kiosk", "/var/lib/kiosk"])
        let allowed = confinement.allowed { Self.tree[$0] }
        #expect(allowed.map(\.path) == ["/etc/hostname", "/etc/ssh", "/run/user", "/tmp", "/var/cache", "/var/lib/dpkg"])
        #expect(allowed.map(\.isDirectory) == [false, true, true, true, true, true])
        #expect(WriteConfinement(keeping: []).allowed { Self.tree[$0] }.map(\.path) == ["/etc", "/run", "/tmp", "/var"])
    }

    /// A probe started by `ChildProcesses` once it keeps a folder out: writing, truncating,
    /// creating, renaming into, removing and making a folder there are refused; the files there
    /// are as they were; writing beside it works.
    @Test(.enabled(if: WriteConfinement.isAvailable, "the kernel has no Landlock"))
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
        #expect(waitUntil { _ = children.reap(); return children.takeProbeEnds()[pid] != nil })
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

    /// The runtime keeps the status file's folder (and `keptFromChildren`) from what its items
    /// run: a value command that tries to overwrite the status leaves it the kiosk's.
    @Test(.enabled(if: WriteConfinement.isAvailable, "the kernel has no Landlock"))
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
                                  options: Runtime.Options(keptFromChildren: [state]), startup: StartupTimeline())
        try runtime.start()
        try AppTests.turn(runtime) { ((try? String(contentsOfFile: own + "/log", encoding: .utf8)) ?? "").contains("state") }
        let log = (try? String(contentsOfFile: own + "/log", encoding: .utf8)) ?? ""
        #expect(!log.contains("status 0") && !log.contains("state 0"), "a value command wrote the kiosk's own files: \(log)")
        try AppTests.turn(runtime) { ((try? String(contentsOfFile: run + "/status.json", encoding: .utf8)) ?? "").contains("\"generation\"") }
        #expect(!((try? String(contentsOfFile: run + "/status.json", encoding: .utf8)) ?? "").contains("hostile"))
        #expect(access(state + "/pin-lock.state", F_OK) != 0)
    }
}
