// Opens librsvg, cairo and GLib at the first SVG (see include/CRsvg.h). Each library by its
// soname, as the kiosk was built against; RTLD_LOCAL, so nothing else resolves against them.
#include "CRsvg.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static KioskRsvgFunctions functions;
static const KioskRsvgFunctions *loaded;
static char problem[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *open_library(const char *soname) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library && !problem[0]) {
        const char *why = dlerror();
        snprintf(problem, sizeof problem, "%s", why ? why : soname);
    }
    return library;
}

typedef struct {
    const char *soname;
    void *handle;
} Library;

static int resolve(Library library, const char *name, void **slot) {
    if (!library.handle) return 0;
    *slot = dlsym(library.handle, name);
    if (!*slot && !problem[0]) snprintf(problem, sizeof problem, "%s has no %s", library.soname, name);
    return *slot != NULL;
}

#define RESOLVE(library, name) ok &= resolve(library, #name, (void **)&functions.name)

static void load(void) {
    Library rsvg = {"librsvg-2.so.2", open_library("librsvg-2.so.2")};
    Library cairo = {"libcairo.so.2", open_library("libcairo.so.2")};
    Library gobject = {"libgobject-2.0.so.0", open_library("libgobject-2.0.so.0")};
    Library glib = {"libglib-2.0.so.0", open_library("libglib-2.0.so.0")};
    int ok = 1;
    RESOLVE(rsvg, rsvg_handle_new_from_data);
    RESOLVE(rsvg, rsvg_handle_render_document);
    RESOLVE(rsvg, rsvg_handle_get_intrinsic_size_in_pixels);
    RESOLVE(gobject, g_object_unref);
    RESOLVE(glib, g_error_free);
    RESOLVE(cairo, cairo_image_surface_create);
    RESOLVE(cairo, cairo_surface_status);
    RESOLVE(cairo, cairo_surface_destroy);
    RESOLVE(cairo, cairo_surface_flush);
    RESOLVE(cairo, cairo_image_surface_get_data);
    RESOLVE(cairo, cairo_image_surface_get_stride);
    RESOLVE(cairo, cairo_create);
    RESOLVE(cairo, cairo_status);
    RESOLVE(cairo, cairo_destroy);
    RESOLVE(cairo, cairo_status_to_string);
    if (ok) loaded = &functions;
}

const KioskRsvgFunctions *kiosk_rsvg_functions(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *kiosk_rsvg_problem(void) {
    kiosk_rsvg_functions();
    return problem;
}
