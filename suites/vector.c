/* vector.c: the vector suite (docs/design.md section 6, row `vector`): how a kernel handles a batch.
 *
 * Vector defects are about consistency, so the kernel is compared with itself, never with the
 * reference: a length-1 call of each input is the baseline.  In order:
 *   1. repeat: the same batches (131 and 4099 elements) called GS_V_REPEAT times give identical
 *      bits (nondeterministic).  A kernel that fails this makes every other kernel-vs-kernel
 *      comparison meaningless, so those are then skipped (the calls still run, for 6 and 7);
 *   2. position: every length 0 .. 2*64+3 and two large ones (4099: odd, past any block;
 *      65536: the exec protocol's limit), inputs drawn from the pool, each output equal to the
 *      length-1 call's (position_dependent);
 *   3. alignment: x and/or y element-aligned but 1 element, 16, 32 or 64-1 elements' bytes
 *      past a 64-byte boundary, against the aligned call (alignment_dependent);
 *   4. in place: x == y (aligned and at one element past), against out of place with x and
 *      y at the same offset, so that alignment does not count twice (inplace_mismatch);
 *   5. lanes: a NaN, +inf or -inf at each position of a 32-wide window of a 35-element batch
 *      leaves the other outputs as they were without it (lane_contamination);
 *   and on every call: 6. nothing written in the GS_V_GUARD bytes before y or after y[n-1]
 *   (out_of_bounds_write, n == 0 included); 7. x unchanged when not in place (input_modified);
 *   ctx.c adds fpenv_modified.
 * Inputs: the pool = every target input of (func, dtype) (thresholds, tail, near 0,
 * extremes; of the window around a zero of f, the GS_TARGET_BAND floats on each side), the
 * near-zero subnormals and the smallest normals of both signs, and GS_V_RANDOM values from
 * gs_rng (cfg->seed): random bits, uniform on [-8, 8], the tail [-40, -3] and
 * +-2^u for u in [-30, -1].  NaN and infinities only in the lane check, so that a
 * lane defect shows as lane_contamination only.
 * Scores: value findings, the distance in positions between the two outputs (+inf when one
 * is NaN); out_of_bounds_write, the element slots written; input_modified, the elements of x
 * changed.  Metrics "failures" count compared elements (values) or calls (6, 7). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vector_internal.h"

#define GS_V_MAX_SMALL (2 * 64 + 3) /* docs/design.md section 6: lengths 0 .. at least 2 x 64 + 3 */
#define GS_V_LARGE1 4099            /* odd and prime: no block size divides it */
#define GS_V_RANDOM 256             /* random pool values */
#define GS_V_REPEAT 4               /* calls per repeated batch */
#define GS_V_WINDOW 32              /* lane window: the widest vectors hold 32 f16 */
#define GS_V_LANE_N (GS_V_WINDOW + 3) /* window plus a tail of 3 */

static const size_t align_lengths[] = { 1, 3, 8, 17, 67, GS_V_MAX_SMALL, GS_V_LARGE1 };
static const size_t inplace_lengths[] = { 1, 7, 8, 67, GS_V_MAX_SMALL, GS_V_LARGE1, GS_V_MAX_N };
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* byte offsets from a 64-byte boundary (element-aligned, not 64-aligned) */
static size_t offsets(size_t elem, size_t *o)
{
    o[0] = elem;       /* not 16-aligned for every dtype (elem <= 8) */
    o[1] = 16;         /* 16- but not 32-aligned */
    o[2] = 32;         /* 32- but not 64-aligned */
    o[3] = 64 - elem;  /* the last element before the boundary */
    return 4;
}

/* fills xsrc with n inputs drawn from the pool, their pool indices into idx (may be NULL) */
static void draw(struct gs_vstate *v, struct gs_rng *g, size_t n, size_t *idx)
{
    for (size_t i = 0; i < n; i++) {
        size_t k = (size_t)gs_rng_below(g, v->n_pool);
        if (idx != NULL)
            idx[i] = k;
        gs_store(v->dt, v->xsrc, i, v->pool[k]);
    }
}

static void compare(struct gs_vstate *v, enum gs_vcheck k, size_t n, const uint64_t *got,
                    const uint64_t *want, const char *what, const char *vs, size_t skip)
{
    char a[24], b[24];
    if (v->nondet)
        return;
    for (size_t i = 0; i < n; i++) {
        if (i == skip)
            continue;
        v->checked[k]++;
        if (gs_vsame(v->dt, got[i], want[i]))
            continue;
        geluref_format_bits(a, sizeof a, v->dt, got[i]);
        geluref_format_bits(b, sizeof b, v->dt, want[i]);
        gs_vvalue(v, k, gs_load(v->dt, v->xsrc, i), got[i], want[i],
                  "n = %zu, %s, position %zu: got %s, want (%s) %s", n, what, i, a, vs, b);
    }
}

static void check_repeat(struct gs_vstate *v, struct gs_rng *g)
{
    static const size_t lengths[] = { GS_V_MAX_SMALL, GS_V_LARGE1 };
    char what[48];
    for (size_t l = 0; l < N_OF(lengths) && !v->failed; l++) {
        size_t n = lengths[l];
        draw(v, g, n, NULL);
        if (gs_vcall(v, n, 0, 0, 0, "aligned", v->ref))
            return;
        for (int call = 2; call <= GS_V_REPEAT; call++) {
            if (gs_vcall(v, n, 0, 0, 0, "aligned", v->got))
                return;
            uint64_t before = v->failures[GS_VC_REPEAT];
            snprintf(what, sizeof what, "call %d of %d", call, GS_V_REPEAT);
            compare(v, GS_VC_REPEAT, n, v->got, v->ref, what, "call 1", (size_t)-1);
            if (v->failures[GS_VC_REPEAT] > before)
                break; /* one differing call says it; the rest would repeat it */
        }
    }
    if (v->failures[GS_VC_REPEAT] > 0)
        v->nondet = 1;
}

static void check_positions(struct gs_vstate *v, struct gs_rng *g, size_t *idx)
{
    for (size_t l = 0; l <= GS_V_MAX_SMALL + 2 && !v->failed; l++) {
        size_t n = l <= GS_V_MAX_SMALL ? l : l == GS_V_MAX_SMALL + 1 ? GS_V_LARGE1 : GS_V_MAX_N;
        draw(v, g, n, idx);
        if (gs_vcall(v, n, 0, 0, 0, "aligned", v->got))
            return;
        for (size_t i = 0; i < n; i++)
            v->ref[i] = v->base[idx[i]];
        compare(v, GS_VC_POSITION, n, v->got, v->ref, "aligned", "n=1", (size_t)-1);
    }
}

static void check_alignment(struct gs_vstate *v, struct gs_rng *g)
{
    size_t o[4], n_o = offsets(v->elem, o);
    char what[64];
    for (size_t l = 0; l < N_OF(align_lengths) && !v->failed; l++) {
        size_t n = align_lengths[l];
        draw(v, g, n, NULL);
        if (gs_vcall(v, n, 0, 0, 0, "aligned", v->ref))
            return;
        for (size_t i = 0; i < n_o * 3; i++) {
            size_t xo = i % 3 == 1 ? 0 : o[i / 3], yo = i % 3 == 0 ? 0 : o[i / 3];
            snprintf(what, sizeof what, "x at +%zu, y at +%zu bytes from 64-byte alignment",
                     xo, yo);
            if (gs_vcall(v, n, xo, yo, 0, what, v->got))
                return;
            compare(v, GS_VC_ALIGNMENT, n, v->got, v->ref, what, "aligned", (size_t)-1);
        }
    }
}

static void check_inplace(struct gs_vstate *v, struct gs_rng *g)
{
    char what[48];
    for (size_t l = 0; l < N_OF(inplace_lengths) && !v->failed; l++) {
        size_t n = inplace_lengths[l];
        draw(v, g, n, NULL);
        for (size_t off = 0; off <= v->elem; off += v->elem) {
            /* against out of place at the same offset: aliasing alone, not alignment */
            snprintf(what, sizeof what, "x and y at +%zu bytes", off);
            if (gs_vcall(v, n, off, off, 0, what, v->ref))
                return;
            snprintf(what, sizeof what, "in place at +%zu bytes", off);
            if (gs_vcall(v, n, off, off, 1, what, v->got))
                return;
            compare(v, GS_VC_INPLACE, n, v->got, v->ref, what, "out of place", (size_t)-1);
        }
    }
}

/* the dtype's quiet NaN and +inf, from its shape */
static uint64_t special_bits(enum geluref_dtype dt, int nan)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    uint64_t inf = ((UINT64_C(1) << d->exp_bits) - 1) << (d->prec - 1);
    return nan ? inf | UINT64_C(1) << (d->prec - 2) : inf;
}

static void check_lanes(struct gs_vstate *v, struct gs_rng *g)
{
    uint64_t s[3], keep;
    static const char *const names[3] = { "nan", "+inf", "-inf" };
    char what[48];
    s[0] = special_bits(v->dt, 1);
    s[1] = special_bits(v->dt, 0);
    s[2] = gs_neg(v->dt, s[1]);
    draw(v, g, GS_V_LANE_N, NULL);
    if (gs_vcall(v, GS_V_LANE_N, 0, 0, 0, "aligned", v->ref))
        return;
    for (size_t p = 0; p < GS_V_WINDOW; p++)
        for (size_t k = 0; k < 3; k++) {
            keep = gs_load(v->dt, v->xsrc, p);
            gs_store(v->dt, v->xsrc, p, s[k]);
            snprintf(what, sizeof what, "%s at position %zu", names[k], p);
            int bad = gs_vcall(v, GS_V_LANE_N, 0, 0, 0, what, v->got);
            if (!bad)
                compare(v, GS_VC_LANE, GS_V_LANE_N, v->got, v->ref, what, "without it", p);
            gs_store(v->dt, v->xsrc, p, keep);
            if (bad)
                return;
        }
}

static int pool_add(struct gs_vstate *v, uint64_t b)
{
    if (gs_is_nan(v->dt, b) || gs_is_inf(v->dt, b))
        return 0;
    v->pool[v->n_pool++] = b;
    return 0;
}

/* the pool (see the header comment); no calls */
static int build_pool(struct gs_vstate *v, struct gs_rng *g)
{
    const struct gs_targets *t = &v->c->targets;
    const struct geluref_dtype_info *d = geluref_dtype_info(v->dt);
    int64_t min_normal = INT64_C(1) << (d->prec - 1); /* position of the smallest normal */
    static const int64_t near0[] = { 1, 2, 3 };      /* the first subnormals (midpoint traps) */
    v->pool = malloc((t->n + GS_V_RANDOM + 16) * sizeof *v->pool);
    v->base = malloc((t->n + GS_V_RANDOM + 16) * sizeof *v->base);
    if (v->pool == NULL || v->base == NULL)
        return 1;
    for (size_t i = 0; i < t->n; i++) {
        /* of the zero's window, the band of the other targets: the rest would outnumber
           the pool's other inputs a dozen to one and cost a length-1 call each, for checks
           that compare the kernel with itself */
        if (t->has_zero) {
            /* the distance in positions, in unsigned arithmetic: +max and a negative zero_x
               are further apart than int64_t holds in binary64 */
            int64_t a = gs_pos(v->dt, t->x[i]), b = gs_pos(v->dt, t->zero_x);
            uint64_t dist = a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
            if (dist > (uint64_t)GS_TARGET_BAND)
                continue;
        }
        pool_add(v, t->x[i]);
    }
    for (size_t i = 0; i < N_OF(near0); i++) {
        pool_add(v, gs_from_pos(v->dt, near0[i]));
        pool_add(v, gs_from_pos(v->dt, -near0[i]));
    }
    pool_add(v, gs_from_pos(v->dt, min_normal));
    pool_add(v, gs_from_pos(v->dt, -min_normal));
    for (size_t i = 0; i < GS_V_RANDOM; i++) {
        double u = (double)(gs_rng_next(g) >> 11) * 0x1p-53; /* uniform [0, 1) */
        uint64_t b;
        switch (i % 4) {
        case 0: b = gs_rng_next(g) & (d->bits == 64 ? UINT64_MAX : (UINT64_C(1) << d->bits) - 1);
            break;
        case 1: b = gs_from_double(v->dt, -8.0 + 16.0 * u); break;
        case 2: b = gs_from_double(v->dt, -40.0 + 37.0 * u); break;
        default: b = gs_from_double(v->dt, (i & 4 ? -1.0 : 1.0) * exp2(-30.0 + 29.0 * u)); break;
        }
        pool_add(v, b);
    }
    return 0;
}

static void baseline(struct gs_vstate *v)
{
    for (size_t i = 0; i < v->n_pool && !v->failed; i++) {
        gs_store(v->dt, v->xsrc, 0, v->pool[i]);
        gs_vcall(v, 1, 0, 0, 0, "aligned", &v->base[i]);
    }
}

static json_t *check_json(const struct gs_vstate *v, enum gs_vcheck k)
{
    return json_pack("{sIsI}", "checked", (json_int_t)v->checked[k], "failures",
                     (json_int_t)v->failures[k]);
}

static void describe(struct gs_vstate *v, struct gs_suite_result *r)
{
    static const enum gs_kind kinds[GS_N_VCHECKS] = {
        GS_K_POSITION_DEPENDENT, GS_K_ALIGNMENT_DEPENDENT, GS_K_INPLACE_MISMATCH,
        GS_K_LANE_CONTAMINATION, GS_K_NONDETERMINISTIC, GS_K_OUT_OF_BOUNDS_WRITE,
        GS_K_INPUT_MODIFIED };
    size_t o[4], n_o = offsets(v->elem, o);
    json_t *m = json_object(), *offs = json_array(), *large = json_array();
    json_object_set_new(m, "lengths_checked", json_integer(GS_V_MAX_SMALL + 3));
    json_object_set_new(m, "calls", json_integer((json_int_t)v->calls));
    json_object_set_new(m, "value_checks", json_string(v->nondet ? "skipped: outputs not "
                        "reproducible" : v->failed ? "incomplete: the kernel failed" : "done"));
    for (size_t k = 0; k < GS_N_VCHECKS; k++)
        json_object_set_new(m, gs_kind_name(kinds[k]), check_json(v, (enum gs_vcheck)k));
    json_object_set_new(m, "fpenv_modified", json_pack("{sIsI}", "checked",
                        (json_int_t)v->calls, "failures", (json_int_t)gs_findings_count(
                        &r->findings, GS_K_FPENV_MODIFIED)));
    r->metrics = m;
    for (size_t i = 0; i < n_o; i++)
        json_array_append_new(offs, json_integer((json_int_t)o[i]));
    json_array_append_new(large, json_integer(GS_V_LARGE1));
    json_array_append_new(large, json_integer(GS_V_MAX_N));
    r->inputs = json_pack("{sIsIsIsIsisosisisi}", "seed", (json_int_t)v->c->cfg->seed,
                          "pool", (json_int_t)v->n_pool, "targets",
                          (json_int_t)v->c->targets.n, "random", (json_int_t)GS_V_RANDOM,
                          "max_small_length", GS_V_MAX_SMALL, "large_lengths", large,
                          "guard_bytes", GS_V_GUARD, "lane_window", GS_V_WINDOW,
                          "repeat_calls", GS_V_REPEAT);
    if (r->inputs != NULL)
        json_object_set_new(r->inputs, "offsets_bytes", offs);
    else
        json_decref(offs);
}

void gs_suite_vector(struct gs_ctx *c, struct gs_suite_result *r)
{
    struct gs_vstate v;
    struct gs_rng g;
    size_t *idx = malloc(GS_V_MAX_N * sizeof *idx);
    size_t mem = GS_V_GUARD + GS_V_SLACK + GS_V_MAX_N * c->elem + GS_V_GUARD;
    memset(&v, 0, sizeof v);
    v.c = c;
    v.r = r;
    v.dt = c->dt;
    v.elem = c->elem;
    r->suite = GS_SUITE_VECTOR;
    mem = (mem + 63) / 64 * 64; /* aligned_alloc wants a multiple of the alignment */
    v.xmem = aligned_alloc(64, mem);
    v.ymem = aligned_alloc(64, mem);
    v.xsrc = malloc(GS_V_MAX_N * c->elem);
    v.ref = malloc(GS_V_MAX_N * sizeof *v.ref);
    v.got = malloc(GS_V_MAX_N * sizeof *v.got);
    if (idx == NULL || v.xmem == NULL || v.ymem == NULL || v.xsrc == NULL || v.ref == NULL ||
        v.got == NULL) {
        r->verdict = GS_ERROR;
        snprintf(r->note, sizeof r->note, "vector: out of memory");
        goto out;
    }
    gs_rng_seed(&g, gs_seed_mix(c->cfg->seed, GS_SUITE_VECTOR, 0));
    if (build_pool(&v, &g) != 0) {
        r->verdict = GS_ERROR;
        snprintf(r->note, sizeof r->note, "vector: out of memory");
        goto out;
    }
    check_repeat(&v, &g);
    baseline(&v); /* the length-1 calls: after the repeat check has decided v.nondet */
    /* n == 0: touch nothing (the canary check of gs_vcall sees a write to y[0]) */
    gs_vcall(&v, 0, 0, 0, 0, "aligned", NULL);
    gs_vcall(&v, 0, 0, 0, 1, "in place", NULL);
    check_positions(&v, &g, idx);
    check_alignment(&v, &g);
    check_inplace(&v, &g);
    check_lanes(&v, &g);
    r->points = v.points;
    describe(&v, r);
    if (v.failed) {
        r->verdict = GS_ERROR;
        snprintf(r->note, sizeof r->note, "vector: the kernel failed (see the findings)");
    } else {
        r->verdict = gs_findings_fail(&r->findings, &c->pv) ? GS_FAIL : GS_PASS;
    }
out:
    free(idx);
    free(v.xmem);
    free(v.ymem);
    free(v.xsrc);
    free(v.ref);
    free(v.got);
    free(v.pool);
    free(v.base);
}
