// Linux interfaces Glibc's Swift module leaves out: epoll, signalfd, timerfd, eventfd, inotify, VT, evdev, malloc_trim, pipe2,
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
