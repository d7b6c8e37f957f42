/* The ulp suite's internal state, shared by ulp.c (the sweep) and ulp_json.c (metrics). */
#ifndef GELUCHECK_ULP_RUN_H
#define GELUCHECK_ULP_RUN_H

#include <stdatomic.h>
#include <stdint.h>

#include "ulp_util.h"

/* One thread's accumulators. */
struct ulp_acc {
    struct gs_errstat all, reg[GS_N_REGIONS];
    struct gs_errstat *bin;                  /* ulp_binade_index(): 2 x n_fields */
    struct gs_errstat ex_all, ex_reg[GS_N_REGIONS]; /* vs_exact */
    struct gs_errstat loc[GS_N_REGIONS], ex_loc[GS_N_REGIONS]; /* one item's, by region */
    struct gs_findings f;
    uint64_t points;
    int nomem;
    uint64_t *x, *y;                         /* GS_UT_BATCH inputs and outputs */
    struct gs_ut_bufs kb;                    /* the kernel's buffers, kept across items */
};

/* A binade of the stratified sample: magnitudes [lo, hi] of one sign, count random inputs,
 * work items first_item .. first_item + ceil(count / GS_UT_BATCH) - 1. */
struct ulp_binade {
    int neg;
    unsigned field;
    uint64_t lo, hi, count, first_item;
};

struct ulp_run {
    struct gs_ctx *c;
    struct gs_ut_shape sh;
    int exhaustive;            /* every non-NaN pattern (in range) */
    uint64_t chunk;            /* exhaustive: patterns per work item */
    uint64_t samples;          /* stratified: random inputs (0 when exhaustive) */
    enum geluref_func exact;   /* vs_exact counterpart, 0 if none */
    int rok[2];                /* per sign (0 = +): whether any magnitude is in range */
    uint64_t mlo[2], mhi[2];   /*   and the magnitudes in range */
    uint64_t *targets;         /* stratified: targets in range and the infinities: item 0 */
    size_t n_targets;
    struct ulp_binade *bins;   /* stratified: binades with a nonzero count */
    size_t n_bins;
    uint64_t n_items;
    struct ulp_acc *acc;       /* per thread */
    _Atomic int stop;          /* a thread failed: hand out no more items */
    _Atomic int failed;        /* the kernel could not be served */
    struct gs_ut_progress prog;
    uint64_t n_mine;           /* work items of this shard (all without --shard) */
    _Atomic uint64_t *done;    /* bit j: this shard's item j measured (or read back) */
    _Atomic int interrupted;   /* an item was left unmeasured on cfg->interrupt */
};

/* Index of x's binade (x finite): sign x exponent field. */
static inline size_t ulp_binade_index(const struct gs_ut_shape *s, uint64_t x)
{
    int neg = (x & s->sign) != 0;
    return (size_t)neg * s->n_fields + (size_t)((x & ~s->sign) >> s->mant);
}

/* The exact counterpart of an approximation (vs_exact), or 0 when there is none (ulp.c). */
enum geluref_func ulp_exact_of(enum geluref_func f);
/* Empty statistics for n_bins binades, and (buffers) the input and output batch arrays;
 * returns -1 when memory runs out (release it all the same). */
int ulp_acc_init(struct ulp_acc *a, size_t n_bins, int buffers);
void ulp_acc_release(struct ulp_acc *a);
void ulp_acc_merge(struct ulp_acc *into, const struct ulp_acc *from, size_t n_bins);
json_t *ulp_metrics_json(const struct ulp_run *u);
/* The ulp suite entries s[0..n-1] of one kernel in the n shards of a run, joined into the
 * entry the unsharded run writes (ulp_merge.c).  NULL with msg, and *bad_shard the shard
 * whose entry could not be read (n: none in particular), when it cannot. */
json_t *ulp_merge_json(json_t *const *s, size_t n, enum geluref_func func,
                       enum geluref_dtype dt, size_t *bad_shard, char *msg, size_t size);
json_t *ulp_inputs_json(const struct ulp_run *u);
/* One ulp suite entry as written (points, metrics, findings) read back into a (initialised,
 * empty), as gelucheck merge reads a shard's (ulp_merge.c); 0, or -1 with msg. */
int ulp_entry_read(struct ulp_acc *a, const struct ulp_run *u, const json_t *s, char *msg,
                   size_t size);

/* ---- ulp_resume.c: interrupted sweeps (docs/design.md sections 7, 10) ---- */
/* The number of inputs of the sweep's (global) work item (ulp.c). */
uint64_t ulp_item_count(const struct ulp_run *u, uint64_t item);
/* The done bitmap of u->n_mine items, and, when u->c->resume_ulp is set, its covered items
 * marked and its measurements read into u->acc[0].  0; -1 with msg (a bad or mismatched
 * entry, or no memory). */
int ulp_resume_start(struct ulp_run *u, char *msg, size_t size);
int ulp_item_done(const struct ulp_run *u, uint64_t j);
void ulp_item_set_done(struct ulp_run *u, uint64_t j);
/* "covered": {"items": n_mine, "done": [[first, last]...] (this shard's item indexes),
 * "x": [[lo, hi]...] (exhaustive sweeps: the intervals of x those items cover, in range)}. */
json_t *ulp_covered_json(const struct ulp_run *u);

#endif
