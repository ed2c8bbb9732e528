// Linux interfaces Glibc's Swift module leaves out: epoll, signalfd, timerfd, eventfd, inotify, VT, evdev, malloc_trim, pipe2, prctl, rlimits,
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
