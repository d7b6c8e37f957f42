/* geluref_eval_odd_n() against geluref_eval_odd(), bit for bit: every field of every value,
 * the status and the counters, on the way sweeps call it (runs of consecutive bit patterns).
 * Usage:
 *   test_ref_batch all16 LEN                 every f16 and bf16 input of every function, in
 *                                            batches of LEN
 *   test_ref_batch runs DTYPE RUNS LEN SEED  RUNS runs of LEN consecutive patterns from random
 *                                            starts, RUNS more in 2^-41 <= |x| < 2^-9 (binary32
 *                                            gelu's series lane), runs across each rule's
 *                                            boundaries
 *                                            (the saturation and deep-tail thresholds, 0, the
 *                                            near-zero threshold 2^-(p+17), +-inf and NaN), every
 *                                            function; a few runs on the MPFR path and of
 *                                            gelu_scaled as well
 *   test_ref_batch file DTYPE FUNC PATH      the inputs of a hard-case file (tests/data) in one
 *                                            batch and each in a run of 16
 * Exit 0 when everything agrees. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geluref.h"
#include "oddtest.h"

#define MAX_LEN 4096 /* longest run */

static int same_stats(const struct geluref_stats *a, const struct geluref_stats *b)
{
    return a->calls == b->calls && a->special == b->special && a->rule == b->rule &&
           a->ziv == b->ziv && a->ziv_retries == b->ziv_retries && a->cap_hits == b->cap_hits &&
           a->max_prec == b->max_prec && a->fast == b->fast && a->fast_miss == b->fast_miss;
}

static uint64_t n_checked, n_bad;

/* x[0..n-1] in one batch against one call each. */
static void check_run(enum geluref_func f, enum geluref_dtype dt, const uint64_t *x, size_t n,
                      enum geluref_path path)
{
    static struct geluref_odd a[MAX_LEN], b[MAX_LEN];
    struct geluref_stats sa = { 0 }, sb = { 0 };
    size_t failed = n;
    enum geluref_status st = geluref_eval_odd_n(f, dt, x, n, path, NULL, &sa, a, &failed);
    enum geluref_status first = GELUREF_OK;
    size_t first_at = n;
    for (size_t i = 0; i < n; i++) {
        memset(&b[i], 0, sizeof b[i]);
        enum geluref_status s1 = geluref_eval_odd(f, dt, x[i], path, NULL, &sb, &b[i]);
        if (s1 != GELUREF_OK) {
            first = s1;
            first_at = i;
            break;
        }
    }
    n_checked += n;
    int bad = st != first || (st != GELUREF_OK && failed != first_at);
    for (size_t i = 0; !bad && i < first_at; i++)
        if (!same_odd(&a[i], &b[i])) {
            char xs[64];
            geluref_format_hex(xs, sizeof xs, dt, x[i]);
            printf("MISMATCH %s %s path %d x = %s (0x%" PRIx64 "): kind %d/%d rn %" PRIx64
                   "/%" PRIx64 " sig %" PRIx64 "/%" PRIx64 " exp %" PRId64 "/%" PRId64 "\n",
                   geluref_func_name(f), geluref_dtype_name(dt), (int)path, xs, x[i], a[i].kind,
                   b[i].kind, a[i].rn, b[i].rn, a[i].sig_lo, b[i].sig_lo, a[i].exp, b[i].exp);
            bad = 1;
        }
    if (!bad && !same_stats(&sa, &sb)) {
        printf("STATS %s %s path %d from 0x%" PRIx64 ": calls %" PRIu64 "/%" PRIu64
               " fast %" PRIu64 "/%" PRIu64 " fast_miss %" PRIu64 "/%" PRIu64 "\n",
               geluref_func_name(f), geluref_dtype_name(dt), (int)path, x[0], sa.calls,
               sb.calls, sa.fast, sb.fast, sa.fast_miss, sb.fast_miss);
        bad = 1;
    }
    if (bad && n_bad++ < 10)
        printf("  (run of %zu from 0x%" PRIx64 ", status %d/%d)\n", n, x[0], (int)st, (int)first);
}

/* A run of len patterns from start (wrapping within the dtype's width). */
static void run_from(enum geluref_func f, enum geluref_dtype dt, uint64_t start, size_t len,
                     enum geluref_path path)
{
    static uint64_t x[MAX_LEN];
    int bits = geluref_dtype_info(dt)->bits;
    uint64_t mask = bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
    for (size_t i = 0; i < len; i++)
        x[i] = (start + i) & mask;
    check_run(f, dt, x, len, path);
}

/* The bits of v (a double) in dt, rounded to nearest by the reference's own parser. */
static uint64_t bits_of(enum geluref_dtype dt, const char *v)
{
    uint64_t b = 0;
    if (geluref_parse(v, dt, &b, NULL) != GELUREF_OK)
        return 0;
    return b;
}

static int is_fn(int f) { return f >= GELUREF_FUNC_FIRST && f <= GELUREF_GELU_GRAD2; }

int main(int argc, char **argv)
{
    enum geluref_dtype dt;
    if (argc == 3 && strcmp(argv[1], "all16") == 0) {
        size_t len = strtoul(argv[2], NULL, 10);
        if (len < 1 || len > MAX_LEN)
            return 2;
        enum geluref_dtype dts[2] = { GELUREF_F16, GELUREF_BF16 };
        for (int d = 0; d < 2; d++)
            for (int f = GELUREF_FUNC_FIRST; is_fn(f); f++)
                for (uint64_t s = 0; s < 65536; s += len)
                    run_from((enum geluref_func)f, dts[d], s,
                             65536 - s < len ? 65536 - s : len, GELUREF_PATH_FAST);
    } else if (argc == 6 && strcmp(argv[1], "runs") == 0 &&
               geluref_dtype_from_name(argv[2], &dt) == 0) {
        uint64_t runs = strtoull(argv[3], NULL, 10);
        size_t len = strtoul(argv[4], NULL, 10);
        rng_state = strtoull(argv[5], NULL, 10);
        if (len < 1 || len > MAX_LEN)
            return 2;
        const struct geluref_dtype_info *d = geluref_dtype_info(dt);
        uint64_t sign = (uint64_t)1 << (d->bits - 1);
        uint64_t inf = (((uint64_t)1 << d->exp_bits) - 1) << (d->prec - 1);
        char near0[32];
        snprintf(near0, sizeof near0, "0x1p-%d", d->prec + 17); /* the near-zero rule */
        /* values where a rule starts or stops (fast_fn.c), both signs */
        const char *edges[] = { "40",   "60",    "30",
                                "1200", "42.7",  "5.4",
                                "8.3",  "0.75",  near0,
                                "0x1p-10", /* the series near 0 */
                                /* gelu's saturation rule: sqrt(2 (p + 17) ln2) */
                                "5.887050112577374", "6.230268221461812", "7.539102652565192",
                                "9.850919006792836" };
        for (int f = GELUREF_FUNC_FIRST; is_fn(f); f++) {
            enum geluref_func fn = (enum geluref_func)f;
            for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++) {
                uint64_t b = bits_of(dt, edges[e]);
                run_from(fn, dt, b - len / 2, len, GELUREF_PATH_FAST);
                run_from(fn, dt, (b | sign) - len / 2, len, GELUREF_PATH_FAST);
            }
            /* across +0 and -0 (from the top negative subnormals through -0 into +0 is not
             * consecutive in bits: each side), +-inf and the NaNs after them */
            run_from(fn, dt, 0, len, GELUREF_PATH_FAST);
            run_from(fn, dt, sign, len, GELUREF_PATH_FAST);
            run_from(fn, dt, inf - len / 2, len, GELUREF_PATH_FAST);
            run_from(fn, dt, (inf | sign) - len / 2, len, GELUREF_PATH_FAST);
            for (uint64_t r = 0; r < runs; r++)
                run_from(fn, dt, next64(), len, GELUREF_PATH_FAST);
            /* as many again in 2^-41 <= |x| < 2^-9 (where it is a normal range): gelu's
             * series near 0, which batches of binary32 decide in a lane of their own */
            for (uint64_t r = 0; r < runs && d->emin <= -41; r++) {
                uint64_t field = (uint64_t)(-41 + (int)(next64() % 32) + d->emax);
                uint64_t mant = next64() & (((uint64_t)1 << (d->prec - 1)) - 1);
                run_from(fn, dt, (r & 1 ? sign : 0) | field << (d->prec - 1) | mant, len,
                         GELUREF_PATH_FAST);
            }
            /* the MPFR path (slow: a short run) */
            run_from(fn, dt, next64(), len < 16 ? len : 16, GELUREF_PATH_MPFR);
        }
        /* gelu_scaled has no fast path: each input goes to geluref_eval_odd's MPFR path */
        run_from(GELUREF_GELU_SCALED, dt, bits_of(dt, "1.5") - 4, 8, GELUREF_PATH_FAST);
    } else if (argc == 5 && strcmp(argv[1], "file") == 0 &&
               geluref_dtype_from_name(argv[2], &dt) == 0) {
        /* the inputs of a hard-case file (tests/data) as one batch, each also alone and as
         * the middle of a run of 16 consecutive patterns */
        enum geluref_func fn;
        if (geluref_func_from_name(argv[3], &fn) != 0)
            return 2;
        FILE *fp = fopen(argv[4], "r");
        if (!fp) {
            perror(argv[4]);
            return 2;
        }
        static uint64_t xs[MAX_LEN];
        size_t n = 0;
        char line[256];
        while (n < MAX_LEN && fgets(line, sizeof line, fp)) {
            if (line[0] == '#' || line[0] == '\n')
                continue;
            if (geluref_parse(strtok(line, " \t\n"), dt, &xs[n], NULL) != GELUREF_OK) {
                printf("%s: bad line '%s'\n", argv[4], line);
                fclose(fp);
                return 2;
            }
            n++;
        }
        fclose(fp);
        check_run(fn, dt, xs, n, GELUREF_PATH_FAST);
        for (size_t i = 0; i < n; i++)
            run_from(fn, dt, xs[i] - 8, 16, GELUREF_PATH_FAST);
    } else {
        fprintf(stderr, "usage: test_ref_batch all16 LEN | runs DTYPE RUNS LEN SEED | "
                        "file DTYPE FUNC PATH\n");
        return 2;
    }
    /* an invalid function: E_INVALID at index 0 */
    struct geluref_odd o;
    uint64_t x0 = 0x3c00;
    size_t failed = 99;
    if (geluref_eval_odd_n((enum geluref_func)9999, GELUREF_F16, &x0, 1, GELUREF_PATH_FAST, NULL,
                           NULL, &o, &failed) != GELUREF_E_INVALID || failed != 0) {
        printf("an invalid function was not refused at index 0\n");
        n_bad++;
    }
    printf("%" PRIu64 " inputs in batches, %" PRIu64 " mismatching runs\n", n_checked, n_bad);
    return n_bad != 0;
}
