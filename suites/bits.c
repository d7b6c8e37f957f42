/* bits.c: exact helpers on the bit patterns of a dtype (IEEE 754 binary64, binary32,
 * binary16 and bfloat16).  Nothing here rounds, except gs_from_double (RN, for probes). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "suites.h"

/* Field layout of each dtype, indexed by enum geluref_dtype (IEEE 754-2008 table 3.5;
 * bfloat16 = the top half of binary32). */
struct layout {
    int sign_shift;      /* bit index of the sign */
    int mant_bits;       /* stored significand bits */
    uint64_t exp_mask;   /* exponent field, in place */
};
static const struct layout layouts[] = {
    [GELUREF_F64] = { 63, 52, 0x7ff0000000000000u },
    [GELUREF_F32] = { 31, 23, 0x7f800000u },
    [GELUREF_F16] = { 15, 10, 0x7c00u },
    [GELUREF_BF16] = { 15, 7, 0x7f80u },
};

static const struct layout *lay(enum geluref_dtype dt)
{
    return &layouts[dt >= GELUREF_DTYPE_FIRST && dt <= GELUREF_DTYPE_LAST ? dt : GELUREF_F64];
}

static uint64_t sign_bit(enum geluref_dtype dt) { return (uint64_t)1 << lay(dt)->sign_shift; }
static uint64_t mant_mask(enum geluref_dtype dt) { return ((uint64_t)1 << lay(dt)->mant_bits) - 1; }
/* Magnitude bits (sign cleared, storage width only). */
static uint64_t mag(enum geluref_dtype dt, uint64_t b) { return b & (sign_bit(dt) - 1); }

int gs_is_nan(enum geluref_dtype dt, uint64_t b)
{
    uint64_t m = mag(dt, b);
    return (m & lay(dt)->exp_mask) == lay(dt)->exp_mask && (m & mant_mask(dt)) != 0;
}

int gs_is_inf(enum geluref_dtype dt, uint64_t b) { return mag(dt, b) == lay(dt)->exp_mask; }
int gs_is_zero(enum geluref_dtype dt, uint64_t b) { return mag(dt, b) == 0; }

int gs_is_subnormal(enum geluref_dtype dt, uint64_t b)
{
    uint64_t m = mag(dt, b);
    return m != 0 && (m & lay(dt)->exp_mask) == 0;
}

int gs_sign(enum geluref_dtype dt, uint64_t b) { return (b & sign_bit(dt)) != 0; }
uint64_t gs_neg(enum geluref_dtype dt, uint64_t b) { return b ^ sign_bit(dt); }
uint64_t gs_abs(enum geluref_dtype dt, uint64_t b) { return mag(dt, b); }

/* Non-negative values are ordered like their magnitude bits (IEEE 754 section 3.4: the
 * encoding is monotone in the value), so the position is the magnitude with the sign. */
int64_t gs_pos(enum geluref_dtype dt, uint64_t b)
{
    int64_t m = (int64_t)mag(dt, b);
    return gs_sign(dt, b) ? -m : m;
}

uint64_t gs_from_pos(enum geluref_dtype dt, int64_t pos)
{
    uint64_t inf = lay(dt)->exp_mask;
    if (pos >= 0)
        return (uint64_t)pos > inf ? inf : (uint64_t)pos;
    /* -pos cannot overflow: |pos| is compared as unsigned */
    uint64_t m = (uint64_t)0 - (uint64_t)pos;
    return sign_bit(dt) | (m > inf ? inf : m);
}

/* binary16 -> double, exact: value = mant * 2^(e - 25) for the stored fields. */
static double f16_to_double(uint64_t b)
{
    int e = (int)((b >> 10) & 0x1f);
    double m = (double)(b & 0x3ff), v;
    if (e == 0x1f)
        v = (b & 0x3ff) != 0 ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp(m, -24); /* subnormal: mant * 2^-24 */
    else
        v = ldexp(m + 1024.0, e - 25);
    return (b & 0x8000) != 0 ? -v : v;
}

double gs_to_double(enum geluref_dtype dt, uint64_t b)
{
    switch (dt) {
    case GELUREF_F32: {
        uint32_t u = (uint32_t)b;
        float f;
        memcpy(&f, &u, sizeof f);
        return (double)f;
    }
    case GELUREF_F16:
        return f16_to_double(b & 0xffff);
    case GELUREF_BF16: {
        uint32_t u = (uint32_t)(b & 0xffff) << 16; /* bfloat16 is binary32's top half */
        float f;
        memcpy(&f, &u, sizeof f);
        return (double)f;
    }
    default: {
        double d;
        memcpy(&d, &b, sizeof d);
        return d;
    }
    }
}

/* Rounding through MPFR (one rounding, subnormals honoured, independent of the floating-point
 * environment); a 53-bit MPFR holds every double exactly. */
uint64_t gs_from_double(enum geluref_dtype dt, double v)
{
    if (dt == GELUREF_F64 || dt < GELUREF_DTYPE_FIRST || dt > GELUREF_DTYPE_LAST) {
        uint64_t b;
        memcpy(&b, &v, sizeof b);
        return b;
    }
    mpfr_t t;
    mpfr_init2(t, 53);
    mpfr_set_d(t, v, MPFR_RNDN); /* exact */
    uint64_t b = geluref_round_to_bits(dt, t, MPFR_RNDN);
    mpfr_clear(t);
    return b;
}

static size_t elem_size(enum geluref_dtype dt)
{
    return dt == GELUREF_F64 ? 8 : dt == GELUREF_F32 ? 4 : 2;
}

uint64_t gs_load(enum geluref_dtype dt, const void *array, size_t i)
{
    const unsigned char *p = (const unsigned char *)array + i * elem_size(dt);
    switch (elem_size(dt)) {
    case 8: { uint64_t v; memcpy(&v, p, 8); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint16_t v; memcpy(&v, p, 2); return v; }
    }
}

void gs_store(enum geluref_dtype dt, void *array, size_t i, uint64_t b)
{
    unsigned char *p = (unsigned char *)array + i * elem_size(dt);
    switch (elem_size(dt)) {
    case 8: { uint64_t v = b; memcpy(p, &v, 8); break; }
    case 4: { uint32_t v = (uint32_t)b; memcpy(p, &v, 4); break; }
    default: { uint16_t v = (uint16_t)b; memcpy(p, &v, 2); break; }
    }
}

/* "-5.5403614 (-0x1.629c1ep+2, 0xc0b14e0f)": the caller adds "x = " or the like. */
void gs_format_value(char *buf, size_t size, enum geluref_dtype dt, uint64_t b)
{
    char dec[40], hex[40], bits[24]; /* f64: <= 25, 24 and 18 characters with the NUL */
    if (buf == NULL || size == 0)
        return;
    geluref_format_dec(dec, sizeof dec, dt, b);
    geluref_format_hex(hex, sizeof hex, dt, b);
    geluref_format_bits(bits, sizeof bits, dt, b);
    snprintf(buf, size, "%s (%s, %s)", dec, hex, bits);
}
