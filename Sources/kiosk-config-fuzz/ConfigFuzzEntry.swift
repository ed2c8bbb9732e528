import Glibc
import Kiosk

/// Runs the whole config reader on `bytes` (UTF-8 check, TOML parse, decode, validate) and traps
/// if the outcome is incoherent, so that libFuzzer reports it like a crash: valid exactly when
/// there is no error, every message one line naming the file, a valid config has its home screen
/// and no screen without items.
func checkConfigCoherently(_ bytes: [UInt8]) {
    let check = ConfigReader.check(bytes: bytes, file: "fuzz.toml", baseDirectory: "/nonexistent/kiosk-config-fuzz", searchPath: "/usr/bin:/bin")
    precondition(check.isValid == !check.problems.hasErrors, "valid with errors, or invalid without one")
    for problem in check.problems {
        let line = problem.description
        precondition(line.hasPrefix("fuzz.toml") && !line.contains("\n"), "malformed problem: \(line)")
    }
    if let config = check.config {
        precondition(config.screen(named: config.home) != nil, "valid config without its home screen")
        precondition(config.screens.allSatisfy { !$0.items.isEmpty }, "valid config with an empty screen")
    }
}

#if KIOSK_LIBFUZZER
/// libFuzzer's entry point (built with `-sanitize=fuzzer -DKIOSK_LIBFUZZER`, see scripts/fuzz-config).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfigReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    checkConfigCoherently(bytes)
    return 0
}

/// libFuzzer's driver, for programs that keep their own `main`. SwiftPM links an executable's
/// `main` to the module's entry point, so libFuzzer's own `main` cannot be the one used.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@main
enum FuzzConfigReader {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzConfigReader(data, size) })
    }
}
#else
/// Without libFuzzer: replays the files given as arguments (a crash input, a corpus), printing
/// each one's problems, so a fuzzer find can be reproduced under a debugger or in a plain build.
@main
enum ReplayConfigInputs {
    static func main() {
        let paths = CommandLine.arguments.dropFirst()
        if paths.isEmpty {
            print("usage: kiosk-config-fuzz FILE...  (replays fuzz inputs; build with scripts/fuzz-config to fuzz)")
            exit(2)
        }
        for path in paths {
            guard let file = fopen(path, "rb") else {
                print("\(path): cannot open")
                continue
            }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = fread(&buffer, 1, buffer.count, file)
                if n <= 0 { break }
                bytes += buffer[0..<n]
            }
            fclose(file)
            checkConfigCoherently(bytes)
            let check = ConfigReader.check(bytes: bytes, file: path, baseDirectory: "/nonexistent/kiosk-config-fuzz", searchPath: "/usr/bin:/bin")
            print(check.isValid ? "\(path): valid" : check.report)
        }
    }
}
#endif
