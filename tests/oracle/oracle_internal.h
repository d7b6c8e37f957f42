/* Internal interface between the parts of the oracle (not for the tests). */
#ifndef GC_ORACLE_INTERNAL_H
#define GC_ORACLE_INTERNAL_H

#include <stdint.h>
#include <mpfr.h>

#include "interval.h"
#include "oracle.h"

/* Working precisions: wp0 = 2p + 128 doubled per level, the last level ORACLE_PREC_MAX.
 * The smallest wp0 (bf16: 144) needs 9 doublings to pass 65536: 10 levels, one spare. */
#define ORACLE_LEVELS 11

/* Encloses f(x) at working precision wp (the same wp for a given dt and level on every
 * call).  Returns the enclosure, owned by this thread's cache and valid until the next call,
 * or NULL when it was lost (a NaN end, a divisor containing 0, an empty meet with a fact). */
const struct iv *oracle_enclose(enum geluref_func f, enum geluref_dtype dt, int level,
                                mpfr_prec_t wp, mpfr_srcptr x, double scale);

/* Frees this thread's workspaces (oracle_thread_release). */
void oracle_enclose_release(void);

#endif /* GC_ORACLE_INTERNAL_H */
