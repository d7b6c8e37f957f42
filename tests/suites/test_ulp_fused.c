/* The ulp sweep's fused measurement (suites/ulp_fused.h: a binary32 measurement decided from
 * the reference's double tier, geluref_enclose_n) against gs_measure (the value rounded to
 * odd, here by the MPFR path as well as the fast path): wherever gs_fused_measure_f32 decides,
 * want, cr, faithful, cr_distance, want_class and the defect must be gs_measure's, where
 * "simple" says so the defect must be none or ulp_exceeded (which, by cr), and gs_measure's
 * ulp, absolute and relative errors must lie in the decided intervals (exactly 1 where
 * rel_one says so, and exactly the decided errors where V itself is known, exact_errs).  Inputs: random binary32 bit
 * patterns and values uniform in [-32, 32] of every function (both signs, every binade);
 * outputs: RN(f(x)) and its neighbours up to 20 positions away, the zeros, a random pattern.
 * The common case's path (gs_fused_measure_f32_fast) and the sweep loop's quick case
 * (gs_fused_measure_f32_quick) must decide nothing the general one does not, with the same
 * fields; the quick case without its test of one cell (an unsafe version) must be caught
 * deciding wrong errors.  The bound lane's decisions are checked against gs_measure and the
 * policies' verdicts (check_lane).  Subnormal results (V known there too,
 * gs_fused_exact_errs_sub, and their quick case, gs_fused_quick_sub) come from the tails of
 * [-32, 32]; zero outputs where f(x) lies far below them (gs_fused_quick_tiny, compared field
 * by field) from each function's tail where f(x) is in [2^-1224, 2^-700).
 *   default: 3000 inputs of each kind per function, the fast path;
 *   "mpfr":  600 per kind and function with gs_measure on the MPFR path. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "measure_hp.h"
#include "ulp_fused.h"

static struct gs_ref *ref;
static int use_mpfr;
static unsigned long n_decided, n_tried, n_fast, n_exact, n_quick, n_quick_flush,
    n_zero_err_wrong, n_exact_sub, n_quick_sub, n_quick_sub_zero, n_tiny, n_tiny_cr;

static double f32_of(uint64_t b)
{
    uint32_t u = (uint32_t)b;
    float v;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* gs_fused_rel_below (fused_below_max's test of the relative error without the division):
 * for maxima M at and next to measure.c's relative error r (the closest the test could be
 * wrong), it may say "below" only where r < M; a test with the factor 1 in place of
 * 1 - 2^-50 (too small a margin) must be caught saying it wrongly on some of them. */
static unsigned long n_rel_below, n_rel_loose_wrong;
static void check_rel_below(const struct gs_fused_meas *fm, double r, enum geluref_func f,
                            uint64_t x, uint64_t y)
{
    double ms[6] = { r, nextafter(r, INFINITY), nextafter(nextafter(r, INFINITY), INFINITY),
                     r * (1 + 0x1p-50), r * (1 + 0x1p-49), r * 2 };
    for (int i = 0; i < 6; i++) {
        double M = ms[i];
        if (gs_fused_rel_below(fm, M)) {
            n_rel_below++;
            if (!(r < M))
                fail_msg("%s x=0x%08llx y=0x%08llx: gs_fused_rel_below says rel %a < %a",
                         geluref_func_name(f), (unsigned long long)x, (unsigned long long)y, r,
                         M);
        }
        n_rel_loose_wrong += fm->ulp < M * fm->a && !(r < M);
    }
}

/* The bound lane (gs_fused_bound_lane) against gs_measure's m.  Where it takes y under limits
 * of wide maxima, y's cr_distance, faithful, cr, class and defect must be m's.  Under the
 * policies pol[] (the built-ins; a file-like one: max_ulp 1.5, max_cr_distance 2, abs_tol;
 * ones at y's own ulp error and cr_distance) and a failed output's unkept bound, its verdict
 * must be gs_policy_judge's and a failed one's ulp error below the bound.  Asked with the
 * output's own ulp, absolute or relative error for the maximum, or its ulp error for the
 * unkept bound, it must refuse (an error is not below itself), with its uh set: an upper
 * bound of the ulp error, and within 2^-10 of it.  The lane without its test of the relative
 * error (max_rel = inf), and one whose bound leaves out the enclosure's width w (uh = dd, the
 * rounded |ys - ms|), must be caught taking such an output, so that the checks can fail. */
static struct gs_policy_values pol[8];
static unsigned long n_lane, n_lane_near, n_lane_far, n_lane_pass, n_lane_fail,
    n_lane_norel_wrong, n_lane_now_wrong, n_lane_uh;
static void check_lane(const struct geluref_encl *e, uint64_t y, const struct gs_meas *m,
                       double dd, enum geluref_func f, uint64_t x)
{
    const char *fn = geluref_func_name(f);
    unsigned long long xb = x, yb = y;
    static unsigned turn;
    uint64_t crf = turn++ & 1; /* the correctly rounded case tried first (cr = points = 1) or
                                * not (cr = 0 of 1), in turn */
    struct gs_bound_limits lim = gs_fused_bound_limits(0x1p30, 0x1p100, 1.0, crf, 1, NULL, -INFINITY);
    int64_t d;
    int fa, fail;
    double u;
    n_lane_near += m->want_class == GS_WANT_NORMAL && m->cr_distance >= 0 && m->cr_distance <= 2;
    u = -1;
    int took = gs_fused_bound_lane(e, y, &lim, &d, &fa, &fail, &u);
    /* uh, where it is set, taken or not: an upper bound of the ulp error, and a close one */
    if (u >= 0 && !(m->ulp <= u && u - m->ulp < 0x1p-10))
        fail_msg("%s x=0x%08llx y=0x%08llx: the bound lane's uh %a for ulp error %a", fn, xb,
                 yb, u, m->ulp);
    n_lane_uh += u >= 0;
    if (!took)
        return;
    n_lane++;
    n_lane_far += d > 2;
    if (d != m->cr_distance || fa != m->faithful || (d == 0) != m->cr || fail ||
        m->want_class != GS_WANT_NORMAL || m->defect != (m->cr ? GS_K_NONE : GS_K_ULP_EXCEEDED))
        fail_msg("%s x=0x%08llx y=0x%08llx: the bound lane takes cr_distance %lld faithful %d "
                 "(failed %d), gs_measure has %lld, %d, cr %d, class %d, defect %d", fn, xb, yb,
                 (long long)d, fa, fail, (long long)m->cr_distance, m->faithful, m->cr,
                 m->want_class, (int)m->defect);
    /* an error is not below itself */
    struct gs_bound_limits own[3] = {
        gs_fused_bound_limits(m->ulp, 0x1p100, 1.0, crf, 1, NULL, -INFINITY),
        gs_fused_bound_limits(0x1p30, m->abs_err, 1.0, crf, 1, NULL, -INFINITY),
        gs_fused_bound_limits(0x1p30, 0x1p100, m->rel_err, crf, 1, NULL, -INFINITY),
    };
    for (int i = 0; i < 3; i++)
        if (u = -1, gs_fused_bound_lane(e, y, &own[i], &d, &fa, &fail, &u) || !(u >= m->ulp))
            fail_msg("%s x=0x%08llx y=0x%08llx: the bound lane takes an output whose error %d "
                     "is not below the maximum (ulp %a, abs %a, rel %a)", fn, xb, yb, i, m->ulp,
                     m->abs_err, m->rel_err);
    /* the mutations the checks must catch: no relative test, no enclosure width */
    struct gs_bound_limits norel = own[2];
    norel.max_rel = INFINITY;
    n_lane_norel_wrong += gs_fused_bound_lane(e, y, &norel, &d, &fa, &fail, &u);
    n_lane_now_wrong += dd < m->ulp; /* uh = dd would be below the output's own ulp error */
    /* the policies' verdicts, a failed output's bound; and policies at the output's own
     * errors (max_ulp at its ulp error and just below, max_cr_distance just below its own) */
    pol[5] = pol[6] = pol[7] = pol[0];
    pol[5].max_ulp = m->ulp;
    pol[6].max_ulp = nextafter(m->ulp, 0);
    pol[7].max_cr_distance = (double)m->cr_distance - 1;
    for (int i = 0; i < 8; i++)
        for (int w = 0; w < 2; w++) {
            double unkept = w ? INFINITY : m->ulp;
            struct gs_bound_limits lp =
                gs_fused_bound_limits(0x1p30, 0x1p100, 1.0, crf, 1, &pol[i], unkept);
            if (!gs_fused_bound_lane(e, y, &lp, &d, &fa, &fail, &u))
                continue;
            n_lane_pass += !fail;
            n_lane_fail += fail;
            enum gs_kind j = gs_policy_judge(&pol[i], m);
            if (fail != (j != GS_K_NONE) || (fail && !(m->ulp < unkept)))
                fail_msg("%s x=0x%08llx y=0x%08llx: policy %d (max_ulp %g, max_cr_distance %g, "
                         "abs_tol %g, faithful %d): the bound lane says failed %d, "
                         "gs_policy_judge %d; ulp %a, unkept %a", fn, xb, yb, i, pol[i].max_ulp,
                         pol[i].max_cr_distance, pol[i].abs_tol, pol[i].faithful, fail, (int)j,
                         m->ulp, unkept);
        }
}

/* The tiny case (f(x) far below the subnormals, where the general path decides less or
 * nothing), where it decides, compared with gs_measure; 1 when it decided. */
static int check_tiny(const struct geluref_encl *e, enum geluref_func f, uint64_t x, uint64_t y)
{
    struct gs_fused_meas ft;
    memset(&ft, 0, sizeof ft);
    if (!gs_fused_quick_tiny(e, y, &ft))
        return 0;
    struct gs_meas m;
    assert_int_equal(gs_measure(ref, f, GELUREF_F32, x, y, &m), GELUREF_OK);
    n_tiny++;
    n_tiny_cr += ft.cr != 0;
    if (ft.want != m.want || ft.cr != m.cr || ft.faithful != m.faithful ||
        ft.cr_distance != m.cr_distance || ft.want_class != m.want_class ||
        ft.defect != m.defect || m.exact != 0 || !ft.exact_errs || !ft.rel_one ||
        ft.ulp != m.ulp || ft.abs != m.abs_err || gs_fused_rel(&ft) != m.rel_err)
        fail_msg("%s x=0x%08llx y=0x%08llx: the tiny case differs: want 0x%llx defect %d ulp "
                 "%a abs %a; gs_measure want 0x%llx defect %d ulp %a abs %a rel %a",
                 geluref_func_name(f), (unsigned long long)x, (unsigned long long)y,
                 (unsigned long long)ft.want, (int)ft.defect, ft.ulp, ft.abs,
                 (unsigned long long)m.want, (int)m.defect, m.ulp, m.abs_err, m.rel_err);
    return 1;
}

static void check_one(enum geluref_func f, uint64_t x, struct gs_rng *rng)
{
    double xd = f32_of(x);
    struct geluref_encl e;
    unsigned char ok = 0;
    geluref_enclose_n(f, &xd, 1, &e, &ok);
    if (!ok)
        return;
    struct gs_refval v;
    assert_int_equal(gs_ref_eval(ref, f, GELUREF_F32, x, &v), GELUREF_OK);
    uint64_t outs[12] = { v.rn, v.rn + 1, v.rn - 1, v.rn + 2, v.rn - 3, v.rn + 20, v.rn - 17,
                          0, 0x80000000u, v.rn ^ 0x80000000u, gs_rng_next(rng) & 0xffffffffu,
                          (v.rn + (gs_rng_next(rng) % 9)) - 4 };
    for (int k = 0; k < 12; k++) {
        uint64_t y = outs[k] & 0xffffffffu;
        struct gs_fused_meas fm;
        memset(&fm, 0, sizeof fm);
        n_tried++;
        if (!gs_fused_measure_f32(&e, y, &fm)) {
            (void)check_tiny(&e, f, x, y);
            struct gs_fused_meas ff;
            if (gs_fused_measure_f32_fast(&e, y, &ff) == 1)
                fail_msg("%s x=0x%08llx y=0x%08llx: the common case's path decides alone",
                         geluref_func_name(f), (unsigned long long)x, (unsigned long long)y);
            continue;
        }
        n_decided++;
        (void)check_tiny(&e, f, x, y); /* (E in [-1000, -700): the general path decides too) */
        /* the common case's shorter path: the same decision, the same fields */
        struct gs_fused_meas ff;
        memset(&ff, 0, sizeof ff);
        int rf = gs_fused_measure_f32_fast(&e, y, &ff);
        if (rf == 0 || (rf == 1 && (ff.want != fm.want || ff.cr != fm.cr ||
                                    ff.faithful != fm.faithful ||
                                    ff.cr_distance != fm.cr_distance ||
                                    ff.want_class != fm.want_class || ff.defect != fm.defect ||
                                    ff.simple != fm.simple || ff.rel_one != fm.rel_one ||
                                    ff.d != fm.d || ff.w != fm.w || ff.ms != fm.ms ||
                                    ff.p2k != fm.p2k || ff.exact_errs != fm.exact_errs ||
                                    (fm.exact_errs && (ff.ulp != fm.ulp || ff.abs != fm.abs ||
                                                       ff.a != fm.a)))))
            fail_msg("%s x=0x%08llx y=0x%08llx: the common case's path differs (%d)",
                     geluref_func_name(f), (unsigned long long)x, (unsigned long long)y, rf);
        n_fast += rf == 1;
        /* the sweep loop's quick case: where it decides, gs_fused_measure_f32 knows V, and
         * every field is the same */
        struct gs_fused_meas fq;
        memset(&fq, 0, sizeof fq);
        if (gs_fused_measure_f32_quick(&e, y, &fq)) {
            n_quick++;
            n_quick_flush += (y & 0x7fffffffu) == 0;
            n_quick_sub += fq.p2k == 0x1p-149 && fq.want_class != GS_WANT_NORMAL;
            n_quick_sub_zero += fq.p2k == 0x1p-149 && fq.want_class != GS_WANT_NORMAL &&
                                (y & 0x7fffffffu) == 0;
            if (!fm.exact_errs || fq.want != fm.want || fq.cr != fm.cr ||
                fq.faithful != fm.faithful || fq.cr_distance != fm.cr_distance ||
                fq.want_class != fm.want_class || fq.defect != fm.defect ||
                fq.simple != fm.simple || fq.rel_one != fm.rel_one || fq.d != fm.d ||
                fq.w != fm.w || fq.ms != fm.ms || fq.p2k != fm.p2k || !fq.exact_errs ||
                fq.ulp != fm.ulp || fq.abs != fm.abs || fq.a != fm.a)
                fail_msg("%s x=0x%08llx y=0x%08llx: the quick case differs",
                         geluref_func_name(f), (unsigned long long)x, (unsigned long long)y);
        }
        struct gs_meas m;
        assert_int_equal(gs_measure(ref, f, GELUREF_F32, x, y, &m), GELUREF_OK);
        /* the quick case without its test of one cell (an unsafe version: the cell of the
         * enclosure's lower end taken for f(x)'s, here as the quick case of the width-0
         * enclosure at |m| - err) must be caught deciding a wrong error somewhere, so that
         * the checks here can fail */
        struct geluref_encl e0 = e;
        e0.m = e.m > 0 ? e.m - e.err : e.m + e.err;
        e0.err = 0;
        struct gs_fused_meas f0;
        if (gs_fused_measure_f32_quick(&e0, y, &f0) &&
            (f0.want != m.want || f0.ulp != m.ulp || f0.abs != m.abs_err))
            n_zero_err_wrong++;
        check_lane(&e, y, &m, fm.d, f, x);
        int ok_fields = fm.want == m.want && fm.cr == m.cr && fm.faithful == m.faithful &&
                        fm.cr_distance == m.cr_distance && fm.want_class == m.want_class &&
                        fm.defect == m.defect && m.exact == 0 &&
                        (!fm.simple || m.defect == (m.cr ? GS_K_NONE : GS_K_ULP_EXCEEDED));
        int ok_errs = m.ulp >= gs_fused_ulp_lo(&fm) && m.ulp <= gs_fused_ulp_hi(&fm) &&
                      m.abs_err >= gs_fused_abs_lo(&fm) && m.abs_err <= gs_fused_abs_hi(&fm) &&
                      m.rel_err >= gs_fused_rel_lo(&fm) && m.rel_err <= gs_fused_rel_hi(&fm) &&
                      (!fm.rel_one || m.rel_err == 1.0) &&
                      (!fm.exact_errs || (m.ulp == fm.ulp && m.abs_err == fm.abs &&
                                          m.rel_err == gs_fused_rel(&fm)));
        n_exact += fm.exact_errs != 0;
        n_exact_sub += fm.exact_errs && fm.want_class != GS_WANT_NORMAL;
        if (fm.exact_errs)
            check_rel_below(&fm, m.rel_err, f, x, y);
        if (!ok_fields || !ok_errs)
            fail_msg("%s x=0x%08llx y=0x%08llx: fused want 0x%llx cr %d faithful %d dist %lld "
                     "class %d ulp [%a, %a] rel [%a, %a]; gs_measure want 0x%llx cr %d faithful "
                     "%d dist %lld class %d defect %d (fused %d) ulp %a abs %a rel %a",
                     geluref_func_name(f), (unsigned long long)x, (unsigned long long)y,
                     (unsigned long long)fm.want, fm.cr, fm.faithful, (long long)fm.cr_distance,
                     fm.want_class, gs_fused_ulp_lo(&fm), gs_fused_ulp_hi(&fm), gs_fused_rel_lo(&fm),
                     gs_fused_rel_hi(&fm),
                     (unsigned long long)m.want, m.cr, m.faithful, (long long)m.cr_distance,
                     m.want_class, (int)m.defect, (int)fm.defect, m.ulp, m.abs_err, m.rel_err);
    }
}

static void test_fused(void **state)
{
    (void)state;
    unsigned long per = use_mpfr ? 600 : 3000;
    for (int f = GELUREF_GELU; f <= GELUREF_ERFC; f++) {
        struct gs_rng rng;
        gs_rng_seed(&rng, 0x5eed0000u + (uint64_t)f);
        for (unsigned long i = 0; i < per; i++) {
            uint64_t b;
            do
                b = gs_rng_next(&rng) & 0xffffffffu;
            while ((b & 0x7f800000u) == 0x7f800000u || (b & 0x7fffffffu) == 0);
            check_one((enum geluref_func)f, b, &rng);
            float u = (float)(((double)(gs_rng_next(&rng) >> 11) * 0x1p-53 - 0.5) * 64);
            uint32_t ub;
            memcpy(&ub, &u, sizeof ub);
            if (u != 0)
                check_one((enum geluref_func)f, ub, &rng);
        }
    }
    print_message("%lu of %lu measurements decided by the fused path, %lu by its common case, "
                  "%lu with V itself, %lu by the quick case (%lu of them flushes to zero)\n",
                  n_decided, n_tried, n_fast, n_exact, n_quick, n_quick_flush);
    assert_true(n_quick > n_exact / 4); /* the random outputs are often zeros, of the other
                                          * sign or subnormal: not the quick case */
    assert_true(n_quick_flush > 0); /* the quick case's premature_flush branch was compared */
    print_message("of them %lu with V itself below the normal numbers, %lu by the quick case "
                  "(%lu of them zeros)\n", n_exact_sub, n_quick_sub, n_quick_sub_zero);
    /* the subnormal results' V (gs_fused_exact_errs_sub) and quick case (gs_fused_quick_sub)
     * were compared, zero outputs too */
    assert_true(n_exact_sub > 0 && n_quick_sub > n_exact_sub / 4 && n_quick_sub_zero > 0);
    /* zeros far below the subnormals (gs_fused_quick_tiny), from the tails where f(x) lies in
     * [2^-1224, 2^-700) */
    static const struct {
        enum geluref_func f;
        double lo, hi;
    } tails[] = { { GELUREF_GELU, -41.2, -37 },        { GELUREF_GELU_GRAD, -41.3, -37 },
                  { GELUREF_NORMCDF, -41.2, -37 },     { GELUREF_NORMPDF, 37, 41.2 },
                  { GELUREF_ERFC, 26, 29.2 },          { GELUREF_GELU_TANH, -22.6, -19 },
                  { GELUREF_GELU_TANH_GRAD, -22.6, -19 }, { GELUREF_GELU_SIGMOID, -503, -280 } };
    unsigned long tiny0 = n_tiny;
    for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
        struct gs_rng rng;
        gs_rng_seed(&rng, 0x71e0000u + i);
        for (unsigned long j = 0; j < per / 10; j++) {
            float u = (float)(tails[i].lo + (tails[i].hi - tails[i].lo) *
                                                (double)(gs_rng_next(&rng) >> 11) * 0x1p-53);
            uint32_t ub;
            memcpy(&ub, &u, sizeof ub);
            check_one(tails[i].f, ub, &rng);
        }
    }
    print_message("the tiny case decided %lu zero outputs (%lu of them from the tails, %lu "
                  "correctly rounded)\n", n_tiny, n_tiny - tiny0, n_tiny_cr);
    assert_true(n_tiny - tiny0 > per / 10 && n_tiny_cr > 0 && n_tiny_cr < n_tiny);
    print_message("the quick case without its test of one cell decided a wrong error %lu "
                  "times\n", n_zero_err_wrong);
    assert_true(n_zero_err_wrong > 0); /* the comparison above can fail */
    /* most of the core range's correctly rounded and nearby outputs are decided */
    assert_true(n_decided > n_tried / 3);
    print_message("the bound lane took %lu outputs (%lu within 2 of RN(f(x)) were measured, "
                  "%lu taken farther); under the policies it passed %lu and failed %lu; without "
                  "its test of the relative error it would take %lu against their own relative "
                  "error, without the enclosure's width %lu against their own ulp error; uh "
                  "set %lu times\n",
                  n_lane, n_lane_near, n_lane_far, n_lane_pass, n_lane_fail, n_lane_norel_wrong,
                  n_lane_now_wrong, n_lane_uh);
    assert_true(n_lane > n_lane_near / 2 && n_lane_uh > n_lane_far);
    assert_true(n_lane_far > 0 && n_lane_pass > 0 && n_lane_fail > 0);
    assert_true(n_lane_norel_wrong > 0 && n_lane_now_wrong > 0); /* the checks can fail */
    print_message("gs_fused_rel_below decided %lu maxima next to the error; a test without "
                  "its margin was wrong on %lu\n", n_rel_below, n_rel_loose_wrong);
    assert_true(n_rel_below > 0);
    assert_true(n_rel_loose_wrong > 0); /* the check above can fail */
}

int main(int argc, char **argv)
{
    use_mpfr = argc > 1 && strcmp(argv[1], "mpfr") == 0;
    ref = gs_ref_new(NULL);
    static const char *const names[4] = { "default", "strict", "faithful", "lenient" };
    for (int i = 0; i < 4; i++) {
        struct gs_policy *p = gs_policy_builtin(names[i]);
        gs_policy_resolve(p, GELUREF_GELU, GELUREF_F32, &pol[i]);
        gs_policy_free(p);
    }
    pol[4] = pol[0]; /* as a file would set them */
    pol[4].max_ulp = 1.5;
    pol[4].max_cr_distance = 2;
    pol[4].abs_tol = 1e-30;
    if (use_mpfr)
        gs_ref_use_mpfr(ref, 1);
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_fused) };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    gs_ref_free(ref);
    return r;
}
