// The one place optional libraries are opened (dlopen) and their functions found (dlsym), for
// the C targets of the libraries a config may not need (CMosquitto, CEspeak, CAlsa): each keeps
// its functions in a struct of pointers whose types are its header's own, and names them once in
// an X-macro list that makes both the struct and the names this resolves.
#ifndef KIOSK_CDYNAMICLIBRARY_H
#define KIOSK_CDYNAMICLIBRARY_H
#include <pthread.h>
#include <stddef.h>

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"

/// A struct field for the function `name`, typed as its header declares it.
#define KIOSK_FUNCTION_FIELD(name) __typeof__(name) * _Nonnull name;
/// The function's name, for the list `kiosk_library_resolve` takes.
#define KIOSK_FUNCTION_NAME(name) #name,

/// Opens `soname` (RTLD_NOW | RTLD_LOCAL: nothing else resolves against it) and resolves the
/// `count` functions `names` into `slots`, in order (a struct of function pointers, laid out as
/// the names are listed). 1 when every one was found; else 0, the library closed, and why in
/// `problem` (dlerror's words, or "SONAME has no NAME (HINT)").
int kiosk_library_resolve(const char * _Nonnull soname, const char * _Nonnull const * _Nonnull names, void * _Nullable * _Nonnull slots,
                          size_t count, const char * _Nonnull hint, char * _Nonnull problem, size_t problem_size);

/// One library's opening, tried once per process (`KIOSK_LIBRARY_STATE` to start with).
typedef struct {
    pthread_mutex_t lock;
    int tried;
    int ok;
    char problem[512];
} KioskLibraryState;
#define KIOSK_LIBRARY_STATE {PTHREAD_MUTEX_INITIALIZER, 0, 0, {0}}

/// `kiosk_library_resolve` the first time (from any thread), its answer after: 1 when `slots`
/// hold every function, else 0 and why in `state->problem`.
int kiosk_library_open_once(KioskLibraryState * _Nonnull state, const char * _Nonnull soname, const char * _Nonnull const * _Nonnull names,
                            void * _Nullable * _Nonnull slots, size_t count, const char * _Nonnull hint);

/// Declares an optional library's C interface from its X-macro list `LIST`: the struct
/// `Kiosk<Name>Functions`, `kiosk_<name>_functions()` (opened on the first call, once, from any
/// thread; NULL when the library or a function is missing), `kiosk_<name>_problem()` (why, or
/// empty) and `kiosk_<name>_problem_opening(soname, buffer, size)` (why another soname would not
/// do, in the caller's buffer; NULL when it would: tests).
#define KIOSK_OPTIONAL_LIBRARY(Name, name, LIST)                                                         \
    typedef struct {                                                                                   \
        LIST(KIOSK_FUNCTION_FIELD)                                                                     \
    } Kiosk##Name##Functions;                                                                          \
    const Kiosk##Name##Functions *_Nullable kiosk_##name##_functions(void);                            \
    const char *_Nonnull kiosk_##name##_problem(void);                                                 \
    const char *_Nullable kiosk_##name##_problem_opening(const char *_Nonnull soname, char *_Nonnull problem, \
                                                         size_t problem_size);

/// Defines what `KIOSK_OPTIONAL_LIBRARY` declared, opening `soname` (`hint`: the version the
/// kiosk needs, said when a function is missing). One line in the library's C file.
#define KIOSK_OPTIONAL_LIBRARY_DEFINE(Name, name, LIST, soname, hint)                                   \
    static const char *const name##_names[] = {LIST(KIOSK_FUNCTION_NAME)};                             \
    _Static_assert(sizeof(Kiosk##Name##Functions) == sizeof name##_names, "one pointer per name");      \
    static Kiosk##Name##Functions name##_loaded;                                                       \
    static KioskLibraryState name##_state = KIOSK_LIBRARY_STATE;                                       \
    const Kiosk##Name##Functions *kiosk_##name##_functions(void) {                                     \
        return kiosk_library_open_once(&name##_state, soname, name##_names, (void **)&name##_loaded,     \
                                       sizeof name##_names / sizeof *name##_names, hint)                \
                   ? &name##_loaded                                                                    \
                   : 0;                                                                                \
    }                                                                                                  \
    const char *kiosk_##name##_problem(void) {                                                         \
        kiosk_##name##_functions();                                                                    \
        return name##_state.problem;                                                                   \
    }                                                                                                  \
    const char *kiosk_##name##_problem_opening(const char *other, char *why, size_t size) {            \
        Kiosk##Name##Functions scratch;                                                                \
        return kiosk_library_resolve(other, name##_names, (void **)&scratch,                           \
                                     sizeof name##_names / sizeof *name##_names, hint, why, size)      \
                   ? 0                                                                                 \
                   : why;                                                                              \
    }

#pragma clang diagnostic pop
#endif
