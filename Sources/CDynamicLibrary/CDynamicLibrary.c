// See include/CDynamicLibrary.h.
#include "CDynamicLibrary.h"
#include <dlfcn.h>
#include <stdio.h>

int kiosk_library_resolve(const char *soname, const char *const *names, void **slots, size_t count, const char *hint,
                          char *problem, size_t problem_size) {
    problem[0] = 0;
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(problem, problem_size, "%s", why ? why : soname);
        return 0;
    }
    for (size_t i = 0; i < count; i++) {
        slots[i] = dlsym(library, names[i]);
        if (!slots[i]) {
            snprintf(problem, problem_size, "%s has no %s (%s)", soname, names[i], hint);
            dlclose(library);
            return 0;
        }
    }
    return 1;
}

int kiosk_library_open_once(KioskLibraryState *state, const char *soname, const char *const *names, void **slots, size_t count,
                            const char *hint) {
    pthread_mutex_lock(&state->lock);
    if (!state->tried) {
        state->ok = kiosk_library_resolve(soname, names, slots, count, hint, state->problem, sizeof state->problem);
        state->tried = 1;
    }
    int ok = state->ok;
    pthread_mutex_unlock(&state->lock);
    return ok;
}
