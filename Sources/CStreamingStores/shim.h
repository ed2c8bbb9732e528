// Streaming (non-temporal) stores for the copy into scanout memory, which the CPU never reads
// back: they skip the cache instead of first fetching each line that is about to be overwritten.
// Swift has no spelling for them; clang lowers the builtin on every target (movntdq on x86-64,
// stnp on arm64, a plain store where there is nothing better).
#ifndef KIOSK_STREAMING_STORES_H
#define KIOSK_STREAMING_STORES_H

#include <stdint.h>

// Imported into Swift as SIMD4<UInt32>.
typedef uint32_t kiosk_u32x4 __attribute__((ext_vector_type(4)));

// Writes 64 bytes from `line`, which must be 16-byte aligned.
static inline __attribute__((always_inline)) void kiosk_stream_line(void *line, kiosk_u32x4 a, kiosk_u32x4 b,
                                                                     kiosk_u32x4 c, kiosk_u32x4 d) {
    kiosk_u32x4 *p = (kiosk_u32x4 *)__builtin_assume_aligned(line, 16);
    __builtin_nontemporal_store(a, p);
    __builtin_nontemporal_store(b, p + 1);
    __builtin_nontemporal_store(c, p + 2);
    __builtin_nontemporal_store(d, p + 3);
}

// Streaming stores are weakly ordered: this makes them visible before whatever comes next
// (the page flip that hands the buffer to the display).
static inline __attribute__((always_inline)) void kiosk_stream_fence(void) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

#endif
