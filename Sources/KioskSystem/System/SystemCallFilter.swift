import CLinux
import Glibc

/// seccomp for a process that only parses data it is handed (the icon worker): it keeps its
/// descriptors, memory and threads, and loses what would let code that took it over reach further
/// (a socket, a new program or process, another process's memory or signals, io_uring, bpf, user
/// namespaces: `kiosk_seccomp_refuse_escapes` lists them). Each such call fails with EPERM.
public enum SystemCallFilter {
    /// Applies the filter to the calling thread and the threads and processes it starts from now
    /// on, after setting no-new-privileges (which an unprivileged filter requires). For good.
    public static func refuseEscapes() throws(SystemError) {
        try retryingInterrupts("prctl PR_SET_NO_NEW_PRIVS") { kiosk_prctl(PR_SET_NO_NEW_PRIVS, 1) }
        try retryingInterrupts("prctl PR_SET_SECCOMP") { kiosk_seccomp_refuse_escapes(getpid()) }
    }
}
