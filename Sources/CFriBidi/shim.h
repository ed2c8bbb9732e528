#include <fribidi.h>

/* Paragraph directions are macros built from masks; Swift cannot import them. */
static inline FriBidiParType kiosk_fribidi_par_auto(void) { return FRIBIDI_PAR_ON; }
static inline FriBidiParType kiosk_fribidi_par_ltr(void) { return FRIBIDI_PAR_LTR; }
static inline FriBidiParType kiosk_fribidi_par_rtl(void) { return FRIBIDI_PAR_RTL; }
