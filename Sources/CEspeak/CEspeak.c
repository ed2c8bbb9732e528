// Opens libespeak-ng.so.1 when the kiosk first needs it (include/CEspeak.h; CDynamicLibrary does the work).
#include "CEspeak.h"

static const char *const names[] = {KIOSK_ESPEAK_FUNCTIONS(KIOSK_FUNCTION_NAME)};
_Static_assert(sizeof(KioskEspeakFunctions) == sizeof names, "one pointer per name");
static KioskEspeakFunctions functions;
static KioskLibraryState state = KIOSK_LIBRARY_STATE;

const KioskEspeakFunctions *kiosk_espeak_functions(void) {
    return kiosk_library_open_once(&state, "libespeak-ng.so.1", names, (void **)&functions, sizeof names / sizeof *names, "espeak-ng 1.49 or later") ? &functions : 0;
}

const char *kiosk_espeak_problem(void) {
    kiosk_espeak_functions();
    return state.problem;
}

const char *kiosk_espeak_problem_opening(const char *soname, char *why, size_t size) {
    KioskEspeakFunctions scratch;
    return kiosk_library_resolve(soname, names, (void **)&scratch, sizeof names / sizeof *names, "espeak-ng 1.49 or later", why, size) ? 0 : why;
}
