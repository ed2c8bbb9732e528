/// The program's version: `kiosk --version`, and the `sw_version` of its Home Assistant device.
public enum KioskVersion {
    public static let string = "0.1.0"
}
