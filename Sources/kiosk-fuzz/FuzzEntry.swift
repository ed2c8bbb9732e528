import FuzzHarnesses
import Glibc

/// `kiosk-fuzz TARGET ...`: with libFuzzer (built by scripts/fuzz with `-sanitize=fuzzer
/// -DKIOSK_LIBFUZZER`) fuzzes TARGET, the rest of the arguments being libFuzzer's; in a plain
/// build replays the files given (a crash input, a corpus), one line each, so that a find can be
/// reproduced under a debugger.
@main
enum KioskFuzz {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[1]) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            print("usage: kiosk-fuzz TARGET FILE...   (TARGET: \(names); scripts/fuzz builds it with libFuzzer)")
            exit(2)
        }
        #if KIOSK_LIBFUZZER
        selectedTarget = target
        // libFuzzer sees the program's name and its own arguments, not the target's name.
        var cArguments: [UnsafeMutablePointer<CChar>?] = ([arguments[0]] + arguments.dropFirst(2)).map { strdup($0) } + [nil]
        var argc = CInt(cArguments.count - 1)
        cArguments.withUnsafeMutableBufferPointer { buffer in
            var argv = buffer.baseAddress!
            exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
        }
        #else
        for path in arguments.dropFirst(2) {
            guard let bytes = readFile(path) else {
                print("\(path): cannot read")
                continue
            }
            print("\(path): \(target.run(bytes))")
        }
        #endif
    }

    static func readFile(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return bytes
    }
}

#if KIOSK_LIBFUZZER
/// The target libFuzzer's callback runs (a C function pointer captures nothing).
nonisolated(unsafe) var selectedTarget: FuzzTarget?

/// libFuzzer's driver, for programs that keep their own `main`: SwiftPM links an executable's
/// `main` to the module's entry point, so libFuzzer's own `main` cannot be the one used.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The entry point libFuzzer's link expects, and the driver's callback.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selectedTarget.map { _ = $0.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []) }
    return 0
}
#endif
