/* float <-> binary16 and bfloat16 by integer arithmetic on the bit patterns: plain C, the
 * same bits on every CPU and in every FPU mode (no F16C, no AVX512-BF16, no FTZ effects).
 * Rounding from float is RN-even, checked exhaustively against the MPFR reference's
 * geluref_round_to_bits in tests/adapters/test_libm.c. */
#include <stdint.h>
#include <string.h>

#include "gc_libm.h"

static uint32_t f32_bits(float v)
{
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

static float f32_from_bits(uint32_t b)
{
    float v;
    memcpy(&v, &b, sizeof v);
    return v;
}

/* Rounds m >> shift to nearest, ties to even (1 <= shift <= 31). */
static uint32_t shift_rne(uint32_t m, unsigned shift)
{
    uint32_t q = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    return q + (rem > half || (rem == half && (q & 1)));
}

uint16_t gc_f16_from_float(float v)
{
    uint32_t b = f32_bits(v), a = b & 0x7fffffffu;
    uint16_t sign = (uint16_t)((b >> 16) & 0x8000u);
    if (a > 0x7f800000u) /* NaN: f16 quiet bit 0x200 set, top 9 payload bits kept */
        return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x1ffu));
    if (a >= 0x477ff000u) /* |v| >= 65520 = 0x1.ffcp15, the midpoint above 65504: inf */
        return (uint16_t)(sign | 0x7c00u);
    if (a >= 0x38800000u) { /* |v| >= 2^-14: normal f16; rebias 127 -> 15, drop 13 bits */
        /* a carry out of the significand bumps the exponent, as it must */
        return (uint16_t)(sign | shift_rne(a - ((127u - 15u) << 23), 13));
    }
    if (a <= 0x33000000u) /* |v| <= 2^-25, half the smallest subnormal 2^-24 (a tie: to 0) */
        return sign;
    /* subnormal f16: |v| = m 2^(e-23) with e in [-25, -15]; in units of 2^-24 that is
       m >> (-e - 1).  Rounding up to 0x400 gives the smallest normal, encoded right. */
    uint32_t m = (a & 0x7fffffu) | 0x800000u;
    int e = (int)(a >> 23) - 127;
    return (uint16_t)(sign | shift_rne(m, (unsigned)(-e - 1)));
}

float gc_f16_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    if (exp == 0x1f) /* inf, or NaN with its payload (a signalling one stays signalling) */
        return f32_from_bits(sign | 0x7f800000u | (man << 13));
    if (exp == 0) { /* zero or subnormal: man 2^-24, exact in float */
        float mag = (float)man * 0x1p-24f;
        return sign ? -mag : mag;
    }
    return f32_from_bits(sign | ((exp + 127u - 15u) << 23) | (man << 13));
}

uint16_t gc_bf16_from_float(float v)
{
    uint32_t b = f32_bits(v);
    if ((b & 0x7fffffffu) > 0x7f800000u) /* NaN: bf16 quiet bit 0x40 set, payload top kept */
        return (uint16_t)((b >> 16) | 0x0040u);
    /* RN-even on the low 16 bits; a carry runs into the exponent, up to inf */
    b += 0x7fffu + ((b >> 16) & 1u);
    return (uint16_t)(b >> 16);
}

float gc_bf16_to_float(uint16_t h)
{
    return f32_from_bits((uint32_t)h << 16);
}
