// Linux interfaces Glibc's Swift module leaves out: epoll, signalfd, timerfd, eventfd, inotify, VT, evdev, malloc_trim, pipe2, prctl, rlimits, Landlock,
// posix_spawn's closefrom.
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
struct kiosk_landlock_ruleset_attr { uint64_t handled_access_fs; };
struct kiosk_landlock_path_beneath_attr { uint64_t allowed_access; int32_t parent_fd; } __attribute__((packed));
// The kernel's Landlock ABI version (1, 2, ...), or -1 with errno (ENOSYS, EOPNOTSUPP: none).
static inline int kiosk_landlock_abi(void) {
    return (int)syscall(__NR_landlock_create_ruleset, (void *)0, (size_t)0, (uint32_t)1 /* LANDLOCK_CREATE_RULESET_VERSION */);
}
static inline int kiosk_landlock_create_ruleset(uint64_t handled) {
    // O_PATH is defined only under _GNU_SOURCE.
#include <fcntl.h>
#ifdef O_PATH
static const int kiosk_O_PATH = O_PATH;
#else
static const int kiosk_O_PATH = 010000000;
#endif
struct kiosk_landlock_ruleset_attr attr = { handled };
    return (int)syscall(__NR_landlock_create_ruleset, &attr, sizeof attr, (uint32_t)0);
}
static inline int kiosk_landlock_allow_beneath(int ruleset, int parent, uint64_t access) {
    struct kiosk_landlock_path_beneath_attr attr = { access, parent };
    return (int)syscall(__NR_landlock_add_rule, ruleset, 1 /* LANDLOCK_RULE_PATH_BENEATH */, &attr, (uint32_t)0);
}
static inline int kiosk_landlock_restrict_self(int ruleset) {
    return (int)syscall(__NR_landlock_restrict_self, ruleset, (uint32_t)0);
}
