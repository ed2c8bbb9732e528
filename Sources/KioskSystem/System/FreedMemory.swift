import CLinux

/// Keeps the footprint of a process that runs for years where it started: large blocks go back
/// to the system when freed, and bursts of small frees are trimmed.
package enum FreedMemory {
    /// Pins glibc's mmap threshold at its default (128 KiB). Left dynamic, the first free of a
    /// large block (a frame, a screen's chrome) raises it, later blocks of that size come from
    /// the heap, and the heap's top is not given back: a step of megabytes at a moment that
    /// depends on timing (the display-power scenario saw 2.8–4 MB after a dozen wakes). Called once, at start.
    /// Also keeps every thread on the main heap (one arena). A thread that allocates gets an
    /// arena of its own otherwise, whose freed pages the trims do not all give back: the icon
    /// render thread of each config load left service-soak 1.5 MB higher after its input cycles.
    /// And no transparent huge pages: where the kernel makes them always (Debian's kernels do),
    /// khugepaged collapses a 2 MiB range of a large block (a frame, a cache) into one huge page
    /// whenever it passes by, filling in every page the kiosk never touched: a step of up to
    /// 2 MiB per block at a random moment (service-soak saw +1.4 and +2.0 MB in one mapping,
    /// during input cycles that allocate nothing). Programs the kiosk
    /// launches inherit this (the kernel keeps it across exec).
    package static func pinAllocatorSettings() {
        _ = mallopt(M_MMAP_THRESHOLD, 128 * 1024)
        _ = mallopt(M_ARENA_MAX, 1)
        _ = kiosk_prctl(PR_SET_THP_DISABLE, 1)
    }

    /// Hands memory that the process freed back to the system. Called after bursts of frees (a
    /// config replaced, an input device unplugged), so that a device reconfigured and replugged
    /// for years keeps the footprint it started with instead of the allocator's high-water mark.
    package static func returnToSystem() {
        _ = malloc_trim(0)
    }
}
