/*
 * kiosk-uinput: virtual input devices for the Kiosk VM test bed.
 *
 * Creates uinput devices (touchscreen, wheel knob, key knob, PowerMate-like
 * dial) and injects events from commands; also reads raw evdev events back.
 *
 *   kiosk-uinput 'add touch t; tap t 100 200'   one shot: commands separated by ';'
 *   kiosk-uinput -                               commands from stdin, one per line
 *   kiosk-uinput --fifo PATH                     long-running: commands from a FIFO
 *   kiosk-uinput --read /dev/input/eventN [--count N] [--timeout MS] [--monotonic]
 *   kiosk-uinput --help
 *
 * Built statically (gcc -static) so it runs in any guest.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_DEVICES 16
#define MAX_SLOTS 10

enum kind { TOUCH, WHEEL, KEYS, DIAL };
static const char *kind_names[] = {"touch", "wheel", "keys", "dial"};

struct device {
    char id[32];
    enum kind kind;
    int fd;              /* -1 when the slot is free */
    int width, height;   /* touch only */
    int tracking;        /* next ABS_MT_TRACKING_ID */
    int hires_acc;       /* wheel: hi-res units not yet reported as a detent */
    int held, x, y;      /* touch: a finger left down by 'down' (moved by 'move', lifted by 'up') and where */
    char node[64];       /* /dev/input/eventN */
};

static struct device devices[MAX_DEVICES];

static const struct { const char *name; int code; } key_table[] = {
    {"KEY_UP", KEY_UP}, {"KEY_DOWN", KEY_DOWN}, {"KEY_LEFT", KEY_LEFT}, {"KEY_RIGHT", KEY_RIGHT},
    {"KEY_VOLUMEUP", KEY_VOLUMEUP}, {"KEY_VOLUMEDOWN", KEY_VOLUMEDOWN},
    {"KEY_PAGEUP", KEY_PAGEUP}, {"KEY_PAGEDOWN", KEY_PAGEDOWN},
    {"KEY_ENTER", KEY_ENTER}, {"KEY_KPENTER", KEY_KPENTER}, {"KEY_SPACE", KEY_SPACE},
    {"KEY_ESC", KEY_ESC}, {"KEY_BACKSPACE", KEY_BACKSPACE}, {"KEY_BACK", KEY_BACK},
    {"BTN_0", BTN_0}, {"BTN_LEFT", BTN_LEFT}, {"BTN_TOUCH", BTN_TOUCH},
    /* The console's chords (service-lockdown): Ctrl+Alt+Del, Ctrl+Alt+Fn, Alt+SysRq+B. */
    {"KEY_LEFTCTRL", KEY_LEFTCTRL}, {"KEY_LEFTALT", KEY_LEFTALT}, {"KEY_DELETE", KEY_DELETE},
    {"KEY_SYSRQ", KEY_SYSRQ}, {"KEY_B", KEY_B}, {"KEY_F1", KEY_F1}, {"KEY_F2", KEY_F2},
};
#define NKEYS (sizeof key_table / sizeof key_table[0])

/* Names for what --read prints; other codes print as numbers. */
static const struct { int type, code; const char *name; } code_names[] = {
    {EV_SYN, SYN_REPORT, "SYN_REPORT"}, {EV_SYN, SYN_DROPPED, "SYN_DROPPED"},
    {EV_REL, REL_X, "REL_X"}, {EV_REL, REL_Y, "REL_Y"}, {EV_REL, REL_WHEEL, "REL_WHEEL"},
    {EV_REL, REL_DIAL, "REL_DIAL"}, {EV_REL, REL_WHEEL_HI_RES, "REL_WHEEL_HI_RES"},
    {EV_ABS, ABS_X, "ABS_X"}, {EV_ABS, ABS_Y, "ABS_Y"}, {EV_ABS, ABS_MT_SLOT, "ABS_MT_SLOT"},
    {EV_ABS, ABS_MT_POSITION_X, "ABS_MT_POSITION_X"}, {EV_ABS, ABS_MT_POSITION_Y, "ABS_MT_POSITION_Y"},
    {EV_ABS, ABS_MT_TRACKING_ID, "ABS_MT_TRACKING_ID"}, {EV_MSC, MSC_SCAN, "MSC_SCAN"},
};
static const char *type_names[EV_CNT] = {
    [EV_SYN] = "EV_SYN", [EV_KEY] = "EV_KEY", [EV_REL] = "EV_REL", [EV_ABS] = "EV_ABS",
    [EV_MSC] = "EV_MSC", [EV_LED] = "EV_LED", [EV_REP] = "EV_REP",
};

static int failf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("kiosk-uinput: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return -1;
}

static void sleep_ms(long ms) {
    if (ms <= 0) return;
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {}
}

static int emit(struct device *d, int type, int code, int value) {
    struct input_event ev = {0};
    ev.type = type;
    ev.code = code;
    ev.value = value;
    if (write(d->fd, &ev, sizeof ev) != sizeof ev)
        return failf("write to %s: %s", d->id, strerror(errno));
    return 0;
}

static int syn(struct device *d) { return emit(d, EV_SYN, SYN_REPORT, 0); }

static int key_code(const char *name) {
    for (size_t i = 0; i < NKEYS; i++)
        if (strcasecmp(name, key_table[i].name) == 0 ||
            (strncasecmp(key_table[i].name, "KEY_", 4) == 0 && strcasecmp(name, key_table[i].name + 4) == 0))
            return key_table[i].code;
    return -1;
}

static struct device *find(const char *id) {
    for (int i = 0; i < MAX_DEVICES; i++)
        if (devices[i].fd >= 0 && strcmp(devices[i].id, id) == 0) return &devices[i];
    failf("no device '%s' (add it first)", id);
    return NULL;
}

static int set_bit(int fd, unsigned long req, int bit) {
    if (ioctl(fd, req, bit) < 0) return failf("ioctl 0x%lx %d: %s", req, bit, strerror(errno));
    return 0;
}

static int abs_setup(int fd, int code, int min, int max, int res) {
    struct uinput_abs_setup a = {0};
    a.code = code;
    a.absinfo.minimum = min;
    a.absinfo.maximum = max;
    a.absinfo.resolution = res;
    if (set_bit(fd, UI_SET_ABSBIT, code) < 0) return -1;
    if (ioctl(fd, UI_ABS_SETUP, &a) < 0) return failf("UI_ABS_SETUP %d: %s", code, strerror(errno));
    return 0;
}

/* The kernel names the device inputN; its event node appears under it once evdev binds. */
static void find_node(struct device *d) {
    char sys[64] = "", path[160];
    d->node[0] = 0;
    if (ioctl(d->fd, UI_GET_SYSNAME(sizeof sys), sys) < 0) return;
    for (int tries = 0; tries < 200 && !d->node[0]; tries++) {
        for (int n = 0; n < 1024; n++) {
            snprintf(path, sizeof path, "/sys/devices/virtual/input/%s/event%d", sys, n);
            if (access(path, F_OK) == 0) {
                snprintf(d->node, sizeof d->node, "/dev/input/event%d", n);
                break;
            }
        }
        if (!d->node[0]) sleep_ms(10);
    }
    /* Wait for devtmpfs to create the node itself. */
    for (int tries = 0; d->node[0] && tries < 200 && access(d->node, F_OK) != 0; tries++) sleep_ms(10);
}

static int cmd_add(char **argv, int argc) {
    if (argc < 3) return failf("usage: add touch|wheel|keys|dial ID [WIDTH HEIGHT]");
    int kind = -1;
    for (int k = 0; k < 4; k++)
        if (strcmp(argv[1], kind_names[k]) == 0) kind = k;
    if (kind < 0) return failf("unknown device kind '%s' (touch, wheel, keys, dial)", argv[1]);
    struct device *d = NULL;
    for (int i = 0; i < MAX_DEVICES; i++) {
        if (devices[i].fd >= 0 && strcmp(devices[i].id, argv[2]) == 0) return failf("device '%s' exists", argv[2]);
        if (!d && devices[i].fd < 0) d = &devices[i];
    }
    if (!d) return failf("too many devices");
    int fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return failf("open /dev/uinput: %s (is the uinput module loaded?)", strerror(errno));

    struct uinput_setup setup = {0};
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.vendor = 0x1d6b; /* Linux Foundation: clearly virtual */
    setup.id.product = 0x0100 + kind;
    int ok = 0;
    d->width = argc > 3 ? atoi(argv[3]) : 1024;
    d->height = argc > 4 ? atoi(argv[4]) : 768;
    d->held = 0;
    switch (kind) {
    case TOUCH:
        snprintf(setup.name, sizeof setup.name, "kiosk-e2e touch %s", argv[2]);
        ok |= set_bit(fd, UI_SET_EVBIT, EV_KEY) | set_bit(fd, UI_SET_KEYBIT, BTN_TOUCH);
        ok |= set_bit(fd, UI_SET_EVBIT, EV_ABS) | set_bit(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT);
        ok |= abs_setup(fd, ABS_X, 0, d->width - 1, 4) | abs_setup(fd, ABS_Y, 0, d->height - 1, 4);
        ok |= abs_setup(fd, ABS_MT_SLOT, 0, MAX_SLOTS - 1, 0);
        ok |= abs_setup(fd, ABS_MT_TRACKING_ID, 0, 65535, 0);
        ok |= abs_setup(fd, ABS_MT_POSITION_X, 0, d->width - 1, 4);
        ok |= abs_setup(fd, ABS_MT_POSITION_Y, 0, d->height - 1, 4);
        break;
    case WHEEL:
        snprintf(setup.name, sizeof setup.name, "kiosk-e2e wheel %s", argv[2]);
        ok |= set_bit(fd, UI_SET_EVBIT, EV_REL) | set_bit(fd, UI_SET_RELBIT, REL_WHEEL);
        ok |= set_bit(fd, UI_SET_RELBIT, REL_WHEEL_HI_RES);
        break;
    case KEYS:
        snprintf(setup.name, sizeof setup.name, "kiosk-e2e keys %s", argv[2]);
        ok |= set_bit(fd, UI_SET_EVBIT, EV_KEY);
        for (size_t i = 0; i < NKEYS; i++)
            if (key_table[i].code < BTN_MISC || key_table[i].code > BTN_GEAR_UP) ok |= set_bit(fd, UI_SET_KEYBIT, key_table[i].code);
        break;
    case DIAL:
        snprintf(setup.name, sizeof setup.name, "Griffin PowerMate");
        setup.id.bustype = BUS_USB;
        setup.id.vendor = 0x077d;
        setup.id.product = 0x0410;
        ok |= set_bit(fd, UI_SET_EVBIT, EV_REL) | set_bit(fd, UI_SET_RELBIT, REL_DIAL);
        ok |= set_bit(fd, UI_SET_EVBIT, EV_KEY) | set_bit(fd, UI_SET_KEYBIT, BTN_0);
        break;
    }
    if (ok < 0 || ioctl(fd, UI_DEV_SETUP, &setup) < 0 || ioctl(fd, UI_DEV_CREATE) < 0) {
        if (ok >= 0) failf("creating %s: %s", argv[2], strerror(errno));
        close(fd);
        return -1;
    }
    snprintf(d->id, sizeof d->id, "%s", argv[2]);
    d->kind = kind;
    d->fd = fd;
    d->tracking = 1;
    d->hires_acc = 0;
    find_node(d);
    printf("added %s %s \"%s\" %s\n", kind_names[kind], d->id, setup.name, d->node[0] ? d->node : "(no event node: is evdev loaded?)");
    return 0;
}

static int cmd_del(char **argv, int argc) {
    if (argc < 2) return failf("usage: del ID");
    struct device *d = find(argv[1]);
    if (!d) return -1;
    ioctl(d->fd, UI_DEV_DESTROY);
    close(d->fd);
    d->fd = -1;
    printf("removed %s\n", argv[1]);
    return 0;
}

static struct device *need(const char *id, enum kind kind) {
    struct device *d = find(id);
    if (d && d->kind != kind) {
        failf("device '%s' is a %s, not a %s", id, kind_names[d->kind], kind_names[kind]);
        return NULL;
    }
    return d;
}

/* Moves the contacts given as (slot, x, y) triples in one frame. */
static int touch_frame(struct device *d, int n, const int *slots, const int *xs, const int *ys) {
    for (int i = 0; i < n; i++) {
        if (emit(d, EV_ABS, ABS_MT_SLOT, slots[i]) < 0) return -1;
        emit(d, EV_ABS, ABS_MT_POSITION_X, xs[i]);
        emit(d, EV_ABS, ABS_MT_POSITION_Y, ys[i]);
    }
    emit(d, EV_ABS, ABS_X, xs[0]);
    emit(d, EV_ABS, ABS_Y, ys[0]);
    return syn(d);
}

static int touch_down(struct device *d, int n, const int *slots, const int *xs, const int *ys) {
    for (int i = 0; i < n; i++) {
        emit(d, EV_ABS, ABS_MT_SLOT, slots[i]);
        emit(d, EV_ABS, ABS_MT_TRACKING_ID, d->tracking++ & 0xffff);
        emit(d, EV_ABS, ABS_MT_POSITION_X, xs[i]);
        emit(d, EV_ABS, ABS_MT_POSITION_Y, ys[i]);
    }
    emit(d, EV_KEY, BTN_TOUCH, 1);
    emit(d, EV_ABS, ABS_X, xs[0]);
    emit(d, EV_ABS, ABS_Y, ys[0]);
    return syn(d);
}

static int touch_up(struct device *d, int n, const int *slots) {
    for (int i = 0; i < n; i++) {
        emit(d, EV_ABS, ABS_MT_SLOT, slots[i]);
        emit(d, EV_ABS, ABS_MT_TRACKING_ID, -1);
    }
    emit(d, EV_KEY, BTN_TOUCH, 0);
    return syn(d);
}

/* Moves n contacts from (x0,y0) by (dx,dy) over duration_ms in `steps` frames, then lifts. */
static int touch_path(struct device *d, int n, const int *x0, const int *y0, int dx, int dy, int duration_ms, int steps) {
    int slots[2] = {0, 1}, xs[2], ys[2];
    if (steps < 1) steps = 1;
    for (int i = 0; i < n; i++) { xs[i] = x0[i]; ys[i] = y0[i]; }
    if (touch_down(d, n, slots, xs, ys) < 0) return -1;
    for (int s = 1; s <= steps; s++) {
        sleep_ms(duration_ms / steps);
        for (int i = 0; i < n; i++) {
            xs[i] = x0[i] + (int)((long)dx * s / steps);
            ys[i] = y0[i] + (int)((long)dy * s / steps);
        }
        if (touch_frame(d, n, slots, xs, ys) < 0) return -1;
    }
    return touch_up(d, n, slots);
}

static int cmd_tap(char **argv, int argc) {
    if (argc < 4) return failf("usage: tap ID X Y [HOLD_MS]");
    struct device *d = need(argv[1], TOUCH);
    if (!d) return -1;
    int slot = 0, x = atoi(argv[2]), y = atoi(argv[3]);
    if (touch_down(d, 1, &slot, &x, &y) < 0) return -1;
    sleep_ms(argc > 4 ? atoi(argv[4]) : 50);
    return touch_up(d, 1, &slot);
}

static int cmd_drag(char **argv, int argc) {
    if (argc < 6) return failf("usage: drag ID X0 Y0 X1 Y1 [DURATION_MS [STEPS]]");
    struct device *d = need(argv[1], TOUCH);
    if (!d) return -1;
    int x0 = atoi(argv[2]), y0 = atoi(argv[3]);
    return touch_path(d, 1, &x0, &y0, atoi(argv[4]) - x0, atoi(argv[5]) - y0,
                      argc > 6 ? atoi(argv[6]) : 300, argc > 7 ? atoi(argv[7]) : 10);
}

/* One finger that stays down across commands (a config replaced mid-drag): down, move, up. */
static int cmd_down(char **argv, int argc) {
    if (argc < 4) return failf("usage: down ID X Y");
    struct device *d = need(argv[1], TOUCH);
    if (!d) return -1;
    if (d->held) return failf("down %s: a finger is already down (up first)", argv[1]);
    int slot = 0;
    d->x = atoi(argv[2]);
    d->y = atoi(argv[3]);
    if (touch_down(d, 1, &slot, &d->x, &d->y) < 0) return -1;
    d->held = 1;
    return 0;
}

static int cmd_move(char **argv, int argc) {
    if (argc < 4) return failf("usage: move ID X Y [DURATION_MS [STEPS]]");
    struct device *d = need(argv[1], TOUCH);
    if (!d) return -1;
    if (!d->held) return failf("move %s: no finger down (down first)", argv[1]);
    int slot = 0, x0 = d->x, y0 = d->y, dx = atoi(argv[2]) - x0, dy = atoi(argv[3]) - y0;
    int duration_ms = argc > 4 ? atoi(argv[4]) : 300, steps = argc > 5 ? atoi(argv[5]) : 10;
    if (steps < 1) steps = 1;
    for (int s = 1; s <= steps; s++) {
        sleep_ms(duration_ms / steps);
        d->x = x0 + (int)((long)dx * s / steps);
        d->y = y0 + (int)((long)dy * s / steps);
        if (touch_frame(d, 1, &slot, &d->x, &d->y) < 0) return -1;
    }
    return 0;
}

static int cmd_up(char **argv, int argc) {
    if (argc < 2) return failf("usage: up ID");
    struct device *d = need(argv[1], TOUCH);
    if (!d) return -1;
    if (!d->held) return failf("up %s: no finger down", argv[1]);
    int slot = 0;
    d->held = 0;
    return touch_up(d, 1, &slot);
}

static int cmd_two(char **argv, int argc) {
    if (argc < 6) return failf("usage: two ID AX AY BX BY [DX DY [DURATION_MS [STEPS]]]");
    struct device *d = need(argv[1], TOUCH);
    if (!d) return -1;
    int xs[2] = {atoi(argv[2]), atoi(argv[4])}, ys[2] = {atoi(argv[3]), atoi(argv[5])};
    return touch_path(d, 2, xs, ys, argc > 6 ? atoi(argv[6]) : 0, argc > 7 ? atoi(argv[7]) : 0,
                      argc > 8 ? atoi(argv[8]) : 300, argc > 9 ? atoi(argv[9]) : 10);
}

/* Whole detents: REL_WHEEL +-1 with the matching REL_WHEEL_HI_RES +-120, as a hi-res mouse sends. */
static int cmd_wheel(char **argv, int argc) {
    if (argc < 3) return failf("usage: wheel ID DETENTS [GAP_MS]");
    struct device *d = need(argv[1], WHEEL);
    if (!d) return -1;
    int n = atoi(argv[2]), gap = argc > 3 ? atoi(argv[3]) : 50, dir = n < 0 ? -1 : 1;
    for (int i = 0; i < abs(n); i++) {
        if (i) sleep_ms(gap);
        emit(d, EV_REL, REL_WHEEL, dir);
        emit(d, EV_REL, REL_WHEEL_HI_RES, 120 * dir);
        if (syn(d) < 0) return -1;
    }
    return 0;
}

/* Partial detents: REL_WHEEL_HI_RES only, plus REL_WHEEL each time 120 units accumulate. */
static int cmd_hires(char **argv, int argc) {
    if (argc < 3) return failf("usage: hires ID UNITS [COUNT [GAP_MS]]");
    struct device *d = need(argv[1], WHEEL);
    if (!d) return -1;
    int v = atoi(argv[2]), count = argc > 3 ? atoi(argv[3]) : 1, gap = argc > 4 ? atoi(argv[4]) : 20;
    for (int i = 0; i < count; i++) {
        if (i) sleep_ms(gap);
        d->hires_acc += v;
        emit(d, EV_REL, REL_WHEEL_HI_RES, v);
        while (d->hires_acc >= 120 || d->hires_acc <= -120) {
            int dir = d->hires_acc > 0 ? 1 : -1;
            emit(d, EV_REL, REL_WHEEL, dir);
            d->hires_acc -= 120 * dir;
        }
        if (syn(d) < 0) return -1;
    }
    return 0;
}

static int cmd_turn(char **argv, int argc) {
    if (argc < 3) return failf("usage: turn ID STEPS [GAP_MS]");
    struct device *d = need(argv[1], DIAL);
    if (!d) return -1;
    int n = atoi(argv[2]), gap = argc > 3 ? atoi(argv[3]) : 50, dir = n < 0 ? -1 : 1;
    for (int i = 0; i < abs(n); i++) {
        if (i) sleep_ms(gap);
        emit(d, EV_REL, REL_DIAL, dir);
        if (syn(d) < 0) return -1;
    }
    return 0;
}

/* key ID NAME...: press and release each; keydown/keyup for one edge. */
static int cmd_key(char **argv, int argc, int edge) {
    if (argc < 3) return failf("usage: %s ID KEY... (e.g. KEY_UP, VOLUMEUP, BTN_0)", argv[0]);
    struct device *d = find(argv[1]);
    if (!d) return -1;
    for (int i = 2; i < argc; i++) {
        int code = key_code(argv[i]);
        if (code < 0) return failf("unknown key '%s'", argv[i]);
        if (edge != 0) {
            emit(d, EV_KEY, code, edge > 0);
            if (syn(d) < 0) return -1;
            continue;
        }
        emit(d, EV_KEY, code, 1);
        if (syn(d) < 0) return -1;
        sleep_ms(30);
        emit(d, EV_KEY, code, 0);
        if (syn(d) < 0) return -1;
        sleep_ms(30);
    }
    return 0;
}

static int cmd_emit(char **argv, int argc) {
    if (argc < 5) return failf("usage: emit ID TYPE CODE VALUE  (numbers; follow with 'syn ID')");
    struct device *d = find(argv[1]);
    if (!d) return -1;
    return emit(d, (int)strtol(argv[2], NULL, 0), (int)strtol(argv[3], NULL, 0), (int)strtol(argv[4], NULL, 0));
}

static int cmd_list(void) {
    for (int i = 0; i < MAX_DEVICES; i++)
        if (devices[i].fd >= 0) printf("%s %s %s\n", kind_names[devices[i].kind], devices[i].id, devices[i].node);
    return 0;
}

/* Creates PATH once everything before it has run: lets a script wait for the FIFO reader. */
static int cmd_mark(char **argv, int argc) {
    if (argc < 2) return failf("usage: mark PATH");
    int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return failf("mark %s: %s", argv[1], strerror(errno));
    close(fd);
    return 0;
}

static int quit_requested;

/* Runs one command line; returns -1 on error. */
static int run_line(char *line) {
    char *argv[16];
    int argc = 0;
    for (char *tok = strtok(line, " \t\r\n"); tok && argc < 16; tok = strtok(NULL, " \t\r\n")) argv[argc++] = tok;
    if (argc == 0 || argv[0][0] == '#') return 0;
    const char *c = argv[0];
    int rc;
    if (!strcmp(c, "add")) rc = cmd_add(argv, argc);
    else if (!strcmp(c, "del")) rc = cmd_del(argv, argc);
    else if (!strcmp(c, "tap")) rc = cmd_tap(argv, argc);
    else if (!strcmp(c, "drag")) rc = cmd_drag(argv, argc);
    else if (!strcmp(c, "two")) rc = cmd_two(argv, argc);
    else if (!strcmp(c, "down")) rc = cmd_down(argv, argc);
    else if (!strcmp(c, "move")) rc = cmd_move(argv, argc);
    else if (!strcmp(c, "up")) rc = cmd_up(argv, argc);
    else if (!strcmp(c, "wheel")) rc = cmd_wheel(argv, argc);
    else if (!strcmp(c, "hires")) rc = cmd_hires(argv, argc);
    else if (!strcmp(c, "turn")) rc = cmd_turn(argv, argc);
    else if (!strcmp(c, "key")) rc = cmd_key(argv, argc, 0);
    else if (!strcmp(c, "keydown")) rc = cmd_key(argv, argc, 1);
    else if (!strcmp(c, "keyup")) rc = cmd_key(argv, argc, -1);
    else if (!strcmp(c, "emit")) rc = cmd_emit(argv, argc);
    else if (!strcmp(c, "syn")) { struct device *d = argc > 1 ? find(argv[1]) : NULL; rc = d ? syn(d) : -1; }
    else if (!strcmp(c, "sleep")) { sleep_ms(argc > 1 ? atol(argv[1]) : 0); rc = 0; }
    else if (!strcmp(c, "list")) rc = cmd_list();
    else if (!strcmp(c, "mark")) rc = cmd_mark(argv, argc);
    else if (!strcmp(c, "echo")) { for (int i = 1; i < argc; i++) printf("%s%s", argv[i], i + 1 < argc ? " " : "\n"); rc = 0; }
    else if (!strcmp(c, "quit")) { quit_requested = 1; rc = 0; }
    else rc = failf("unknown command '%s' (see --help)", c);
    fflush(stdout);
    return rc;
}

static int run_stream(FILE *in, int keep_going) {
    char line[512];
    int failed = 0;
    while (!quit_requested && fgets(line, sizeof line, in)) {
        if (run_line(line) < 0) {
            failed = 1;
            if (!keep_going) return 1;
        }
    }
    return failed;
}

static const char *code_name(int type, int code, char *buf, size_t n) {
    for (size_t i = 0; i < sizeof code_names / sizeof code_names[0]; i++)
        if (code_names[i].type == type && code_names[i].code == code) return code_names[i].name;
    if (type == EV_KEY)
        for (size_t i = 0; i < NKEYS; i++)
            if (key_table[i].code == code) return key_table[i].name;
    snprintf(buf, n, "%d", code);
    return buf;
}

/* Prints raw events: "SEC.USEC TYPE CODE VALUE", one per line. */
static int read_events(const char *path, long count, int timeout_ms, int monotonic) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return failf("open %s: %s", path, strerror(errno)), 1;
    /* CLOCK_MONOTONIC stamps compare with DRM flip timestamps (latency measurements). */
    int clk = CLOCK_MONOTONIC;
    if (monotonic && ioctl(fd, EVIOCSCLOCKID, &clk) < 0) return failf("EVIOCSCLOCKID: %s", strerror(errno)), 1;
    char name[256] = "?";
    ioctl(fd, EVIOCGNAME(sizeof name), name);
    printf("# %s: \"%s\"\n", path, name);
    fflush(stdout);
    long seen = 0;
    struct pollfd p = {fd, POLLIN, 0};
    while (count <= 0 || seen < count) {
        int r = poll(&p, 1, timeout_ms > 0 ? timeout_ms : -1);
        if (r == 0) break; /* quiet for timeout_ms: done */
        if (r < 0) { if (errno == EINTR) continue; break; }
        struct input_event ev[64];
        ssize_t got = read(fd, ev, sizeof ev);
        if (got <= 0) break; /* ENODEV when the device is removed */
        for (size_t i = 0; i < (size_t)got / sizeof ev[0] && (count <= 0 || seen < count); i++, seen++) {
            char tb[16], cb[16];
            const char *tn = ev[i].type < EV_CNT && type_names[ev[i].type] ? type_names[ev[i].type] : (snprintf(tb, sizeof tb, "%d", ev[i].type), tb);
            printf("%ld.%06ld %s %s %d\n", (long)ev[i].input_event_sec, (long)ev[i].input_event_usec,
                   tn, code_name(ev[i].type, ev[i].code, cb, sizeof cb), ev[i].value);
        }
        fflush(stdout);
    }
    close(fd);
    return 0;
}

static void usage(FILE *out) {
    fputs("usage: kiosk-uinput 'CMD; CMD; ...'        run commands, then remove the devices\n"
          "       kiosk-uinput -                       commands from stdin, one per line\n"
          "       kiosk-uinput --fifo PATH             create FIFO PATH and serve commands written to it\n"
          "       kiosk-uinput --read DEV [--count N] [--timeout MS] [--monotonic]\n"
          "                                            print raw events from an evdev node: SEC.USEC TYPE CODE VALUE\n"
          "                                            (stops after N events or MS quiet; CLOCK_MONOTONIC stamps)\n"
          "commands:\n"
          "  add touch ID [W H]   multitouch screen 'kiosk-e2e touch ID' (default 1024x768)\n"
          "  add wheel ID         REL_WHEEL + REL_WHEEL_HI_RES knob\n"
          "  add keys ID          key knob (arrows, volume, page, enter, esc, ...)\n"
          "  add dial ID          'Griffin PowerMate': REL_DIAL + BTN_0\n"
          "  del ID               unplug a device\n"
          "  tap ID X Y [HOLD_MS]                       drag ID X0 Y0 X1 Y1 [MS [STEPS]]\n"
          "  two ID AX AY BX BY [DX DY [MS [STEPS]]]    two fingers down, moved together, up\n"
          "  down ID X Y   move ID X Y [MS [STEPS]]   up ID   one finger kept down across commands\n"
          "  wheel ID DETENTS [GAP_MS]                  hires ID UNITS [COUNT [GAP_MS]]\n"
          "  turn ID STEPS [GAP_MS]                     REL_DIAL steps (sign = direction)\n"
          "  key ID KEY...   keydown ID KEY   keyup ID KEY   (KEY_UP, VOLUMEUP, ENTER, ESC, BTN_0, ...)\n"
          "  emit ID TYPE CODE VALUE   syn ID   sleep MS   list   mark PATH   echo TEXT   quit\n"
          "Devices are removed when the program exits.\n", out);
}

int main(int argc, char **argv) {
    for (int i = 0; i < MAX_DEVICES; i++) devices[i].fd = -1;
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "--read")) {
        if (argc < 3) return usage(stderr), 2;
        long count = 0;
        int timeout = 0, monotonic = 0;
        for (int i = 3; i < argc; i++) {
            if (!strcmp(argv[i], "--monotonic")) monotonic = 1;
            else if (!strcmp(argv[i], "--count") && i + 1 < argc) count = atol(argv[++i]);
            else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) timeout = atoi(argv[++i]);
            else return usage(stderr), 2;
        }
        return read_events(argv[2], count, timeout, monotonic);
    }
    if (!strcmp(argv[1], "-")) return run_stream(stdin, 0);
    if (!strcmp(argv[1], "--fifo")) {
        if (argc < 3) return usage(stderr), 2;
        if (mkfifo(argv[2], 0666) < 0 && errno != EEXIST) return failf("mkfifo %s: %s", argv[2], strerror(errno)), 1;
        /* O_RDWR keeps a writer open ourselves, so writers coming and going never cause EOF. */
        FILE *in = fopen(argv[2], "r+");
        if (!in) return failf("open %s: %s", argv[2], strerror(errno)), 1;
        return run_stream(in, 1);
    }
    /* One shot: all arguments joined, ';' separates commands. */
    size_t len = 1;
    for (int i = 1; i < argc; i++) len += strlen(argv[i]) + 1;
    char *all = calloc(1, len), *save = NULL;
    for (int i = 1; i < argc; i++) { strcat(all, argv[i]); strcat(all, " "); }
    for (char *cmd = strtok_r(all, ";", &save); cmd && !quit_requested; cmd = strtok_r(NULL, ";", &save))
        if (run_line(cmd) < 0) return 1;
    return 0;
}
