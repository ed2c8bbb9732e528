@testable import Kiosk
import Speech
import Testing

/// The libraries a config may not need (libmosquitto for `[mqtt]`, espeak-ng for `[speech]`) are
/// opened when it does (CDynamicLibrary): the one the kiosk was built against opens whole; one
/// that is not installed, or a library that is not it, is a clear reason, never a crash.
@Suite struct OptionalLibraryTests {
    @Test func theBuiltAgainstLibrariesOpenWhole() {
        #expect(MosquittoLibrary.problem(opening: MosquittoLibrary.soname) == nil)
        #expect(EspeakLibrary.problem(opening: EspeakLibrary.soname) == nil)
        #expect(MosquittoLibrary.functions != nil)
    }

    @Test func aMissingOrWrongLibraryIsAReason() throws {
        let missing = try #require(MosquittoLibrary.problem(opening: "libkiosk-not-installed.so.1"))
        #expect(missing.contains("libkiosk-not-installed.so.1") && missing.contains("cannot open shared object file"), "\(missing)")
        #expect(MosquittoLibrary.problem(opening: "libc.so.6") == "libc.so.6 has no mosquitto_lib_init (libmosquitto 1.6 or later)")
        #expect(EspeakLibrary.problem(opening: "libc.so.6") == "libc.so.6 has no espeak_ng_InitializePath (espeak-ng 1.49 or later)")
        // The error the MQTT link reports when its client cannot be made says what to install.
        let error = MosquittoError("dlopen(libmosquitto.so.1)", code: 10, detail: "MQTT needs libmosquitto (Debian: apt install libmosquitto1): x")
        #expect("\(error)" == "dlopen(libmosquitto.so.1): MQTT needs libmosquitto (Debian: apt install libmosquitto1): x")
    }
}
