// Opens librsvg, GLib's object system, GLib and cairo at the first SVG (see include/CRsvg.h),
// through CDynamicLibrary: each library by its soname, its functions into the struct's slots in
// the order the struct lists them (librsvg's, then GObject's, GLib's and cairo's).
#include "CRsvg.h"
#include "CDynamicLibrary.h"

static const char *const rsvg_names[] = {"rsvg_handle_new_from_data", "rsvg_handle_render_document",
                                         "rsvg_handle_get_intrinsic_size_in_pixels"};
static const char *const gobject_names[] = {"g_object_unref"};
static const char *const glib_names[] = {"g_error_free"};
static const char *const cairo_names[] = {"cairo_image_surface_create", "cairo_surface_status", "cairo_surface_destroy",
                                          "cairo_surface_flush", "cairo_image_surface_get_data", "cairo_image_surface_get_stride",
                                          "cairo_create", "cairo_status", "cairo_destroy", "cairo_status_to_string"};
#define COUNT(names) (sizeof names / sizeof *names)
_Static_assert(sizeof(KioskRsvgFunctions) ==
                   sizeof rsvg_names + sizeof gobject_names + sizeof glib_names + sizeof cairo_names,
               "one pointer per name");

static KioskRsvgFunctions functions;
static KioskLibraryState rsvg = KIOSK_LIBRARY_STATE, gobject = KIOSK_LIBRARY_STATE, glib = KIOSK_LIBRARY_STATE,
                         cairo = KIOSK_LIBRARY_STATE;
static const char hint[] = "librsvg 2.52 or later, cairo, GLib 2";

const KioskRsvgFunctions *kiosk_rsvg_functions(void) {
    void **slots = (void **)&functions;
    int ok = kiosk_library_open_once(&rsvg, "librsvg-2.so.2", rsvg_names, slots, COUNT(rsvg_names), hint) &&
             kiosk_library_open_once(&gobject, "libgobject-2.0.so.0", gobject_names, slots + COUNT(rsvg_names),
                                     COUNT(gobject_names), hint) &&
             kiosk_library_open_once(&glib, "libglib-2.0.so.0", glib_names, slots + COUNT(rsvg_names) + COUNT(gobject_names),
                                     COUNT(glib_names), hint) &&
             kiosk_library_open_once(&cairo, "libcairo.so.2", cairo_names,
                                     slots + COUNT(rsvg_names) + COUNT(gobject_names) + COUNT(glib_names), COUNT(cairo_names), hint);
    return ok ? &functions : 0;
}

const char *kiosk_rsvg_problem(void) {
    if (kiosk_rsvg_functions()) return "";
    // The first library that failed says why (the later ones were not tried).
    KioskLibraryState *states[] = {&rsvg, &gobject, &glib, &cairo};
    for (unsigned i = 0; i < 4; i++) {
        if (states[i]->problem[0]) return states[i]->problem;
    }
    return "";
}
