/* The tail suite's flush point: from the scan's first zero sample a (towards 0 from it the
 * samples are non-zero), the exact float where the output becomes zero.
 *
 * A scan of every input (stride 1: binary32 with --exhaustive, f16, bf16, or a --range of at
 * most 2^20 inputs) has its flush point in hand: a is it.  A sampled scan (binary32 without --exhaustive, f64) refines it.
 * Assumption: between two adjacent scan samples the output changes from non-zero to zero at
 * most once (a kernel's flush is a threshold, not a pattern); under it the first zero of
 * (b, a] is found by scanning the floats between when there are few (f32: about a thousand
 * per stride) and by narrowing over evenly spaced bit patterns otherwise (f64). */
#include <stdatomic.h>
#include <stdlib.h>

#include "tail_run.h"

/* Points per narrowing step (f64): the interval shrinks by this factor per kernel call. */
#define TAIL_REFINE_POINTS 4096

/* Evaluates magnitudes x[0..n-1] (in a->x) and returns the index of the first zero output,
 * n when none, or -1 on failure. */
static long long first_zero(struct tail_run *u, struct tail_acc *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a->x[i] = gs_ut_bits(&u->sh, u->neg, a->x[i]);
    if (gs_ut_eval(u->c, 0, a->x, a->y, n, &a->f, &a->nomem) != 0) {
        if (!a->nomem)
            atomic_store(&u->failed, 1);
        return -1;
    }
    a->points += n;
    for (size_t i = 0; i < n; i++)
        if (gs_is_zero(u->c->dt, a->y[i]))
            return (long long)i;
    return (long long)n;
}

/* Measures the output at magnitude mag (one kernel call) through the policy. */
static int measure_at(struct tail_run *u, struct tail_acc *a, uint64_t mag, int *zero)
{
    a->x[0] = mag;
    long long z = first_zero(u, a, 1);
    if (z < 0)
        return -1;
    *zero = z == 0;
    struct gs_meas m;
    return gs_ut_judge(u->c, 0, a->x[0], a->y[0], NULL, 0, &a->f, "tail flush point", &m);
}

int tail_refine(struct tail_run *u, struct tail_acc *a)
{
    if (!u->has_scan || a->kmin == UINT64_MAX)
        return 0;
    uint64_t hi = tail_scan_mag(u, a->kmin); /* output zero */
    if (u->stride == 1) {
        /* every input scanned: hi is the flush point, and its neighbour towards 0, the last
           non-zero output, was scanned too (its accuracy is the ulp suite's: measured with
           every other input in an exhaustive run, sampled otherwise); nothing to evaluate, so
           each shard of a split run finds its own first zero and gelucheck merge keeps the
           least (tail_merge.c) */
        u->has_flush = 1;
        u->flush = hi;
        return 0;
    }
    uint64_t lo = a->kmin > 0 ? tail_scan_mag(u, a->kmin - 1) : u->s_lo - 1; /* exclusive */
    while (hi - lo > 1) {
        uint64_t gap = hi - lo - 1; /* floats strictly between */
        size_t n = 0;
        if (gap <= GS_UT_BATCH) {
            for (uint64_t m = lo + 1; m < hi; m++)
                a->x[n++] = m;
        } else {
            uint64_t step = (hi - lo) / (TAIL_REFINE_POINTS + 1);
            for (uint64_t i = 1; i <= TAIL_REFINE_POINTS; i++)
                a->x[n++] = lo + i * step;
        }
        /* the candidates stay in a->x as magnitudes until first_zero turns them into bits */
        uint64_t first = a->x[0], last = a->x[n - 1];
        uint64_t step = n > 1 ? a->x[1] - a->x[0] : 1;
        long long z = first_zero(u, a, n);
        if (z < 0)
            return -1;
        if (z == (long long)n) {
            lo = last;
        } else {
            hi = first + (uint64_t)z * step;
            lo = z > 0 ? hi - step : lo;
        }
        if (gap <= GS_UT_BATCH)
            break;
    }
    u->has_flush = 1;
    u->flush = hi;
    int zero = 1;
    if (hi != tail_scan_mag(u, a->kmin)) {
        /* a zero output the scan stepped over: count and judge it like the scan's */
        a->zero++;
        if (tail_is_ftz(u, hi))
            a->ftz++;
        else
            a->prem++;
        a->zero_measured++;
        if (measure_at(u, a, hi, &zero) != 0)
            return -1;
    }
    /* its neighbour towards 0, the last non-zero output: judged too */
    if (hi > u->s_lo && measure_at(u, a, hi - 1, &zero) != 0)
        return -1;
    return 0;
}
