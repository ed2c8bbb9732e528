import Glibc

/// Seconds of CPU time the calling thread has used (CLOCK_THREAD_CPUTIME_ID): what a piece of
/// work costs, whatever else the machine runs meanwhile. Wall time would charge it for the
/// waits of a busy or starved host (a test bed running guests beside it, a background priority).
public enum ThreadCPUClock {
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
