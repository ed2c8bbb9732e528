// Opens libmosquitto.so.1 when the kiosk first needs it (include/CMosquitto.h; CDynamicLibrary does the work).
#include "CMosquitto.h"

static const char *const names[] = {KIOSK_MOSQUITTO_FUNCTIONS(KIOSK_FUNCTION_NAME)};
_Static_assert(sizeof(KioskMosquittoFunctions) == sizeof names, "one pointer per name");
static KioskMosquittoFunctions functions;
static KioskLibraryState state = KIOSK_LIBRARY_STATE;

const KioskMosquittoFunctions *kiosk_mosquitto_functions(void) {
    return kiosk_library_open_once(&state, "libmosquitto.so.1", names, (void **)&functions, sizeof names / sizeof *names, "libmosquitto 1.6 or later") ? &functions : 0;
}

const char *kiosk_mosquitto_problem(void) {
    kiosk_mosquitto_functions();
    return state.problem;
}

const char *kiosk_mosquitto_problem_opening(const char *soname, char *why, size_t size) {
    KioskMosquittoFunctions scratch;
    return kiosk_library_resolve(soname, names, (void **)&scratch, sizeof names / sizeof *names, "libmosquitto 1.6 or later", why, size) ? 0 : why;
}
