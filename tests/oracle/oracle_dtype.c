/* The oracle's dtype layer: decoding bit patterns and rounding an MPFR value into a dtype,
 * written from the IEEE 754 definitions with integer arithmetic only (no float, no double,
 * no mpfr_subnormalize), so that it does not share its mistakes with reference/. */
#include <stdint.h> /* before mpfr.h: enables mpfr_set_uj_2exp */
#include "oracle.h"

#include <gmp.h>
#include <stdbool.h>
#include <stddef.h>

/* IEEE 754 binary64, binary32, binary16 and bfloat16 (8 exponent bits, 7 fraction bits). */
static const struct geluref_dtype_info infos[] = {
    [GELUREF_F64] = { "f64", 64, 53, -1022, 1023, 11 },
    [GELUREF_F32] = { "f32", 32, 24, -126, 127, 8 },
    [GELUREF_F16] = { "f16", 16, 11, -14, 15, 5 },
    [GELUREF_BF16] = { "bf16", 16, 8, -126, 127, 8 },
};

const struct geluref_dtype_info *oracle_dtype_info(enum geluref_dtype dt)
{
    if (dt < GELUREF_F64 || dt > GELUREF_BF16)
        return NULL;
    return &infos[dt];
}

uint64_t oracle_qnan(enum geluref_dtype dt)
{
    const struct geluref_dtype_info *d = oracle_dtype_info(dt);
    /* all exponent bits and the top fraction bit */
    uint64_t exp_all = ((UINT64_C(1) << d->exp_bits) - 1) << (d->prec - 1);
    return exp_all | UINT64_C(1) << (d->prec - 2);
}

static uint64_t sign_bit(const struct geluref_dtype_info *d, bool neg)
{
    return neg ? UINT64_C(1) << (d->bits - 1) : 0;
}

static uint64_t inf_bits(const struct geluref_dtype_info *d, bool neg)
{
    return sign_bit(d, neg) | ((UINT64_C(1) << d->exp_bits) - 1) << (d->prec - 1);
}

static uint64_t max_bits(const struct geluref_dtype_info *d, bool neg)
{
    return inf_bits(d, neg) - 1; /* largest exponent field below all-ones, fraction all ones */
}

void oracle_decode(mpfr_ptr v, enum geluref_dtype dt, uint64_t bits)
{
    const struct geluref_dtype_info *d = oracle_dtype_info(dt);
    int fbits = d->prec - 1;
    bool neg = (bits >> (d->bits - 1)) & 1;
    uint64_t ef = (bits >> fbits) & ((UINT64_C(1) << d->exp_bits) - 1);
    uint64_t frac = bits & ((UINT64_C(1) << fbits) - 1);
    if (ef == (UINT64_C(1) << d->exp_bits) - 1) {
        if (frac != 0)
            mpfr_set_nan(v);
        else
            mpfr_set_inf(v, neg ? -1 : 1);
        return;
    }
    if (ef == 0) /* zero or subnormal: frac * 2^(emin - p + 1) */
        mpfr_set_uj_2exp(v, frac, d->emin - fbits, MPFR_RNDN); /* exact: prec >= p */
    else         /* normal: (2^(p-1) + frac) * 2^(e - p + 1), e = ef - bias, bias = emax */
        mpfr_set_uj_2exp(v, frac | UINT64_C(1) << fbits, (long)ef - d->emax - fbits,
                         MPFR_RNDN); /* exact */
    mpfr_setsign(v, v, neg, MPFR_RNDN); /* exact; gives -0 for a negative zero */
}

/* Where the exact magnitude lies between N*q and (N+1)*q, q the quantum. */
enum rem { REM_ZERO, REM_BELOW_HALF, REM_HALF, REM_ABOVE_HALF };

/* How rnd treats a magnitude strictly between two neighbours. */
enum dir { DIR_NEAREST, DIR_TRUNC, DIR_AWAY };

static enum dir dir_of(mpfr_rnd_t rnd, bool neg)
{
    switch (rnd) {
    case MPFR_RNDN: return DIR_NEAREST;
    case MPFR_RNDU: return neg ? DIR_TRUNC : DIR_AWAY; /* toward +inf */
    case MPFR_RNDD: return neg ? DIR_AWAY : DIR_TRUNC; /* toward -inf */
    default: return DIR_TRUNC;                         /* MPFR_RNDZ */
    }
}

/* A nonzero value below zero's quantum: bias decides its sign; +-0 or +-min subnormal. */
static uint64_t round_tiny_zero(const struct geluref_dtype_info *d, mpfr_srcptr v, int bias,
                                mpfr_rnd_t rnd)
{
    if (bias == 0) /* exact zero: keeps its sign */
        return sign_bit(d, mpfr_signbit(v) != 0);
    bool neg = bias < 0; /* 0 + infinitesimal > 0, 0 - infinitesimal < 0 */
    /* |value| < min subnormal / 2: nearest and truncation give 0, away gives min subnormal */
    return sign_bit(d, neg) | (dir_of(rnd, neg) == DIR_AWAY ? 1u : 0u);
}

/* The magnitude N * 2^qexp, N <= 2^p, as bits; a carry to 2^p moves to the next binade;
 * above emax it is inf (only nearest and away round up, and both overflow to inf). */
static uint64_t encode(const struct geluref_dtype_info *d, bool neg, uint64_t n, long qexp)
{
    int p = d->prec;
    if (n == UINT64_C(1) << p) { /* carry: 2^p * 2^qexp = 2^(p-1) * 2^(qexp+1), exact */
        n >>= 1;
        qexp++;
    }
    if (n < UINT64_C(1) << (p - 1)) /* subnormal (or zero): qexp is emin - p + 1 here */
        return sign_bit(d, neg) | n;
    long e = qexp + p - 1;
    if (e > d->emax)
        return inf_bits(d, neg);
    uint64_t ef = (uint64_t)(e + d->emax); /* biased exponent, bias = emax */
    return sign_bit(d, neg) | ef << (p - 1) | (n - (UINT64_C(1) << (p - 1)));
}

/* m * 2^e = N * 2^k' + rest with N = floor(m / 2^k): N and the class of the rest.
 * bl is the bit length of m > 0. */
static enum rem split(mpz_srcptr m, size_t bl, long k, mpz_ptr n)
{
    if (k <= 0) { /* the quantum divides the value */
        mpz_mul_2exp(n, m, (mp_bitcnt_t)-k);
        return REM_ZERO;
    }
    if ((unsigned long)k > bl) { /* m < 2^(k-1): nonzero rest below half a quantum */
        mpz_set_ui(n, 0);
        return REM_BELOW_HALF;
    }
    mpz_fdiv_q_2exp(n, m, (mp_bitcnt_t)k);
    mp_bitcnt_t low = mpz_scan1(m, 0); /* lowest set bit */
    if (low >= (mp_bitcnt_t)k)
        return REM_ZERO;
    if (!mpz_tstbit(m, (mp_bitcnt_t)k - 1))
        return REM_BELOW_HALF;
    return low == (mp_bitcnt_t)k - 1 ? REM_HALF : REM_ABOVE_HALF;
}

/* Moves an exact position by the infinitesimal (mag_bias on the magnitude, -1, 0 or +1). */
static enum rem apply_bias(enum rem r, int mag_bias, uint64_t *n)
{
    if (mag_bias == 0)
        return r;
    if (r == REM_ZERO && mag_bias > 0)
        return REM_BELOW_HALF;  /* N*q + tiny */
    if (r == REM_ZERO) {        /* N*q - tiny = (N-1)*q + (q - tiny): N >= 1 as v != 0 */
        (*n)--;
        return REM_ABOVE_HALF;
    }
    if (r == REM_HALF)          /* a midpoint plus or minus tiny is no longer a tie */
        return mag_bias > 0 ? REM_ABOVE_HALF : REM_BELOW_HALF;
    return r;                   /* a nonzero rest away from half stays where it is */
}

static uint64_t round_n(uint64_t n, enum rem r, enum dir dir)
{
    if (r == REM_ZERO || dir == DIR_TRUNC)
        return n;                  /* exact, or toward zero: N */
    if (dir == DIR_AWAY)
        return n + 1;              /* away from zero: N + 1 */
    if (r == REM_HALF)
        return n + (n & 1);        /* nearest, tie: to the even neighbour */
    return r == REM_ABOVE_HALF ? n + 1 : n; /* nearest */
}

uint64_t oracle_round(enum geluref_dtype dt, mpfr_srcptr v, int bias, mpfr_rnd_t rnd)
{
    const struct geluref_dtype_info *d = oracle_dtype_info(dt);
    if (mpfr_nan_p(v))
        return oracle_qnan(dt);
    bool neg = mpfr_signbit(v) != 0;
    if (mpfr_inf_p(v))
        return inf_bits(d, neg);
    if (mpfr_zero_p(v))
        return round_tiny_zero(d, v, bias, rnd);
    int mag_bias = neg ? -bias : bias; /* the infinitesimal's effect on |v| */
    enum dir dir = dir_of(rnd, neg);

    mpz_t m, n;
    mpz_inits(m, n, NULL);
    long e = mpfr_get_z_2exp(m, v); /* v = m * 2^e exactly */
    mpz_abs(m, m);
    size_t bl = mpz_sizeinbase(m, 2);
    long ex = e + (long)bl - 1; /* |v| in [2^ex, 2^(ex+1)) */
    if (mag_bias < 0 && mpz_scan1(m, 0) == bl - 1)
        ex--; /* |v| = 2^ex and the value is just below it: the binade below, half the quantum */
    uint64_t bits;
    if (ex > d->emax) { /* beyond the largest binade: overflow */
        bits = dir == DIR_TRUNC ? max_bits(d, neg) : inf_bits(d, neg);
    } else {
        long qexp = (ex > d->emin ? ex : d->emin) - (d->prec - 1); /* the quantum 2^qexp */
        enum rem r = split(m, bl, qexp - e, n);
        uint64_t nn = mpz_get_ui(n); /* < 2^(p+1) */
        r = apply_bias(r, mag_bias, &nn);
        bits = encode(d, neg, round_n(nn, r, dir), qexp);
    }
    mpz_clears(m, n, NULL);
    return bits;
}
