// librsvg and cairo for SVG icons, opened when the first SVG is parsed (dlopen), not when the
// kiosk starts: a kiosk whose config names no SVG icon neither loads them (librsvg, cairo, GLib and
// the ~30 libraries they bring) nor needs them installed (the Debian package Recommends them).
// The few stable C API functions used are declared here as librsvg >= 2.52 (Debian 12: 2.54,
// Debian 13: 2.60), cairo and GLib 2 declare them; cairo's header gives its types and constants
// only (nothing here links against it). Debian: librsvg2-dev, libcairo2-dev for the build.
#ifndef KIOSK_CRSVG_H
#define KIOSK_CRSVG_H
#include <cairo/cairo.h>
#include <stddef.h>
#include <stdint.h>

// Only the function pointers (always set once loaded) and the two entry points carry nullability;
// the rest keep C's unspecified pointers, as librsvg's and cairo's own headers have them.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"

typedef struct _RsvgHandle RsvgHandle;

/// GLib's GError (glib/gerror.h): a domain quark, a code, a message.
typedef struct _GError {
    uint32_t domain;
    int code;
    char *message;
} GError;

/// librsvg's RsvgRectangle (rsvg.h): doubles in user units.
typedef struct {
    double x;
    double y;
    double width;
    double height;
} RsvgRectangle;

/// The functions SVGDocument calls, resolved from the libraries.
typedef struct {
    RsvgHandle *(* _Nonnull rsvg_handle_new_from_data)(const uint8_t *data, size_t data_len, GError **error);
    int (* _Nonnull rsvg_handle_render_document)(RsvgHandle *handle, cairo_t *cr, const RsvgRectangle *viewport, GError **error);
    int (* _Nonnull rsvg_handle_get_intrinsic_size_in_pixels)(RsvgHandle *handle, double *out_width, double *out_height);
    void (* _Nonnull g_object_unref)(void *object);
    void (* _Nonnull g_error_free)(GError *error);
    cairo_surface_t *(* _Nonnull cairo_image_surface_create)(cairo_format_t format, int width, int height);
    cairo_status_t (* _Nonnull cairo_surface_status)(cairo_surface_t *surface);
    void (* _Nonnull cairo_surface_destroy)(cairo_surface_t *surface);
    void (* _Nonnull cairo_surface_flush)(cairo_surface_t *surface);
    unsigned char *(* _Nonnull cairo_image_surface_get_data)(cairo_surface_t *surface);
    int (* _Nonnull cairo_image_surface_get_stride)(cairo_surface_t *surface);
    cairo_t *(* _Nonnull cairo_create)(cairo_surface_t *target);
    cairo_status_t (* _Nonnull cairo_status)(cairo_t *cr);
    void (* _Nonnull cairo_destroy)(cairo_t *cr);
    const char *(* _Nonnull cairo_status_to_string)(cairo_status_t status);
} KioskRsvgFunctions;

/// The functions, the libraries opened on the first call (once, from any thread); NULL when a
/// library or a function is missing, and then `kiosk_rsvg_problem` says which.
const KioskRsvgFunctions * _Nullable kiosk_rsvg_functions(void);
/// Why `kiosk_rsvg_functions` returned NULL (dlerror's words); empty otherwise.
const char * _Nonnull kiosk_rsvg_problem(void);

#pragma clang diagnostic pop

#endif
