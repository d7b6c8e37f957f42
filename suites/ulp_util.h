/* Helpers shared by the ulp and tail suites (ulp_util.c); internal to suites/, prefix gs_ut_.
 *
 * Inputs are handled as sign and magnitude bits: for a fixed sign, the magnitude bits of a
 * dtype are ordered like the absolute values (0 = +-0, 1 = the smallest subnormal, ...,
 * inf_mag = infinity; anything above is NaN), so binades, ranges and strides are integer
 * intervals of magnitudes. */
#ifndef GELUCHECK_ULP_UTIL_H
#define GELUCHECK_ULP_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "suites.h"

#define GS_UT_BATCH 65536u /* most elements per kernel call: the exec protocol's limit (5.2) */

/* The shape of a dtype's bit patterns. */
struct gs_ut_shape {
    unsigned bits;      /* 64, 32, 16, 16 */
    unsigned mant;      /* stored significand bits: prec - 1 */
    unsigned n_fields;  /* exponent fields of finite binades: 2^exp_bits - 1 (0 = subnormal) */
    int bias;           /* exponent bias: 2^(exp_bits-1) - 1 */
    uint64_t sign;      /* the sign bit */
    uint64_t inf_mag;   /* magnitude bits of infinity (the largest finite is inf_mag - 1) */
};
void gs_ut_shape_of(enum geluref_dtype dt, struct gs_ut_shape *s);

static inline uint64_t gs_ut_bits(const struct gs_ut_shape *s, int neg, uint64_t mag)
{
    return (neg ? s->sign : 0) | mag;
}

/* The end of the stretch of x[i .. n) above xt and at most xmax: the first e >= i with
 * !(xt < x[e] <= xmax), or n.  Where the caller vouches that x is strictly increasing
 * (increasing: an exhaustive sweep's item, item_inputs) and x[n - 1] - x[i] = n - 1 - i, the
 * patterns are consecutive, and with x[i] above xt the stretch ends at xmax without a scan
 * (tests/suites/test_ulp_stretch.c compares both ways). */
static inline size_t gs_ut_stretch_end(const uint64_t *x, size_t i, size_t n, uint64_t xt,
                                       uint64_t xmax, int increasing)
{
    if (increasing && i < n && x[i] > xt && x[n - 1] - x[i] == n - 1 - i) {
        uint64_t span = x[i] <= xmax ? xmax - x[i] + 1 : 0;
        return span < n - i ? i + (size_t)span : n;
    }
    size_t e = i;
    while (e < n && x[e] > xt && x[e] <= xmax)
        e++;
    return e;
}

/* The magnitudes [*lo, *hi] of sign neg whose values lie in the configured --range (all
 * finite and infinite magnitudes without one).  Returns 0 when that set is empty. */
int gs_ut_mag_range(const struct gs_ctx *c, const struct gs_ut_shape *s, int neg, uint64_t *lo,
                    uint64_t *hi);
/* Whether x lies in the configured --range (always without one). */
int gs_ut_in_range(const struct gs_ctx *c, uint64_t x);

/* Records a reference failure as the context's internal error, once (thread safe). */
void gs_ut_internal(struct gs_ctx *c, const char *suite, uint64_t x, enum geluref_status st);

/* y[i] = kernel(x[i]) on thread t's kernel, in batches of at most GS_UT_BATCH, both arrays as
 * dtype bits in uint64_t.  Returns 0, or -1 when the kernel could not be served (then an
 * adapter_error or timeout finding is in f) or memory ran out (*nomem set). */
int gs_ut_eval(const struct gs_ctx *c, unsigned t, const uint64_t *x, uint64_t *y, size_t n,
               struct gs_findings *f, int *nomem);

/* A thread's kernel buffers (gs_buf_alloc), kept across calls: allocating, zeroing and
 * freeing two buffers per batch costs page faults and, with several threads, unmaps that
 * interrupt the other CPUs.  Zeroed by the caller; gs_ut_bufs_release frees them. */
struct gs_ut_bufs {
    unsigned char *xb, *yb;
};
void gs_ut_bufs_release(struct gs_ut_bufs *b);
/* gs_ut_eval through b's buffers (allocated of GS_UT_BATCH elements on first use). */
int gs_ut_eval_bufs(const struct gs_ctx *c, unsigned t, struct gs_ut_bufs *b, const uint64_t *x,
                    uint64_t *y, size_t n, struct gs_findings *f, int *nomem);

/* Measures output y for input x against the declared function, adds it to the statistics
 * that are not NULL (each s[i] for i < n_stats), judges it under c->pv and records a finding
 * of the judged kind into f ("what" starts its detail).  m gets the measurement.  Returns 0,
 * or -1 when the reference failed (internal error recorded). */
int gs_ut_judge(struct gs_ctx *c, unsigned t, uint64_t x, uint64_t y, struct gs_errstat **s,
                int n_stats, struct gs_findings *f, const char *what, struct gs_meas *m);
/* gs_errstat_add (errstat.c) for a measurement equal to one already added to s but for a
 * larger x (bits): it changes the counts only, never a maximum or its argument. */
void gs_errstat_add_repeat(struct gs_errstat *s, const struct gs_meas *m);
/* n such calls at once. */
void gs_errstat_add_repeat_n(struct gs_errstat *s, const struct gs_meas *m, uint64_t n);
/* The counts of a measurement with these fields whose f(x) and output are finite and whose
 * errors are below the maxima of s (suites/ulp_fused.h decides that): gs_errstat_add without
 * add_max. */
void gs_errstat_count(struct gs_errstat *s, int cr, int faithful, int64_t cr_distance);
/* The score of m's finding: its ulp error, +inf for a non-finite output. */
double gs_ut_score(const struct gs_ctx *c, const struct gs_meas *m);
/* The judging half of gs_ut_judge: m judged under c->pv, a finding of the judged kind
 * recorded into f.  Returns 1 when m passed (no finding), else 0. */
int gs_ut_judge_meas(const struct gs_ctx *c, const struct gs_meas *m, struct gs_findings *f,
                     const char *what);

/* Progress: a shared counter of inputs done and, per thread, when it last reported. */
struct gs_ut_progress {
    const struct gs_ctx *c;
    const char *suite;
    uint64_t total;
    _Atomic uint64_t done;
    double *last;       /* per thread: monotonic seconds of its last report */
};
/* Adds n done inputs and calls cfg->progress when this thread has not reported for a
 * quarter of a second (and at the end, when done reaches total). */
void gs_ut_progress_add(struct gs_ut_progress *p, unsigned t, uint64_t n);

/* The final report (done = total), once, from the calling thread. */
void gs_ut_progress_end(struct gs_ut_progress *p);

/* A plot curve: the kernel evaluated on thread 0 at the n inputs x (its failures recorded in
 * fd), then [[x, y, RN(f(x))]...] as JSON numbers (non-finite as strings), f evaluated by the
 * reference.  NULL when the kernel could not be served (*failed set), memory ran out
 * (*nomem set) or the reference failed (recorded with gs_ut_internal, naming what). */
json_t *gs_ut_curve_json(struct gs_ctx *c, enum geluref_func f, const uint64_t *x, size_t n,
                         struct gs_findings *fd, int *nomem, _Atomic int *failed,
                         const char *what);

/* The verdict of a sweep suite (ulp, tail) and its note: error when memory ran out, the
 * kernel could not be served or the reference failed, else fail or pass by the findings. */
void gs_ut_verdict(const struct gs_ctx *c, struct gs_suite_result *r, const char *suite,
                   int nomem, int failed);

/* A JSON integer from a count (jansson's integers are signed 64-bit). */
json_t *gs_ut_count_json(uint64_t n);

#endif
