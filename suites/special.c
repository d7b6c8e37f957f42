/* special.c: the special suite (docs/design.md sections 2 and 6).
 *
 * Inputs: NaN (quiet and signalling, both signs, one with a payload), +-inf, +-0, +-max, +-min
 * normal, +-min subnormal, +-1, the midpoint traps of x/2 (the first odd subnormals, the
 * largest subnormal and the smallest normal's upper neighbour: binary32 gelu(3*2^-149) =
 * 2*2^-149 and gelu(-3*2^-149) = -2^-149, where the x^2 term decides), and the thresholds of
 * gs_targets (saturation, last non-zero, last normal) with their outer and inner neighbours.
 * Expected: RN(f(x)) from the reference, which follows the conventions of section 2.  The
 * special inputs proper (NaN, +-inf, +-0) whose results are exact (all but normpdf(+-0)) are
 * compared as bits, except that any NaN equals
 * any NaN (NaN sign and payload are never judged): a mismatch is a special_value finding, or
 * signed_zero when only the sign of a zero differs.  The other inputs (extremes, midpoint
 * traps, thresholds) have ordinary finite results, judged like every other input by the
 * policy (gs_policy_judge: bit-exact under strict, within 4 ulp under default), so that a
 * kernel is not failed here for an error the ulp suite accepts; a failure there keeps the
 * judge's kind (ulp_exceeded, inf_output, wrong_sign, ...).
 * Score: the ulp error of the output (+inf for NaN).  Severities: special.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "special.h"
#include "suites.h"

/* 31 fixed inputs + 4 thresholds x 3 = 43 at most; room to spare */
#define SP_MAX 64

struct sp_input {
    uint64_t x;
    char label[32];
};
struct sp_list {
    struct sp_input in[SP_MAX];
    size_t n;
};

/* Appends x unless it is already there (the first label wins). */
static void add(struct sp_list *l, uint64_t x, const char *label)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->in[i].x == x)
            return;
    if (l->n == SP_MAX)
        return;
    l->in[l->n].x = x;
    snprintf(l->in[l->n].label, sizeof l->in[l->n].label, "%s", label);
    l->n++;
}

/* +name and -name */
static void add_pm(struct sp_list *l, enum geluref_dtype dt, uint64_t x, const char *name)
{
    char buf[32];
    snprintf(buf, sizeof buf, "+%s", name);
    add(l, x, buf);
    snprintf(buf, sizeof buf, "-%s", name);
    add(l, gs_neg(dt, x), buf);
}

/* A threshold and its neighbours: outer = one position farther from 0, inner = nearer. */
static void add_threshold(struct sp_list *l, enum geluref_dtype dt, int has, uint64_t x,
                          const char *name)
{
    char buf[32];
    if (!has)
        return;
    int64_t p = gs_pos(dt, x), away = p < 0 ? -1 : 1;
    add(l, x, name);
    snprintf(buf, sizeof buf, "%s outer", name);
    add(l, gs_from_pos(dt, p + away), buf);
    snprintf(buf, sizeof buf, "%s inner", name);
    add(l, gs_from_pos(dt, p - away), buf);
}

static void build(struct sp_list *l, enum geluref_dtype dt, const struct gs_targets *t)
{
    const struct geluref_dtype_info *di = geluref_dtype_info(dt);
    int mb = di->prec - 1;                                   /* stored significand bits */
    uint64_t expmask = (((uint64_t)1 << di->exp_bits) - 1) << mb; /* = +inf */
    uint64_t quiet = (uint64_t)1 << (mb - 1);                /* IEEE 754-2008 6.2.1 */
    uint64_t payload = (quiet - 1) & 0x5555555555555555u;    /* alternate payload bits */

    l->n = 0;
    add_pm(l, dt, expmask | quiet, "nan");
    add_pm(l, dt, expmask | 1, "snan");                     /* quiet bit clear */
    add(l, expmask | quiet | payload, "nan payload");
    add_pm(l, dt, expmask, "inf");
    add_pm(l, dt, 0, "0");
    add_pm(l, dt, expmask - 1, "max");
    add_pm(l, dt, (uint64_t)1 << mb, "min normal");
    add_pm(l, dt, 1, "min subnormal");
    add_pm(l, dt, gs_from_double(dt, 1.0), "1");
    /* midpoint traps: x/2 is a midpoint for odd subnormals and odd lowest-normal inputs */
    add_pm(l, dt, 3, "3*min subnormal");
    add_pm(l, dt, 5, "5*min subnormal");
    add_pm(l, dt, 7, "7*min subnormal");
    add_pm(l, dt, ((uint64_t)1 << mb) - 1, "max subnormal");
    add_pm(l, dt, ((uint64_t)1 << mb) + 1, "min normal next");
    add_threshold(l, dt, t->has_sat, t->sat, "saturation");
    add_threshold(l, dt, t->has_sat_neg, t->sat_neg, "saturation_neg");
    add_threshold(l, dt, t->has_last_nonzero, t->last_nonzero, "last_nonzero");
    add_threshold(l, dt, t->has_last_normal, t->last_normal, "last_normal");
}

static int is_neg_inf(enum geluref_dtype dt, uint64_t x)
{
    return gs_is_inf(dt, x) && gs_sign(dt, x);
}

void gs_special_values(const struct gs_policy_values *pv, struct gs_policy_values *out)
{
    if (out != pv)
        *out = *pv;
    if (!pv->special_zero_sign && out->severity[GS_K_SIGNED_ZERO] == GS_SEV_FAIL)
        out->severity[GS_K_SIGNED_ZERO] = GS_SEV_WARN; /* special_zero_sign = any */
}

/* "x = -inf: got nan, want -0" (the class label added when it says more than the value) */
static void detail(char *buf, size_t size, enum geluref_dtype dt, const struct sp_input *in,
                   uint64_t got, uint64_t want, const char *why)
{
    char xs[40], gs[40], ws[40];
    geluref_format_dec(xs, sizeof xs, dt, in->x);
    geluref_format_dec(gs, sizeof gs, dt, got);
    geluref_format_dec(ws, sizeof ws, dt, want);
    const char *lab = in->label[0] == '+' ? in->label + 1 : in->label;
    if (strcmp(lab, xs) == 0 || strcmp(in->label, xs) == 0)
        snprintf(buf, size, "x = %s: got %s, want %s%s", xs, gs, ws, why);
    else
        snprintf(buf, size, "x = %s (%s): got %s, want %s%s", xs, in->label, gs, ws, why);
}

/* kind: GS_K_NONE for a special input proper (special_value or signed_zero decided here),
 * else the judge's kind */
static void finding(struct gs_ctx *c, struct gs_suite_result *r, const struct sp_input *in,
                    const struct gs_meas *m, enum gs_kind kind)
{
    int zero_sign = gs_is_zero(c->dt, m->got) && gs_is_zero(c->dt, m->want);
    if (kind == GS_K_NONE)
        kind = zero_sign ? GS_K_SIGNED_ZERO : GS_K_SPECIAL_VALUE;
    struct gs_finding fd = {
        .kind = kind,
        .region = gs_region_of(c->dt, in->x),
        .has_x = 1, .has_got = 1, .has_want = 1,
        .x = in->x, .got = m->got, .want = m->want,
        .score = isnan(m->ulp) ? INFINITY : m->ulp,
        .ulp = m->ulp, .abs_err = m->abs_err,
    };
    const char *why = "";
    if (zero_sign && !c->pv.special_zero_sign) {
        why = "; zero sign not judged (special_zero_sign = any)";
    } else if (kind == GS_K_SPECIAL_VALUE && c->pv.nan_at_neg_inf && is_neg_inf(c->dt, in->x) &&
               gs_is_nan(c->dt, m->got)) {
        /* this finding alone: NaN for +inf, or any other special_value, still fails */
        fd.tolerated = 1;
        why = "; tolerated (nan_at_neg_inf = allow)";
    }
    detail(fd.detail, sizeof fd.detail, c->dt, in, m->got, m->want, why);
    gs_findings_add(&r->findings, &fd);
}

static json_t *row(enum geluref_dtype dt, const struct sp_input *in, uint64_t got, uint64_t want,
                   int ok)
{
    return json_pack("{s:s, s:o, s:o, s:o, s:b}", "input", in->label, "x", gs_value_json(dt, in->x),
                     "got", gs_value_json(dt, got), "want", gs_value_json(dt, want), "ok", ok);
}

void gs_suite_special(struct gs_ctx *c, struct gs_suite_result *r)
{
    struct sp_list l;
    /* x and y in the dtype's layout, 8 bytes per element at most; gs_buf_alloc: aligned, with
     * slack for a kernel writing out of bounds (the vector suite's finding, not a crash here) */
    unsigned char *xb = gs_buf_alloc(SP_MAX * 8), *yb = gs_buf_alloc(SP_MAX * 8);

    if (xb == NULL || yb == NULL) {
        gs_buf_free(xb);
        gs_buf_free(yb);
        r->verdict = GS_ERROR;
        snprintf(r->note, sizeof r->note, "special: out of memory");
        return;
    }
    build(&l, c->dt, &c->targets);
    for (size_t i = 0; i < l.n; i++)
        gs_store(c->dt, xb, i, l.in[i].x);
    r->inputs = json_pack("{s:s, s:I}", "set", "special", "count", (json_int_t)l.n);
    if (gs_kernel_eval(c, 0, xb, yb, l.n, &r->findings) != GC_OK) {
        gs_buf_free(xb);
        gs_buf_free(yb);
        r->verdict = GS_ERROR; /* the adapter_error/timeout finding is recorded */
        snprintf(r->note, sizeof r->note, "the kernel could not be evaluated");
        return;
    }
    json_t *table = json_array();
    size_t passed = 0;
    for (size_t i = 0; i < l.n; i++) {
        struct gs_meas m;
        uint64_t got = gs_load(c->dt, yb, i);
        enum geluref_status st = gs_measure(c->ref[0], c->func, c->dt, l.in[i].x, got, &m);
        if (st != GELUREF_OK) {
            c->internal_error = 1;
            snprintf(c->internal_msg, sizeof c->internal_msg,
                     "reference failed in the special suite (%s): %s", l.in[i].label,
                     geluref_strerror(st));
            snprintf(r->note, sizeof r->note, "%s", c->internal_msg);
            r->verdict = GS_ERROR;
            json_decref(table);
            gs_buf_free(xb);
            gs_buf_free(yb);
            return;
        }
        uint64_t x = l.in[i].x;
        int ok;
        enum gs_kind kind = GS_K_NONE;
        if ((gs_is_nan(c->dt, x) || gs_is_inf(c->dt, x) || gs_is_zero(c->dt, x)) && m.exact)
            /* only NaN-ness is judged for a NaN result; every other result bit for bit (a
             * special input with an inexact result, normpdf(+-0) = 1/sqrt(2 pi), is judged
             * like any other) */
            ok = gs_is_nan(c->dt, m.want) ? gs_is_nan(c->dt, got) : got == m.want;
        else
            ok = (kind = gs_policy_judge(&c->pv, &m)) == GS_K_NONE;
        if (ok)
            passed++;
        else
            finding(c, r, &l.in[i], &m, kind);
        json_array_append_new(table, row(c->dt, &l.in[i], got, m.want, ok));
    }
    gs_buf_free(xb);
    gs_buf_free(yb);
    r->points = l.n;
    r->metrics = json_pack("{s:I, s:I, s:o}", "checked", (json_int_t)l.n, "passed",
                           (json_int_t)passed, "table", table);
    /* the findings are judged, and shown, with the bent severities (special.h) */
    gs_special_values(&c->pv, &r->pv);
    r->verdict = gs_findings_fail(&r->findings, &r->pv) ? GS_FAIL : GS_PASS;
}
