/* Tests of the oracle's own rounding (oracle_round) on hand-picked exact values: ties to even,
 * subnormal boundaries, overflow, and the bias (an infinitesimal above or below) across a
 * power of two, for each dtype and mode.  The value of a row is (-1)^neg * m * 2^e.  Expected
 * bits were derived by hand from IEEE 754 and cross-checked against an independent
 * exact-rational rounding (Python fractions) while writing this table. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "oracle.h"
#include "test_oracle.h"

struct round_row {
    enum geluref_dtype dt;
    mpfr_rnd_t rnd;
    int neg;        /* sign of the value (also of an exact zero) */
    uint64_t m;     /* magnitude m * 2^e */
    long e;
    int bias;       /* +1: the value plus an infinitesimal, -1: minus, 0: exact */
    uint64_t want;  /* expected bits */
    const char *why;
};

static const struct round_row rows[] = {
    { GELUREF_F64, MPFR_RNDN, 0, UINT64_C(0x20000000000001), -53, +0, 0x3ff0000000000000, /* 0x1.00000000000008p+0 */
      "f64 tie 1+2^-53: to even (down)" },
    { GELUREF_F64, MPFR_RNDN, 0, UINT64_C(0x20000000000003), -53, +0, 0x3ff0000000000002, /* 0x1.00000000000018p+0 */
      "f64 tie 1+3*2^-53: to even (up)" },
    { GELUREF_F64, MPFR_RNDN, 0, UINT64_C(0x20000000000001), -53, +1, 0x3ff0000000000001, /* 0x1.00000000000008p+0 */
      "f64 tie plus tiny: up" },
    { GELUREF_F64, MPFR_RNDN, 0, UINT64_C(0x20000000000001), -53, -1, 0x3ff0000000000000, /* 0x1.00000000000008p+0 */
      "f64 tie minus tiny: down" },
    { GELUREF_F64, MPFR_RNDU, 0, UINT64_C(0x20000000000001), -53, +0, 0x3ff0000000000001, /* 0x1.00000000000008p+0 */
      "f64 RU of 1+2^-53" },
    { GELUREF_F64, MPFR_RNDD, 0, UINT64_C(0x20000000000001), -53, +0, 0x3ff0000000000000, /* 0x1.00000000000008p+0 */
      "f64 RD of 1+2^-53" },
    { GELUREF_F64, MPFR_RNDZ, 1, UINT64_C(0x20000000000001), -53, +0, 0xbff0000000000000, /* -0x1.00000000000008p+0 */
      "f64 RZ of -(1+2^-53)" },
    { GELUREF_F64, MPFR_RNDD, 1, UINT64_C(0x20000000000001), -53, +0, 0xbff0000000000001, /* -0x1.00000000000008p+0 */
      "f64 RD of -(1+2^-53): away" },
    { GELUREF_F64, MPFR_RNDN, 0, UINT64_C(0x1), 0, -1, 0x3ff0000000000000, /* 0x1p+0 */
      "f64 1 - tiny: RN stays 1" },
    { GELUREF_F64, MPFR_RNDD, 0, UINT64_C(0x1), 0, -1, 0x3fefffffffffffff, /* 0x1p+0 */
      "f64 1 - tiny: RD into the binade below" },
    { GELUREF_F64, MPFR_RNDZ, 0, UINT64_C(0x1), 0, -1, 0x3fefffffffffffff, /* 0x1p+0 */
      "f64 1 - tiny: RZ into the binade below" },
    { GELUREF_F64, MPFR_RNDU, 0, UINT64_C(0x1), 0, -1, 0x3ff0000000000000, /* 0x1p+0 */
      "f64 1 - tiny: RU is 1" },
    { GELUREF_F64, MPFR_RNDU, 1, UINT64_C(0x1), 0, +1, 0xbfefffffffffffff, /* -0x1p+0 */
      "f64 -1 + tiny: RU to -(1-2^-53)" },
    { GELUREF_F64, MPFR_RNDD, 1, UINT64_C(0x1), 0, +1, 0xbff0000000000000, /* -0x1p+0 */
      "f64 -1 + tiny: RD is -1" },
    { GELUREF_F64, MPFR_RNDN, 0, UINT64_C(0x3fffffffffffff), -54, +0, 0x3ff0000000000000, /* 0x1.fffffffffffff8p-1 */
      "f64 1-2^-54 is the tie below 1 (half quantum): to even 1" },
    { GELUREF_F64, MPFR_RNDN, 0, UINT64_C(0x3fffffffffffff), -54, -1, 0x3fefffffffffffff, /* 0x1.fffffffffffff8p-1 */
      "f64 tie below 1 minus tiny: down" },
    { GELUREF_F64, MPFR_RNDN, 0, UINT64_C(0x1), -1074, +0, 0x0000000000000001, /* 0x1p-1074 */
      "f64 min subnormal exact" },
    { GELUREF_F64, MPFR_RNDN, 0, UINT64_C(0x1), -1075, +0, 0x0000000000000000, /* 0x1p-1075 */
      "f64 half min subnormal: tie to even 0" },
    { GELUREF_F64, MPFR_RNDN, 0, UINT64_C(0x1), -1075, +1, 0x0000000000000001, /* 0x1p-1075 */
      "f64 half min subnormal plus tiny: up" },
    { GELUREF_F64, MPFR_RNDU, 0, UINT64_C(0x1), -1075, +0, 0x0000000000000001, /* 0x1p-1075 */
      "f64 RU of half min subnormal" },
    { GELUREF_F64, MPFR_RNDN, 0, UINT64_C(0x3), -1076, +0, 0x0000000000000001, /* 0x1.8p-1075 */
      "f64 0.75 min subnormal: up" },
    { GELUREF_F64, MPFR_RNDZ, 0, UINT64_C(0x3), -1076, +0, 0x0000000000000000, /* 0x1.8p-1075 */
      "f64 RZ of 0.75 min subnormal: 0" },
    { GELUREF_F64, MPFR_RNDN, 0, UINT64_C(0x3), -1075, +0, 0x0000000000000002, /* 0x1.8p-1074 */
      "f64 1.5 min subnormal: tie to even 2" },
    { GELUREF_F64, MPFR_RNDN, 0, UINT64_C(0x1fffffffffffff), -1075, +0, 0x0010000000000000, /* 0x1.fffffffffffffp-1023 */
      "f64 max subnormal + half quantum: tie to min normal (even)" },
    { GELUREF_F64, MPFR_RNDZ, 0, UINT64_C(0x1fffffffffffff), -1075, +0, 0x000fffffffffffff, /* 0x1.fffffffffffffp-1023 */
      "f64 RZ: max subnormal" },
    { GELUREF_F64, MPFR_RNDZ, 0, UINT64_C(0x1), -1022, -1, 0x000fffffffffffff, /* 0x1p-1022 */
      "f64 min normal - tiny, RZ: max subnormal" },
    { GELUREF_F64, MPFR_RNDN, 0, UINT64_C(0x1), -1022, -1, 0x0010000000000000, /* 0x1p-1022 */
      "f64 min normal - tiny, RN: min normal" },
    { GELUREF_F64, MPFR_RNDN, 0, UINT64_C(0x1), 1024, +0, 0x7ff0000000000000, /* 0x1p+1024 */
      "f64 2^1024 RN: inf" },
    { GELUREF_F64, MPFR_RNDZ, 0, UINT64_C(0x1), 1024, +0, 0x7fefffffffffffff, /* 0x1p+1024 */
      "f64 2^1024 RZ: max" },
    { GELUREF_F64, MPFR_RNDD, 0, UINT64_C(0x1), 1024, +0, 0x7fefffffffffffff, /* 0x1p+1024 */
      "f64 2^1024 RD: max" },
    { GELUREF_F64, MPFR_RNDU, 0, UINT64_C(0x1), 1024, +0, 0x7ff0000000000000, /* 0x1p+1024 */
      "f64 2^1024 RU: inf" },
    { GELUREF_F64, MPFR_RNDD, 1, UINT64_C(0x1), 1024, +0, 0xfff0000000000000, /* -0x1p+1024 */
      "f64 -2^1024 RD: -inf" },
    { GELUREF_F64, MPFR_RNDU, 1, UINT64_C(0x1), 1024, +0, 0xffefffffffffffff, /* -0x1p+1024 */
      "f64 -2^1024 RU: -max" },
    { GELUREF_F64, MPFR_RNDN, 0, UINT64_C(0x3fffffffffffff), 970, +0, 0x7ff0000000000000, /* 0x1.fffffffffffff8p+1023 */
      "f64 max + half ulp: tie, max is odd: inf" },
    { GELUREF_F64, MPFR_RNDN, 0, UINT64_C(0x3fffffffffffff), 970, -1, 0x7fefffffffffffff, /* 0x1.fffffffffffff8p+1023 */
      "f64 max + half ulp - tiny: max" },
    { GELUREF_F64, MPFR_RNDN, 0, UINT64_C(0x1), 1024, -1, 0x7ff0000000000000, /* 0x1p+1024 */
      "f64 2^1024 - tiny: above max + half ulp: inf" },
    { GELUREF_F64, MPFR_RNDZ, 0, UINT64_C(0x1), 1024, -1, 0x7fefffffffffffff, /* 0x1p+1024 */
      "f64 2^1024 - tiny RZ: max" },
    { GELUREF_F64, MPFR_RNDN, 0, UINT64_C(0x1), -100000, +0, 0x0000000000000000, /* 0x1p-100000 */
      "f64 2^-100000 RN: +0" },
    { GELUREF_F64, MPFR_RNDU, 0, UINT64_C(0x1), -100000, +0, 0x0000000000000001, /* 0x1p-100000 */
      "f64 2^-100000 RU: min subnormal" },
    { GELUREF_F64, MPFR_RNDD, 1, UINT64_C(0x1), -100000, +0, 0x8000000000000001, /* -0x1p-100000 */
      "f64 -2^-100000 RD: -min subnormal" },
    { GELUREF_F64, MPFR_RNDU, 1, UINT64_C(0x1), -100000, +0, 0x8000000000000000, /* -0x1p-100000 */
      "f64 -2^-100000 RU: -0" },
    { GELUREF_F64, MPFR_RNDU, 0, UINT64_C(0x0), 0, +1, 0x0000000000000001, /* 0x0p+0 */
      "f64 0 + tiny RU: min subnormal" },
    { GELUREF_F64, MPFR_RNDN, 0, UINT64_C(0x0), 0, +1, 0x0000000000000000, /* 0x0p+0 */
      "f64 0 + tiny RN: +0" },
    { GELUREF_F64, MPFR_RNDN, 0, UINT64_C(0x0), 0, -1, 0x8000000000000000, /* 0x0p+0 */
      "f64 0 - tiny RN: -0" },
    { GELUREF_F64, MPFR_RNDZ, 0, UINT64_C(0x0), 0, -1, 0x8000000000000000, /* 0x0p+0 */
      "f64 0 - tiny RZ: -0" },
    { GELUREF_F64, MPFR_RNDU, 0, UINT64_C(0x0), 0, -1, 0x8000000000000000, /* 0x0p+0 */
      "f64 0 - tiny RU: -0" },
    { GELUREF_F64, MPFR_RNDD, 0, UINT64_C(0x0), 0, -1, 0x8000000000000001, /* 0x0p+0 */
      "f64 0 - tiny RD: -min subnormal" },
    { GELUREF_F64, MPFR_RNDN, 1, UINT64_C(0x0), 0, +0, 0x8000000000000000, /* -0x0p+0 */
      "f64 exact -0 keeps its sign" },
    { GELUREF_F64, MPFR_RNDU, 0, UINT64_C(0x1), 0, +1, 0x3ff0000000000001, /* 0x1p+0 */
      "f64 1 + tiny RU: the successor of 1" },
    { GELUREF_F64, MPFR_RNDD, 0, UINT64_C(0x1), 0, +1, 0x3ff0000000000000, /* 0x1p+0 */
      "f64 1 + tiny RD: 1" },
    { GELUREF_F64, MPFR_RNDD, 1, UINT64_C(0x1), 0, -1, 0xbff0000000000001, /* -0x1p+0 */
      "f64 -1 - tiny RD: -(1+2^-52)" },
    { GELUREF_F64, MPFR_RNDN, 1, UINT64_C(0x1), 0, -1, 0xbff0000000000000, /* -0x1p+0 */
      "f64 -1 - tiny RN: -1" },
    { GELUREF_F32, MPFR_RNDN, 0, UINT64_C(0x1000001), -24, +0, 0x3f800000, /* 0x1.000001p+0 */
      "f32 tie 1+2^-24: to even (down)" },
    { GELUREF_F32, MPFR_RNDU, 0, UINT64_C(0x1000001), -24, +0, 0x3f800001, /* 0x1.000001p+0 */
      "f32 RU of 1+2^-24" },
    { GELUREF_F32, MPFR_RNDN, 0, UINT64_C(0x1000003), -24, +0, 0x3f800002, /* 0x1.000003p+0 */
      "f32 tie 1+3*2^-24: to even (up)" },
    { GELUREF_F32, MPFR_RNDN, 0, UINT64_C(0x3), -150, +0, 0x00000002, /* 0x1.8p-149 */
      "f32 1.5 min subnormal: tie to even 2" },
    { GELUREF_F32, MPFR_RNDN, 0, UINT64_C(0x3), -150, -1, 0x00000001, /* 0x1.8p-149 */
      "f32 1.5 min subnormal - tiny: 1" },
    { GELUREF_F32, MPFR_RNDD, 0, UINT64_C(0x3), -150, +0, 0x00000001, /* 0x1.8p-149 */
      "f32 RD of 1.5 min subnormal" },
    { GELUREF_F32, MPFR_RNDU, 0, UINT64_C(0x3), -150, +0, 0x00000002, /* 0x1.8p-149 */
      "f32 RU of 1.5 min subnormal" },
    { GELUREF_F32, MPFR_RNDN, 1, UINT64_C(0x3), -150, +0, 0x80000002, /* -0x1.8p-149 */
      "f32 -1.5 min subnormal: tie to even -2" },
    { GELUREF_F32, MPFR_RNDN, 1, UINT64_C(0x3), -150, +1, 0x80000001, /* -0x1.8p-149 */
      "f32 -1.5 min subnormal + tiny: -1" },
    { GELUREF_F32, MPFR_RNDN, 0, UINT64_C(0x1), -150, +0, 0x00000000, /* 0x1p-150 */
      "f32 half min subnormal: tie to even 0" },
    { GELUREF_F32, MPFR_RNDN, 0, UINT64_C(0x1), -150, +1, 0x00000001, /* 0x1p-150 */
      "f32 half min subnormal + tiny: min subnormal" },
    { GELUREF_F32, MPFR_RNDN, 0, UINT64_C(0x1), 128, +0, 0x7f800000, /* 0x1p+128 */
      "f32 2^128 RN: inf" },
    { GELUREF_F32, MPFR_RNDZ, 0, UINT64_C(0x1), 128, +0, 0x7f7fffff, /* 0x1p+128 */
      "f32 2^128 RZ: max" },
    { GELUREF_F32, MPFR_RNDN, 0, UINT64_C(0x1ffffff), 103, +0, 0x7f800000, /* 0x1.ffffffp+127 */
      "f32 max + half ulp: tie, max odd: inf" },
    { GELUREF_F32, MPFR_RNDN, 0, UINT64_C(0x1ffffff), 103, -1, 0x7f7fffff, /* 0x1.ffffffp+127 */
      "f32 max + half ulp - tiny: max" },
    { GELUREF_F32, MPFR_RNDD, 0, UINT64_C(0x1), 1, -1, 0x3fffffff, /* 0x1p+1 */
      "f32 2 - tiny RD: binade below" },
    { GELUREF_F32, MPFR_RNDN, 0, UINT64_C(0x1), 1, -1, 0x40000000, /* 0x1p+1 */
      "f32 2 - tiny RN: 2" },
    { GELUREF_F32, MPFR_RNDZ, 0, UINT64_C(0x1), -126, -1, 0x007fffff, /* 0x1p-126 */
      "f32 min normal - tiny RZ: max subnormal" },
    { GELUREF_F32, MPFR_RNDU, 0, UINT64_C(0x3), 0, +1, 0x40400001, /* 0x1.8p+1 */
      "f32 3 + tiny RU: the successor of 3" },
    { GELUREF_F32, MPFR_RNDZ, 0, UINT64_C(0x3), 0, +1, 0x40400000, /* 0x1.8p+1 */
      "f32 3 + tiny RZ: 3" },
    { GELUREF_F32, MPFR_RNDN, 0, UINT64_C(0xffffff), -150, +0, 0x00800000, /* 0x1.fffffep-127 */
      "f32 max subnormal + half quantum: tie to min normal" },
    { GELUREF_F16, MPFR_RNDN, 0, UINT64_C(0x801), -11, +0, 0x3c00, /* 0x1.002p+0 */
      "f16 tie 1+2^-11: to even (down)" },
    { GELUREF_F16, MPFR_RNDU, 0, UINT64_C(0x801), -11, +0, 0x3c01, /* 0x1.002p+0 */
      "f16 RU of 1+2^-11" },
    { GELUREF_F16, MPFR_RNDN, 0, UINT64_C(0x803), -11, +0, 0x3c02, /* 0x1.006p+0 */
      "f16 tie 1+3*2^-11: to even (up)" },
    { GELUREF_F16, MPFR_RNDN, 0, UINT64_C(0x10020000001), -40, +0, 0x3c01, /* 0x1.0020000001p+0 */
      "f16 just above the tie 1+2^-11: up (double rounding via f32 gives 3c00)" },
    { GELUREF_F16, MPFR_RNDN, 0, UINT64_C(0xfff0), 0, +0, 0x7c00, /* 0x1.ffep+15 */
      "f16 65520 = max + half ulp: tie, max odd: inf" },
    { GELUREF_F16, MPFR_RNDN, 0, UINT64_C(0xfff0), 0, -1, 0x7bff, /* 0x1.ffep+15 */
      "f16 65520 - tiny: max" },
    { GELUREF_F16, MPFR_RNDZ, 0, UINT64_C(0xfff0), 0, +0, 0x7bff, /* 0x1.ffep+15 */
      "f16 65520 RZ: max" },
    { GELUREF_F16, MPFR_RNDU, 0, UINT64_C(0xffef), 0, +0, 0x7c00, /* 0x1.ffdep+15 */
      "f16 65519 RU: inf" },
    { GELUREF_F16, MPFR_RNDN, 0, UINT64_C(0xffef), 0, +0, 0x7bff, /* 0x1.ffdep+15 */
      "f16 65519 RN: max" },
    { GELUREF_F16, MPFR_RNDD, 1, UINT64_C(0x10000), 0, +0, 0xfc00, /* -0x1p+16 */
      "f16 -65536 RD: -inf" },
    { GELUREF_F16, MPFR_RNDU, 1, UINT64_C(0x10000), 0, +0, 0xfbff, /* -0x1p+16 */
      "f16 -65536 RU: -max" },
    { GELUREF_F16, MPFR_RNDN, 0, UINT64_C(0x1), -25, +0, 0x0000, /* 0x1p-25 */
      "f16 half min subnormal: tie to even 0" },
    { GELUREF_F16, MPFR_RNDN, 0, UINT64_C(0x1), -25, +1, 0x0001, /* 0x1p-25 */
      "f16 half min subnormal + tiny: min subnormal" },
    { GELUREF_F16, MPFR_RNDU, 0, UINT64_C(0x1), -25, +0, 0x0001, /* 0x1p-25 */
      "f16 RU of half min subnormal" },
    { GELUREF_F16, MPFR_RNDN, 0, UINT64_C(0x3), -25, +0, 0x0002, /* 0x1.8p-24 */
      "f16 1.5 min subnormal: tie to even 2" },
    { GELUREF_F16, MPFR_RNDN, 0, UINT64_C(0x7ff), -25, +0, 0x0400, /* 0x1.ffcp-15 */
      "f16 max subnormal + half quantum: tie to min normal" },
    { GELUREF_F16, MPFR_RNDZ, 0, UINT64_C(0x1), -14, -1, 0x03ff, /* 0x1p-14 */
      "f16 min normal - tiny RZ: max subnormal" },
    { GELUREF_F16, MPFR_RNDU, 1, UINT64_C(0x1), 0, +1, 0xbbff, /* -0x1p+0 */
      "f16 -1 + tiny RU: -(1-2^-11)" },
    { GELUREF_F16, MPFR_RNDD, 1, UINT64_C(0x1), 0, +1, 0xbc00, /* -0x1p+0 */
      "f16 -1 + tiny RD: -1" },
    { GELUREF_F16, MPFR_RNDD, 0, UINT64_C(0x0), 0, -1, 0x8001, /* 0x0p+0 */
      "f16 0 - tiny RD: -min subnormal" },
    { GELUREF_F16, MPFR_RNDD, 0, UINT64_C(0x0), 0, +1, 0x0000, /* 0x0p+0 */
      "f16 0 + tiny RD: +0" },
    { GELUREF_F16, MPFR_RNDZ, 1, UINT64_C(0x2), 0, -1, 0xc000, /* -0x1p+1 */
      "f16 -2 - tiny RZ: -2" },
    { GELUREF_F16, MPFR_RNDU, 1, UINT64_C(0x2), 0, -1, 0xc000, /* -0x1p+1 */
      "f16 -2 - tiny RU: -2" },
    { GELUREF_F16, MPFR_RNDD, 1, UINT64_C(0x2), 0, -1, 0xc001, /* -0x1p+1 */
      "f16 -2 - tiny RD: -(2+2^-9)" },
    { GELUREF_F16, MPFR_RNDN, 0, UINT64_C(0x1), -24, +1, 0x0001, /* 0x1p-24 */
      "f16 min subnormal + tiny RN: min subnormal" },
    { GELUREF_BF16, MPFR_RNDN, 0, UINT64_C(0x101), -8, +0, 0x3f80, /* 0x1.01p+0 */
      "bf16 tie 1+2^-8: to even (down)" },
    { GELUREF_BF16, MPFR_RNDU, 0, UINT64_C(0x101), -8, +0, 0x3f81, /* 0x1.01p+0 */
      "bf16 RU of 1+2^-8" },
    { GELUREF_BF16, MPFR_RNDN, 0, UINT64_C(0x103), -8, +0, 0x3f82, /* 0x1.03p+0 */
      "bf16 tie 1+3*2^-8: to even (up)" },
    { GELUREF_BF16, MPFR_RNDN, 0, UINT64_C(0x1010000000000001), -60, +0, 0x3f81, /* 0x1.010000000000001p+0 */
      "bf16 just above the tie 1+2^-8: up (double rounding via f32 gives 3f80)" },
    { GELUREF_BF16, MPFR_RNDN, 0, UINT64_C(0x1ff), 119, +0, 0x7f80, /* 0x1.ffp+127 */
      "bf16 max + half ulp: tie, max odd: inf" },
    { GELUREF_BF16, MPFR_RNDN, 0, UINT64_C(0x1ff), 119, -1, 0x7f7f, /* 0x1.ffp+127 */
      "bf16 max + half ulp - tiny: max" },
    { GELUREF_BF16, MPFR_RNDZ, 0, UINT64_C(0x1), 128, +0, 0x7f7f, /* 0x1p+128 */
      "bf16 2^128 RZ: max" },
    { GELUREF_BF16, MPFR_RNDU, 0, UINT64_C(0x1), 128, +0, 0x7f80, /* 0x1p+128 */
      "bf16 2^128 RU: inf" },
    { GELUREF_BF16, MPFR_RNDN, 0, UINT64_C(0x1), -134, +0, 0x0000, /* 0x1p-134 */
      "bf16 half min subnormal: tie to even 0" },
    { GELUREF_BF16, MPFR_RNDN, 0, UINT64_C(0x1), -134, +1, 0x0001, /* 0x1p-134 */
      "bf16 half min subnormal + tiny: min subnormal" },
    { GELUREF_BF16, MPFR_RNDD, 1, UINT64_C(0x1), -134, +0, 0x8001, /* -0x1p-134 */
      "bf16 -(half min subnormal) RD: -min subnormal" },
    { GELUREF_BF16, MPFR_RNDN, 0, UINT64_C(0x3), -134, +0, 0x0002, /* 0x1.8p-133 */
      "bf16 1.5 min subnormal: tie to even 2" },
    { GELUREF_BF16, MPFR_RNDN, 0, UINT64_C(0xff), -134, +0, 0x0080, /* 0x1.fep-127 */
      "bf16 max subnormal + half quantum: tie to min normal" },
    { GELUREF_BF16, MPFR_RNDZ, 0, UINT64_C(0x1), -126, -1, 0x007f, /* 0x1p-126 */
      "bf16 min normal - tiny RZ: max subnormal" },
    { GELUREF_BF16, MPFR_RNDN, 0, UINT64_C(0x1), -126, -1, 0x0080, /* 0x1p-126 */
      "bf16 min normal - tiny RN: min normal" },
    { GELUREF_BF16, MPFR_RNDD, 0, UINT64_C(0x1), 0, -1, 0x3f7f, /* 0x1p+0 */
      "bf16 1 - tiny RD: 1-2^-8" },
    { GELUREF_BF16, MPFR_RNDU, 0, UINT64_C(0x0), 0, +1, 0x0001, /* 0x0p+0 */
      "bf16 0 + tiny RU: min subnormal" },
    { GELUREF_BF16, MPFR_RNDZ, 1, UINT64_C(0x1), 0, +0, 0xbf80, /* -0x1p+0 */
      "bf16 -1 exact" },
    { GELUREF_BF16, MPFR_RNDU, 0, UINT64_C(0x1), -133, +1, 0x0002, /* 0x1p-133 */
      "bf16 min subnormal + tiny RU: 2 min subnormal" },
    { GELUREF_BF16, MPFR_RNDD, 0, UINT64_C(0x1), -133, +1, 0x0001, /* 0x1p-133 */
      "bf16 min subnormal + tiny RD: min subnormal" },
};

static void test_round_table(void **state)
{
    (void)state;
    int failed = 0;
    mpfr_t v;
    mpfr_init2(v, 64); /* m has at most 64 bits: exact */
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const struct round_row *r = &rows[i];
        mpfr_set_uj_2exp(v, r->m, r->e, MPFR_RNDN); /* exact */
        mpfr_setsign(v, v, r->neg, MPFR_RNDN);
        uint64_t got = oracle_round(r->dt, v, r->bias, r->rnd);
        if (got != r->want) {
            print_error("round row %zu (%s): got 0x%llx, want 0x%llx\n", i, r->why,
                        (unsigned long long)got, (unsigned long long)r->want);
            failed++;
        }
    }
    mpfr_clear(v);
    assert_int_equal(failed, 0);
}

/* oracle_decode then oracle_round(bias 0) gives back the bits, for every f16 and bf16
 * pattern (NaNs come back as the quiet NaN) and a spread of f32 and f64 patterns. */
static void roundtrip(enum geluref_dtype dt, uint64_t bits, int *failed)
{
    mpfr_t v;
    mpfr_init2(v, 64);
    oracle_decode(v, dt, bits);
    uint64_t want = mpfr_nan_p(v) ? oracle_qnan(dt) : bits;
    static const mpfr_rnd_t modes[] = { MPFR_RNDN, MPFR_RNDZ, MPFR_RNDU, MPFR_RNDD };
    for (int k = 0; k < 4; k++) {
        uint64_t got = oracle_round(dt, v, 0, modes[k]);
        if (got != want && (*failed)++ < 10)
            print_error("roundtrip dtype %d bits 0x%llx mode %d: got 0x%llx\n", (int)dt,
                        (unsigned long long)bits, k, (unsigned long long)got);
    }
    mpfr_clear(v);
}

static void test_roundtrip(void **state)
{
    (void)state;
    int failed = 0;
    for (uint64_t b = 0; b < 0x10000; b++) {
        roundtrip(GELUREF_F16, b, &failed);
        roundtrip(GELUREF_BF16, b, &failed);
    }
    for (uint64_t b = 0; b < 0x100000000; b += 0x10001) /* about 65536 f32 patterns */
        roundtrip(GELUREF_F32, b, &failed);
    uint64_t b = 1;
    for (int i = 0; i < 65536; i++, b *= 3) /* powers of 3 mod 2^64: every bit position */
        roundtrip(GELUREF_F64, b, &failed);
    assert_int_equal(failed, 0);
}

/* The quiet NaNs named in oracle.h and the decoded values of a few patterns. */
static void test_decode(void **state)
{
    (void)state;
    assert_int_equal(oracle_qnan(GELUREF_F64), UINT64_C(0x7ff8000000000000));
    assert_int_equal(oracle_qnan(GELUREF_F32), 0x7fc00000);
    assert_int_equal(oracle_qnan(GELUREF_F16), 0x7e00);
    assert_int_equal(oracle_qnan(GELUREF_BF16), 0x7fc0);
    mpfr_t v;
    mpfr_init2(v, 64);
    oracle_decode(v, GELUREF_F16, 0x0001); /* 0x1p-24: f16 min subnormal */
    assert_true(mpfr_cmp_ui_2exp(v, 1, -24) == 0);
    oracle_decode(v, GELUREF_F16, 0x7bff); /* 0x1.ffcp+15 = 65504: f16 max */
    assert_true(mpfr_cmp_ui(v, 65504) == 0);
    oracle_decode(v, GELUREF_BF16, 0x0001); /* 0x1p-133: bf16 min subnormal */
    assert_true(mpfr_cmp_ui_2exp(v, 1, -133) == 0);
    oracle_decode(v, GELUREF_BF16, 0xc040); /* -0x1.8p+1 = -3 */
    assert_true(mpfr_cmp_si(v, -3) == 0);
    oracle_decode(v, GELUREF_F64, UINT64_C(0x8000000000000000)); /* -0 */
    assert_true(mpfr_zero_p(v) && mpfr_signbit(v));
    oracle_decode(v, GELUREF_F32, 0xff800000); /* -inf */
    assert_true(mpfr_inf_p(v) && mpfr_sgn(v) < 0);
    oracle_decode(v, GELUREF_F32, 0x7f800001); /* a signalling NaN */
    assert_true(mpfr_nan_p(v));
    mpfr_clear(v);
}

int test_oracle_round_group(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_table),
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_decode),
    };
    return cmocka_run_group_tests_name("oracle_round", tests, NULL, NULL);
}
