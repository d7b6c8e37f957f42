/* The double tier four inputs at a time (gr_fast_encl_n_avx2, reference/src/fast_vec.c)
 * and eight at a time (gr_fast_encl_n_avx512, the same source with GR_VEC_W = 8, where the
 * CPU reports AVX-512 F, DQ and VL) against the FMA build's scalar evaluators
 * (gr_fast_encl_n_fma), bit for bit: each lane performs the scalar operations, so every
 * enclosure it serves must be the scalar one (m, err, e, side) and it must serve exactly
 * where the scalar code does.  Inputs, for every function of the plug-in ABI, in batches of
 * every length 1 to 19 and at every offset (so that each input falls in every lane, in the
 * four-wide rest after eight and in the scalar rest of a batch):
 *   random   N random binary32 bit patterns and N values uniform in [-64, 64];
 *   runs     N/8 runs of 16 consecutive binary32 values from starts uniform in [-64, 64], as
 *            a sweep gives them: the lanes of a batch mostly share the Mills ratio's
 *            grid row and the exponential's table entry (fast_vec.c broadcasts them then),
 *            and some batches straddle a row or an entry;
 *   edges    every branch boundary of the scalar evaluators and its neighbours: 0 and the
 *            subnormals (2^-500 is 0 in binary32), +-2^-501 (as doubles),
 *            +-2^-10 (gelu's series), +-2^-4, +-2, +-30, +-60, +-1200, +-2^11, the zero
 *            of gelu_grad's M(z) - z near 0.7518, the cancellation of gelu_tanh_grad near
 *            -0.75, +-37.6 (where 2^-q leaves the normal doubles), infinities, NaN,
 *            subnormals, the largest binary32 values; each with the 64 binary32 values on
 *            either side.  (Where the tanh and sigmoid forms' 2^-q leaves the normal doubles
 *            for negative x, near -21.1 and -416, only the random inputs reach.)
 * And the claim that lets a batch skip the vector work in erf's and erfc's tails beyond 5.5
 * (no vector lane serves them) is checked four at a time on N batches of them.
 * The vector lanes themselves must serve at least a fifth (four at a time) and a tenth (eight
 * at a time: batches of 8 to 19 only) of the random inputs of each function
 * (gr_fast_vec_lanes, gr_fast_vec_lanes8).
 * Skipped (exit 77) where the CPU lacks AVX2 or FMA or the build has no such variant.
 * Usage: test_fast_encl_vec N SEED.  Exit 0 when every enclosure is the same. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fast.h"
#include "oddtest.h"

#define MAXB 19

static unsigned long n_cmp, n_served, n_bad;

typedef size_t (*encl_n_fn)(enum geluref_func, const double *, size_t, struct geluref_encl *,
                            unsigned char *);
/* the widths: the batch, its name, its vector lanes' counter, and the share of the random
 * inputs its lanes must serve (one in min_share) */
struct width {
    encl_n_fn fn;
    const char *name;
    unsigned long *lanes;
    unsigned long min_share;
};

/* xs[0 .. n-1] in batches of every length and offset through width w and the scalar
 * variant. */
static void compare(const struct width *w, enum geluref_func f, const double *xs, size_t n)
{
    const char *vec_name = w->name;
    for (size_t len = 1; len <= MAXB; len++)
        for (size_t off = 0; off + len <= n; off += (len > 4 ? len - 3 : 1)) {
            struct geluref_encl a[MAXB], b[MAXB];
            unsigned char oa[MAXB], ob[MAXB];
            memset(a, 0x5a, sizeof a);
            memset(b, 0xa5, sizeof b);
            size_t ka = w->fn(f, xs + off, len, a, oa);
            size_t kb = gr_fast_encl_n_fma(f, xs + off, len, b, ob);
            if (ka != kb) {
                printf("FAIL %s (%s): %zu served against %zu at offset %zu, length %zu\n",
                       geluref_func_name(f), vec_name, ka, kb, off, len);
                n_bad++;
            }
            for (size_t i = 0; i < len; i++) {
                n_cmp++;
                double x = xs[off + i];
                if (oa[i] != ob[i]) {
                    printf("FAIL %s(%a): served %d by the vector path (%s), %d by the scalar "
                           "one\n",
                           geluref_func_name(f), x, oa[i], vec_name, ob[i]);
                    n_bad++;
                    continue;
                }
                if (!oa[i])
                    continue;
                n_served++;
                if (memcmp(&a[i].m, &b[i].m, sizeof(double)) != 0 ||
                    memcmp(&a[i].err, &b[i].err, sizeof(double)) != 0 || a[i].e != b[i].e ||
                    a[i].side != b[i].side) {
                    printf("FAIL %s(%a): vector (%s) %a 2^%lld +- %a side %d, scalar %a 2^%lld "
                           "+- %a side %d\n",
                           geluref_func_name(f), x, vec_name, a[i].m, (long long)a[i].e, a[i].err,
                           a[i].side, b[i].m, (long long)b[i].e, b[i].err, b[i].side);
                    n_bad++;
                }
            }
        }
}

/* xs[0 .. n-1] through each of the nw widths; with share, each width's own lanes must serve
 * at least its share of the enclosures it served (batches shorter than the width and the
 * rests never reach them, and some inputs take the scalar code by design): a path that handed
 * every lane to the scalar code would compare equal everywhere. */
static void compare_widths(const struct width *ws, int nw, enum geluref_func f,
                           const double *xs, size_t n, int share)
{
    for (int v = 0; v < nw; v++) {
        unsigned long lanes0 = *ws[v].lanes, served0 = n_served;
        compare(&ws[v], f, xs, n);
        if (!share)
            continue;
        unsigned long lanes = *ws[v].lanes - lanes0, served = n_served - served0;
        printf("%s: %lu of %lu random enclosures served by the vector lanes (%s)\n",
               geluref_func_name(f), lanes, served, ws[v].name);
        if (lanes < served / ws[v].min_share) {
            printf("FAIL %s: the vector lanes (%s) served too few\n", geluref_func_name(f),
                   ws[v].name);
            n_bad++;
        }
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_fast_encl_vec N SEED\n");
        return 2;
    }
#if !defined(GR_HAVE_AVX2_VARIANT)
    printf("SKIP: this build has no AVX2 variant\n");
    return 77;
#else
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
        printf("SKIP: the CPU reports no AVX2 or no FMA\n");
        return 77;
    }
    unsigned long n = strtoul(argv[1], NULL, 10);
    rng_state = strtoull(argv[2], NULL, 10);
    static const double edges[] = {
        0x1p-500, 0x1p-10, 0x1p-4, 0.5, 0.7518, 0.75, 1, 2, 5.33, 5.5, 5.8, 7.54, 10, 30, 37.6,
        40, 42.7, 60, 60.4, 600, 1200, 1203, 0x1p11, 0x1p-126, 0x1p-149, 3.4028234663852886e38,
    };
    size_t ne = sizeof edges / sizeof edges[0];
    double *xs = malloc(sizeof(double) * (2 * n + ne * 2 * 129 + 8));
    if (!xs)
        return 2;
    /* the widths the CPU can run: four at a time's lanes must serve a fifth of the random
     * inputs, eight at a time's a tenth (batches of 8 to 19 only) */
    const struct width ws[2] = { { gr_fast_encl_n_avx2, "four", &gr_fast_vec_lanes, 5 },
                                 { gr_fast_encl_n_avx512, "eight", &gr_fast_vec_lanes8, 10 } };
    int nv = gr_fast_avx512() ? 2 : 1;
    if (nv == 1)
        printf("the CPU does not report AVX-512 F, DQ and VL: eight at a time not compared\n");
    for (int f = GELUREF_GELU; f <= GELUREF_ERFC; f++) {
        size_t k = 0;
        for (unsigned long i = 0; i < n; i++) {
            xs[k++] = f32_of((uint32_t)next64());
            xs[k++] = (float)(((double)(next64() >> 11) * 0x1p-53 - 0.5) * 128);
        }
        compare_widths(ws, nv, (enum geluref_func)f, xs, k, 1);
        k = 0;
        for (unsigned long i = 0; i < n / 8; i++) {
            uint32_t b = f32_bits((float)(((double)(next64() >> 11) * 0x1p-53 - 0.5) * 128));
            for (int d = 0; d < 16; d++)
                xs[k++] = f32_of(b + (uint32_t)d);
        }
        compare_widths(ws, nv, (enum geluref_func)f, xs, k, 0);
        k = 0;
        for (size_t j = 0; j < ne; j++)
            for (int s = -1; s <= 1; s += 2) {
                uint32_t c = f32_bits((float)(s * edges[j]));
                for (int d = -64; d <= 64; d++) {
                    uint32_t b = c + (uint32_t)d;
                    if (((b ^ c) & 0x80000000u) == 0) /* the same sign */
                        xs[k++] = f32_of(b);
                }
            }
        xs[k++] = 0.0;
        xs[k++] = -0.0;
        xs[k++] = INFINITY;
        xs[k++] = -INFINITY;
        xs[k++] = NAN;
        xs[k++] = 0x1p-501;
        xs[k++] = -0x1p-501;
        compare_widths(ws, nv, (enum geluref_func)f, xs, k, 0);
    }
    /* a batch of erf's with every |x| >= 5.5, or of erfc's with every x <= -5.5, goes to the
     * scalar code without the vector work (fast_vec.c v_erf_tail), on the claim that the vector
     * path serves no such lane: with one lane of x = 1 (served) to keep the batch on the vector
     * path, four at a time must serve that lane alone */
    unsigned long tail_lanes = 0, tail_batches = 0;
    for (int f = GELUREF_ERF; f <= GELUREF_ERFC; f++)
        for (unsigned long i = 0; i < n; i++) {
            double xt[4] = { 1.0 };
            for (int l = 1; l < 4; l++) {
                double u = (double)(next64() >> 11) * 0x1p-53;
                float v = (float)(5.5 + (next64() % 2 ? u * u * 0.5 : u * 60)); /* near 5.5 too */
                xt[l] = f == GELUREF_ERF && next64() % 2 ? v : -v;
            }
            struct geluref_encl o[4];
            unsigned char k4[4];
            unsigned long before = gr_fast_vec_lanes;
            gr_fast_encl_n_avx2((enum geluref_func)f, xt, 4, o, k4);
            tail_lanes += gr_fast_vec_lanes - before - 1;
            tail_batches++;
        }
    printf("%lu batches of erf's and erfc's tails beyond 5.5: %lu of their lanes served by the "
           "vector path\n", tail_batches, tail_lanes);
    if (tail_lanes != 0) {
        printf("FAIL: the vector path served a lane of the tails a batch skips\n");
        n_bad++;
    }
    free(xs);
    printf("%lu enclosures compared (%lu served), %lu differences\n", n_cmp, n_served, n_bad);
    return n_bad != 0 || n_served == 0;
#endif
}
