/* measure_hp.h: private to measure.c and targets.c (not part of the suites.h contract). */
#ifndef GELUCHECK_MEASURE_HP_H
#define GELUCHECK_MEASURE_HP_H

#include "suites.h"

/* out = f(x) rounded to nearest at out's precision, in MPFR's widest exponent range (restored
 * afterwards), through r's configuration and counters.  For comparing f at neighbouring
 * inputs where the dtype's rounding is flat (the search for a minimum in targets.c). */
enum geluref_status gs_ref_eval_hp(struct gs_ref *r, enum geluref_func f,
                                   enum geluref_dtype dt, uint64_t x, mpfr_ptr out);

#endif
