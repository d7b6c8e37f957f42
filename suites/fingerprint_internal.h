/* Private to the fingerprint suite (fingerprint.c, fingerprint_cand.c): the candidate
 * formulas and their values. */
#ifndef GS_FINGERPRINT_INTERNAL_H
#define GS_FINGERPRINT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "suites.h"

/* The candidates of docs/design.md section 6, in the order the metrics list them; the fixed ones
 * first, then scaled (x Phi(x/s), s estimated from the kernel). */
enum gs_fp_cand {
    GS_FP_GELU = 0,   /* x Phi(x) */
    GS_FP_TANH,       /* gelu_tanh */
    GS_FP_SIGMOID,    /* gelu_sigmoid: x sigmoid(1.702 x) */
    GS_FP_NOSQRT2,    /* x Phi(sqrt2 x) = x erfc(-x)/2 */
    GS_FP_SILU,       /* x sigmoid(x) */
    GS_FP_RELU,       /* max(x, 0) (+0 for x < 0) */
    GS_FP_N_FIXED,
    GS_FP_SCALED = GS_FP_N_FIXED,
    GS_FP_N
};
const char *gs_fp_name(enum gs_fp_cand c);
/* The candidate the declared func is (GS_FP_GELU .. GS_FP_SIGMOID), or GS_FP_N when func is
 * not in the gelu family. */
enum gs_fp_cand gs_fp_of_func(enum geluref_func f);

/* Candidate c at x (bits of dt): *bits = RN(c(x)) in dt, *approx = the double nearest c(x)
 * (for the gate measure).  s: the scale of GS_FP_SCALED (ignored otherwise).  Returns
 * GELUREF_OK or the reference's error (the precision cap). */
enum geluref_status gs_fp_value(enum gs_fp_cand c, enum geluref_dtype dt, uint64_t x, double s,
                                const struct geluref_config *cfg, uint64_t *bits,
                                double *approx);

/* s of x Phi(x/s) from the kernel's outputs y at inputs x < 0: per input, the gate y/x in
 * (0, 1/2) solved for s = x / Phi^-1(y/x); the median over those.  NAN when none qualifies. */
double gs_fp_scale(const double *x, const double *y, size_t n);

#endif
