import Glibc

extension KioskConfig {
    /// The config file a command uses: the one it was given, else `$KIOSK_CONFIG`, else
    /// `defaultPath`. `environment` is getenv; tests pass their own.
    public static func path(given: String?, environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> String {
        given ?? environment("KIOSK_CONFIG") ?? defaultPath
    }

    /// How `path(given:)` chooses, in the words of a command's help.
    public static let pathDefaultHelp = "default: $KIOSK_CONFIG, else \(defaultPath)"
}
