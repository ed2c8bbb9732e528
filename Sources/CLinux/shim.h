// Linux interfaces Glibc's Swift module leaves out: epoll, signalfd, timerfd, eventfd, inotify, VT, evdev, malloc_trim, pipe2, prctl, rlimits, Landlock,
// seccomp, posix_spawn's closefrom.
#pragma once
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <linux/vt.h>
#include <linux/kd.h>
#include <linux/input.h>
#include <malloc.h>
#include <sys/eventfd.h>

// EVIOCSCLOCKID is a function-like macro (_IOW), which Swift cannot import: the same value as a constant.
static const unsigned long kiosk_EVIOCSCLOCKID = EVIOCSCLOCKID;

// pipe2 is declared only under _GNU_SOURCE, which Swift's Glibc module does not define.
#include <unistd.h>
extern int pipe2(int pipefd[2], int flags);

// posix_spawn_file_actions_addclosefrom_np (glibc 2.34) is declared only under _GNU_SOURCE too.
#include <spawn.h>
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

// The SVG worker's confinement: prctl is variadic and the rlimit and itimer selectors are enums
// Swift imports awkwardly, so thin fixed-argument wrappers.
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
static inline int kiosk_prctl(int option, unsigned long arg) { return prctl(option, arg, 0UL, 0UL, 0UL); }
static inline int kiosk_setrlimit(int resource, unsigned long long value) {
    struct rlimit limit = { .rlim_cur = value, .rlim_max = value };
    return setrlimit(resource, &limit);
}
static const int kiosk_RLIMIT_DATA = RLIMIT_DATA;
static const int kiosk_RLIMIT_NOFILE = RLIMIT_NOFILE;
static const int kiosk_RLIMIT_CORE = RLIMIT_CORE;
// A one-shot SIGPROF after `microseconds` of the process's CPU time (all threads); 0 disarms it.
static inline int kiosk_cpu_alarm(long long microseconds) {
    struct itimerval value = { .it_interval = { 0, 0 }, .it_value = { microseconds / 1000000, microseconds % 1000000 } };
    return setitimer(ITIMER_PROF, &value, 0);
}

// Landlock (Linux 5.13+), which the C library does not wrap: the three system calls, with the
// kernel's structures declared here (the syscall numbers are the same on x86_64 and aarch64).
#include <stdint.h>
#include <sys/syscall.h>
#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif
// O_PATH is defined only under _GNU_SOURCE.
#include <fcntl.h>
#ifdef O_PATH
static const int kiosk_O_PATH = O_PATH;
#else
static const int kiosk_O_PATH = 010000000;
#endif
// handled_access_net (ABI 4) and scoped (ABI 6) follow handled_access_fs; an older kernel is
// given the first field only.
struct kiosk_landlock_ruleset_attr { uint64_t handled_access_fs; uint64_t handled_access_net; uint64_t scoped; };
struct kiosk_landlock_path_beneath_attr { uint64_t allowed_access; int32_t parent_fd; } __attribute__((packed));
// The kernel's Landlock ABI version (1, 2, ...), or -1 with errno (ENOSYS, EOPNOTSUPP: none).
static inline int kiosk_landlock_abi(void) {
    return (int)syscall(__NR_landlock_create_ruleset, (void *)0, (size_t)0, (uint32_t)1 /* LANDLOCK_CREATE_RULESET_VERSION */);
}
// `scoped`: LANDLOCK_SCOPE_* (0 where the kernel's ABI is below 6).
static inline int kiosk_landlock_create_ruleset(uint64_t handled, uint64_t scoped) {
    struct kiosk_landlock_ruleset_attr attr = { handled, 0, scoped };
    size_t size = scoped ? sizeof attr : sizeof attr.handled_access_fs;
    return (int)syscall(__NR_landlock_create_ruleset, &attr, size, (uint32_t)0);
}
static inline int kiosk_landlock_allow_beneath(int ruleset, int parent, uint64_t access) {
    struct kiosk_landlock_path_beneath_attr attr = { access, parent };
    return (int)syscall(__NR_landlock_add_rule, ruleset, 1 /* LANDLOCK_RULE_PATH_BENEATH */, &attr, (uint32_t)0);
}
static inline int kiosk_landlock_restrict_self(int ruleset) {
    return (int)syscall(__NR_landlock_restrict_self, ruleset, (uint32_t)0);
}

// A seccomp filter for a process that parses untrusted data and needs nothing beyond its open
// descriptors, memory and threads (the icon worker): it may not open a socket, start a program,
// fork, trace or read another process, signal any process but itself, or reach the kernel's
// larger attack surfaces (io_uring, bpf, perf, keys, user namespaces, mounts). Each of those
// fails with EPERM; everything else is allowed. A system call of another architecture (x32 on
// x86_64) is refused too. `self` is the caller's pid: kill and tgkill are allowed on it only.
// Returns 0, or -1 with errno (the caller must have set no-new-privileges first).
#include <stddef.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/sched.h>
#include <errno.h>
#if defined(__x86_64__)
#define KIOSK_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define KIOSK_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif
static inline int kiosk_seccomp_refuse_escapes(int self) {
#ifndef KIOSK_AUDIT_ARCH
    errno = ENOSYS;
    return -1;
#else
    const unsigned refused[] = {
        __NR_socket, __NR_socketpair, __NR_connect, __NR_bind, __NR_listen, __NR_accept, __NR_accept4,
        __NR_execve, __NR_execveat, __NR_ptrace, __NR_process_vm_readv, __NR_process_vm_writev,
        __NR_io_uring_setup, __NR_io_uring_enter, __NR_io_uring_register, __NR_bpf, __NR_perf_event_open,
        __NR_keyctl, __NR_add_key, __NR_request_key, __NR_unshare, __NR_setns, __NR_mount, __NR_umount2,
        __NR_userfaultfd, __NR_pidfd_open, __NR_pidfd_send_signal, __NR_pidfd_getfd, __NR_tkill,
        __NR_open_by_handle_at, __NR_name_to_handle_at, __NR_process_madvise,
#ifdef __NR_fork
        __NR_fork, __NR_vfork,
#endif
    };
    enum { REFUSED = sizeof refused / sizeof refused[0] };
    struct sock_filter program[2 * REFUSED + 40];
    unsigned n = 0;
#define KIOSK_BPF(code, k, jt, jf) (program[n++] = (struct sock_filter)BPF_JUMP(code, k, jt, jf))
#define KIOSK_ARG_LOW(i) (offsetof(struct seccomp_data, args) + (i) * sizeof(__u64))
    const __u32 deny = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
    KIOSK_BPF(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch), 0, 0);
    KIOSK_BPF(BPF_JMP | BPF_JEQ | BPF_K, KIOSK_AUDIT_ARCH, 1, 0);
    KIOSK_BPF(BPF_RET | BPF_K, deny, 0, 0);
    KIOSK_BPF(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr), 0, 0);
#if defined(__x86_64__)
    KIOSK_BPF(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u /* __X32_SYSCALL_BIT */, 0, 1);
    KIOSK_BPF(BPF_RET | BPF_K, deny, 0, 0);
#endif
    for (unsigned i = 0; i < REFUSED; i++) {
        KIOSK_BPF(BPF_JMP | BPF_JEQ | BPF_K, refused[i], 0, 1);
        KIOSK_BPF(BPF_RET | BPF_K, deny, 0, 0);
    }
    // clone3 passes its flags in memory a filter cannot read: ENOSYS makes the C library fall back
    // to clone, whose flags it can.
    KIOSK_BPF(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, 0, 1);
    KIOSK_BPF(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA), 0, 0);
    // clone: threads only (CLONE_THREAD), never a new process.
    KIOSK_BPF(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 4);
    KIOSK_BPF(BPF_LD | BPF_W | BPF_ABS, KIOSK_ARG_LOW(0), 0, 0);
    KIOSK_BPF(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1);
    KIOSK_BPF(BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
    KIOSK_BPF(BPF_RET | BPF_K, deny, 0, 0);
    // kill, tgkill and rt_(tg)sigqueueinfo: the first argument must be this process.
    const unsigned signalling[] = { __NR_kill, __NR_tgkill, __NR_rt_sigqueueinfo, __NR_rt_tgsigqueueinfo };
    for (unsigned i = 0; i < 4; i++) {
        KIOSK_BPF(BPF_JMP | BPF_JEQ | BPF_K, signalling[i], 0, 4);
        KIOSK_BPF(BPF_LD | BPF_W | BPF_ABS, KIOSK_ARG_LOW(0), 0, 0);
        KIOSK_BPF(BPF_JMP | BPF_JEQ | BPF_K, (__u32)self, 0, 1);
        KIOSK_BPF(BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
        KIOSK_BPF(BPF_RET | BPF_K, deny, 0, 0);
    }
    KIOSK_BPF(BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
#undef KIOSK_BPF
#undef KIOSK_ARG_LOW
    struct sock_fprog fprog = { .len = (unsigned short)n, .filter = program };
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0UL, 0UL);
#endif
}
