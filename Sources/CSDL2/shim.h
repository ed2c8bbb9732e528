// SDL2 for kiosk-preview (never for the device binary): the window, its renderer and events,
// and the display connection's descriptor, so the event loop can wait on it instead of polling.
#pragma once
#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>
#include <dlfcn.h>

/// The descriptor of the window's display connection (X11 or Wayland), or -1 (another video driver).
/// X11: ConnectionNumber is a macro Swift cannot call. Wayland: wl_display_get_fd is looked up
/// in the libwayland-client that SDL already loaded, so the preview does not link it itself.
static inline int kiosk_sdl_connection_fd(SDL_Window *window) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info)) return -1;
    switch (info.subsystem) {
    case SDL_SYSWM_X11:
        return ConnectionNumber(info.info.x11.display);
    case SDL_SYSWM_WAYLAND: {
        int (*get_fd)(struct wl_display *) = (int (*)(struct wl_display *))dlsym(RTLD_DEFAULT, "wl_display_get_fd");
        return get_fd ? get_fd(info.info.wl.display) : -1;
    }
    default:
        return -1;
    }
}
