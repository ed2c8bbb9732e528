// Vector operations that Swift's SIMD types cannot spell, as inline functions clang lowers to one
// instruction where the target has it. Used by the blend loops of the rasterizer.
#ifndef KIOSK_SIMD_BUILTINS_H
#define KIOSK_SIMD_BUILTINS_H

#include <stdint.h>

// Imported into Swift as SIMD16<UInt16>.
typedef uint16_t kiosk_u16x16 __attribute__((ext_vector_type(16)));
typedef uint32_t kiosk_u32x16 __attribute__((ext_vector_type(16)));

// The high 16 bits of each 16x16-bit product: pmulhuw on x86-64 (SSE2), umull + shrn on arm64.
static inline __attribute__((always_inline)) kiosk_u16x16 kiosk_mulhi_u16x16(kiosk_u16x16 a, kiosk_u16x16 b) {
    kiosk_u32x16 wide = __builtin_convertvector(a, kiosk_u32x16) * __builtin_convertvector(b, kiosk_u32x16);
    return __builtin_convertvector(wide >> 16, kiosk_u16x16);
}

#endif
