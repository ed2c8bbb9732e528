// libdrm for Kiosk: the mode-setting API, dumb-buffer ioctls and the fourcc codes.
#pragma once
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>
