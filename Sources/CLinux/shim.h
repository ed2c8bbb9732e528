// Linux interfaces Glibc's Swift module leaves out: epoll, signalfd, timerfd, inotify, VT and evdev.
#pragma once
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <linux/vt.h>
#include <linux/kd.h>
#include <linux/input.h>
