// librsvg and cairo for SVG icons. cairo's header is on the default include path; librsvg's and
// GLib's are not (their pkg-config Cflags carry -pthread, which SwiftPM refuses with a warning on
// every build, and an architecture-specific glibconfig.h), so the few stable C API functions the
// kiosk calls are declared here exactly as librsvg >= 2.52 (Debian 12: 2.54, Debian 13: 2.60) and
// GLib 2 declare them. Debian: librsvg2-dev, libcairo2-dev (scripts/apt-packages.txt).
#include <cairo/cairo.h>
#include <stddef.h>
#include <stdint.h>

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

RsvgHandle *rsvg_handle_new_from_data(const uint8_t *data, size_t data_len, GError **error);
int rsvg_handle_render_document(RsvgHandle *handle, cairo_t *cr, const RsvgRectangle *viewport, GError **error);
int rsvg_handle_get_intrinsic_size_in_pixels(RsvgHandle *handle, double *out_width, double *out_height);
void g_object_unref(void *object);
void g_error_free(GError *error);
