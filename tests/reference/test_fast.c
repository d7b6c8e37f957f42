/* The fast path against the MPFR path of geluref_eval_odd(), bit for bit (kind, sign,
 * significand, exponent, RN, RD, RU).
 * Usage:
 *   test_ref_fast all16                      every f16 and bf16 input of every function
 *   test_ref_fast random DTYPE N SEED [FUNC] N random bit patterns (every binade and both
 *                                            signs alike), every function or FUNC
 *   test_ref_fast file DTYPE FUNC PATH       the inputs of a hard-case file (tests/data)
 *   test_ref_fast binades DTYPE FUNC E0 E1 N SEED
 *                                            N random inputs with |x| in [2^E0, 2^E1)
 * Exit 0 when both paths agree everywhere and the fast path decided most inputs of the
 * functions it serves (so a fast path that silently gives up everywhere fails too). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geluref.h"
#include "oddtest.h"

/* every function but gelu_scaled has a fast path */
static int served(enum geluref_func f) { return f != GELUREF_GELU_SCALED; }

static int same(const struct geluref_odd *a, const struct geluref_odd *b)
{
    if (a->kind != b->kind || a->rn != b->rn || a->rd != b->rd || a->ru != b->ru)
        return 0;
    if (a->kind == GELUREF_ODD_NAN)
        return 1;
    return a->neg == b->neg && a->sig_hi == b->sig_hi && a->sig_lo == b->sig_lo
           && a->exp == b->exp && a->exact == b->exact;
}

struct tally {
    uint64_t n, bad, fast, fail;
};

static void check(enum geluref_func f, enum geluref_dtype dt, uint64_t x, struct tally *t)
{
    struct geluref_odd a, b;
    struct geluref_stats st = { 0 };
    enum geluref_status s1 = geluref_eval_odd(f, dt, x, GELUREF_PATH_FAST, NULL, &st, &a);
    enum geluref_status s2 = geluref_eval_odd(f, dt, x, GELUREF_PATH_MPFR, NULL, NULL, &b);
    t->n++;
    t->fast += st.fast;
    if (s1 != s2 || (s1 == GELUREF_OK && !same(&a, &b))) {
        if (t->bad++ < 10) {
            char xs[64];
            geluref_format_hex(xs, sizeof xs, dt, x);
            printf("MISMATCH %s %s x = %s (0x%" PRIx64 "): status %d/%d kind %d/%d neg %d/%d "
                   "sig %016" PRIx64 "%016" PRIx64 "/%016" PRIx64 "%016" PRIx64
                   " exp %" PRId64 "/%" PRId64 " rn %" PRIx64 "/%" PRIx64 " rd %" PRIx64 "/%" PRIx64
                   " ru %" PRIx64 "/%" PRIx64 "\n",
                   geluref_func_name(f), geluref_dtype_name(dt), xs, x, s1, s2, a.kind, b.kind,
                   a.neg, b.neg, a.sig_hi, a.sig_lo, b.sig_hi, b.sig_lo, a.exp, b.exp, a.rn,
                   b.rn, a.rd, b.rd, a.ru, b.ru);
        }
    }
}

static int report(enum geluref_func f, enum geluref_dtype dt, const struct tally *t)
{
    double frac = t->n ? (double)t->fast / (double)t->n : 0;
    printf("%-15s %-4s %10" PRIu64 " inputs, fast path %6.2f%%, %" PRIu64 " mismatches\n",
           geluref_func_name(f), geluref_dtype_name(dt), t->n, 100 * frac, t->bad);
    /* the served functions must be decided mostly by the fast path (NaN inputs and the
     * rare undecided cases go to MPFR) */
    if (served(f) && t->n >= 1000 && frac < 0.9) {
        printf("FAIL: the fast path decided only %.2f%% of %s %s\n", 100 * frac,
               geluref_func_name(f), geluref_dtype_name(dt));
        return 1;
    }
    return t->bad != 0;
}

int main(int argc, char **argv)
{
    int rc = 0;
    if (argc == 2 && strcmp(argv[1], "all16") == 0) {
        enum geluref_dtype dts[2] = { GELUREF_F16, GELUREF_BF16 };
        for (int d = 0; d < 2; d++)
            for (int f = GELUREF_FUNC_FIRST; f <= GELUREF_GELU_GRAD2; f++) {
                struct tally t = { 0 };
                for (uint64_t x = 0; x < 65536; x++)
                    check((enum geluref_func)f, dts[d], x, &t);
                rc |= report((enum geluref_func)f, dts[d], &t);
            }
        return rc;
    }
    enum geluref_dtype dt;
    if (argc >= 5 && strcmp(argv[1], "random") == 0 && geluref_dtype_from_name(argv[2], &dt) == 0) {
        uint64_t n = strtoull(argv[3], NULL, 10);
        uint64_t seed = strtoull(argv[4], NULL, 10);
        int bits = geluref_dtype_info(dt)->bits;
        uint64_t mask = bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
        for (int f = GELUREF_FUNC_FIRST; f <= GELUREF_GELU_GRAD2; f++) {
            enum geluref_func fn = (enum geluref_func)f;
            if (argc > 5 && strcmp(argv[5], geluref_func_name(fn)) != 0)
                continue;
            rng_state = seed * 1000003u + (uint64_t)f;
            struct tally t = { 0 };
            for (uint64_t i = 0; i < n; i++)
                check(fn, dt, next64() & mask, &t);
            rc |= report(fn, dt, &t);
        }
        return rc;
    }
    enum geluref_func fn;
    if (argc == 8 && strcmp(argv[1], "binades") == 0 &&
        geluref_dtype_from_name(argv[2], &dt) == 0 && geluref_func_from_name(argv[3], &fn) == 0) {
        /* N random inputs with |x| in [2^E0, 2^E1), every binade alike, both signs */
        long e0 = strtol(argv[4], NULL, 10), e1 = strtol(argv[5], NULL, 10);
        uint64_t n = strtoull(argv[6], NULL, 10);
        const struct geluref_dtype_info *d = geluref_dtype_info(dt);
        if (e0 >= e1 || e0 < d->emin || e1 > d->emax + 1)
            return 2;
        rng_state = strtoull(argv[7], NULL, 10);
        struct tally t = { 0 };
        for (uint64_t i = 0; i < n; i++) {
            uint64_t r = next64();
            uint64_t field = (uint64_t)(e0 + (long)(r % (uint64_t)(e1 - e0)) + d->emax);
            uint64_t mant = next64() & (((uint64_t)1 << (d->prec - 1)) - 1);
            uint64_t sign = (r >> 63) << (d->bits - 1);
            check(fn, dt, sign | field << (d->prec - 1) | mant, &t);
        }
        return report(fn, dt, &t);
    }
    if (argc == 5 && strcmp(argv[1], "file") == 0 && geluref_dtype_from_name(argv[2], &dt) == 0
        && geluref_func_from_name(argv[3], &fn) == 0) {
        FILE *fp = fopen(argv[4], "r");
        if (!fp) {
            perror(argv[4]);
            return 2;
        }
        char line[256];
        struct tally t = { 0 };
        while (fgets(line, sizeof line, fp)) {
            if (line[0] == '#' || line[0] == '\n')
                continue;
            uint64_t x;
            if (geluref_parse(strtok(line, " \t\n"), dt, &x, NULL) != GELUREF_OK) {
                printf("%s: bad line '%s'\n", argv[4], line);
                fclose(fp);
                return 2;
            }
            check(fn, dt, x, &t);
        }
        fclose(fp);
        rc |= t.bad != 0;
        report(fn, dt, &t);
        return rc;
    }
    fprintf(stderr, "usage: test_ref_fast all16 | random DTYPE N SEED [FUNC] | "
                    "file DTYPE FUNC PATH | binades DTYPE FUNC E0 E1 N SEED\n");
    return 2;
}
