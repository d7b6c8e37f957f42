/* Helpers shared by the ulp and tail suites (ulp_util.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, CLOCK_MONOTONIC */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ulp_util.h"

void gs_ut_shape_of(enum geluref_dtype dt, struct gs_ut_shape *s)
{
    const struct geluref_dtype_info *in = geluref_dtype_info(dt);
    s->bits = (unsigned)in->bits;
    s->mant = (unsigned)in->prec - 1u;
    s->n_fields = (1u << in->exp_bits) - 1u;
    s->bias = (1 << (in->exp_bits - 1)) - 1;
    s->sign = (uint64_t)1 << (s->bits - 1);
    s->inf_mag = (uint64_t)s->n_fields << s->mant;
}

/* The smallest magnitude whose value is >= a (a >= 0, possibly +inf). */
static uint64_t mag_at_least(enum geluref_dtype dt, double a)
{
    uint64_t b = gs_from_double(dt, a);
    if (gs_to_double(dt, b) < a)
        b++;
    return b;
}

/* The largest magnitude whose value is <= a (a >= 0, possibly +inf). */
static uint64_t mag_at_most(enum geluref_dtype dt, double a)
{
    uint64_t b = gs_from_double(dt, a);
    if (gs_to_double(dt, b) > a)
        b--;
    return b;
}

int gs_ut_mag_range(const struct gs_ctx *c, const struct gs_ut_shape *s, int neg, uint64_t *lo,
                    uint64_t *hi)
{
    *lo = 0;
    *hi = s->inf_mag;
    if (!c->cfg->has_range)
        return 1;
    /* values v in [range_lo, range_hi]: for a negative sign, magnitudes in [-hi, -lo] */
    double a = neg ? -c->cfg->range_hi : c->cfg->range_lo;
    double b = neg ? -c->cfg->range_lo : c->cfg->range_hi;
    /* -0.0 (an end at 0, negated) is the magnitude 0, not the pattern of -0: +0.0 here */
    if (a <= 0)
        a = 0;
    if (b == 0)
        b = 0;
    if (!(b >= a))
        return 0;
    *lo = mag_at_least(c->dt, a);
    *hi = mag_at_most(c->dt, b);
    if (*hi > s->inf_mag)
        *hi = s->inf_mag;
    return *lo <= *hi;
}

int gs_ut_in_range(const struct gs_ctx *c, uint64_t x)
{
    if (!c->cfg->has_range)
        return 1;
    double v = gs_to_double(c->dt, x);
    return v >= c->cfg->range_lo && v <= c->cfg->range_hi;
}

/* Guards the first write of c->internal_error/internal_msg from several threads. */
static pthread_mutex_t internal_lock = PTHREAD_MUTEX_INITIALIZER;

void gs_ut_internal(struct gs_ctx *c, const char *suite, uint64_t x, enum geluref_status st)
{
    char v[GS_VALUE_TEXT];
    gs_format_value(v, sizeof v, c->dt, x);
    pthread_mutex_lock(&internal_lock);
    if (!c->internal_error) {
        c->internal_error = 1;
        snprintf(c->internal_msg, sizeof c->internal_msg, "%s suite: reference failed at x = %s: %s",
                 suite, v, geluref_strerror(st));
    }
    pthread_mutex_unlock(&internal_lock);
}

void gs_ut_bufs_release(struct gs_ut_bufs *b)
{
    gs_buf_free(b->xb);
    gs_buf_free(b->yb);
    b->xb = b->yb = NULL;
}

/* x[0..m-1] into the kernel's buffer as dtype elements, and back: one loop per element
 * size (the compiler vectorises them), the same bits as gs_store and gs_load. */
static void store_batch(size_t elem, unsigned char *xb, const uint64_t *x, size_t m)
{
    if (elem == 4) {
        uint32_t *d = (uint32_t *)(void *)xb; /* 64-byte aligned (gs_buf_alloc) */
        for (size_t j = 0; j < m; j++)
            d[j] = (uint32_t)x[j];
    } else if (elem == 2) {
        uint16_t *d = (uint16_t *)(void *)xb;
        for (size_t j = 0; j < m; j++)
            d[j] = (uint16_t)x[j];
    } else {
        memcpy(xb, x, m * sizeof *x);
    }
}

static void load_batch(size_t elem, const unsigned char *yb, uint64_t *y, size_t m)
{
    if (elem == 4) {
        const uint32_t *s = (const uint32_t *)(const void *)yb;
        for (size_t j = 0; j < m; j++)
            y[j] = s[j];
    } else if (elem == 2) {
        const uint16_t *s = (const uint16_t *)(const void *)yb;
        for (size_t j = 0; j < m; j++)
            y[j] = s[j];
    } else {
        memcpy(y, yb, m * sizeof *y);
    }
}

/* x[0..n-1] through the kernel in batches of at most cap elements via xb and yb. */
static int eval_via(const struct gs_ctx *c, unsigned t, unsigned char *xb, unsigned char *yb,
                    size_t cap, const uint64_t *x, uint64_t *y, size_t n, struct gs_findings *f)
{
    for (size_t i = 0; i < n; i += cap) {
        size_t m = n - i < cap ? n - i : cap;
        store_batch(c->elem, xb, x + i, m);
        if (gs_kernel_eval(c, t, xb, yb, m, f) != GC_OK)
            return -1;
        load_batch(c->elem, yb, y + i, m);
    }
    return 0;
}

int gs_ut_eval_bufs(const struct gs_ctx *c, unsigned t, struct gs_ut_bufs *b, const uint64_t *x,
                    uint64_t *y, size_t n, struct gs_findings *f, int *nomem)
{
    if (n == 0)
        return 0;
    if (!b->xb || !b->yb) {
        gs_ut_bufs_release(b);
        b->xb = gs_buf_alloc(GS_UT_BATCH * c->elem);
        b->yb = gs_buf_alloc(GS_UT_BATCH * c->elem);
        if (!b->xb || !b->yb) {
            gs_ut_bufs_release(b);
            *nomem = 1;
            return -1;
        }
    }
    return eval_via(c, t, b->xb, b->yb, GS_UT_BATCH, x, y, n, f);
}

int gs_ut_eval(const struct gs_ctx *c, unsigned t, const uint64_t *x, uint64_t *y, size_t n,
               struct gs_findings *f, int *nomem)
{
    size_t cap = n < GS_UT_BATCH ? n : GS_UT_BATCH;
    if (cap == 0)
        return 0;
    /* gs_buf_alloc: aligned, with slack for a kernel that writes out of bounds */
    unsigned char *xb = gs_buf_alloc(cap * c->elem), *yb = gs_buf_alloc(cap * c->elem);
    int rc = -1;
    if (!xb || !yb)
        *nomem = 1;
    else
        rc = eval_via(c, t, xb, yb, cap, x, y, n, f);
    gs_buf_free(xb);
    gs_buf_free(yb);
    return rc;
}

int gs_ut_judge(struct gs_ctx *c, unsigned t, uint64_t x, uint64_t y, struct gs_errstat **s,
                int n_stats, struct gs_findings *f, const char *what, struct gs_meas *m)
{
    enum geluref_status st = gs_measure(c->ref[t], c->func, c->dt, x, y, m);
    if (st != GELUREF_OK) {
        gs_ut_internal(c, what, x, st);
        return -1;
    }
    for (int i = 0; i < n_stats; i++)
        if (s[i])
            gs_errstat_add(s[i], m);
    gs_ut_judge_meas(c, m, f, what);
    return 0;
}

double gs_ut_score(const struct gs_ctx *c, const struct gs_meas *m)
{
    /* the ulp error, +inf for a non-finite output (docs/design.md section 6) */
    uint64_t y = m->got;
    return isnan(m->ulp) || gs_is_nan(c->dt, y) || gs_is_inf(c->dt, y) ? INFINITY : m->ulp;
}

int gs_ut_judge_meas(const struct gs_ctx *c, const struct gs_meas *m, struct gs_findings *f,
                     const char *what)
{
    uint64_t x = m->x, y = m->got;
    enum gs_kind k = gs_policy_judge(&c->pv, m);
    if (k == GS_K_NONE)
        return 1;
    struct gs_finding g;
    memset(&g, 0, sizeof g);
    g.kind = k;
    g.region = gs_region_of(c->dt, x);
    g.has_x = g.has_got = g.has_want = 1;
    g.x = x;
    g.got = y;
    g.want = m->want;
    g.ulp = m->ulp;
    g.abs_err = m->abs_err;
    g.score = gs_ut_score(c, m);
    /* a full worst list that this one cannot enter (gs_findings_add would only count it):
     * counted without building it (most of a sweep's findings; a run of repeated failures,
     * the NaN outputs of a tail); past this test it may be kept, so it gets its text */
    if (gs_findings_count_unkept(f, k, g.region, g.score, 1, x))
        return 0;
    snprintf(g.detail, sizeof g.detail, "%s: ulp error %.4g, cr_distance %lld, abs error %.4g",
             what, m->ulp, (long long)m->cr_distance, m->abs_err);
    gs_findings_add(f, &g);
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Seconds between two reports of one thread: "a few times per second at most". */
#define GS_UT_PROGRESS_PERIOD 0.25

void gs_ut_progress_add(struct gs_ut_progress *p, unsigned t, uint64_t n)
{
    uint64_t done = atomic_fetch_add(&p->done, n) + n;
    const struct gs_config *cfg = p->c->cfg;
    if (!cfg->progress)
        return;
    double now = now_s();
    if (done >= p->total || now - p->last[t] < GS_UT_PROGRESS_PERIOD)
        return; /* the last report is gs_ut_progress_end's */
    p->last[t] = now;
    const char *kernel = p->c->t->k[0]->name;
    cfg->progress(cfg->progress_arg, kernel, p->suite, done, p->total);
}

void gs_ut_progress_end(struct gs_ut_progress *p)
{
    const struct gs_config *cfg = p->c->cfg;
    if (cfg->progress)
        cfg->progress(cfg->progress_arg, p->c->t->k[0]->name, p->suite, p->total, p->total);
}

json_t *gs_ut_count_json(uint64_t n)
{
    return json_integer(n > (uint64_t)INT64_MAX ? (json_int_t)INT64_MAX : (json_int_t)n);
}

void gs_ut_verdict(const struct gs_ctx *c, struct gs_suite_result *r, const char *suite,
                   int nomem, int failed)
{
    if (nomem) {
        r->verdict = GS_ERROR;
        snprintf(r->note, sizeof r->note, "%s suite: out of memory", suite);
    } else if (failed) {
        r->verdict = GS_ERROR;
        snprintf(r->note, sizeof r->note, "%s suite: the kernel could not be served", suite);
    } else if (c->internal_error) {
        r->verdict = GS_ERROR;
        snprintf(r->note, sizeof r->note, "%s", c->internal_msg);
    } else {
        r->verdict = gs_findings_fail(&r->findings, &c->pv) ? GS_FAIL : GS_PASS;
    }
}

json_t *gs_ut_curve_json(struct gs_ctx *c, enum geluref_func f, const uint64_t *x, size_t n,
                         struct gs_findings *fd, int *nomem, _Atomic int *failed,
                         const char *what)
{
    enum geluref_dtype dt = c->dt;
    uint64_t *y = malloc((n ? n : 1) * sizeof *y);
    if (y == NULL) {
        *nomem = 1;
        return NULL;
    }
    if (gs_ut_eval(c, 0, x, y, n, fd, nomem) != 0) {
        if (!*nomem)
            atomic_store(failed, 1);
        free(y);
        return NULL;
    }
    json_t *arr = json_array();
    for (size_t i = 0; arr && i < n; i++) {
        struct gs_refval rv;
        enum geluref_status st = gs_ref_eval(c->ref[0], f, dt, x[i], &rv);
        if (st != GELUREF_OK) {
            gs_ut_internal(c, what, x[i], st);
            json_decref(arr);
            free(y);
            return NULL;
        }
        json_array_append_new(arr, json_pack("[ooo]", gs_real_json(gs_to_double(dt, x[i])),
                                             gs_real_json(gs_to_double(dt, y[i])),
                                             gs_real_json(gs_to_double(dt, rv.rn))));
    }
    free(y);
    *nomem = *nomem || (!arr && !c->internal_error);
    return arr;
}
