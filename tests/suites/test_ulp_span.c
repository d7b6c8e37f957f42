/* The span lane (suites/ulp_lane.h gs_fused_span_of, gs_fused_span_take and the lane over a
 * block, suites/ulp_lane_avx2.c) against gs_measure, the measurement from the value rounded
 * to odd:
 *   runs     of 2 to 3 GS_SPAN binary32 inputs (GS_SPAN + 1 and 2 GS_SPAN + 1 more often)
 *            in increasing patterns
 *            (consecutive, or with gaps)
 *            from random points of every function geluref_monotone claims (gelu, gelu_grad,
 *            normcdf, normpdf, erf, erfc, gelu_tanh, gelu_sigmoid, gelu_tanh_grad), a third
 *            of them near 0 (|x| below 2^-6, where a run's RN(f(x)) is often one: rlo =
 *            rhi), where it claims the run; the enclosures at the ends of each GS_SPAN inputs
 *            (geluref_enclose_n) give the spans, as ulp.c's fused_block forms them (with
 *            chords where the run's patterns are consecutive in one binade and
 *            geluref_curvature bounds f''); each span's rd, where it has one, must be
 *            RD(f(x)) of each of its inputs;
 *   outputs  RN(f(x)) itself and moved by 1, by the ends of the cr_distance buckets (2, 3,
 *            4, 5, 16, 17, 256, 257) and by more, either way, scaled by 1 + 2^-j (an
 *            approximation's error), of the other sign, zeros of either sign (a flushed
 *            tail), infinite, NaN; a quarter of the runs an approximation's (f(x) (1 + r),
 *            one r of 2^-3 to 2^-16 for the run, either sign: whole batches far from
 *            RN(f(x)), which the AVX-512 lane decides by a shorter path);
 *   bounds   maxima at, just above and just below the errors of one of the run's
 *            measurements, above them all, none yet (-1), NaN, and now and then at the
 *            bound the lane computes for one of its outputs (a tie, to refuse); max_rel_x
 *            one of the run's inputs, next to one, below or above them all, and now and then
 *            max_rel 1 at a zero output's input (a zero's relative error is 1: a tie, which
 *            the lane takes only at a larger x); half the time a policy (the kernel's own
 *            measurement: max_ulp, max_cr_distance, faithful, abs_tol of every kind).
 * Every span that holds must hold RN(f(x)) of each input of its run within [rlo, rhi], and
 * within the input's own range (gs_fused_span_rn, the chord's: inside the run's), whose rd,
 * where it has one, must be RD(f(x)); every
 * output the lane takes must measure (gs_measure) correctly rounded, faithful and in the
 * bucket exactly as the lane says, with its three errors below the maxima (the relative one
 * equal to it only at an x above max_rel_x), and pass the policy where there is one.  The
 * lane four at a time (AVX2, where the CPU reports it) and eight at a time (AVX-512,
 * suites/ulp_lane_avx512.c, where the CPU reports it; writing nothing past the block) must
 * give the same decisions and counts as one at a time.  It must take some outputs, in each
 * bucket from "0" to ">256", zeros among them, some at the relative error's tie, at
 * distance 1 faithful and not, under a policy, from chords (some that the run's whole width
 * would refuse, among them some at distance 0 or 1, which need the input's own range; and
 * some inputs must have one RN from the chord where the run has several), failed by the
 * policy below the unkept bound (counted as such), far in an approximation's runs, and refuse
 * others (some for the policy alone), so that a wrong decision could show.  Last, gs_left_n
 * (the inputs the lane left) eight at a time against one at a time and against the takes, on
 * N/10 blocks of 1 to 130 inputs (takes of every density, and all but a few), and the
 * block's inputs as doubles (gs_f32_values_n) eight at a time against one at a time on N/10
 * blocks of 1 to 260.  Usage: test_ulp_span N SEED. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oddtest.h" /* next64, f32_of (tests/reference) */
#include "ulp_fused.h"
#include "ulp_lane.h"

#define MAXR (3 * GS_SPAN)

/* Where f's binary32 values are below the normal range (from its subnormals down to a zero
 * RN), with some room either side: increasing x, so a run goes one way or the other */
static const struct {
    enum geluref_func f;
    double lo, hi;
} subr[] = { { GELUREF_GELU, -14.7, -12.9 },    { GELUREF_GELU_GRAD, -14.9, -13.1 },
             { GELUREF_NORMCDF, -14.5, -12.7 }, { GELUREF_NORMPDF, 12.9, 14.7 },
             { GELUREF_NORMPDF, -14.7, -12.9 }, { GELUREF_ERFC, 8.9, 10.4 },
             { GELUREF_GELU_TANH, -11.1, -9.8 } };

/* The run's RD(f(x)) bits where one for the whole run (its floors equal), else -2 */
static int64_t run_rd(const struct gs_fused_span *s)
{
    return s->flo == s->fhi ? s->base + s->flo : -2;
}

/* RD(|f(x)|)'s bits (binary32, sign cleared) for RN(f(x)) = want: RN itself or the pattern
 * below it, that one faithful (gs_measure) exactly where it is RD; 0 where RN is a zero
 * (|f(x)| below half the least subnormal); -3 where gs_measure failed (said). */
static int64_t rd_of(struct gs_ref *ref, enum geluref_func f, uint64_t x, uint64_t want)
{
    int64_t wm = (int64_t)(want & 0x7fffffff);
    if (wm == 0)
        return 0;
    struct gs_meas wd;
    uint64_t yd = (want & 0x80000000) | (uint64_t)(wm - 1);
    if (gs_measure(ref, f, GELUREF_F32, x, yd, &wd) != GELUREF_OK) {
        printf("FAIL: gs_measure\n");
        return -3;
    }
    return wd.faithful ? wm - 1 : wm;
}

/* One of the maxima: at, next to or far from v. */
static double bound_near(double v)
{
    switch (next64() % 8) {
    case 0: return INFINITY;
    case 1: return next64() % 4 ? -1 : NAN;
    case 2: return v;
    case 3: return v * (1 + 0x1p-45);
    case 4: return v * (1 - 0x1p-45);
    default: return v * (1 + ldexp(1.0, -(int)(next64() % 30)));
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_ulp_span N SEED\n");
        return 2;
    }
    long n = atol(argv[1]);
    /* (a seed times splitmix64's increment would give seed s + 1 the stream of s one draw on) */
    rng_state = 88172645463325252u + (uint64_t)atol(argv[2]);
    static const enum geluref_func fs[] = { GELUREF_GELU,         GELUREF_GELU_GRAD,
                                            GELUREF_NORMCDF,      GELUREF_NORMPDF,
                                            GELUREF_ERF,          GELUREF_ERFC,
                                            GELUREF_GELU_TANH,    GELUREF_GELU_SIGMOID,
                                            GELUREF_GELU_TANH_GRAD };
    static const int64_t moves[] = { 2, 3, 4, 5, 16, 17, 256, 257, 1000, 100000 };
    struct gs_ref *ref = gs_ref_new(NULL);
    int avx2 = 0;
#if defined(GS_HAVE_AVX2_LANE)
    avx2 = __builtin_cpu_supports("avx2");
#endif
    int avx512 = gs_lane_avx512();
    unsigned long runs = 0, spans = 0, spans_ok = 0, outs = 0, taken = 0, wrong = 0, differ = 0,
                  bucket[GS_HIST_N] = { 0 }, near_max = 0, zeros = 0, zeros_tie = 0,
                  one_r = 0, d1_fa = 0, d1_unfa = 0, judged_taken = 0, judged_left = 0,
                  chords = 0, chord_taken = 0, chord_only = 0, chord_near = 0, far_taken = 0,
                  one_i = 0, failed_taken = 0, far_whole = 0, sub_spans = 0, sub_taken = 0,
                  sub_rn0 = 0, sub_near = 0;
    for (long it = 0; it < n; it++) {
        enum geluref_func f = fs[next64() % (sizeof fs / sizeof fs[0])];
        /* a last run of one input now and then (len GS_SPAN + 1 or 2 GS_SPAN + 1: its span is
         * one enclosure, narrow enough for the buckets "2" and "3-4") */
        size_t len = next64() % 4 ? 2 + next64() % (MAXR - 1) : 1 + GS_SPAN * (1 + next64() % 2);
        /* a start of either sign with |x| in [2^-6, 2^5), or a third of the time in [2^-30,
         * 2^-6) (near 0, where a run's f moves by less than an ulp: rlo = rhi), increasing
         * patterns */
        uint64_t x[MAXR];
        double xd[MAXR];
        int near0 = next64() % 3 == 0;
        uint64_t ex0 = near0 ? 127 - 30 + next64() % 24 : 127 - 6 + next64() % 11;
        uint64_t xb = (uint64_t)(next64() % 2) << 31 | ((ex0 << 23) + (next64() & 0x7fffff));
        /* a sixth of the runs where f is below the normal range (subnormal, or a zero RN:
         * the exact function's spans there), from a little above it to a little below */
        for (size_t j = 0; j < sizeof subr / sizeof subr[0]; j++)
            if (subr[j].f == f && next64() % 6 == 0) {
                float v = (float)(subr[j].lo + (subr[j].hi - subr[j].lo) *
                                                   ((double)(next64() >> 11) * 0x1p-53));
                uint32_t vb;
                memcpy(&vb, &v, sizeof vb);
                xb = vb;
                break;
            }
        uint64_t gap = next64() % 3 ? 1 : 1 + next64() % 4000;
        for (size_t i = 0; i < len; i++) {
            x[i] = xb + i * gap;
            xd[i] = f32_of((uint32_t)x[i]);
        }
        double lo = fmin(xd[0], xd[len - 1]), hi = fmax(xd[0], xd[len - 1]);
        if ((x[len - 1] & 0x7fffffff) >= 0x7f800000 || geluref_monotone(f, lo, hi) == 0)
            continue;
        runs++;
        /* the spans: ends min(GS_SPAN j, len - 1) */
        size_t nsb = (len - 1) / GS_SPAN + 1, ne = nsb + 1;
        double ex[MAXR / GS_SPAN + 2];
        struct geluref_encl en[MAXR / GS_SPAN + 2];
        unsigned char eok[MAXR / GS_SPAN + 2];
        for (size_t j = 0; j < ne; j++)
            ex[j] = xd[GS_SPAN * j < len - 1 ? GS_SPAN * j : len - 1];
        geluref_enclose_n(f, ex, ne, en, eok);
        struct gs_fused_span s[MAXR / GS_SPAN + 1];
        /* the chords as ulp.c's span_ends forms them (consecutive patterns of one binade) */
        double mc = geluref_curvature(f, lo, hi);
        for (size_t j = 0; j < nsb; j++) {
            size_t ia = GS_SPAN * j, ib = GS_SPAN * (j + 1) < len - 1 ? GS_SPAN * (j + 1) : len - 1;
            double h = fabs(xd[ib] - xd[ia]);
            double curv = mc >= 0 && x[ib] - x[ia] == ib - ia && (x[ia] >> 23) == (x[ib] >> 23)
                              ? mc * h * h * 0.125
                              : -1;
            gs_fused_span_of(&en[j], eok[j], &en[j + 1], eok[j + 1], curv, (double)(ib - ia),
                             &s[j]);
            chords += s[j].ok && s[j].dc != 0;
            sub_spans += s[j].ok && s[j].sub;
            spans++;
            spans_ok += s[j].ok != 0;
            one_r += s[j].ok && s[j].rlo == s[j].rhi;
            int64_t rdj = run_rd(&s[j]);
            if (s[j].ok && rdj != -2 && (rdj < s[j].rlo - 1 || rdj > s[j].rhi)) {
                if (wrong++ < 20) /* RD is RN or the one below it */
                    printf("FAIL: rd 0x%llx outside [rlo - 1, rhi]\n", (long long)rdj);
            }
        }
        /* the outputs, and every input's RN(f(x)) within its span's [rlo, rhi]; a quarter of
         * the runs an approximation's (each output f(x) (1 +- r), one r for the run, mostly
         * far from RN(f(x)): the lanes' shortcut for whole batches of such outputs) */
        int far_run = next64() % 4 == 0;
        double far_r = ldexp(next64() % 2 ? 1.0 : -1.0, -(int)(3 + next64() % 14));
        uint64_t y[MAXR];
        unsigned char ok[MAXR];
        struct gs_meas m[MAXR];
        for (size_t i = 0; i < len; i++) {
            struct gs_meas w;
            if (gs_measure(ref, f, GELUREF_F32, x[i], 0, &w) != GELUREF_OK) {
                printf("FAIL: gs_measure %s x=0x%08llx\n", geluref_func_name(f),
                       (unsigned long long)x[i]);
                return 1;
            }
            const struct gs_fused_span *sp = &s[i / GS_SPAN];
            int64_t wm = (int64_t)(w.want & 0x7fffffff);
            /* the span's RD(f(x)) where it has one: RN(f(x)) or the pattern below it, and that
             * one is faithful (gs_measure) exactly where it is RD */
            if (sp->ok && run_rd(sp) != -2) {
                int64_t rd = rd_of(ref, f, x[i], w.want);
                if (rd == -3)
                    return 1;
                if (rd != run_rd(sp) && wrong++ < 20)
                    printf("FAIL %s x=%a: RD(f(x)) 0x%08llx, the span's rd 0x%08llx\n",
                           geluref_func_name(f), xd[i], (unsigned long long)rd,
                           (unsigned long long)run_rd(sp));
            }
            /* and the input's own range and RD (gs_fused_span_rn: the chord's, within the
             * run's) */
            if (sp->ok) {
                int64_t ilo, ihi, ird;
                gs_fused_span_rn(sp, sp->c0 + sp->dc * (double)(i % GS_SPAN), &ilo, &ihi, &ird);
                int64_t rd = ird != -2 ? rd_of(ref, f, x[i], w.want) : -2;
                if (rd == -3)
                    return 1;
                one_i += ilo == ihi && sp->rlo != sp->rhi;
                if (wm < ilo || wm > ihi || ilo < sp->rlo || ihi > sp->rhi ||
                    (ird != -2 && ird != rd)) {
                    if (wrong++ < 20)
                        printf("FAIL %s x=%a: RN(f(x)) 0x%08llx, RD 0x%08llx; the input's range "
                               "[0x%08llx, 0x%08llx] and rd 0x%08llx, the run's [0x%08llx, "
                               "0x%08llx]\n",
                               geluref_func_name(f), xd[i], (unsigned long long)w.want,
                               (unsigned long long)rd, (unsigned long long)ilo,
                               (unsigned long long)ihi, (unsigned long long)ird,
                               (unsigned long long)sp->rlo, (unsigned long long)sp->rhi);
                }
            }
            if (sp->ok && ((w.want & 0x80000000) != sp->sign || wm < sp->rlo || wm > sp->rhi)) {
                if (wrong++ < 20)
                    printf("FAIL %s x=%a: RN(f(x)) 0x%08llx outside the span [0x%08llx, "
                           "0x%08llx] of sign %llx\n",
                           geluref_func_name(f), xd[i], (unsigned long long)w.want,
                           (unsigned long long)sp->rlo, (unsigned long long)sp->rhi,
                           (unsigned long long)sp->sign);
            }
            uint64_t sg = w.want & 0x80000000;
            int64_t d = moves[next64() % (sizeof moves / sizeof moves[0])];
            switch (far_run && next64() % 64 ? 3 : next64() % 9) {
            case 0: case 1: case 2: y[i] = sg | (uint64_t)(wm + (next64() % 2 ? d : -d)); break;
            case 8: y[i] = sg | (uint64_t)(wm + (int64_t)(next64() % 3) - 1); break; /* 0, +-1 */
            case 3: {
                double r = far_run ? far_r : ldexp(1.0, -(int)(3 + next64() % 20));
                double v = f32_of((uint32_t)w.want) * (1 + (far_run || next64() % 2 ? r : -r));
                float fv = (float)v;
                uint32_t b;
                memcpy(&b, &fv, sizeof b);
                y[i] = b;
                break;
            }
            case 4: y[i] = w.want ^ 0x80000000u; break;
            case 5:
                y[i] = next64() % 3 ? (next64() % 2) << 31 : sg | (0x7f800000u + next64() % 2);
                break;
            default: y[i] = sg | (uint64_t)(wm + (int64_t)(next64() % 41) - 20); break;
            }
            y[i] &= 0xffffffffu;
            ok[i] = next64() % 10 != 0;
            if (gs_measure(ref, f, GELUREF_F32, x[i], y[i], &m[i]) != GELUREF_OK) {
                printf("FAIL: gs_measure %s x=0x%08llx y=0x%08llx\n", geluref_func_name(f),
                       (unsigned long long)x[i], (unsigned long long)y[i]);
                return 1;
            }
        }
        /* the maxima near one of the run's measurements (in half an approximation's runs the
         * one of the largest ulp error: above it, the vector lanes take such a run whole,
         * unless one of its outputs is not far) */
        const struct gs_meas *t = &m[next64() % len];
        if (far_run && next64() % 2)
            for (size_t i = 0; i < len; i++)
                t = m[i].ulp > t->ulp ? &m[i] : t;
        struct gs_quick_bounds b;
        memset(&b, 0, sizeof b);
        b.max_ulp = bound_near(t->ulp);
        b.max_abs = bound_near(t->abs_err);
        b.max_rel = bound_near(t->rel_err);
        switch (next64() % 4) { /* max_rel's x */
        case 0: b.max_rel_x = 0; break;
        case 1: b.max_rel_x = UINT64_MAX; break;
        default: b.max_rel_x = x[next64() % len] + (uint64_t)(next64() % 3) - 1; break;
        }
        /* now and then the relative error's tie at a zero output (1 at its input or next to
         * it; the lane takes the zeros above that x only), the other maxima above all */
        size_t tz = next64() % len;
        if ((y[tz] & 0x7fffffff) == 0 && next64() % 2 == 0) {
            b.max_ulp = b.max_abs = INFINITY;
            b.max_rel = 1.0;
            b.max_rel_x = x[tz] + (uint64_t)(next64() % 3) - 1;
        }
        /* a failed output is taken below unkept: none, any, or near one of the run's errors */
        switch (next64() % 4) {
        case 0: b.unkept = -INFINITY; break;
        case 1: b.unkept = INFINITY; break;
        default: b.unkept = bound_near(m[next64() % len].ulp); break;
        }
        /* now and then a maximum at the very bound the lane computes for an output (its uh, or
         * the absolute bound from it), or the unkept bound at its uh: a tie, which it must
         * refuse */
        size_t ti = next64() % len;
        const struct gs_fused_span *st = &s[ti / GS_SPAN];
        uint32_t ty = (uint32_t)(y[ti] & 0x7fffffff);
        if (st->ok && ty != 0 && ty < 0x7f800000u && next64() % 4 == 0) {
            double uh = (gs_fused_span_dist(st, ti % GS_SPAN, ty) + st->wc) * (1 + 0x1p-50);
            switch (next64() % 3) {
            case 0: b.max_ulp = uh; break;
            case 1: b.max_abs = uh * st->p2k * (1 + 0x1p-50) + 0x1p-1074; break;
            default: b.unkept = uh; break;
            }
        }
        /* half the time the kernel's own measurement: judged by a policy (its maxima at or
         * next to the run's errors, faithful or not) */
        struct gs_policy_values v;
        memset(&v, 0, sizeof v);
        static const double pulps[] = { INFINITY, 0.5, 1, 2, 4, 100, 0, NAN };
        static const double crs[] = { INFINITY, 0, 1, 2, 100, NAN };
        v.max_ulp = next64() % 3 ? pulps[next64() % (sizeof pulps / sizeof pulps[0])]
                                 : bound_near(t->ulp);
        v.max_cr_distance = crs[next64() % (sizeof crs / sizeof crs[0])];
        v.faithful = (int)(next64() % 2);
        v.abs_tol = next64() % 4 ? 0 : 1e-3;
        v.accuracy_domain = next64() % 2 ? GS_DOMAIN_NORMAL : GS_DOMAIN_ALL;
        b.v = next64() % 2 ? &v : NULL;
        unsigned char tg[MAXR], ta[MAXR + 1];
        struct gs_quick_counts cg, ca;
        memset(&cg, 0, sizeof cg);
        memset(&ca, 0, sizeof ca);
        cg.n = ca.n = 5; /* added to */
        gs_fused_span_lane_n_generic(s, ok, x, y, len, &b, tg, &cg);
#if defined(GS_HAVE_AVX2_LANE)
        if (avx2) {
            memset(ta, 7, sizeof ta);
            gs_fused_span_lane_n_avx2(s, ok, x, y, len, &b, ta, &ca);
            if (memcmp(ta, tg, len) != 0 || memcmp(&ca, &cg, sizeof ca) != 0) {
                if (differ++ < 20)
                    printf("FAIL %s x=%a len %zu: four at a time decided otherwise\n",
                           geluref_func_name(f), xd[0], len);
            }
        }
#endif
#if defined(GS_HAVE_AVX512_LANE)
        if (avx512) {
            memset(ta, 7, sizeof ta);
            memset(&ca, 0, sizeof ca);
            ca.n = 5;
            gs_fused_span_lane_n_avx512(s, ok, x, y, len, &b, ta, &ca);
            if (memcmp(ta, tg, len) != 0 || memcmp(&ca, &cg, sizeof ca) != 0 ||
                ta[len] != 7) { /* nothing past the block written */
                if (differ++ < 20)
                    printf("FAIL %s x=%a len %zu: eight at a time decided otherwise\n",
                           geluref_func_name(f), xd[0], len);
            }
        }
#endif
        (void)ta;
        /* a run taken whole (gs_fused_span_far_run, from the least and greatest bits of the
         * outputs asked about, as the vector lanes test it): each of those must be taken, far
         * (bucket ">256") */
        for (size_t j = 0; b.v == NULL && j * GS_SPAN < len; j++) {
            size_t q0 = j * GS_SPAN, e = q0 + GS_SPAN < len ? q0 + GS_SPAN : len;
            uint64_t ylo = UINT64_MAX, yhi = 0;
            for (size_t i = q0; i < e; i++)
                if (ok[i]) {
                    ylo = y[i] < ylo ? y[i] : ylo;
                    yhi = y[i] > yhi ? y[i] : yhi;
                }
            if (ylo > yhi || !gs_fused_span_far_run(&s[j], e - q0, ylo, yhi, &b))
                continue;
            far_whole++;
            for (size_t i = q0; i < e; i++) {
                int h = -1, fa = -1, fl = -1;
                if (ok[i] && (!tg[i] || !gs_fused_span_take(&s[j], i - q0, x[i], y[i], &b, &h,
                                                           &fa, &fl) ||
                              h != GS_HIST_N - 2 || fa)) {
                    if (wrong++ < 20)
                        printf("FAIL %s x=%a y=0x%08llx: its run taken whole, but one at a time "
                               "it is %s (bucket %d)\n",
                               geluref_func_name(f), xd[i], (unsigned long long)y[i],
                               tg[i] ? "taken" : "left", h);
                }
            }
        }
        for (size_t i = 0; i < len; i++) {
            outs++;
            if (!tg[i]) {
                /* refused for the policy alone (taken unjudged) */
                struct gs_quick_bounds bn = b;
                bn.v = NULL;
                int hn, fn, ln;
                judged_left += b.v != NULL && ok[i] &&
                               gs_fused_span_take(&s[i / GS_SPAN], i % GS_SPAN, x[i], y[i], &bn,
                                                  &hn, &fn, &ln);
                continue;
            }
            taken++;
            int h = -1, fa = -1, fl = -1;
            if (!gs_fused_span_take(&s[i / GS_SPAN], i % GS_SPAN, x[i], y[i], &b, &h, &fa, &fl) ||
                !ok[i]) {
                if (wrong++ < 20)
                    printf("FAIL: the lane took an output gs_fused_span_take refuses\n");
                continue;
            }
            bucket[h]++;
            far_taken += far_run && h == GS_HIST_N - 2;
            if (s[i / GS_SPAN].sub) { /* (the exact function's alone) */
                sub_taken++;
                sub_rn0 += (m[i].want & 0x7fffffff) == 0;
                sub_near += h <= 1;
                if (b.v != NULL && wrong++ < 20)
                    printf("FAIL: a span below the normal range taken judged\n");
            }
            /* taken from a chord, and where only the chord takes it (the run's whole width
             * refuses it) */
            const struct gs_fused_span *sc = &s[i / GS_SPAN];
            if (sc->dc != 0) {
                struct gs_fused_span wide = *sc;
                wide.c0 = wide.ms;
                wide.dc = 0;
                wide.wc = wide.w;
                int hw, fw, lw;
                chord_taken++;
                int only = !gs_fused_span_take(&wide, i % GS_SPAN, x[i], y[i], &b, &hw, &fw, &lw);
                chord_only += only;
                chord_near += only && h <= 1; /* RN or next to it: the chord's own range */
            }
            const struct gs_meas *mi = &m[i];
            near_max += mi->ulp > b.max_ulp * 0.5 || mi->rel_err > b.max_rel * 0.5;
            int zero = (y[i] & 0x7fffffff) == 0;
            zeros += zero;
            zeros_tie += zero && b.max_rel == 1.0;
            d1_fa += h == 1 && fa;
            d1_unfa += h == 1 && !fa;
            judged_taken += b.v != NULL;
            failed_taken += fl == 1;
            /* passed, or failed (ulp_exceeded) below the unkept bound, as the lane says */
            enum gs_kind want = fl ? GS_K_ULP_EXCEEDED : GS_K_NONE;
            if ((b.v == NULL && fl) ||
                (b.v != NULL && (gs_policy_judge(b.v, mi) != want ||
                                 (fl && !(mi->ulp < b.unkept))))) {
                if (wrong++ < 20)
                    printf("FAIL %s x=%a y=0x%08llx: taken as %s, but the policy says %d (ulp "
                           "%a cr_distance %lld faithful %d abs %a; max_ulp %a "
                           "max_cr_distance %a faithful %d abs_tol %a; unkept %a)\n",
                           geluref_func_name(f), xd[i], (unsigned long long)y[i],
                           fl ? "failed" : "passed",
                           b.v != NULL ? (int)gs_policy_judge(b.v, mi) : -1, mi->ulp,
                           (long long)mi->cr_distance, mi->faithful, mi->abs_err,
                           b.v != NULL ? b.v->max_ulp : 0, b.v != NULL ? b.v->max_cr_distance : 0,
                           b.v != NULL ? b.v->faithful : 0, b.v != NULL ? b.v->abs_tol : 0,
                           b.unkept);
            }
            if (mi->cr != (h == 0) || mi->faithful != fa || gs_hist_index(mi->cr_distance) != h ||
                !(mi->ulp < b.max_ulp) || !(mi->abs_err < b.max_abs) ||
                !(mi->rel_err < b.max_rel ||
                  (mi->rel_err == b.max_rel && x[i] > b.max_rel_x))) {
                if (wrong++ < 20)
                    printf("FAIL %s x=%a y=0x%08llx: taken in bucket %d, but gs_measure says "
                           "cr %d faithful %d cr_distance %lld ulp %a abs %a rel %a (maxima "
                           "%a %a %a)\n",
                           geluref_func_name(f), xd[i], (unsigned long long)y[i], h, mi->cr,
                           mi->faithful, (long long)mi->cr_distance, mi->ulp, mi->abs_err,
                           mi->rel_err, b.max_ulp, b.max_abs, b.max_rel);
            }
        }
    }
    gs_ref_free(ref);
    /* the inputs the lane left (gs_left_n): eight at a time against one at a time and against
     * the takes themselves, takes of every density over blocks of 1 to 130, nothing written
     * past k */
    unsigned long left_differ = 0, left_tries = 0;
#if defined(GS_HAVE_AVX512_LANE)
    for (long it = 0; avx512 && it < n / 10; it++) {
        size_t k = 1 + next64() % 130;
        double xd[130], xa[131], xg[130];
        unsigned char tk[130], ia[131], ig[130];
        /* a take in 0, 1/4, 1/2, 3/4, 4/4 of the inputs, or in all but one to three (a block
         * the span lane nearly took whole: whole stretches of 64 taken, some left after) */
        unsigned dens = (unsigned)(next64() % 6);
        for (size_t q = 0; q < k; q++) {
            xd[q] = (double)next64();
            tk[q] = (unsigned char)(dens == 5 || next64() % 4 < dens);
        }
        for (unsigned j = 0; dens == 5 && j < 1 + next64() % 3; j++)
            tk[next64() % k] = 0;
        memset(xa, 0x5a, sizeof xa);
        memset(ia, 0x5a, sizeof ia);
        size_t na = gs_left_n_avx512(xd, tk, k, xa, ia);
        size_t ng = gs_left_n_generic(xd, tk, k, xg, ig);
        unsigned char pad[sizeof(double)];
        memset(pad, 0x5a, sizeof pad);
        left_tries++;
        size_t nz = 0; /* the generic list is each q with take 0, in order */
        for (size_t q = 0; q < k; q++)
            if (!tk[q]) {
                if (nz >= ng || ig[nz] != q || memcmp(&xg[nz], &xd[q], sizeof(double)) != 0)
                    break;
                nz++;
            }
        if (na != ng || nz != ng || memcmp(xa, xg, na * sizeof(double)) != 0 ||
            memcmp(ia, ig, na) != 0 || memcmp(&xa[k], pad, sizeof pad) != 0 || ia[k] != 0x5a) {
            if (left_differ++ < 20)
                printf("FAIL: the inputs left eight at a time differ (k %zu, %zu against %zu)\n",
                       k, na, ng);
        }
    }
    /* the block's inputs as doubles (gs_f32_values_n) eight at a time against one at a
     * time: any low 32 bits (NaNs among them), whatever the high ones, blocks of 1 to 260,
     * nothing written past k */
    for (long it = 0; avx512 && it < n / 10; it++) {
        size_t k = 1 + next64() % 260;
        uint64_t xv[260];
        double va[261], vg[260];
        for (size_t q = 0; q < k; q++)
            xv[q] = next64() % 4 ? next64() : (next64() << 32) | (0x7f800000u + next64() % 3);
        memset(va, 0x5a, sizeof va);
        gs_f32_values_n_avx512(xv, k, va);
        gs_f32_values_n_generic(xv, k, vg);
        unsigned char pad[sizeof(double)];
        memset(pad, 0x5a, sizeof pad);
        left_tries++;
        if (memcmp(va, vg, k * sizeof(double)) != 0 || memcmp(&va[k], pad, sizeof pad) != 0) {
            if (left_differ++ < 20)
                printf("FAIL: the binary32 values eight at a time differ (k %zu)\n", k);
        }
    }
#endif
    printf("%lu blocks of inputs left and of binary32 values compared eight at a time, %lu "
           "different\n", left_tries, left_differ);
    differ += left_differ;
    printf("%lu runs, %lu spans (%lu hold, %lu with one RN), %lu outputs, %lu taken (buckets 0 "
           "to >256: %lu %lu %lu %lu %lu %lu %lu; at distance 1 %lu faithful, %lu not; %lu "
           "judged, %lu refused by the policy alone, %lu failed; %lu with an error above half "
           "its maximum; %lu zeros, %lu of them at max_rel 1; %lu from chords, %lu that the "
           "run's whole width refuses, %lu of these at distance 0 or 1; %lu far in an "
           "approximation's run; %lu runs taken whole, far; %lu below the normal range, %lu "
           "of them with a zero RN, %lu at distance 0 or 1), %lu spans with a chord, %lu below "
           "the normal range, %lu inputs with one RN from the chord alone, %lu wrong, %lu "
           "different four or eight at a time%s%s\n",
           runs, spans, spans_ok, one_r, outs, taken, bucket[0], bucket[1], bucket[2], bucket[3],
           bucket[4], bucket[5], bucket[6], d1_fa, d1_unfa, judged_taken, judged_left, failed_taken,
           near_max,
           zeros, zeros_tie, chord_taken, chord_only, chord_near, far_taken, far_whole,
           sub_taken, sub_rn0, sub_near, chords, sub_spans, one_i,
           wrong, differ,
           avx2 ? "" : " (no AVX2: not compared)",
           avx512 ? "" : " (no AVX-512: eight at a time not compared)");
    int reached = 1;
    for (int i = 0; i < GS_HIST_N - 1; i++)
        reached &= bucket[i] > 0;
    if (runs < (unsigned long)n / 4 || spans_ok < spans / 2 || taken < outs / 20 ||
        outs - taken < outs / 5 || !reached || near_max == 0 || zeros == 0 || zeros_tie == 0 ||
        one_r == 0 || d1_fa == 0 || d1_unfa == 0 || judged_taken == 0 || judged_left == 0 ||
        failed_taken == 0 ||
        chords == 0 || chord_only == 0 || chord_near == 0 || one_i == 0 || far_taken == 0 ||
        far_whole == 0 || sub_spans == 0 || sub_taken == 0 || sub_rn0 == 0 || sub_near == 0) {
        printf("FAIL: too few runs, spans, outputs taken or refused, or buckets reached for the "
               "comparison to mean anything\n");
        return 1;
    }
    return wrong != 0 || differ != 0;
}
