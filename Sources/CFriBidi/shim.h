#include <fribidi.h>

/* Paragraph directions are macros built from masks; Swift cannot import them. */
static inline FriBidiParType kiosk_fribidi_par_auto(void) { return FRIBIDI_PAR_ON; }
static inline FriBidiParType kiosk_fribidi_par_ltr(void) { return FRIBIDI_PAR_LTR; }
static inline FriBidiParType kiosk_fribidi_par_rtl(void) { return FRIBIDI_PAR_RTL; }

/* The direction of the first strong character (rule P2, isolates not skipped): 1 right to left,
   0 left to right, -1 when there is none. */
static inline int kiosk_fribidi_first_strong(const FriBidiChar *s, FriBidiStrIndex len) {
    for (FriBidiStrIndex i = 0; i < len; i++) {
        FriBidiCharType t = fribidi_get_bidi_type(s[i]);
        if (FRIBIDI_IS_LETTER(t)) return FRIBIDI_IS_RTL(t) ? 1 : 0;
    }
    return -1;
}
