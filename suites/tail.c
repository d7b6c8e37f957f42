/* The tail suite (docs/design.md section 6): where the output flushes to zero on the underflow
 * side (x < 0, x > 0 for erfc, none for erf), the zero sign beyond the last non-zero result,
 * the error as the tail deepens, and saturation (f(x) = x for the gelu family).
 *
 * Premise of the scan: on the underflow side every x strictly between 0 and
 * targets.last_nonzero has a non-zero RN(f(x)).  |f| is monotone there for erfc, normcdf and
 * normpdf, and for the gelu family and the grads in the tail beyond their own minimum; before
 * the minimum (between it and 0) f is non-zero anyway (gelu_grad crosses zero at x* only at an
 * irrational point, never a float), so a zero output there is a defect found without the
 * reference.  The scan's zero outputs are classified by position: beyond targets.last_normal
 * RN(f(x)) is subnormal (ftz), before it normal (premature_flush).
 *
 * Work items (one list, run by gs_parallel_for): scan chunks, binades beyond last_nonzero,
 * depth bins, saturation pieces.  Each item's inputs depend only on (seed, suite, item). */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tail_run.h"

/* Scan samples without --exhaustive for f32/f64: about 2^20 evaluations of the kernel (no
 * reference calls), a fraction of a second for a compiled kernel. */
#define TAIL_SCAN_POINTS (UINT64_C(1) << 20)
/* Zero outputs of one scan chunk measured against the reference (evenly spread): bounds the
 * reference calls for a kernel that is zero everywhere (clamp0: 16 chunks x 64). */
#define TAIL_MEASURE_PER_CHUNK 64
/* Inputs per binade beyond last_nonzero and in saturation: the first and last few of the
 * binade and random ones between; a binade of at most TAIL_PER_BINADE inputs is taken whole. */
#define TAIL_PER_BINADE 64
#define TAIL_BINADE_ENDS 8
/* The first floats from the saturation threshold, all checked. */
#define TAIL_SAT_FIRST 256

static int add_job(struct tail_run *u, struct tail_job j)
{
    if (u->n_jobs == u->cap_jobs) {
        size_t cap = u->cap_jobs ? 2 * u->cap_jobs : 256;
        struct tail_job *p = realloc(u->jobs, cap * sizeof *p);
        if (!p)
            return -1;
        u->jobs = p;
        u->cap_jobs = cap;
    }
    u->jobs[u->n_jobs++] = j;
    return 0;
}

/* Jobs of kind k for the magnitudes [lo, hi] of sign neg, one per binade piece. */
static int add_binade_jobs(struct tail_run *u, enum tail_job_kind k, int neg, int side,
                           uint64_t lo, uint64_t hi)
{
    const struct gs_ut_shape *s = &u->sh;
    uint64_t rlo, rhi;
    if (!gs_ut_mag_range(u->c, s, neg, &rlo, &rhi) || lo > hi)
        return 0;
    lo = lo > rlo ? lo : rlo;
    hi = hi < rhi ? hi : rhi;
    while (lo <= hi) {
        uint64_t end = (((lo >> s->mant) + 1) << s->mant) - 1; /* last of lo's binade */
        struct tail_job j = { .kind = k, .neg = neg, .side = side, .lo = lo,
                              .hi = end < hi ? end : hi };
        if (add_job(u, j) != 0)
            return -1;
        if (end >= hi)
            break;
        lo = end + 1;
    }
    return 0;
}

/* Magnitudes checked with the reference at the start of the scan (see skip_zero_results). */
#define TAIL_NEAR_ZERO_MAX 16

/* The one exception to the premise: next to 0 the gelu family is x/2 + x^2 phi(0) + ..., so
 * for the smallest subnormal x < 0, x/2 is a midpoint and the x^2 term rounds it to -0
 * (binary32: RN(GELU(-2^-149)) = -0; docs/design.md section 2).  The scan starts at the first
 * magnitude whose RN(f(x)) is non-zero, asking the reference about the first few. */
static int skip_zero_results(struct tail_run *u)
{
    struct gs_ctx *c = u->c;
    for (uint64_t m = u->s_lo; m <= u->s_hi && m < u->s_lo + TAIL_NEAR_ZERO_MAX; m++) {
        struct gs_refval rv;
        uint64_t x = gs_ut_bits(&u->sh, u->neg, m);
        enum geluref_status st = gs_ref_eval(c->ref[0], c->func, c->dt, x, &rv);
        if (st != GELUREF_OK) {
            gs_ut_internal(c, "tail", x, st);
            return -1;
        }
        if (!gs_is_zero(c->dt, rv.rn)) {
            u->s_lo = m;
            return 0;
        }
    }
    u->has_scan = 0; /* not expected: no non-zero result among the first magnitudes */
    return 0;
}

/* Whether RN(f(x)) is a normal number at magnitude m of the underflow side (*normal). */
static int normal_at(struct tail_run *u, uint64_t m, int *normal)
{
    struct gs_refval rv;
    uint64_t x = gs_ut_bits(&u->sh, u->neg, m);
    enum geluref_status st = gs_ref_eval(u->c->ref[0], u->c->func, u->c->dt, x, &rv);
    if (st != GELUREF_OK) {
        gs_ut_internal(u->c, "tail", x, st);
        return -1;
    }
    *normal = !gs_is_zero(u->c->dt, rv.rn) && !gs_is_subnormal(u->c->dt, rv.rn);
    return 0;
}

/* The gelu family is about x/2 next to 0, so RN(f(x)) is subnormal there too, for |x| below
 * about 2^(emin+1): a zero output there is an ftz, not a premature_flush.  sub0 = the first
 * magnitude with a normal RN(f(x)), by bisection over [1, 2^(emin+2)], where |f| grows with
 * |x| (the minimum, near |x| = 0.75, is far beyond).  Other funcs are near 1/2 or 1 at 0. */
static int find_sub0(struct tail_run *u)
{
    enum geluref_func f = u->c->func;
    u->sub0 = 0;
    if (f != GELUREF_GELU && f != GELUREF_GELU_TANH && f != GELUREF_GELU_SIGMOID)
        return 0;
    uint64_t lo = 1, hi = (uint64_t)3 << u->sh.mant; /* field 3: 2^(emin+2), RN normal */
    while (lo < hi) { /* invariant: RN normal at hi, the answer in [lo, hi] */
        uint64_t mid = lo + (hi - lo) / 2;
        int normal;
        if (normal_at(u, mid, &normal) != 0)
            return -1;
        if (normal)
            hi = mid;
        else
            lo = mid + 1;
    }
    u->sub0 = hi;
    return 0;
}

static int plan(struct tail_run *u)
{
    struct gs_ctx *c = u->c;
    const struct gs_targets *tg = &c->targets;
    const struct gs_ut_shape *s = &u->sh;
    uint64_t maxmag = s->inf_mag - 1;
    u->has_side = c->func != GELUREF_ERF && tg->has_last_nonzero;
    if (u->has_side) {
        u->neg = c->func != GELUREF_ERFC;
        u->lnz = tg->last_nonzero & ~s->sign;
        u->has_lnorm = tg->has_last_normal;
        u->lnorm = tg->last_normal & ~s->sign;
        uint64_t rlo, rhi;
        if (gs_ut_mag_range(c, s, u->neg, &rlo, &rhi)) {
            u->s_lo = rlo > 1 ? rlo : 1;
            u->s_hi = rhi < u->lnz ? rhi : u->lnz;
            u->has_scan = u->s_lo <= u->s_hi;
        }
        if (u->has_scan && skip_zero_results(u) != 0)
            return -1;
        if (u->has_scan && find_sub0(u) != 0)
            return -1;
        if (u->has_scan) {
            int every = c->dt == GELUREF_F16 || c->dt == GELUREF_BF16 ||
                        (c->dt == GELUREF_F32 && c->cfg->exhaustive);
            uint64_t span = u->s_hi - u->s_lo; /* + 1 inputs */
            u->stride = every ? 1 : span / TAIL_SCAN_POINTS + 1;
            u->n0 = span / u->stride + 1;
            u->n_scan = u->n0 + (u->s_lo + (u->n0 - 1) * u->stride != u->s_hi);
            for (uint64_t k = 0; k < u->n_scan; k += GS_UT_BATCH) {
                uint64_t n = u->n_scan - k < GS_UT_BATCH ? u->n_scan - k : GS_UT_BATCH;
                struct tail_job j = { .kind = TJ_SCAN, .neg = u->neg, .k0 = k, .n = n };
                if (add_job(u, j) != 0)
                    return -1;
            }
        }
        if (add_binade_jobs(u, TJ_BEYOND, u->neg, 0, u->lnz + 1, maxmag) != 0)
            return -1;
        double depth = fabs(gs_to_double(c->dt, tg->last_nonzero));
        u->n_depth = (unsigned)fmin(ceil(depth), TAIL_DEPTH_MAX);
        for (unsigned b = 0; b < u->n_depth; b++) {
            struct tail_job j = { .kind = TJ_DEPTH, .neg = u->neg, .bin = b };
            if (add_job(u, j) != 0)
                return -1;
        }
    }
    u->has_sat[0] = tg->has_sat;
    u->sat[0] = tg->sat;
    u->has_sat[1] = tg->has_sat_neg;
    u->sat[1] = tg->sat_neg;
    for (int side = 0; side < 2; side++) {
        if (!u->has_sat[side])
            continue;
        int neg = (u->sat[side] & s->sign) != 0;
        uint64_t m = u->sat[side] & ~s->sign;
        uint64_t first = maxmag - m < TAIL_SAT_FIRST ? maxmag : m + TAIL_SAT_FIRST - 1;
        uint64_t rlo, rhi;
        if (gs_ut_mag_range(c, s, neg, &rlo, &rhi) && first >= rlo && m <= rhi) {
            struct tail_job j = { .kind = TJ_SAT, .neg = neg, .side = side, .whole = 1,
                                  .lo = m > rlo ? m : rlo, .hi = first < rhi ? first : rhi };
            if (add_job(u, j) != 0)
                return -1;
        }
        if (first < maxmag && add_binade_jobs(u, TJ_SAT, neg, side, first + 1, maxmag) != 0)
            return -1;
    }
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The inputs of a job into a->x; returns their number. */
static size_t job_inputs(struct tail_run *u, uint64_t item, struct tail_acc *a)
{
    const struct tail_job *j = &u->jobs[item];
    const struct gs_ut_shape *s = &u->sh;
    struct gs_rng r;
    gs_rng_seed(&r, gs_seed_mix(u->c->cfg->seed, GS_SUITE_TAIL, item));
    size_t n = 0;
    switch (j->kind) {
    case TJ_SCAN:
        for (uint64_t k = 0; k < j->n; k++)
            a->x[n++] = gs_ut_bits(s, j->neg, tail_scan_mag(u, j->k0 + k));
        return n;
    case TJ_DEPTH:
        for (unsigned i = 0; i < TAIL_DEPTH_PER_UNIT; i++) {
            double v = j->bin + (i + (double)(gs_rng_next(&r) >> 11) * 0x1p-53) /
                                    TAIL_DEPTH_PER_UNIT;
            uint64_t x = gs_from_double(u->c->dt, j->neg ? -v : v);
            uint64_t mag = x & ~s->sign;
            double ax = fabs(gs_to_double(u->c->dt, x));
            /* underflow side x < 0: bin b holds |x| in (b, b+1]; erfc: [b, b+1) */
            int in_bin = j->neg ? ax > j->bin && ax <= j->bin + 1.0
                                : ax >= j->bin && ax < j->bin + 1.0;
            if (in_bin && mag >= 1 && mag <= u->lnz && gs_ut_in_range(u->c, x))
                a->x[n++] = x;
        }
        qsort(a->x, n, sizeof *a->x, cmp_u64);
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (m == 0 || a->x[m - 1] != a->x[i])
                a->x[m++] = a->x[i];
        return m;
    case TJ_BEYOND:
    case TJ_SAT:
        if (j->whole || j->hi - j->lo < TAIL_PER_BINADE) {
            for (uint64_t mag = j->lo; mag <= j->hi; mag++)
                a->x[n++] = gs_ut_bits(s, j->neg, mag);
            return n;
        }
        for (uint64_t i = 0; i < TAIL_BINADE_ENDS; i++) {
            a->x[n++] = gs_ut_bits(s, j->neg, j->lo + i);
            a->x[n++] = gs_ut_bits(s, j->neg, j->hi - i);
        }
        /* random ones strictly between the ends */
        uint64_t span = j->hi - j->lo + 1 - 2 * TAIL_BINADE_ENDS;
        while (n < TAIL_PER_BINADE)
            a->x[n++] = gs_ut_bits(s, j->neg, j->lo + TAIL_BINADE_ENDS + gs_rng_below(&r, span));
        return n;
    }
    return 0;
}

/* The scan's zero outputs: counted and classified, some measured (TAIL_MEASURE_PER_CHUNK). */
static int scan_zeros(struct tail_run *u, unsigned t, const struct tail_job *j, size_t n)
{
    struct tail_acc *a = &u->acc[t];
    uint64_t nz = 0;
    for (size_t i = 0; i < n; i++) {
        if (!gs_is_zero(u->c->dt, a->y[i]))
            continue;
        if (nz++ == 0 && j->k0 + i < a->kmin)
            a->kmin = j->k0 + i;
        uint64_t mag = a->x[i] & ~u->sh.sign;
        if (tail_is_ftz(u, mag))
            a->ftz++;
        else
            a->prem++;
    }
    a->zero += nz;
    uint64_t every = (nz + TAIL_MEASURE_PER_CHUNK - 1) / TAIL_MEASURE_PER_CHUNK, seen = 0;
    for (size_t i = 0; i < n; i++) {
        if (!gs_is_zero(u->c->dt, a->y[i]) || seen++ % every != 0)
            continue;
        struct gs_meas m;
        if (gs_ut_judge(u->c, t, a->x[i], a->y[i], NULL, 0, &a->f, "tail scan", &m) != 0)
            return -1;
        a->zero_measured++;
    }
    return 0;
}

/* Job j of this run (item: the global job, whose inputs do not depend on the sharding). */
static int work(void *arg, unsigned t, uint64_t j_local)
{
    struct tail_run *u = arg;
    struct tail_acc *a = &u->acc[t];
    uint64_t item = u->split ? gs_shard_item(u->c->cfg, j_local) : j_local;
    const struct tail_job *j = &u->jobs[item];
    if (atomic_load(&u->stop))
        return 1;
    size_t n = job_inputs(u, item, a);
    int rc = gs_ut_eval(u->c, t, a->x, a->y, n, &a->f, &a->nomem);
    if (rc != 0 && !a->nomem)
        atomic_store(&u->failed, 1);
    if (rc == 0 && j->kind == TJ_SCAN)
        rc = scan_zeros(u, t, j, n);
    for (size_t i = 0; rc == 0 && j->kind != TJ_SCAN && i < n; i++) {
        struct gs_errstat *st = j->kind == TJ_BEYOND  ? &a->beyond
                                : j->kind == TJ_DEPTH ? &a->depth[j->bin]
                                                      : &a->sat[j->side];
        const char *what = j->kind == TJ_BEYOND  ? "tail beyond last_nonzero"
                           : j->kind == TJ_DEPTH ? "tail depth"
                                                 : "tail saturation";
        struct gs_meas m;
        rc = gs_ut_judge(u->c, t, a->x[i], a->y[i], &st, 1, &a->f, what, &m);
        if (rc != 0)
            break;
        if (j->kind == TJ_BEYOND && m.defect == GS_K_SIGNED_ZERO)
            a->signed_zero++;
        if (j->kind == TJ_SAT) {
            a->sat_checked[j->side]++;
            a->sat_fail[j->side] += !m.cr;
        }
    }
    if (rc != 0) {
        atomic_store(&u->stop, 1);
        return 1;
    }
    a->points += n;
    gs_ut_progress_add(&u->prog, t, n);
    return 0;
}

static int acc_init(struct tail_acc *a)
{
    tail_acc_clear(a);
    a->x = malloc(GS_UT_BATCH * sizeof *a->x);
    a->y = malloc(GS_UT_BATCH * sizeof *a->y);
    return a->x && a->y ? 0 : -1;
}

static void acc_release(struct tail_acc *a)
{
    free(a->x);
    free(a->y);
    gs_findings_release(&a->f);
}

/* Points of the metrics' "curve" (a plot of the output against the true curve, reports/):
 * a fixed grid of x from 0 to TAIL_CURVE_BEYOND times last_nonzero on the underflow side. */
#define TAIL_CURVE_POINTS 200
/* How far past last_nonzero the grid goes (1.15: the zeros beyond it are visible too). */
#define TAIL_CURVE_BEYOND 1.15

/* "curve": [[x, got, want]...] (numbers, or "nan", "inf", "-inf") on the grid, rounded into
 * the dtype (duplicates and inputs outside --range left out), evaluated on thread 0 after the
 * sweep, so it does not depend on --threads.  Plot data only: judged nowhere.  NULL when the
 * kernel or the reference fails (an adapter_error or the internal error is recorded) or
 * memory runs out (*nomem). */
static json_t *tail_curve(struct tail_run *u, struct tail_acc *a, int *nomem)
{
    struct gs_ctx *c = u->c;
    enum geluref_dtype dt = c->dt;
    double end = fabs(gs_to_double(dt, c->targets.last_nonzero)) * TAIL_CURVE_BEYOND;
    uint64_t x[TAIL_CURVE_POINTS];
    size_t n = 0;
    for (unsigned i = 1; i <= TAIL_CURVE_POINTS; i++) {
        double v = end * i / TAIL_CURVE_POINTS;
        uint64_t b = gs_from_double(dt, u->neg ? -v : v);
        if (!gs_is_zero(dt, b) && !gs_is_inf(dt, b) && (n == 0 || x[n - 1] != b) &&
            gs_ut_in_range(c, b))
            x[n++] = b;
    }
    return gs_ut_curve_json(c, c->func, x, n, &a->f, nomem, &u->failed, "tail curve");
}

void gs_suite_tail(struct gs_ctx *c, struct gs_suite_result *r)
{
    struct tail_run u;
    memset(&u, 0, sizeof u);
    u.c = c;
    gs_ut_shape_of(c->dt, &u.sh);
    u.prog.c = c;
    u.prog.suite = "tail";
    unsigned nt = c->t->n_threads < c->cfg->threads ? c->t->n_threads : c->cfg->threads;
    nt = nt ? nt : 1;
    u.acc = calloc(nt, sizeof *u.acc);
    u.prog.last = calloc(nt, sizeof *u.prog.last);
    int nomem = !u.acc || !u.prog.last;
    for (unsigned t = 0; !nomem && t < nt; t++)
        nomem = acc_init(&u.acc[t]) != 0;
    nomem = nomem || plan(&u) != 0;
    const struct gs_config *cfg = c->cfg;
    if (!nomem && gs_sharded(cfg)) {
        /* shard.c: split where the scan takes every input (its flush point needs no kernel
           call, tail_flush.c) or there is none; else the whole suite in shard 0 */
        u.split = !u.has_scan || u.stride == 1;
        if (!u.split && cfg->shard_k > 0) {
            r->verdict = GS_SKIP;
            gs_shard_skip_note(cfg, r->note, sizeof r->note);
            goto out;
        }
    }
    if (!nomem) {
        u.n_items = u.split ? gs_shard_items(cfg, u.n_jobs) : u.n_jobs;
        for (uint64_t i = 0; i < u.n_items; i++) {
            const struct tail_job *j = &u.jobs[u.split ? gs_shard_item(cfg, i) : i];
            if (j->kind == TJ_SCAN)
                u.prog.total += j->n;
            else if (j->kind == TJ_DEPTH)
                u.prog.total += TAIL_DEPTH_PER_UNIT;
            else
                u.prog.total += j->whole || j->hi - j->lo < TAIL_PER_BINADE ? j->hi - j->lo + 1
                                                                : TAIL_PER_BINADE;
        }
        gs_parallel_for(nt, u.n_items, work, &u);
        gs_ut_progress_end(&u.prog);
        for (unsigned t = 0; t < nt; t++)
            nomem |= u.acc[t].nomem;
        for (unsigned t = 1; !nomem && t < nt; t++)
            tail_acc_merge(&u.acc[0], &u.acc[t]);
    }
    if (!nomem && !atomic_load(&u.stop) && tail_refine(&u, &u.acc[0]) != 0 &&
        u.acc[0].nomem)
        nomem = 1;
    json_t *curve = NULL; /* plot data: made once, in shard 0 of a split run (merge takes it) */
    if (!nomem && !atomic_load(&u.stop) && !atomic_load(&u.failed) && u.has_side &&
        (!u.split || cfg->shard_k == 0))
        curve = tail_curve(&u, &u.acc[0], &nomem);
    if (!nomem) {
        gs_findings_merge(&r->findings, &u.acc[0].f);
        r->points = u.acc[0].points;
        r->metrics = tail_metrics_json(&u);
        r->inputs = tail_inputs_json(&u);
        if (curve && r->metrics)
            json_object_set(r->metrics, "curve", curve);
    }
    json_decref(curve);
    gs_ut_verdict(c, r, "tail", nomem, atomic_load(&u.failed));
out:
    for (unsigned t = 0; u.acc && t < nt; t++)
        acc_release(&u.acc[t]);
    free(u.acc);
    free(u.prog.last);
    free(u.jobs);
}
