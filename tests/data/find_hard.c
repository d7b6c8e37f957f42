/* find_hard: the inputs of a function and dtype whose correctly rounded result is hardest to
 * decide: f(x) closest to a rounding boundary of the dtype (a midpoint between two values
 * for RN, a value itself for RD/RU/RZ), measured in ulps of the result.
 *
 * Pass 1 reads the boundary distance off geluref_eval_odd()'s value, which holds f(x) to at
 * least 16 bits below the ulp: inputs closer than 2^-10 ulp to a boundary are candidates.
 * Pass 2 computes each candidate's distance from f(x) at 256 bits with MPFR (RZ, so the
 * binade is f(x)'s own) and keeps the K closest.  Output: a header of # lines saying how the
 * set was found, then one line per input: the bits, the hex float, and log2 of the distance
 * in ulps, closest first.
 *
 * Usage: find_hard FUNC DTYPE all|random N SEED [K]   (all: every input; f16, bf16, f32) */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fast.h"
#include "geluref.h"

#define MAX_CAND 4000000
#define THREADS 2

struct job {
    enum geluref_func f;
    enum geluref_dtype dt;
    int all;
    uint64_t n, seed, lo, hi;
    uint64_t *cand;
    size_t n_cand;
    int full; /* candidates were dropped: the buffer was full */
};

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Distance of f(x) (as the odd value o) to the nearest boundary, in ulps, >= 2^-16. */
static double coarse(const struct geluref_odd *o, const struct geluref_dtype_info *d)
{
    if (o->kind != GELUREF_ODD_FINITE)
        return 1;
    int64_t e = o->exp + o->prec - 1;
    int64_t qt = (e > d->emin ? e : d->emin) - d->prec + 1;
    int64_t s = qt - o->exp;
    if (s < 1 || s > 62) /* the fraction bits lie in sig_lo (P <= 69) */
        return 1;
    double frac = (double)(o->sig_lo & (((uint64_t)1 << s) - 1)) / (double)((uint64_t)1 << s);
    double dm = fabs(frac - 0.5), dr = frac < 1 - frac ? frac : 1 - frac;
    return dm < dr ? dm : dr;
}

static void *scan(void *arg)
{
    struct job *j = arg;
    const struct geluref_dtype_info *d = geluref_dtype_info(j->dt);
    uint64_t mask = d->bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << d->bits) - 1;
    uint64_t inf = (((uint64_t)1 << d->exp_bits) - 1) << (d->prec - 1);
    struct geluref_odd o;
    for (uint64_t i = j->lo; i < j->hi; i++) {
        uint64_t x = j->all ? i : mix(j->seed * 0x9e3779b97f4a7c15u + i) & mask;
        uint64_t mag = x & (mask >> 1);
        if (mag == 0 || mag >= inf)
            continue;
        if (geluref_eval_odd(j->f, j->dt, x, GELUREF_PATH_FAST, NULL, NULL, &o) != GELUREF_OK)
            continue;
        if (coarse(&o, d) >= 0x1p-10)
            continue;
        /* f(x) = c (1 +- d) next to a p-bit value c with |d| < 2^-(p+1) by a rule's bound
         * (saturation, x/2 near 0, 1 - tiny, ...: the fast path's rules asked at p + 1
         * bits), or negligible: near a boundary by construction, not hard; left out */
        struct gr_fx fx;
        char txt[64];
        geluref_format_hex(txt, sizeof txt, j->dt, x);
        double xd = strtod(txt, NULL); /* exact: a hex float of at most 53 bits */
        enum gr_fx_kind kind = gr_fast_eval(j->f, xd, d->prec + 1, &fx);
        if (kind == GR_FX_CELL || kind == GR_FX_TINY)
            continue;
        if (j->n_cand == MAX_CAND)
            j->full = 1;
        else
            j->cand[j->n_cand++] = x;
    }
    return NULL;
}

struct hard {
    uint64_t x;
    double dist;
};

static int by_dist(const void *a, const void *b)
{
    const struct hard *p = a, *q = b;
    return p->dist < q->dist ? -1 : p->dist > q->dist ? 1 : p->x < q->x ? -1 : p->x > q->x;
}

/* The exact distance (to 2^-200 ulp) of f(x) to the nearest boundary, in ulps. */
static double exact_dist(enum geluref_func f, enum geluref_dtype dt, uint64_t x)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    mpfr_exp_t emin = mpfr_get_emin();
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_t xm, v, fl;
    mpfr_inits2(256, xm, v, fl, (mpfr_ptr)0);
    geluref_bits_to_mpfr(xm, dt, x);
    int t;
    double dist = 1;
    if (geluref_eval_mpfr(f, v, xm, NULL, MPFR_RNDZ, NULL, NULL, &t) == GELUREF_OK
        && mpfr_regular_p(v)) {
        mpfr_abs(v, v, MPFR_RNDN);
        long e = (long)mpfr_get_exp(v) - 1;
        long qt = (e > d->emin ? e : d->emin) - d->prec + 1;
        mpfr_mul_2si(v, v, -qt, MPFR_RNDN); /* in ulps: exact */
        if (mpfr_cmp_d(v, 0.5) < 0) { /* below half the smallest subnormal: 0 or the
                                         smallest subnormal by the sign alone, not hard */
            mpfr_clears(xm, v, fl, (mpfr_ptr)0);
            mpfr_set_emin(emin);
            return 1;
        }
        mpfr_frac(fl, v, MPFR_RNDN);         /* exact */
        mpfr_ui_sub(v, 1, fl, MPFR_RNDN);    /* exact */
        double dr = mpfr_cmp(fl, v) < 0 ? mpfr_get_d(fl, MPFR_RNDN) : mpfr_get_d(v, MPFR_RNDN);
        mpfr_sub_d(fl, fl, 0.5, MPFR_RNDN);  /* exact */
        double dm = fabs(mpfr_get_d(fl, MPFR_RNDN));
        dist = dm < dr ? dm : dr;
    }
    mpfr_clears(xm, v, fl, (mpfr_ptr)0);
    mpfr_set_emin(emin);
    return dist;
}

int main(int argc, char **argv)
{
    enum geluref_func f;
    enum geluref_dtype dt;
    if (argc < 4 || geluref_func_from_name(argv[1], &f) != 0
        || geluref_dtype_from_name(argv[2], &dt) != 0) {
        fprintf(stderr, "usage: find_hard FUNC DTYPE all|random N SEED [K]\n");
        return 2;
    }
    int all = strcmp(argv[3], "all") == 0;
    int karg = all ? 4 : 6;
    if ((!all && (argc < 6 || strcmp(argv[3], "random") != 0))
        || (all && geluref_dtype_info(dt)->bits == 64)) {
        fprintf(stderr, "find_hard: 'all' takes f16, bf16 or f32; else 'random N SEED'\n");
        return 2;
    }
    size_t k = argc > karg ? strtoull(argv[karg], NULL, 10) : 64;
    uint64_t n = all ? (uint64_t)1 << geluref_dtype_info(dt)->bits : strtoull(argv[4], NULL, 10);
    uint64_t seed = all ? 0 : strtoull(argv[5], NULL, 10);
    struct job jobs[THREADS];
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; i++) {
        jobs[i] = (struct job){ f, dt, all, n, seed, n / THREADS * (uint64_t)i,
                                i == THREADS - 1 ? n : n / THREADS * (uint64_t)(i + 1),
                                malloc(MAX_CAND * sizeof(uint64_t)), 0, 0 };
        if (!jobs[i].cand || pthread_create(&th[i], NULL, scan, &jobs[i]) != 0)
            return 1;
    }
    size_t total = 0;
    int full = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        total += jobs[i].n_cand;
        full |= jobs[i].full;
    }
    if (full) { /* a set that missed candidates is not what the header would say */
        fprintf(stderr, "find_hard: more than %d candidates per thread: give fewer inputs\n",
                MAX_CAND);
        return 1;
    }
    struct hard *h = malloc((total + 1) * sizeof *h);
    size_t m = 0;
    for (int i = 0; i < THREADS; i++)
        for (size_t c = 0; c < jobs[i].n_cand; c++) {
            h[m].x = jobs[i].cand[c];
            h[m].dist = exact_dist(f, dt, h[m].x);
            m++;
        }
    qsort(h, m, sizeof *h, by_dist);
    printf("# %s %s: the %zu inputs whose result lies closest to a rounding boundary of %s\n"
           "# (a midpoint for RN, a %s value for RD/RU/RZ), closest first.\n",
           geluref_func_name(f), geluref_dtype_name(dt), m < k ? m : k, geluref_dtype_name(dt),
           geluref_dtype_name(dt));
    if (all)
        printf("# Found by one pass over every finite non-zero input (2^%d patterns):\n",
               geluref_dtype_info(dt)->bits);
    else
        printf("# Found among %" PRIu64 " random bit patterns (seed %" PRIu64 "; every binade and "
               "both signs alike):\n", n, seed);
    printf("# pass 1 kept the %zu inputs whose value rounded to odd at p+16 bits lies within\n"
           "# 2^-10 ulp of a boundary, leaving out those where f(x) = c (1 +- d) next to a value\n"
           "# c with |d| < 2^-(p+1) by the fast path's rules (saturation, x/2 near 0, ...: near\n"
           "# a boundary by construction); pass 2 measured each with MPFR at 256 bits (results\n"
           "# below half the smallest subnormal left out: their roundings follow from the sign).\n"
           "# Columns: input bits, input as hex float, log2(distance in ulps).\n"
           "# Regenerate (tests/data/README.md): find_hard",
           total);
    for (int i = 1; i < argc; i++)
        printf(" %s", argv[i]);
    printf("\n");
    for (size_t i = 0; i < m && i < k; i++) {
        char hx[64];
        geluref_format_hex(hx, sizeof hx, dt, h[i].x);
        char bits[32];
        geluref_format_bits(bits, sizeof bits, dt, h[i].x);
        printf("%s  %s  %.2f\n", bits, hx, h[i].dist > 0 ? log2(h[i].dist) : -INFINITY);
    }
    for (int i = 0; i < THREADS; i++)
        free(jobs[i].cand);
    free(h);
    return 0;
}
