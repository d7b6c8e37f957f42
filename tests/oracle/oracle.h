/* The independent test oracle of gelucheck (tests/oracle/).
 *
 * It checks the reference library (reference/) bit for bit and shares no code with it: only
 * the enums and the shape of struct geluref_dtype_info come from geluref.h; no geluref_*
 * function is called.  Method, deliberately naive and slow:
 *
 *  1. decode x from its bits (oracle_decode);
 *  2. evaluate the textbook formula of docs/design.md section 2 in interval arithmetic
 *     (interval.h) at working precision wp, in MPFR's widest exponent range, giving
 *     lo <= f(x) <= hi;
 *  3. f(x) is transcendental at every nonzero finite x, so it lies strictly inside (lo, hi):
 *     round lo as "lo + infinitesimal" and hi as "hi - infinitesimal" straight into the dtype
 *     (oracle_round, integer based, never through float or double).  Equal bits decide the
 *     answer; otherwise wp doubles, from 2p + 128 up to ORACLE_PREC_MAX.
 *
 * Two proven facts tighten the enclosure where plain interval arithmetic can never decide
 * (a sum of correlated terms pinned at a representable value): gelu_grad and gelu_tanh_grad
 * are > 1 for x >= 1 and < 0 for x <= -1 (proof in oracle.c).
 * Special inputs (NaN, +-inf, +-0) follow the table of docs/design.md section 2.
 *
 * Thread safety: reentrant; scratch and cached constants are thread-local (free them with
 * oracle_thread_release() before a thread exits, if leak checkers matter).  MPFR's exponent
 * range and flags are saved and restored around each call.
 */
#ifndef GC_ORACLE_H
#define GC_ORACLE_H

#include <stdint.h>
#include <mpfr.h>

#include "geluref.h" /* enum geluref_func, enum geluref_dtype, struct geluref_dtype_info */

#define ORACLE_PREC_MAX 65536 /* working-precision cap (bits): 1 << 16 */

enum oracle_status {
    ORACLE_OK = 0,
    ORACLE_E_UNDECIDED = 1, /* still undecided at ORACLE_PREC_MAX bits */
    ORACLE_E_INVALID = 2,   /* unknown func, dtype or rounding mode, bits beyond the width,
                               or (gelu_scaled) a scale that is not finite and > 0 */
    ORACLE_E_ENCLOSURE = 3  /* the enclosure was lost (NaN end, empty meet): an oracle bug */
};

/* *ybits := the correctly rounded f(x) in dtype dt and direction rnd (MPFR_RNDN, ties to
 * even; MPFR_RNDZ; MPFR_RNDU; MPFR_RNDD).  scale: s of gelu_scaled, x Phi(x/s); ignored by
 * the other functions.  *prec_used (may be NULL): the working precision that decided, the
 * last one tried on failure, 0 for a special input decided up front.  Returns an enum
 * oracle_status; *ybits is written only on ORACLE_OK. */
int oracle_eval(enum geluref_func f, enum geluref_dtype dt, uint64_t xbits, mpfr_rnd_t rnd,
                double scale, uint64_t *ybits, mpfr_prec_t *prec_used);

/* ---- the dtype layer of the oracle (oracle_dtype.c) ---- */

/* The oracle's own table of the dtype's shape; NULL if dt is unknown. */
const struct geluref_dtype_info *oracle_dtype_info(enum geluref_dtype dt);

/* v := the exact value of bits (v's precision must be >= the dtype's); NaN for NaN. */
void oracle_decode(mpfr_ptr v, enum geluref_dtype dt, uint64_t bits);

/* Rounds v + bias * (an infinitesimal) into dt in direction rnd: bias 0 rounds v itself
 * (ties to even in RN), bias +1 rounds a value just above v, bias -1 just below v.  Zero v
 * with bias +-1 is a tiny number of that sign (+-0 or +-min subnormal per rnd).  Subnormals,
 * overflow (RN: inf; toward zero: +-max finite; away: inf) and the halved quantum just below
 * a power of two are handled.  NaN gives the dtype's quiet NaN, +-inf stays +-inf. */
uint64_t oracle_round(enum geluref_dtype dt, mpfr_srcptr v, int bias, mpfr_rnd_t rnd);

/* The dtype's default quiet NaN: 0x7ff8000000000000, 0x7fc00000, 0x7e00 (f16), 0x7fc0 (bf16). */
uint64_t oracle_qnan(enum geluref_dtype dt);

/* Frees this thread's cached constants and scratch. */
void oracle_thread_release(void);

#endif /* GC_ORACLE_H */
