/* The tail suite's internal state, shared by tail.c (plan and sweep), tail_flush.c (the
 * refinement of the flush point) and tail_json.c (metrics). */
#ifndef GELUCHECK_TAIL_RUN_H
#define GELUCHECK_TAIL_RUN_H

#include <stdatomic.h>
#include <stdint.h>

#include "ulp_util.h"

/* Depth bins [-1,0), [-2,-1), ...: at most this many (the deepest underflow side of any
 * function is f64 normpdf/gelu near |x| = 38.6, so 64 unit bins cover every dtype). */
#define TAIL_DEPTH_MAX 64
/* Reference inputs per unit interval of depth (stratified uniform in x). */
#define TAIL_DEPTH_PER_UNIT 64

enum tail_job_kind { TJ_SCAN, TJ_BEYOND, TJ_DEPTH, TJ_SAT };

/* One work item.  SCAN: samples k0 .. k0+n-1 of the scan.  BEYOND, SAT: magnitudes [lo, hi]
 * of sign neg (sampled when wider than TAIL_PER_BINADE, unless whole).  DEPTH: unit bin
 * `bin` of the underflow side. */
struct tail_job {
    enum tail_job_kind kind;
    int neg;
    int side;           /* SAT: 0 = targets.sat, 1 = targets.sat_neg */
    int whole;          /* SAT: every input of [lo, hi] (the first floats from the threshold) */
    uint64_t lo, hi;
    uint64_t k0, n;
    unsigned bin;
};

/* One thread's accumulators. */
struct tail_acc {
    struct gs_findings f;
    uint64_t points;
    uint64_t zero, ftz, prem;  /* scan: zero outputs where RN(f(x)) is not zero, classified */
    uint64_t zero_measured;    /* of which measured against the reference */
    uint64_t kmin;             /* scan: the first sample with a zero output (UINT64_MAX: none) */
    uint64_t signed_zero;      /* beyond last_nonzero: zero of the wrong sign */
    struct gs_errstat beyond, depth[TAIL_DEPTH_MAX], sat[2];
    uint64_t sat_checked[2], sat_fail[2];
    int nomem;
    uint64_t *x, *y;           /* GS_UT_BATCH inputs and outputs */
};

struct tail_run {
    struct gs_ctx *c;
    struct gs_ut_shape sh;
    int has_side;              /* an underflow side with a last_nonzero: scan, beyond, depth */
    int neg;                   /*   its sign */
    uint64_t lnz, lnorm;       /*   magnitudes of last_nonzero and last_normal */
    int has_lnorm;
    uint64_t sub0;             /*   magnitudes below sub0 have a subnormal RN(f(x)) near 0 */
    int has_scan;              /* the scan's magnitudes in range: [s_lo, s_hi] */
    uint64_t s_lo, s_hi, stride, n0, n_scan; /* samples s_lo + k stride (k < n0), then s_hi */
    unsigned n_depth;          /* depth bins */
    int has_sat[2];            /* saturation sides: the threshold's bits */
    uint64_t sat[2];
    struct tail_job *jobs;
    size_t n_jobs, cap_jobs;
    int split;                 /* --shard K/N: this shard takes jobs K, K + N, ... (shard.c) */
    uint64_t n_items;          /* the jobs this run takes: n_jobs, or its shard's share */
    uint64_t n_beyond, n_depth_pts, n_sat; /* points per part (filled after the sweep) */
    struct tail_acc *acc;      /* per thread */
    _Atomic int stop;
    _Atomic int failed;        /* the kernel could not be served */
    struct gs_ut_progress prog;
    /* the flush point, after refinement */
    int has_flush;
    uint64_t flush;            /* magnitude */
};

/* The magnitude of scan sample k. */
static inline uint64_t tail_scan_mag(const struct tail_run *u, uint64_t k)
{
    return k < u->n0 ? u->s_lo + k * u->stride : u->s_hi;
}

/* Whether a zero output at magnitude mag (inside the scan) is an ftz (RN(f(x)) subnormal)
 * rather than a premature_flush (RN(f(x)) normal). */
static inline int tail_is_ftz(const struct tail_run *u, uint64_t mag)
{
    return (u->has_lnorm && mag > u->lnorm) || mag < u->sub0;
}

/* Refines the flush point from the scan's first zero sample (tail_flush.c); thread 0, into
 * acc (the merged accumulators).  A scan of every input (stride 1) needs no kernel call: its
 * first zero output is the flush point, so the shards of a split run find it alone (the least
 * of theirs, tail_merge.c).  Returns 0, or -1 when the kernel or the reference failed. */
int tail_refine(struct tail_run *u, struct tail_acc *acc);
/* Empty accumulators (no buffers: x and y NULL). */
void tail_acc_clear(struct tail_acc *a);
void tail_acc_merge(struct tail_acc *into, const struct tail_acc *from);
json_t *tail_metrics_json(const struct tail_run *u);
json_t *tail_inputs_json(const struct tail_run *u);
/* The tail suite entries of the n shards of a run joined into the unsharded run's entry
 * (gelucheck merge; tail_merge.c).  NULL with msg set (and *bad_shard) on a bad entry. */
json_t *tail_merge_json(json_t *const *s, size_t n, enum geluref_func func,
                        enum geluref_dtype dt, size_t *bad_shard, char *msg, size_t size);

#endif
