import CLinux

/// Hands memory that the process freed back to the system. Called after bursts of frees (a config
/// replaced, an input device unplugged), so that a device reconfigured and replugged for years
/// keeps the footprint it started with instead of the allocator's high-water mark.
enum FreedMemory {
    static func returnToSystem() {
        _ = malloc_trim(0)
    }
}
