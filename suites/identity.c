/* identity.c: the identity suite (docs/design.md section 6): identities such as f(x) - f(-x) = x
 * with the residual computed exactly, f(0), bounds, and monotone pieces.  This file chooses
 * the inputs and runs the checks of identity_check.c and identity_mono.c.
 *
 * Inputs: the positive inputs P are every positive finite input for f16/bf16, and for f32/f64
 * per binade (the subnormals' included) its first and last input and per_binade random ones
 * (seeded by gs_seed_mix(cfg->seed, GS_SUITE_IDENTITY, binade)), plus |t| for every target of
 * gs_targets.  The kernel is evaluated on S = P and -P (every finite input for f16/bf16),
 * sorted by value; the monotone check also walks runs of consecutive inputs (identity_mono.c).
 * With cfg->samples set, f32/f64 use about that many inputs for P (at most ID_MAX_P: memory
 * stays bounded, about 40 bytes per input of P, whatever --samples) and as many in runs
 * instead of the defaults below. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "identity_priv.h"

#define ID_BATCH 65536 /* the largest batch (docs/design.md 5.2: 0 <= N <= 65536) */
/* the most random inputs P takes from --samples: 2^20, about 40 MiB of state with S = P and
 * -P, their outputs and the sort (--samples beyond it still sizes the ulp suite) */
#define ID_MAX_P (UINT64_C(1) << 20)

/* Defaults: f32 255 binades x 256 = 65280 random inputs and 255 x 2 signs x 2 runs x 4096 =
 * 4.2 million run inputs; f64 2047 x 32 = 65504 and 2047 x 2 x 1 x 1024 = 4.2 million. */
static const struct { uint64_t per_binade, runs, run_len; } plans[] = {
    [GELUREF_F64] = { 32, 1, 1024 },
    [GELUREF_F32] = { 256, 2, 4096 },
};

int id_gelu_family(enum geluref_func f)
{
    return f == GELUREF_GELU || f == GELUREF_GELU_TANH || f == GELUREF_GELU_SIGMOID;
}

int id_grad(enum geluref_func f) { return f == GELUREF_GELU_GRAD || f == GELUREF_GELU_TANH_GRAD; }

uint64_t id_key(enum geluref_dtype dt, uint64_t b)
{
    int w = geluref_dtype_info(dt)->bits;
    uint64_t sign = (uint64_t)1 << (w - 1), mask = sign | (sign - 1);
    b &= mask;
    return (b & sign) ? ~b & mask : b | sign; /* negatives reversed below the positives */
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* sorts keys and drops duplicates; returns the new count */
static size_t sort_unique(uint64_t *k, size_t n)
{
    size_t m = 0;
    qsort(k, n, sizeof *k, cmp_u64);
    for (size_t i = 0; i < n; i++)
        if (m == 0 || k[m - 1] != k[i])
            k[m++] = k[i];
    return m;
}

static uint64_t unkey(enum geluref_dtype dt, uint64_t k)
{
    int w = geluref_dtype_info(dt)->bits;
    uint64_t sign = (uint64_t)1 << (w - 1), mask = sign | (sign - 1);
    return (k & sign) ? k & ~sign : ~k & mask;
}

size_t id_find(const struct id_state *s, uint64_t x)
{
    uint64_t k = id_key(s->dt, x);
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t km = id_key(s->dt, s->x[mid]);
        if (km == k)
            return mid;
        if (km < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (size_t)-1;
}

int id_eval(struct id_state *s, const uint64_t *x, uint64_t *y, size_t n)
{
    size_t cap = n < ID_BATCH ? n : ID_BATCH;
    /* gs_buf_alloc: aligned, with slack for a kernel that writes out of bounds */
    unsigned char *bx = gs_buf_alloc(cap * s->c->elem + 1), *by = gs_buf_alloc(cap * s->c->elem + 1);
    int rc = 0;
    if (bx == NULL || by == NULL) {
        snprintf(s->r->note, sizeof s->r->note, "out of memory");
        rc = -1;
    }
    for (size_t i = 0; rc == 0 && i < n; i += cap) {
        size_t m = n - i < cap ? n - i : cap;
        for (size_t j = 0; j < m; j++)
            gs_store(s->dt, bx, j, x[i + j]);
        if (gs_kernel_eval(s->c, 0, bx, by, m, &s->r->findings) != GC_OK) {
            snprintf(s->r->note, sizeof s->r->note, "the kernel could not be evaluated");
            rc = -1;
            break;
        }
        for (size_t j = 0; j < m; j++)
            y[i + j] = gs_load(s->dt, by, j);
    }
    gs_buf_free(bx);
    gs_buf_free(by);
    if (rc != 0)
        s->failed = 1;
    return rc;
}

int id_ref(struct id_state *s, uint64_t x, uint64_t *rn)
{
    struct gs_refval v;
    enum geluref_status st = gs_ref_eval(s->c->ref[0], s->c->func, s->dt, x, &v);
    if (st == GELUREF_OK) {
        *rn = v.rn;
        return 0;
    }
    char xs[40];
    geluref_format_dec(xs, sizeof xs, s->dt, x);
    s->c->internal_error = 1;
    snprintf(s->c->internal_msg, sizeof s->c->internal_msg,
             "reference failed in the identity suite at x = %s: %s", xs, geluref_strerror(st));
    snprintf(s->r->note, sizeof s->r->note, "%s", s->c->internal_msg);
    s->failed = 1;
    return -1;
}

static void plan(struct id_state *s)
{
    const struct geluref_dtype_info *di = s->di;
    s->n_binades = ((uint64_t)1 << di->exp_bits) - 1; /* exponent fields 0 .. all ones - 1 */
    s->exhaustive = s->dt == GELUREF_F16 || s->dt == GELUREF_BF16;
    if (s->exhaustive)
        return;
    s->per_binade = plans[s->dt].per_binade;
    s->runs = plans[s->dt].runs;
    s->run_len = plans[s->dt].run_len;
    uint64_t n = s->c->cfg->samples;
    if (n > ID_MAX_P)
        n = ID_MAX_P;
    if (n != 0) {
        s->per_binade = n / s->n_binades > 0 ? n / s->n_binades : 1;
        s->runs = 1;
        uint64_t len = n / (2 * s->n_binades);
        s->run_len = len < 2 ? 2 : len > s->run_len ? s->run_len : len;
    }
}

/* P as sorted keys of positive inputs; 0 or -1 (no memory) */
static int build_p(struct id_state *s)
{
    const struct geluref_dtype_info *di = s->di;
    int mb = di->prec - 1;
    uint64_t mant = ((uint64_t)1 << mb) - 1, inf = s->n_binades << mb;
    size_t cap = s->exhaustive ? (size_t)inf : (size_t)(s->n_binades * (s->per_binade + 2));
    cap += s->c->targets.n + 1;
    if ((s->p = malloc(cap * sizeof *s->p)) == NULL)
        return -1;
    size_t n = 0;
    s->p[n++] = id_key(s->dt, 0);
    if (s->exhaustive)
        for (uint64_t b = 1; b < inf; b++)
            s->p[n++] = id_key(s->dt, b);
    for (uint64_t e = 0; !s->exhaustive && e < s->n_binades; e++) {
        struct gs_rng g;
        gs_rng_seed(&g, gs_seed_mix(s->c->cfg->seed, GS_SUITE_IDENTITY, e));
        uint64_t base = e << mb;
        s->p[n++] = id_key(s->dt, base | (e == 0)); /* the binade's first (not 0) and last */
        s->p[n++] = id_key(s->dt, base | mant);
        for (uint64_t i = 0; i < s->per_binade; i++) {
            uint64_t m = gs_rng_below(&g, mant + 1);
            s->p[n++] = id_key(s->dt, base | (e == 0 && m == 0 ? 1 : m));
        }
    }
    for (size_t i = 0; i < s->c->targets.n; i++) {
        uint64_t t = gs_abs(s->dt, s->c->targets.x[i]);
        if (!gs_is_nan(s->dt, t) && !gs_is_inf(s->dt, t))
            s->p[n++] = id_key(s->dt, t);
    }
    s->np = sort_unique(s->p, n);
    for (size_t i = 0; i < s->np; i++)
        s->p[i] = unkey(s->dt, s->p[i]);
    return 0;
}

/* S = P and -P, sorted by value */
static int build_s(struct id_state *s)
{
    s->x = malloc(2 * s->np * sizeof *s->x);
    s->y = malloc(2 * s->np * sizeof *s->y);
    if (s->x == NULL || s->y == NULL)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < s->np; i++) {
        s->x[n++] = id_key(s->dt, s->p[i]);
        s->x[n++] = id_key(s->dt, gs_neg(s->dt, s->p[i]));
    }
    s->n = sort_unique(s->x, n);
    for (size_t i = 0; i < s->n; i++)
        s->x[i] = unkey(s->dt, s->x[i]);
    return 0;
}

static void results(struct id_state *s)
{
    struct gs_suite_result *r = s->r;
    json_t *lo = s->has_lo ? gs_value_json(s->dt, s->lo) : json_null();
    json_t *hi = s->has_hi ? gs_value_json(s->dt, s->hi) : json_null();
    r->inputs = json_pack("{s:I, s:b, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
        "seed", (json_int_t)s->c->cfg->seed, "exhaustive", s->exhaustive,
        "binades", (json_int_t)s->n_binades, "per_binade", (json_int_t)s->per_binade,
        "positive", (json_int_t)s->np, "evaluated", (json_int_t)s->n,
        "runs_per_binade_and_sign", (json_int_t)s->runs, "run_length", (json_int_t)s->run_len,
        "run_points", (json_int_t)s->run_points);
    r->metrics = json_pack(
        "{s:{s:I, s:I, s:o}, s:{s:I, s:I}, s:{s:o, s:o, s:I, s:I}, s:{s:o, s:I, s:I}}",
        "identity", "checked", (json_int_t)s->id_checked, "violations", (json_int_t)s->id_viol,
        "max_residual_ulps", gs_real_json(s->id_max_ulps),
        "zero", "checked", (json_int_t)s->zero_checked, "violations", (json_int_t)s->zero_viol,
        "bounds", "min", lo, "max", hi, "checked", (json_int_t)s->b_checked, "violations",
        (json_int_t)s->b_viol,
        "monotonic", "pieces", id_pieces_json(s), "checked_pairs", (json_int_t)s->pairs,
        "violations", (json_int_t)s->mono_viol);
}

void gs_suite_identity(struct gs_ctx *c, struct gs_suite_result *r)
{
    struct id_state s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.r = r;
    s.dt = c->dt;
    s.di = geluref_dtype_info(c->dt);
    if (c->func < GELUREF_GELU || c->func > GELUREF_ERFC || s.di == NULL) {
        r->verdict = GS_SKIP;
        snprintf(r->note, sizeof r->note, "no identity known for this func");
        return;
    }
    plan(&s);
    if (build_p(&s) != 0 || build_s(&s) != 0) {
        snprintf(r->note, sizeof r->note, "out of memory");
        s.failed = 1;
    }
    if (!s.failed && id_eval(&s, s.x, s.y, s.n) == 0 && id_zero(&s) == 0 &&
        id_identity(&s) == 0 && id_bounds(&s) == 0)
        id_monotone(&s);
    r->points = s.n + s.run_points;
    results(&s);
    free(s.p);
    free(s.x);
    free(s.y);
    if (s.failed)
        r->verdict = GS_ERROR; /* the kernel's error finding, or c->internal_error, says why */
    else
        r->verdict = gs_findings_fail(&r->findings, &c->pv) ? GS_FAIL : GS_PASS;
}
