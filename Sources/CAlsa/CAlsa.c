// Opens libasound.so.2 when the kiosk first needs it (include/CAlsa.h; CDynamicLibrary does the work).
#include "CAlsa.h"

static const char *const names[] = {KIOSK_ALSA_FUNCTIONS(KIOSK_FUNCTION_NAME)};
_Static_assert(sizeof(KioskAlsaFunctions) == sizeof names, "one pointer per name");
static KioskAlsaFunctions functions;
static KioskLibraryState state = KIOSK_LIBRARY_STATE;

const KioskAlsaFunctions *kiosk_alsa_functions(void) {
    return kiosk_library_open_once(&state, "libasound.so.2", names, (void **)&functions, sizeof names / sizeof *names, "ALSA 1.0.16 or later") ? &functions : 0;
}

const char *kiosk_alsa_problem(void) {
    kiosk_alsa_functions();
    return state.problem;
}

const char *kiosk_alsa_problem_opening(const char *soname, char *why, size_t size) {
    KioskAlsaFunctions scratch;
    return kiosk_library_resolve(soname, names, (void **)&scratch, sizeof names / sizeof *names, "ALSA 1.0.16 or later", why, size) ? 0 : why;
}
