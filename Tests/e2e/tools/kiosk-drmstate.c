/* kiosk-drmstate: what the kernel says about a DRM card's connectors and CRTCs, read through
 * libdrm, for the VM scenarios (the kiosk under test is not asked about its own work).
 *
 *   kiosk-drmstate [CARD]          default /dev/dri/card0
 *
 * One line per connector:  connector NAME status=connected|disconnected|unknown dpms=On|Standby|Suspend|Off|none crtc=ID
 * One line per CRTC:       crtc ID active=0|1 fb=ID mode=WxH|none
 * A client that is not DRM master may read all of this. Exit 1 when the card cannot be read. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

static long long property(int fd, uint32_t object, uint32_t type, const char *name) {
    drmModeObjectPropertiesPtr props = drmModeObjectGetProperties(fd, object, type);
    long long found = -1;
    if (!props) return -1;
    for (uint32_t i = 0; i < props->count_props && found < 0; i++) {
        drmModePropertyPtr p = drmModeGetProperty(fd, props->props[i]);
        if (!p) continue;
        if (strcmp(p->name, name) == 0) found = (long long)props->prop_values[i];
        drmModeFreeProperty(p);
    }
    drmModeFreeObjectProperties(props);
    return found;
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "/dev/dri/card0";
    static const char *dpms_names[] = {"On", "Standby", "Suspend", "Off"};
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) { fprintf(stderr, "kiosk-drmstate: open %s: %s\n", path, strerror(errno)); return 1; }
    /* CRTC_ID and ACTIVE are atomic properties: visible once the client says it speaks atomic. */
    drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1);
    drmModeResPtr res = drmModeGetResources(fd);
    if (!res) { fprintf(stderr, "kiosk-drmstate: drmModeGetResources: %s\n", strerror(errno)); return 1; }
    for (int i = 0; i < res->count_connectors; i++) {
        drmModeConnectorPtr c = drmModeGetConnectorCurrent(fd, res->connectors[i]);
        if (!c) continue;
        const char *type = drmModeGetConnectorTypeName(c->connector_type);
        long long dpms = property(fd, c->connector_id, DRM_MODE_OBJECT_CONNECTOR, "DPMS");
        long long crtc = property(fd, c->connector_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID");
        printf("connector %s-%u status=%s dpms=%s crtc=%lld\n", type ? type : "Unknown", c->connector_type_id,
               c->connection == DRM_MODE_CONNECTED ? "connected" : c->connection == DRM_MODE_DISCONNECTED ? "disconnected" : "unknown",
               dpms >= 0 && dpms <= 3 ? dpms_names[dpms] : "none", crtc);
        drmModeFreeConnector(c);
    }
    for (int i = 0; i < res->count_crtcs; i++) {
        drmModeCrtcPtr c = drmModeGetCrtc(fd, res->crtcs[i]);
        if (!c) continue;
        long long active = property(fd, c->crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE");
        if (c->mode_valid)
            printf("crtc %u active=%lld fb=%u mode=%ux%u\n", c->crtc_id, active, c->buffer_id, c->mode.hdisplay, c->mode.vdisplay);
        else
            printf("crtc %u active=%lld fb=%u mode=none\n", c->crtc_id, active, c->buffer_id);
        drmModeFreeCrtc(c);
    }
    drmModeFreeResources(res);
    close(fd);
    return 0;
}
