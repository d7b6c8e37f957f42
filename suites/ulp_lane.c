/* The lanes over a block (ulp_lane.h): one at a time, and the choice of the AVX2 versions
 * (and of the bound and span lanes' AVX-512 ones) by what the CPU reports. */
#include "ulp_lane.h"

#include "ulp_fused.h"

#include <stdatomic.h>
#include <string.h>

void gs_fused_bound_lane_n_generic(const struct geluref_encl *e, const unsigned char *ok,
                                   const uint64_t *y, size_t k, const struct gs_bound_limits *lim,
                                   unsigned char *take, struct gs_quick_counts *cnt,
                                   double *uh)
{
    for (size_t q = 0; q < k; q++) {
        int64_t d = 0;
        int fa = 0, fail = 0;
        double u = -1;
        take[q] = (unsigned char)(ok[q] &&
                                  gs_fused_bound_lane(&e[q], y[q], lim, &d, &fa, &fail, &u));
        if (uh != NULL)
            uh[q] = u;
        if (!take[q])
            continue;
        cnt->n++;
        cnt->cr += d == 0;
        cnt->faithful += (unsigned)fa;
        cnt->failed += (unsigned)fail;
        cnt->hist[gs_hist_index(d)]++;
    }
}

int gs_lane_avx512(void)
{
#if defined(GS_HAVE_AVX512_LANE)
    /* asked at every lane's call: the CPU's answer kept (-1: not asked yet; threads that race
     * store the same value) */
    static atomic_int have = -1;
    int h = atomic_load_explicit(&have, memory_order_relaxed);
    if (h < 0) {
        h = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
            __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
            __builtin_cpu_supports("avx2");
        atomic_store_explicit(&have, h, memory_order_relaxed);
    }
    return h;
#else
    return 0;
#endif
}

void gs_fused_bound_lane_n(const struct geluref_encl *e, const unsigned char *ok,
                           const uint64_t *y, size_t k, const struct gs_bound_limits *lim,
                           unsigned char *take, struct gs_quick_counts *cnt, double *uh)
{
#if defined(GS_HAVE_AVX512_LANE)
    if (gs_lane_avx512()) {
        gs_fused_bound_lane_n_avx512(e, ok, y, k, lim, take, cnt, uh);
        return;
    }
#endif
#if defined(GS_HAVE_AVX2_LANE)
    if (__builtin_cpu_supports("avx2")) {
        gs_fused_bound_lane_n_avx2(e, ok, y, k, lim, take, cnt, uh);
        return;
    }
#endif
    gs_fused_bound_lane_n_generic(e, ok, y, k, lim, take, cnt, uh);
}

/* Whether enclosure e's result is a normal one (E >= -126, E as the AVX2 lane computes it). */
static int normal_result(const struct geluref_encl *e)
{
    uint64_t mb;
    memcpy(&mb, &e->m, sizeof mb);
    return (int64_t)(mb >> 52 & 0x7ff) - 1023 + e->e >= -126;
}

void gs_fused_quick_lane_n_generic(const struct geluref_encl *e, const unsigned char *ok,
                                   const uint64_t *x, const uint64_t *y, size_t k,
                                   const struct gs_quick_bounds *b, unsigned char *take,
                                   struct gs_quick_counts *cnt, const struct gs_quick_errs *er)
{
    for (size_t q = 0; q < k; q++) {
        struct gs_fused_meas m;
        take[q] = 0;
        if (er != NULL)
            er->ulp[q] = -1;
        /* all = 1: every field set, the same decision (gs_fused_judge reads only the exact
         * case's fields, but gcc -O1 cannot see that d and w go unread) */
        if (!ok[q] || !gs_fused_quick_core(&e[q], y[q], &m, 1))
            continue;
        int normal = normal_result(&e[q]);
        if (er != NULL && normal) {
            er->ulp[q] = m.ulp;
            er->abs[q] = m.abs;
            er->a[q] = m.a;
        }
        /* (a tie of the relative error itself, ulp / a at a larger x, for a normal result:
         * the vector versions test it there) */
        int rel = gs_fused_rel_below(&m, b->max_rel) ||
                  (m.rel_one ? gs_fused_rel_one_below(b->max_rel, b->max_rel_x, x[q])
                             : normal && gs_fused_rel(&m) == b->max_rel &&
                                   x[q] > b->max_rel_x);
        if (!((m.ulp < b->max_ulp || (m.ulp == b->max_ulp && x[q] > b->max_ulp_x)) &&
              (m.abs < b->max_abs || (m.abs == b->max_abs && x[q] > b->max_abs_x)) && rel))
            continue;
        int j = b->v ? gs_fused_judge(b->v, &m) : 1;
        enum gs_kind d = m.defect;
        double unkept = d == GS_K_PREMATURE_FLUSH ? b->unkept_flush
                        : d == GS_K_FTZ           ? b->unkept_ftz
                        : d == GS_K_SIGNED_ZERO   ? b->unkept_sz
                                                  : b->unkept;
        if (!(j == 1 || (j == 0 && m.ulp < unkept)))
            continue;
        take[q] = 1;
        cnt->n++;
        cnt->cr += m.cr != 0;
        cnt->faithful += m.faithful != 0;
        cnt->failed += j == 0 && d == GS_K_ULP_EXCEEDED;
        cnt->failed_flush += j == 0 && d == GS_K_PREMATURE_FLUSH;
        cnt->failed_ftz += j == 0 && d == GS_K_FTZ;
        cnt->failed_sz += j == 0 && d == GS_K_SIGNED_ZERO;
        cnt->hist[gs_hist_index(m.cr_distance)]++;
    }
}

void gs_fused_quick_lane_n(const struct geluref_encl *e, const unsigned char *ok,
                           const uint64_t *x, const uint64_t *y, size_t k,
                           const struct gs_quick_bounds *b, unsigned char *take,
                           struct gs_quick_counts *cnt, const struct gs_quick_errs *er)
{
#if defined(GS_HAVE_AVX512_LANE)
    if (gs_lane_avx512()) {
        gs_fused_quick_lane_n_avx512(e, ok, x, y, k, b, take, cnt, er);
        return;
    }
#endif
#if defined(GS_HAVE_AVX2_LANE)
    if (__builtin_cpu_supports("avx2")) {
        gs_fused_quick_lane_n_avx2(e, ok, x, y, k, b, take, cnt, er);
        return;
    }
#endif
    gs_fused_quick_lane_n_generic(e, ok, x, y, k, b, take, cnt, er);
}

void gs_fused_span_lane_n_generic(const struct gs_fused_span *s, const unsigned char *ok,
                                  const uint64_t *x, const uint64_t *y, size_t k,
                                  const struct gs_quick_bounds *b, unsigned char *take,
                                  struct gs_quick_counts *cnt)
{
    for (size_t q = 0; q < k; q++)
        gs_fused_span_take_count(&s[q / GS_SPAN], q % GS_SPAN, ok[q], x[q], y[q], b, take + q,
                                 cnt);
}

void gs_fused_span_lane_n(const struct gs_fused_span *s, const unsigned char *ok,
                          const uint64_t *x, const uint64_t *y, size_t k,
                          const struct gs_quick_bounds *b, unsigned char *take,
                          struct gs_quick_counts *cnt)
{
#if defined(GS_HAVE_AVX512_LANE)
    if (gs_lane_avx512()) {
        gs_fused_span_lane_n_avx512(s, ok, x, y, k, b, take, cnt);
        return;
    }
#endif
#if defined(GS_HAVE_AVX2_LANE)
    if (__builtin_cpu_supports("avx2")) {
        gs_fused_span_lane_n_avx2(s, ok, x, y, k, b, take, cnt);
        return;
    }
#endif
    gs_fused_span_lane_n_generic(s, ok, x, y, k, b, take, cnt);
}

size_t gs_left_n_generic(const double *xd, const unsigned char *take, size_t k, double *xl,
                         unsigned char *il)
{
    size_t nl = 0;
    for (size_t q = 0; q < k; q++) { /* (no branch: the takes are mixed) */
        xl[nl] = xd[q];
        il[nl] = (unsigned char)q;
        nl += !take[q];
    }
    return nl;
}

size_t gs_left_n(const double *xd, const unsigned char *take, size_t k, double *xl,
                 unsigned char *il)
{
#if defined(GS_HAVE_AVX512_LANE)
    if (gs_lane_avx512())
        return gs_left_n_avx512(xd, take, k, xl, il);
#endif
    return gs_left_n_generic(xd, take, k, xl, il);
}

void gs_f32_values_n_generic(const uint64_t *x, size_t k, double *xd)
{
    for (size_t q = 0; q < k; q++) {
        uint32_t b = (uint32_t)x[q];
        float f;
        memcpy(&f, &b, sizeof f);
        xd[q] = f;
    }
}

void gs_f32_values_n(const uint64_t *x, size_t k, double *xd)
{
#if defined(GS_HAVE_AVX512_LANE)
    if (gs_lane_avx512()) {
        gs_f32_values_n_avx512(x, k, xd);
        return;
    }
#endif
    gs_f32_values_n_generic(x, k, xd);
}
