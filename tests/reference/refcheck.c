#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "refcheck.h"

const mpfr_rnd_t refcheck_modes[4] = { MPFR_RNDN, MPFR_RNDZ, MPFR_RNDU, MPFR_RNDD };
struct geluref_stats refcheck_stats;

void refcheck_report_paths(void)
{
    const struct geluref_stats *s = &refcheck_stats;
    printf("reference paths: %" PRIu64 " calls: %" PRIu64 " special, %" PRIu64 " rule, %" PRIu64
           " Ziv (%" PRIu64 " retries), %" PRIu64 " at the cap; largest working precision %ld "
           "bits (cap %d)\n", s->calls, s->special, s->rule, s->ziv, s->ziv_retries, s->cap_hits,
           (long)s->max_prec, GELUREF_PREC_CAP_DEFAULT);
    if (s->cap_hits || 4 * s->max_prec > GELUREF_PREC_CAP_DEFAULT) {
        fprintf(stderr, "the working precision came near the cap\n");
        exit(1);
    }
}

static int is_nan(enum geluref_dtype dt, uint64_t b)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    uint64_t emask = ((UINT64_C(1) << d->exp_bits) - 1) << (d->prec - 1);
    return (b & emask) == emask && (b & ((UINT64_C(1) << (d->prec - 1)) - 1)) != 0;
}

int refcheck_one(enum geluref_func f, enum geluref_dtype dt, uint64_t x, mpfr_rnd_t rnd,
                 char *msg, size_t size)
{
    return refcheck_one_scaled(f, dt, x, rnd, 1.0, msg, size);
}

int refcheck_one_scaled(enum geluref_func f, enum geluref_dtype dt, uint64_t x, mpfr_rnd_t rnd,
                        double s, char *msg, size_t size)
{
    uint64_t got = 0, want = 0;
    mpfr_prec_t wp = 0;
    struct geluref_config cfg;
    geluref_config_init(&cfg);
    cfg.scale = s;
    int st = geluref_eval(f, dt, x, rnd, &got, &cfg, &refcheck_stats);
    int ost = oracle_eval(f, dt, x, rnd, s, &want, &wp);
    if (st == GELUREF_OK && ost == 0
        && (got == want || (is_nan(dt, got) && is_nan(dt, want))))
        return 0;
    char xs[64], gs[64], ws[64];
    geluref_format_hex(xs, sizeof xs, dt, x);
    geluref_format_hex(gs, sizeof gs, dt, got);
    geluref_format_hex(ws, sizeof ws, dt, want);
    snprintf(msg, size,
             "%s %s %s x=%s (0x%" PRIx64 ") s=%g: reference %s (0x%" PRIx64 ", status %d), "
             "oracle %s (0x%" PRIx64 ", status %d, %ld bits)",
             geluref_func_name(f), geluref_dtype_name(dt), geluref_rnd_name(rnd), xs, x, s, gs,
             got, st, ws, want, ost, (long)wp);
    return 1;
}

size_t refcheck_many(const enum geluref_func *funcs, size_t nf, enum geluref_dtype dt,
                     const uint64_t *xs, size_t n, const mpfr_rnd_t *modes, size_t nm)
{
    size_t bad = 0;
    char msg[512];
    for (size_t k = 0; k < nf; k++)
        for (size_t i = 0; i < n; i++)
            for (size_t m = 0; m < nm; m++)
                if (refcheck_one(funcs[k], dt, xs[i], modes[m], msg, sizeof msg)) {
                    if (bad++ < 10)
                        fprintf(stderr, "mismatch: %s\n", msg);
                }
    return bad;
}

uint64_t refcheck_rand(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

uint64_t refcheck_bits(enum geluref_dtype dt, double v)
{
    mpfr_t t;
    uint64_t b = 0;
    mpfr_init2(t, 53);
    mpfr_set_d(t, v, MPFR_RNDN);
    if (geluref_mpfr_to_bits(dt, t, &b) != 0)
        b = UINT64_MAX; /* not representable: the caller's table is wrong */
    mpfr_clear(t);
    return b;
}

double refcheck_value(enum geluref_dtype dt, uint64_t bits)
{
    mpfr_t t;
    mpfr_init2(t, 53);
    geluref_bits_to_mpfr(t, dt, bits);
    double v = mpfr_get_d(t, MPFR_RNDN);
    mpfr_clear(t);
    return v;
}

static uint64_t step(enum geluref_dtype dt, uint64_t bits, int up)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    uint64_t sign = UINT64_C(1) << (d->bits - 1);
    if ((bits & ~sign) == 0) /* +-0 */
        return up ? 1 : sign | 1;
    int neg = (bits & sign) != 0;
    return (neg == up) ? bits - 1 : bits + 1;
}

uint64_t refcheck_next_up(enum geluref_dtype dt, uint64_t bits)
{
    return step(dt, bits, 1);
}

uint64_t refcheck_next_down(enum geluref_dtype dt, uint64_t bits)
{
    return step(dt, bits, 0);
}
