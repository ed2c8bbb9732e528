// libinput and libudev for Kiosk: input devices, and udev monitors for input and display hotplug.
#pragma once
#include <libinput.h>
#include <libudev.h>
