/* measure_hp.h: private to measure.c, targets.c and the ulp suite (not part of the suites.h
 * contract). */
#ifndef GELUCHECK_MEASURE_HP_H
#define GELUCHECK_MEASURE_HP_H

#include "suites.h"

/* out = f(x) rounded to nearest at out's precision, in MPFR's widest exponent range (restored
 * afterwards), through r's configuration and counters.  For comparing f at neighbouring
 * inputs where the dtype's rounding is flat (the search for a minimum in targets.c). */
enum geluref_status gs_ref_eval_hp(struct gs_ref *r, enum geluref_func f,
                                   enum geluref_dtype dt, uint64_t x, mpfr_ptr out);

/* gs_measure for x[i], y[i], i < n, into m[i] (the same measurements), the reference
 * evaluated by geluref_eval_odd_n in blocks.  rep (may be NULL) gets rep[i] = 1 where m[i]
 * equals m[i-1] in every field but x (the same reference value and output: a run of a rule
 * range), else 0.  Returns GELUREF_OK, or the first failing input's status with *failed its
 * index (m[j] and rep[j] for j before it are set). */
enum geluref_status gs_measure_n(struct gs_ref *r, enum geluref_func f, enum geluref_dtype dt,
                                 const uint64_t *x, const uint64_t *y, size_t n,
                                 struct gs_meas *m, unsigned char *rep, size_t *failed);

/* gs_measure, and the rule that decided f(x) into *run (geluref_eval_odd_run; kind
 * GELUREF_RUN_NONE on the MPFR path or when no rule did); run may be NULL. */
enum geluref_status gs_measure_run(struct gs_ref *r, enum geluref_func f, enum geluref_dtype dt,
                                   uint64_t x, uint64_t y, struct gs_meas *m,
                                   struct geluref_odd_run *run);

/* Inputs a sweep judged by a rule's run without evaluating them (suites/ulp.c): counted into
 * r for the benchmarks, which compare it with the reference's calls. */
void gs_ref_add_run_inputs(struct gs_ref *r, uint64_t n);
uint64_t gs_ref_run_inputs(const struct gs_ref *r);
/* Measurements the sweep decided from the reference's double tier (geluref_enclose_n,
 * suites/ulp_fused.h) without a value rounded to odd: counted for the benchmarks. */
void gs_ref_add_fused(struct gs_ref *r, uint64_t n);
uint64_t gs_ref_fused(const struct gs_ref *r);
/* Whether r takes the fast path (not --reference mpfr): the double tier serves it only. */
int gs_ref_is_fast(const struct gs_ref *r);

#endif
