import ArgumentParser
import Glibc
import Kiosk
import KioskConfiguration
import KioskSystem

/// Makes the `pin_hash` of a locked screen, so that the config never holds the PIN.
struct HashPin: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hash-pin",
        abstract: "Read a PIN from standard input and print its crypt(3) hash for pin_hash.",
        discussion: """
            Reads one line (4 to 12 digits) and prints a yescrypt hash, the format of /etc/shadow. \
            At a terminal the PIN is not echoed. Example: kiosk hash-pin < pin.txt
            """)

    func run() throws {
        // The prompt goes to standard error: standard output carries only the hash.
        let terminal = isatty(STDIN_FILENO) == 1
        if terminal { toTerminal("PIN: ") }
        let line = withoutEcho(terminal) { readLine(strippingNewline: true) }
        if terminal { toTerminal("\n") }
        do throws(PinError) {
            guard let line else { throw PinError.empty }
            print(try PinHash.make(pin: line).text)
        } catch {
            Log.error("hash-pin: \(error.description)")
            throw ExitCode.failure
        }
    }

    /// Runs `body` with the terminal's echo off, so that a PIN typed by hand stays off the screen.
    private func withoutEcho<T>(_ terminal: Bool, _ body: () -> T) -> T {
        var saved = termios()
        guard terminal, tcgetattr(STDIN_FILENO, &saved) == 0 else { return body() }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        defer { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        return body()
    }

    /// The prompt, without a line end, where `Log` would add one.
    private func toTerminal(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
