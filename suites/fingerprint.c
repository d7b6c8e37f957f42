/* fingerprint.c: the fingerprint suite (docs/design.md section 6, row `fingerprint`): which formula
 * a kernel declaring a gelu-family func behaves like, and whether that is what it declares.
 *
 * Probes (published in the metrics): x = -5, -4.5, -4, -3.5, -3 (the tail, where the
 * candidates differ by factors: gelu(-5) = -1.43e-6, gelu_tanh(-5) = -2.3e-7) and -2.5, -2,
 * -1.5, -1, -0.5, 0.5, 1, 1.5, 2 (where gelu and gelu_tanh differ by 5e-5 .. 2e-3 relative);
 * every one exact in every dtype (at most 4 significant bits).
 *
 * Per probe and candidate, the disagreement in bits, b = min(b_rel, b_gate, B):
 *   b_rel  = log2 of the distance in positions (gs_pos) between the kernel's output and the
 *            candidate's correctly rounded value (0 when at most 1 apart): what a kernel that
 *            rounds its result well shows, subnormal outputs included;
 *   b_gate = log2(|y - c(x)| / |x| / 2^-G) (0 when at most 1): the error of the gate g(x) in
 *            y = x g(x) in units of 2^-G, G = 24 (f32, f16, bf16: half-precision kernels
 *            compute in at least binary32) or 53 (f64).  The classic forms compute the gate
 *            as (1 + erf)/2 or (1 + tanh)/2 with an absolute error of a few 2^-G, so their
 *            relative error explodes in the tail (libm erf1p.f32: ~5% at x = -5, zero below
 *            -5.54) while their gate error stays small: b_gate keeps them their formula;
 *   B      = the dtype's width in bits, for a NaN output (the most two values can differ).
 * A candidate's score is the mean of b over the probes (the log2 of the geometric mean
 * distance).  Decision (published in the metrics as "tolerance" and "margin_required"):
 *   - the best fixed candidate when its score <= GS_FP_TOL and the runner-up's is at least
 *     GS_FP_MARGIN higher (the geometric mean distance at least twice as large);
 *   - indeterminate when the best is within GS_FP_TOL but the runner-up is within the margin;
 *   - otherwise scaled when x Phi(x/s), s estimated from the tail probes (gs_fp_scale), scores
 *     within GS_FP_TOL; otherwise unknown.
 * Metrics: "declared", "detected", "scale" (scaled only), "margin" (the runner-up's score
 * minus the best's among the fixed candidates, bits), "margin_required" (GS_FP_MARGIN),
 * "tolerance" (GS_FP_TOL), "candidates" [{"name", "score"}] (scaled when it was tried),
 * "probes" [x].  Measured (tests/suites/test_fingerprint.c prints them): every correct libm
 * kernel scores 0.00 for its own formula, erf1p.f32 included; the runner-up is 9.3 bits
 * behind in f32, 38 in f64, 2.9 in f16 and 1.9 in bf16 (gelu vs gelu_tanh: there only the
 * tail tells them apart).
 * Findings: declared_mismatch when the detected formula (a named one, scaled, or unknown: a
 * kernel that computes none of the known formulas does not compute what it declares either)
 * is not the declared func; none for indeterminate (nothing shown).  Its x/got/want: the probe
 * where the declared formula disagrees most, the output, RN(declared f(x)); its score: the
 * declared formula's score in bits. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fingerprint_internal.h"

#define GS_FP_TOL 2.0    /* bits: geometric mean distance <= 4 positions (or gate units) */
#define GS_FP_MARGIN 1.0 /* bits: the runner-up at least twice as far */

static const double probes[] = { -5.0, -4.5, -4.0, -3.5, -3.0, -2.5, -2.0, -1.5,
                                 -1.0, -0.5, 0.5,  1.0,  1.5,  2.0 };
#define N_PROBES (sizeof probes / sizeof probes[0])

struct fp_cand {
    uint64_t v[N_PROBES];   /* RN(c(x)) in the dtype */
    double b[N_PROBES];     /* disagreement, bits */
    double score;
};

static double bits_of(double d)
{
    return d <= 1.0 ? 0.0 : log2(d);
}

/* the disagreement of output y with candidate value (bits v, exact ~a) at x */
static double disagreement(enum geluref_dtype dt, uint64_t x, uint64_t y, uint64_t v, double a)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    double cap = d->bits, gate_unit = dt == GELUREF_F64 ? 0x1p-53 : 0x1p-24;
    double yd = gs_to_double(dt, y), xd = gs_to_double(dt, x);
    if (gs_is_nan(dt, y))
        return cap;
    double rel = bits_of(fabs((double)(gs_pos(dt, y) - gs_pos(dt, v))));
    double gate = isfinite(yd) ? bits_of(fabs(yd - a) / fabs(xd) / gate_unit) : cap;
    double b = rel < gate ? rel : gate;
    return b < cap ? b : cap;
}

static enum geluref_status score(struct gs_ctx *c, enum gs_fp_cand k, double s,
                                 const uint64_t *x, const uint64_t *y, struct fp_cand *out)
{
    double sum = 0.0, a;
    for (size_t i = 0; i < N_PROBES; i++) {
        enum geluref_status st = gs_fp_value(k, c->dt, x[i], s, &c->cfg->ref, &out->v[i], &a);
        if (st != GELUREF_OK)
            return st;
        out->b[i] = disagreement(c->dt, x[i], y[i], out->v[i], a);
        sum += out->b[i];
    }
    out->score = sum / (double)N_PROBES;
    return GELUREF_OK;
}

static void mismatch(struct gs_ctx *c, struct gs_suite_result *r, const struct fp_cand *decl,
                     const uint64_t *x, const uint64_t *y, const char *detected, double det)
{
    struct gs_finding f;
    size_t w = 0;
    char xs[40], line[512];
    for (size_t i = 1; i < N_PROBES; i++)
        if (decl->b[i] > decl->b[w])
            w = i;
    memset(&f, 0, sizeof f);
    f.kind = GS_K_DECLARED_MISMATCH;
    f.region = GS_R_NONE; /* a property of the kernel, not of one input */
    f.has_x = f.has_got = f.has_want = 1;
    f.x = x[w];
    f.got = y[w];
    f.want = decl->v[w];
    f.score = decl->score;
    f.ulp = NAN;
    f.abs_err = NAN;
    geluref_format_dec(xs, sizeof xs, c->dt, x[w]);
    snprintf(line, sizeof line, "declared %s, behaves like %s (score %.2f bits, declared "
             "formula %.2f bits over %zu probes; farthest at x = %s)",
             geluref_func_name(c->func), detected, det, decl->score, N_PROBES, xs);
    size_t len = strlen(line); /* one line, cut at the field's size */
    len = len < sizeof f.detail ? len : sizeof f.detail - 1;
    memcpy(f.detail, line, len);
    f.detail[len] = '\0';
    gs_findings_add(&r->findings, &f);
}

static json_t *metrics(struct gs_ctx *c, const struct fp_cand *cand, int has_scaled,
                       double scale, const char *detected, double separation)
{
    json_t *m = json_object(), *list = json_array(), *pr = json_array();
    json_object_set_new(m, "declared", json_string(geluref_func_name(c->func)));
    json_object_set_new(m, "detected", json_string(detected));
    if (isfinite(scale))
        json_object_set_new(m, "scale", json_real(scale));
    json_object_set_new(m, "margin", isfinite(separation) ? json_real(separation)
                                                          : json_null());
    json_object_set_new(m, "margin_required", json_real(GS_FP_MARGIN));
    json_object_set_new(m, "tolerance", json_real(GS_FP_TOL));
    json_object_set_new(m, "score_unit", json_string("bits"));
    for (int k = 0; k < GS_FP_N; k++)
        if (k < GS_FP_N_FIXED || has_scaled)
            json_array_append_new(list, json_pack("{sssf}", "name",
                                  gs_fp_name((enum gs_fp_cand)k), "score", cand[k].score));
    json_object_set_new(m, "candidates", list);
    for (size_t i = 0; i < N_PROBES; i++)
        json_array_append_new(pr, json_real(probes[i]));
    json_object_set_new(m, "probes", pr);
    return m;
}

static void internal(struct gs_ctx *c, struct gs_suite_result *r, enum geluref_status st)
{
    c->internal_error = 1;
    snprintf(c->internal_msg, sizeof c->internal_msg, "fingerprint: reference: %s",
             geluref_strerror(st));
    snprintf(r->note, sizeof r->note, "%s", c->internal_msg);
    r->verdict = GS_ERROR;
}

void gs_suite_fingerprint(struct gs_ctx *c, struct gs_suite_result *r)
{
    struct fp_cand cand[GS_FP_N];
    uint64_t x[N_PROBES], y[N_PROBES];
    unsigned char *xb, *yb; /* gs_buf_alloc: aligned, with slack for a kernel writing past */
    double xd[N_PROBES], yd[N_PROBES], scale = NAN, separation = NAN;
    enum gs_fp_cand decl = gs_fp_of_func(c->func), best = GS_FP_GELU, second = GS_FP_TANH;
    enum geluref_status st;
    const char *detected;
    char named[64];
    int has_scaled = 0;
    r->suite = GS_SUITE_FINGERPRINT;
    if (decl == GS_FP_N) {
        r->verdict = GS_SKIP;
        r->metrics = json_pack("{ss}", "detected", "n/a");
        snprintf(r->note, sizeof r->note, "n/a: %s is not in the gelu family",
                 geluref_func_name(c->func));
        return;
    }
    xb = gs_buf_alloc(N_PROBES * 8);
    yb = gs_buf_alloc(N_PROBES * 8);
    if (xb == NULL || yb == NULL) {
        gs_buf_free(xb);
        gs_buf_free(yb);
        r->verdict = GS_ERROR;
        snprintf(r->note, sizeof r->note, "fingerprint: out of memory");
        return;
    }
    for (size_t i = 0; i < N_PROBES; i++) {
        x[i] = gs_from_double(c->dt, probes[i]); /* exact (see the header comment) */
        gs_store(c->dt, xb, i, x[i]);
    }
    enum gc_status est = gs_kernel_eval(c, 0, xb, yb, N_PROBES, &r->findings);
    for (size_t i = 0; est == GC_OK && i < N_PROBES; i++) {
        y[i] = gs_load(c->dt, yb, i);
        xd[i] = gs_to_double(c->dt, x[i]);
        yd[i] = gs_to_double(c->dt, y[i]);
    }
    gs_buf_free(xb);
    gs_buf_free(yb);
    if (est != GC_OK) {
        r->verdict = GS_ERROR;
        snprintf(r->note, sizeof r->note, "fingerprint: the kernel failed (see the findings)");
        return;
    }
    r->points = N_PROBES;
    for (int k = 0; k < GS_FP_N_FIXED; k++) {
        if ((st = score(c, (enum gs_fp_cand)k, 1.0, x, y, &cand[k])) != GELUREF_OK) {
            internal(c, r, st);
            return;
        }
        if (k == 0)
            continue;
        if (cand[k].score < cand[best].score) {
            second = best;
            best = (enum gs_fp_cand)k;
        } else if (k == 1 || cand[k].score < cand[second].score) {
            second = (enum gs_fp_cand)k;
        }
    }
    separation = cand[second].score - cand[best].score;
    if (cand[best].score <= GS_FP_TOL)
        detected = separation >= GS_FP_MARGIN ? gs_fp_name(best) : "indeterminate";
    else {
        detected = "unknown";
        scale = gs_fp_scale(xd, yd, 5); /* the tail probes: the first five */
        if (isfinite(scale) && scale > 0.0) {
            if ((st = score(c, GS_FP_SCALED, scale, x, y, &cand[GS_FP_SCALED])) != GELUREF_OK) {
                internal(c, r, st);
                return;
            }
            has_scaled = 1;
            if (cand[GS_FP_SCALED].score <= GS_FP_TOL)
                detected = "scaled";
        }
        if (strcmp(detected, "scaled") != 0)
            scale = NAN; /* reported only with its formula */
    }
    r->metrics = metrics(c, cand, has_scaled, scale, detected, separation);
    if (isfinite(scale))
        snprintf(named, sizeof named, "scaled x*Phi(x/s), s = %.6g", scale);
    else
        snprintf(named, sizeof named, "%s", detected);
    if (strcmp(detected, "indeterminate") != 0 && strcmp(detected, gs_fp_name(decl)) != 0)
        mismatch(c, r, &cand[decl], x, y, named,
                 strcmp(detected, "unknown") == 0 ? cand[best].score
                 : strcmp(detected, "scaled") == 0 ? cand[GS_FP_SCALED].score
                 : cand[best].score);
    r->verdict = gs_findings_fail(&r->findings, &c->pv) ? GS_FAIL : GS_PASS;
}
