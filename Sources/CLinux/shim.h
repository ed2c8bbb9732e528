// Linux interfaces Glibc's Swift module leaves out: epoll, signalfd, timerfd, inotify, eventfd, VT, evdev, malloc_trim.
#pragma once
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/inotify.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <linux/vt.h>
#include <linux/kd.h>
#include <linux/input.h>
#include <malloc.h>
