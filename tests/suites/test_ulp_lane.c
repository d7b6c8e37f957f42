/* The ulp sweep's bound lane and quick lane four enclosures at a time
 * (gs_fused_bound_lane_n_avx2, gs_fused_quick_lane_n_avx2, suites/ulp_lane_avx2.c), and eight
 * at a time where the CPU reports AVX-512 (gs_fused_bound_lane_n_avx512,
 * gs_fused_quick_lane_n_avx512, suites/ulp_lane_avx512.c: every other block), against one at
 * a time (the _generic versions, which call gs_fused_bound_lane and gs_fused_quick_core):
 * every decision and every count the same.
 *   enclosures  the reference's double tier (geluref_enclose_n) of random binary32 inputs of
 *               every function, as the sweep sees them, and the same altered to reach each
 *               test of the lanes: another side, the exponent moved across E = -126, beyond
 *               binary32's largest binade, the error widened until the cell or the binade is
 *               crossed, the significand a zero, a subnormal, an infinity or a NaN (with an
 *               ordinary E too), a value just below 2^-126 (a subnormal result that rounds to
 *               the smallest normal number, and a zero for it);
 *   outputs     RN of the enclosed value (the double rounded to binary32), its neighbours and
 *               outputs at the ends of the cr_distance buckets, in other binades, of the other
 *               sign, zeros, infinities, NaN, the output the lanes' tests of the binade would
 *               take (beyond binary32's range too), random patterns;
 *   bounds      maxima, policies (max_ulp, max_cr_distance, faithful, abs_tol, the accuracy
 *               domain) and unkept bounds at and around the block's errors, none, infinite
 *               and NaN; the bound lane's dmax at times small;
 *   ok at random; blocks of every length 1 to 19 (each enclosure in every lane and in the
 *   scalar rest).
 * The quick lane's errors out (gs_quick_errs, asked in half the blocks) are compared too,
 * entry by entry.
 * It must take some outputs and refuse others, so that a difference could show.  Skipped
 * (exit 77) where the CPU lacks AVX2 or the build has no such version.
 * Usage: test_ulp_lane N SEED. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ulp_fused.h"
#include "ulp_lane.h"

#if !defined(GS_HAVE_AVX2_LANE)
int main(void)
{
    printf("SKIP: no AVX2 version in this build\n");
    return 77;
}
#else

#define MAXB 19

static uint64_t rng = 88172645463325252u;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static uint64_t f32_bits(double v)
{
    float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

/* The output the lane would take for e wherever its tests pass (the nearest integer to
 * ms in e's binade E, whatever E is): so that the tests of E and of rn are reached beyond the
 * binary32 range and for an infinite or NaN m too. */
static uint64_t want_of(const struct geluref_encl *e)
{
    uint64_t mb;
    memcpy(&mb, &e->m, sizeof mb);
    int64_t em = (int64_t)((mb >> 52) & 0x7ff) - 1023, E = em + e->e;
    uint64_t msb = (mb & 0x000fffffffffffffu) | (uint64_t)(23 + 1023) << 52;
    double ms;
    memcpy(&ms, &msb, sizeof ms);
    return ((mb >> 63) << 31) | (((uint64_t)(E + 126) << 23) + (uint64_t)(ms + 0.5));
}

/* An altered copy of e (kind 0: none). */
static struct geluref_encl alter(struct geluref_encl e, unsigned kind)
{
    static const double ms[] = { 0.0, -0.0, 0x1p-1070, -0x1p-1060, INFINITY, -INFINITY, NAN };
    switch (kind) {
    case 1: e.side = (int)(next() % 3) - 1; break;
    case 2: e.e += (int64_t)(next() % 301) - 150; break;
    case 3: e.err *= ldexp(1.0, (int)(next() % 60) - 10); break;
    case 4: e.m = ms[next() % (sizeof ms / sizeof ms[0])]; break;
    case 5: e.e = -126 - (int64_t)(next() % 3) - (int64_t)floor(log2(fabs(e.m)) + 0.5); break;
    case 7: { /* E beyond binary32's largest binade, below 2^9 */
        uint64_t mb;
        memcpy(&mb, &e.m, sizeof mb);
        e.e = 128 + (int64_t)(next() % 270) - ((int64_t)((mb >> 52) & 0x7ff) - 1023);
        break;
    }
    case 6: { /* an infinity, a NaN (a payload in the low bits too), a zero or a subnormal m
               * whose E is an ordinary binade: only the tests of em refuse some of them */
        static const uint64_t mbs[] = { 0x7ff0000000000000u, 0x7ff8000000000000u,
                                        0xfff8000012345678u, 0x7ff0000123456789u, 0,
                                        0x000123456789abcdu, 0x800fedcba9876543u };
        uint64_t mb = mbs[next() % (sizeof mbs / sizeof mbs[0])];
        memcpy(&e.m, &mb, sizeof mb);
        e.e = (int64_t)(next() % 300) - 150 - ((int64_t)((mb >> 52) & 0x7ff) - 1023);
        break;
    }
    case 8: { /* f(x) just below 2^-126 (E = -127), RN the smallest normal number or the
               * largest subnormal one: a subnormal result's premature_flush (quick_sub4) */
        double m = 2 - ldexp((double)(next() >> 11) * 0x1p-53, -(int)(20 + next() % 6));
        e.m = e.m < 0 ? -m : m;
        e.e = -127;
        e.err = ldexp(m, -50 - (int)(next() % 4));
        e.side = 0;
        break;
    }
    default: break;
    }
    return e;
}

static unsigned long q_cmp, q_take, q_failed, q_cr, q_judged, q_far, q_bad;
static unsigned long q_wide, q_wide8, q_wide_sub; /* blocks eight at a time */
static unsigned long q_bucket[GS_HIST_N], q_flush, q_failed_flush, q_flush_normal, q_sub,
    q_sub_judged, q_sub_flush, q_failed_ftz, q_failed_sz, q_tie, q_er, q_er_set, q_er_left,
    q_rtie;

/* 1 when e encloses a result below the normal binary32 numbers (E < -126: the quick lane's
 * subnormal case, quick_sub4). */
static int sub_of(const struct geluref_encl *e)
{
    uint64_t mb;
    memcpy(&mb, &e->m, sizeof mb);
    return (int64_t)((mb >> 52) & 0x7ff) - 1023 + e->e < -126;
}

/* One of a few values (the first, no limit, more often), or (tie) the given one: so that
 * the strict and inclusive tests meet their boundaries. */
static double pick_bound(const double *vals, size_t n, double tie)
{
    unsigned r = (unsigned)(next() % 8);
    return r < 2 ? tie : r < 5 ? vals[0] : vals[next() % n];
}

/* The two versions' outputs before a comparison: take flags of different garbage, counts
 * that start at n0 (the lanes add to them). */
static void lane_outs(unsigned char *ta, unsigned char *tg, struct gs_quick_counts *ca,
                      struct gs_quick_counts *cg, uint64_t n0)
{
    memset(ta, 7, MAXB);
    memset(tg, 9, MAXB);
    memset(ca, 0, sizeof *ca);
    memset(cg, 0, sizeof *cg);
    ca->n = cg->n = n0;
}

static unsigned long b_cmp, b_take, b_far, b_failed, b_fa_not_cr, b_bad, b_judged, b_uh, b_wide;

/* The bound lane on the block e with outputs y (quick()'s) against limits from the quick
 * lane's bounds b (their maxima, policy and unkept bound; dmax at times small; ties at an
 * output's uh), four at a time against one at a time: the same takes, the same counts (added
 * to), and where asked the same uh out. */
static void bound(enum geluref_func f, const double *xs, const struct geluref_encl *e,
                  const unsigned char *ok, const uint64_t *y, size_t len,
                  const struct gs_quick_bounds *b)
{
    struct gs_bound_limits lim =
        gs_fused_bound_limits(b->max_ulp, b->max_abs, b->max_rel, next() % 2, 1, b->v, b->unkept);
    if (next() % 4 == 0)
        lim.dmax = (int64_t)(next() % 6) - 1;
    /* ties: a maximum, the policy's max_ulp or the unkept bound at an output's uh */
    struct gs_fused_meas m;
    size_t t = next() % len;
    unsigned tie = (unsigned)(next() % 3);
    for (size_t i = 0; tie == 2 && b->v != NULL && i < len; i++) { /* the unkept bound: at a
                                                                     failed output's uh */
        size_t j = (t + i) % len;
        if (ok[j] && gs_fused_measure_f32_fast(&e[j], y[j], &m) == 1 &&
            gs_fused_judge(b->v, &m) == 0) {
            t = j;
            break;
        }
    }
    if (gs_fused_measure_f32_fast(&e[t], y[t], &m) == 1 && next() % 2) {
        double uh = gs_fused_ulp_hi(&m);
        switch (tie) {
        case 0: lim.max_ulp = uh; break;
        case 1: lim.pol_ulp = uh; break;
        default: lim.unkept = uh; break;
        }
    }
    unsigned char ta[MAXB], tg[MAXB];
    struct gs_quick_counts ca, cg;
    lane_outs(ta, tg, &ca, &cg, 5);
    /* uh out where asked (half the blocks): every entry the same bits, -1 included */
    double ua[MAXB], ug[MAXB];
    int with_uh = next() % 2;
    memset(ua, 0x5a, sizeof ua);
    memset(ug, 0xa5, sizeof ug);
    /* four at a time, or (every other block, where the CPU reports AVX-512) eight at a time
     * with the rest four at a time and one at a time */
    int wide = 0;
#if defined(GS_HAVE_AVX512_LANE)
    if (gs_lane_avx512() && next() % 2) {
        wide = 1;
        gs_fused_bound_lane_n_avx512(e, ok, y, len, &lim, ta, &ca, with_uh ? ua : NULL);
    }
#endif
    if (!wide)
        gs_fused_bound_lane_n_avx2(e, ok, y, len, &lim, ta, &ca, with_uh ? ua : NULL);
    b_wide += (unsigned long)(wide && len >= 8);
    gs_fused_bound_lane_n_generic(e, ok, y, len, &lim, tg, &cg, with_uh ? ug : NULL);
    int diff = memcmp(&ca, &cg, sizeof ca) != 0 ||
               (with_uh && memcmp(ua, ug, len * sizeof ua[0]) != 0);
    for (size_t i = 0; with_uh && i < len; i++)
        b_uh += ug[i] >= 0 && !tg[i];
    for (size_t i = 0; i < len; i++) {
        b_cmp++;
        b_take += tg[i] != 0;
        b_judged += tg[i] != 0 && b->v != NULL;
        if ((ta[i] != tg[i] || (diff && i == 0)) && b_bad++ < 20)
            printf("FAIL bound %s x=%a m=%a err=%a e=%lld side=%d y=0x%08llx ok=%d dmax=%lld "
                   "max_ulp=%a max_abs=%a max_rel=%a unkept=%a policy=%s: %s at a time %d, "
                   "one at a time %d%s\n",
                   geluref_func_name(f), xs[i], e[i].m, e[i].err, (long long)e[i].e, e[i].side,
                   (unsigned long long)y[i], ok[i], (long long)lim.dmax, lim.max_ulp,
                   lim.max_abs, lim.max_rel, lim.unkept, b->v ? "yes" : "no",
                   wide ? "eight" : "four", ta[i], tg[i],
                   diff ? " (the block's counts differ)" : "");
    }
    b_far += cg.hist[4] + cg.hist[5] + cg.hist[6];
    b_failed += cg.failed;
    b_fa_not_cr += cg.faithful - cg.cr;
}

/* The quick lane on the block e (already altered, some outputs its own) with its own outputs
 * too (the correctly rounded one, near it in the same binade, at the ends of the cr_distance
 * buckets, in other binades, of the other sign, zero, infinite, NaN), against bounds and
 * policies at and around the block's errors, four (or eight) at a time against one at a
 * time. */
static void quick(enum geluref_func f, const double *xs, const struct geluref_encl *e,
                  const unsigned char *ok, const uint64_t *y0, size_t len)
{
    uint64_t y[MAXB];
    for (size_t i = 0; i < len; i++) {
        uint64_t w = y0[i];
        static const uint64_t edges[] = { 2, 3, 4, 5, 16, 17, 256, 257 }; /* the buckets' */
        switch (next() % 11) {
        case 10: {
            uint64_t d = edges[next() % (sizeof edges / sizeof edges[0])];
            y[i] = next() % 2 ? w + d : w - d;
            break;
        }
        case 0: case 1: y[i] = w; break;
        case 2: y[i] = w + 1 + next() % 3; break;
        case 3: y[i] = w - 1 - next() % 3; break;
        case 4: y[i] = w + next() % 5000 - 2500; break;
        case 5: y[i] = w + ((next() % 5 - 2) << 23); break; /* another binade */
        case 6: y[i] = w ^ 0x80000000u; break;
        case 7: y[i] = (w & 0x80000000u) | (next() % 3 ? 0 : 0x7f800000u + next() % 2); break;
        default: y[i] = w + next() % 41 - 20; break;
        }
        y[i] &= 0xffffffffu;
    }
    /* a tie: the errors of one of the block's measurements */
    struct gs_fused_meas m;
    memset(&m, 0, sizeof m);
    size_t t = next() % len;
    if (!gs_fused_measure_f32_quick(&e[t], y[t], &m))
        m.ulp = m.abs = m.a = 1;
    static const double ulps[] = { INFINITY, 0.5, 1, 4, 100, 1e6, -1, 0, NAN };
    static const double abss[] = { INFINITY, 1e-30, 1e-10, 1e-7, 1e-3, 1, -1, NAN };
    static const double rels[] = { INFINITY, 0x1p-24, 0x1p-20, 0x1p-10, 1, -1, NAN };
    uint64_t x[MAXB];
    for (size_t i = 0; i < len; i++)
        x[i] = f32_bits(xs[i]);
    struct gs_quick_bounds b;
    b.max_rel_x = x[next() % len] + next() % 3 - 1; /* a flush's tie decided by x either way */
    if (next() % 16 == 0)
        b.max_rel_x = next() % 2 ? 0 : UINT64_MAX;
    /* an ulp or absolute error tied with the maximum, decided by x either way */
    b.max_ulp_x = x[t] + next() % 3 - 1;
    b.max_abs_x = x[t] + next() % 3 - 1;
    b.max_ulp = pick_bound(ulps, sizeof ulps / sizeof ulps[0], m.ulp);
    b.max_abs = pick_bound(abss, sizeof abss / sizeof abss[0], m.abs);
    b.max_rel = pick_bound(rels, sizeof rels / sizeof rels[0], m.ulp / m.a);
    b.unkept = pick_bound(ulps, sizeof ulps / sizeof ulps[0], m.ulp);
    b.unkept_flush = pick_bound(ulps, sizeof ulps / sizeof ulps[0], m.ulp);
    b.unkept_ftz = pick_bound(ulps, sizeof ulps / sizeof ulps[0], m.ulp);
    b.unkept_sz = pick_bound(ulps, sizeof ulps / sizeof ulps[0], m.ulp);
    struct gs_policy_values v;
    memset(&v, 0, sizeof v);
    static const double pulps[] = { INFINITY, 0.5, 1, 4, 16, 0, NAN };
    static const double crs[] = { INFINITY, 0, 1, 2, 100 };
    static const double tols[] = { 0, 0, 1e-30, 1e-7, 1e-3, INFINITY, NAN };
    v.max_ulp = pick_bound(pulps, sizeof pulps / sizeof pulps[0], m.ulp);
    v.max_cr_distance = pick_bound(crs, sizeof crs / sizeof crs[0], (double)m.cr_distance);
    v.faithful = (int)(next() % 2);
    v.abs_tol = pick_bound(tols, sizeof tols / sizeof tols[0], m.abs);
    v.accuracy_domain = next() % 2 ? GS_DOMAIN_NORMAL : GS_DOMAIN_ALL;
    b.v = next() % 3 ? &v : NULL;
    unsigned char ta[MAXB], tg[MAXB];
    struct gs_quick_counts ca, cg;
    lane_outs(ta, tg, &ca, &cg, 3);
    /* the errors out where asked (half the blocks): every entry the same bits, -1 included
     * (abs and a where ulp is set; the caller reads nothing else) */
    double ua[MAXB], aa[MAXB], va[MAXB], ug[MAXB], ag[MAXB], vg[MAXB];
    struct gs_quick_errs era = { ua, aa, va }, erg = { ug, ag, vg };
    int with_er = next() % 2;
    memset(ua, 0x5a, sizeof ua);
    memset(ug, 0xa5, sizeof ug);
    memset(aa, 0, sizeof aa); /* read only where ulp is set; zeroed for the message */
    memset(va, 0, sizeof va);
    memset(ag, 0, sizeof ag);
    memset(vg, 0, sizeof vg);
    /* four at a time, or (every other block, where the CPU reports AVX-512) eight at a time */
    int wide = 0;
#if defined(GS_HAVE_AVX512_LANE)
    if (gs_lane_avx512() && next() % 2) {
        wide = 1;
        gs_fused_quick_lane_n_avx512(e, ok, x, y, len, &b, ta, &ca, with_er ? &era : NULL);
    }
#endif
    if (!wide)
        gs_fused_quick_lane_n_avx2(e, ok, x, y, len, &b, ta, &ca, with_er ? &era : NULL);
    q_wide += (unsigned long)(wide && len >= 8);
    if (wide && len >= 8) { /* the first eight: with a subnormal result to decide or not */
        int subs = 0;
        for (size_t i = 0; i < 8; i++)
            subs |= ok[i] && sub_of(&e[i]);
        q_wide8 += (unsigned long)!subs;
        q_wide_sub += (unsigned long)subs;
    }
    gs_fused_quick_lane_n_generic(e, ok, x, y, len, &b, tg, &cg, with_er ? &erg : NULL);
    int diff = memcmp(&ca, &cg, sizeof ca) != 0;
    for (size_t i = 0; with_er && i < len; i++) {
        q_er++;
        q_er_set += ug[i] >= 0;
        q_er_left += ug[i] >= 0 && !tg[i];
        if (memcmp(&ua[i], &ug[i], sizeof ua[i]) != 0 ||
            (ug[i] >= 0 && (memcmp(&aa[i], &ag[i], sizeof aa[i]) != 0 ||
                            memcmp(&va[i], &vg[i], sizeof va[i]) != 0))) {
            if (q_bad++ < 20)
                printf("FAIL errors %s x=%a y=0x%08llx ok=%d: %s at a time ulp %a abs %a a %a, "
                       "one at a time ulp %a abs %a a %a\n",
                       geluref_func_name(f), xs[i], (unsigned long long)y[i], ok[i],
                       wide ? "eight" : "four", ua[i], aa[i], va[i], ug[i], ag[i], vg[i]);
        }
    }
    for (size_t i = 0; i < len; i++) {
        q_cmp++;
        q_take += tg[i] != 0;
        q_judged += tg[i] != 0 && b.v != NULL;
        q_flush += tg[i] != 0 && (y[i] & 0x7fffffffu) == 0;
        q_flush_normal += tg[i] != 0 && (y[i] & 0x7fffffffu) == 0 && !sub_of(&e[i]);
        q_sub += tg[i] != 0 && sub_of(&e[i]);
        struct gs_fused_meas mt;
        q_tie += tg[i] != 0 && gs_fused_measure_f32_quick(&e[i], y[i], &mt) &&
                 (mt.ulp == b.max_ulp || mt.abs == b.max_abs);
        /* the relative error's own tie (its quotient, at a larger x), a flush's 1 aside */
        q_rtie += tg[i] != 0 && gs_fused_measure_f32_quick(&e[i], y[i], &mt) && !mt.rel_one &&
                  gs_fused_rel(&mt) == b.max_rel;
        q_sub_judged += tg[i] != 0 && sub_of(&e[i]) && b.v != NULL;
        struct gs_fused_meas mi;
        q_sub_flush += tg[i] != 0 && sub_of(&e[i]) && b.v != NULL &&
                       gs_fused_measure_f32_quick(&e[i], y[i], &mi) &&
                       mi.defect == GS_K_PREMATURE_FLUSH;
        if ((ta[i] != tg[i] || (diff && i == 0)) && q_bad++ < 20)
            printf("FAIL quick %s x=%a m=%a err=%a e=%lld side=%d y=0x%08llx ok=%d "
                   "max_ulp=%a max_abs=%a max_rel=%a unkept=%a policy=%s (max_ulp=%a "
                   "max_cr_distance=%a faithful=%d abs_tol=%a): %s at a time %d, one at a "
                   "time %d%s\n",
                   geluref_func_name(f), xs[i], e[i].m, e[i].err, (long long)e[i].e, e[i].side,
                   (unsigned long long)y[i], ok[i], b.max_ulp, b.max_abs, b.max_rel, b.unkept,
                   b.v ? "yes" : "no", v.max_ulp, v.max_cr_distance, v.faithful, v.abs_tol,
                   wide ? "eight" : "four", ta[i], tg[i],
                   diff ? " (the block's counts differ)" : "");
    }
    bound(f, xs, e, ok, y, len, &b);
    q_failed += cg.failed;
    q_failed_flush += cg.failed_flush;
    q_failed_ftz += cg.failed_ftz;
    q_failed_sz += cg.failed_sz;
    q_cr += cg.cr;
    q_far += cg.n - 3 - cg.hist[0] - cg.hist[1];
    for (int i = 2; i < GS_HIST_N; i++)
        q_bucket[i] += cg.hist[i];
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_ulp_lane N SEED\n");
        return 2;
    }
    if (!__builtin_cpu_supports("avx2")) {
        printf("SKIP: the CPU does not report AVX2\n");
        return 77;
    }
    long n = atol(argv[1]);
    rng += (uint64_t)atol(argv[2]) * 0x9e3779b97f4a7c15u;
    unsigned long n_bad;
    for (long it = 0; it < n; it++) {
        enum geluref_func f = (enum geluref_func)(GELUREF_GELU + (int)(next() % 10));
        double xs[MAXB];
        size_t len = 1 + next() % MAXB;
        for (size_t i = 0; i < len; i++) {
            uint32_t b = (uint32_t)next();
            float v;
            memcpy(&v, &b, sizeof v);
            xs[i] = next() % 2 ? (double)v : ldexp((double)(next() % 65536) - 32768, -10);
            if (!isfinite(xs[i]))
                xs[i] = 1.5;
        }
        struct geluref_encl e[MAXB];
        unsigned char ok[MAXB];
        uint64_t y[MAXB];
        memset(e, 0, sizeof e);
        geluref_enclose_n(f, xs, len, e, ok);
        for (size_t i = 0; i < len; i++) {
            double v = ldexp(e[i].m, (int)e[i].e);
            unsigned kind = next() % 4 == 0 ? (unsigned)(1 + next() % 8) : 0;
            e[i] = alter(e[i], kind);
            uint64_t y0 = f32_bits(v);
            if (kind == 8) { /* a zero, the smallest normal number, the largest subnormal */
                static const uint64_t ys8[] = { 0, 0, 0x00800000u, 0x007fffffu };
                y[i] = ys8[next() % 4] | (e[i].m < 0 ? 0x80000000u : 0);
                if (next() % 10 == 0)
                    ok[i] = 0;
                continue;
            }
            unsigned pick = kind >= 6 && next() % 4 ? 7 : (unsigned)(next() % 8);
            y[i] = pick < 4 ? y0 : pick == 4 ? y0 + 1 : pick == 5 ? y0 - 1
                 : pick == 6 ? y0 ^ 0x80000000u : next() % 4 ? want_of(&e[i])
                                                            : next() & 0xffffffffu;
            if (next() % 10 == 0)
                ok[i] = 0;
        }
        if (next() % 8 == 0) { /* a run of inputs not to decide (four at once skipped) */
            size_t from = next() % len, to = from + next() % (len - from + 1);
            memset(ok + from, 0, to - from);
        }
        quick(f, xs, e, ok, y, len);
    }
    printf("bound lane: %lu decisions compared, %lu taken (%lu judged, %lu failed, %lu faithful "
           "but not correctly rounded, %lu with a cr_distance above 4), %lu uh out of outputs "
           "refused, %lu blocks eight at a time, %lu different\n",
           b_cmp, b_take, b_judged, b_failed, b_fa_not_cr, b_far, b_uh, b_wide, b_bad);
    printf("quick lane: %lu decisions compared, %lu taken (%lu failed, %lu correctly rounded, "
           "%lu judged, %lu zeros of which %lu failed and %lu of a normal result, %lu of a "
           "subnormal result of which %lu judged and %lu flushed; failed ftz %lu, signed_zero "
           "%lu; %lu tied with a maximum, %lu with the relative one), %lu blocks eight at a "
           "time (the first eight: %lu normal results, %lu with a subnormal one), %lu "
           "different\n", q_cmp, q_take,
           q_failed, q_cr, q_judged, q_flush, q_failed_flush, q_flush_normal, q_sub, q_sub_judged,
           q_sub_flush, q_failed_ftz, q_failed_sz, q_tie, q_rtie, q_wide, q_wide8, q_wide_sub,
           q_bad);
    printf("errors out: %lu entries compared, %lu set (%lu of them refused)\n", q_er, q_er_set,
           q_er_left);
    int buckets = 1; /* every bucket above "1" but "nan" reached */
    for (int i = 2; i < GS_HIST_N - 1; i++)
        buckets &= q_bucket[i] > 0;
    if (q_take < q_cmp / 50 || q_cmp - q_take < q_cmp / 20 || q_failed < q_take / 100 ||
        q_cr < q_take / 100 || q_far < q_take / 100 || !buckets || q_flush < q_take / 100 ||
        q_failed_flush < q_flush_normal / 10 || q_sub < q_take / 100 || q_sub_judged < q_sub / 10 ||
        q_sub_flush == 0 || q_failed_ftz == 0 || q_failed_sz == 0 || q_tie == 0 || q_rtie == 0 ||
        q_er_set < q_er / 20 || q_er_left < q_er / 100 || q_er - q_er_set < q_er / 20 ||
        (gs_lane_avx512() &&
         (q_wide8 < q_cmp / MAXB / 20 || q_wide_sub < q_cmp / MAXB / 20))) {
        printf("FAIL: the quick lane took too few or too many, or too few of a kind, for the "
               "comparison to mean anything (%lu taken with a cr_distance above 1)\n", q_far);
        return 1;
    }
    /* a lane that never takes (or always does) could hide a difference */
    if (b_take < b_cmp / 50 || b_cmp - b_take < b_cmp / 20 || b_judged < b_take / 20 ||
        b_failed < b_take / 100 || b_fa_not_cr < b_take / 100 || b_far < b_take / 100 ||
        b_uh < b_take / 100 || (gs_lane_avx512() && b_wide < b_cmp / MAXB / 10)) {
        printf("FAIL: the bound lane took too few or too many, or too few of a kind, for the "
               "comparison to mean anything\n");
        return 1;
    }
    n_bad = q_bad + b_bad;
    return n_bad != 0;
}
#endif
