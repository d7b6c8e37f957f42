/* dtype bits -> text: shortest round-trip decimal, normalised hex float, raw bits.
 * All three are snprintf-like: they return the length the full text needs and write at most
 * size bytes, always NUL-terminated when size > 0. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Room for the longest text ("-2.2250738585072014e-308", "-0x1.fffffffffffffp+1023"). */
#define TEXT_MAX 64

/* mpfr_get_str takes n = 1 digit since MPFR 4.0.2 (4.0.1 patch 4); before, n >= 2. */
#if MPFR_VERSION >= MPFR_VERSION_NUM(4, 0, 2)
#define FIRST_DIGITS 1
#else
#define FIRST_DIGITS 2
#endif

/* A finite dtype value as sign, integer significand and exponent: (-1)^neg m 2^q. */
struct decoded {
    int neg, nan, inf;
    uint64_t m;
    long q;
};

static struct decoded decode(const struct geluref_dtype_info *d, uint64_t bits)
{
    int fbits = d->prec - 1;
    uint64_t frac = bits & ((UINT64_C(1) << fbits) - 1);
    uint64_t ef = (bits >> fbits) & ((UINT64_C(1) << d->exp_bits) - 1);
    struct decoded r = { (int)((bits >> (d->bits - 1)) & 1), 0, 0, 0, 0 };

    if (ef == (UINT64_C(1) << d->exp_bits) - 1) {
        r.nan = frac != 0;
        r.inf = frac == 0;
    } else if (ef == 0) {
        r.m = frac;
        r.q = d->emin - fbits;
    } else {
        r.m = frac | UINT64_C(1) << fbits;
        r.q = (long)ef - d->emax - fbits;
    }
    return r;
}

static size_t put(char *buf, size_t size, const char *text)
{
    size_t n = strlen(text);

    if (size > 0) {
        size_t k = n < size ? n : size - 1;
        memcpy(buf, text, k);
        buf[k] = '\0';
    }
    return n;
}

/* "nan", "inf", "-inf", or NULL for a finite value. */
static const char *nonfinite(const struct decoded *v)
{
    if (v->nan)
        return "nan";
    if (v->inf)
        return v->neg ? "-inf" : "inf";
    return NULL;
}

size_t geluref_format_bits(char *buf, size_t size, enum geluref_dtype dt, uint64_t bits)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    char t[TEXT_MAX];

    if (!d)
        return put(buf, size, "(bad dtype)");
    if (d->bits < 64)
        bits &= (UINT64_C(1) << d->bits) - 1;
    snprintf(t, sizeof t, "0x%0*" PRIx64, d->bits / 4, bits);
    return put(buf, size, t);
}

size_t geluref_format_hex(char *buf, size_t size, enum geluref_dtype dt, uint64_t bits)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    char t[TEXT_MAX];

    if (!d)
        return put(buf, size, "(bad dtype)");
    struct decoded v = decode(d, bits);
    const char *sign = v.neg ? "-" : "";
    if (nonfinite(&v))
        return put(buf, size, nonfinite(&v));
    if (v.m == 0) {
        snprintf(t, sizeof t, "%s0x0p+0", sign);
        return put(buf, size, t);
    }
    int h = 63; /* v.m = 1.f * 2^h with h fraction bits */
    while (!(v.m >> h & 1))
        h--;
    uint64_t f = v.m - (UINT64_C(1) << h);
    int nd = (h + 3) / 4;
    f <<= 4 * nd - h; /* whole hex digits */
    while (nd > 0 && (f & 0xf) == 0) {
        f >>= 4;
        nd--;
    }
    if (nd == 0)
        snprintf(t, sizeof t, "%s0x1p%+ld", sign, v.q + h);
    else
        snprintf(t, sizeof t, "%s0x1.%0*" PRIx64 "p%+ld", sign, nd, f, v.q + h);
    return put(buf, size, t);
}

/* Writes digits dig ("15865", no trailing zeros) with decimal exponent e (value = 1.5865 *
 * 10^e) like %g but with every digit: positional for e in [-5, 16], else "1.5865e-01". */
static void layout(char *t, size_t size, const char *sign, const char *dig, long e)
{
    int n = (int)strlen(dig);

    if (e < -5 || e > 16)
        snprintf(t, size, "%s%c%s%se%c%02d", sign, dig[0], n > 1 ? "." : "", dig + 1,
                 e < 0 ? '-' : '+', (int)(e < 0 ? -e : e));
    else if (e < 0) /* 0.000ddd: -e - 1 <= 4 zeros */
        snprintf(t, size, "%s0.%.*s%s", sign, (int)(-e - 1), "0000", dig);
    else if (e >= n - 1) /* ddd000: e - n + 1 <= 16 zeros */
        snprintf(t, size, "%s%s%.*s", sign, dig, (int)(e - n + 1), "0000000000000000");
    else
        snprintf(t, size, "%s%.*s.%s", sign, (int)e + 1, dig, dig + e + 1);
}

/* The n significant digits of a = |value| rounded in rnd, trailing zeros dropped, and their
 * decimal exponent; returns 0 when they read back (geluref_parse, RN) to the bits of a. */
static int try_digits(char *dig, long *e, mpfr_srcptr a, int n, mpfr_rnd_t rnd,
                      enum geluref_dtype dt, uint64_t abs_bits)
{
    char text[TEXT_MAX];
    mpfr_exp_t e10;
    uint64_t back;

    mpfr_get_str(dig, &e10, 10, (size_t)n, a, rnd); /* a ~ 0.DIG * 10^e10 */
    for (int k = (int)strlen(dig) - 1; k > 0 && dig[k] == '0'; k--)
        dig[k] = '\0';
    *e = (long)e10 - 1;
    snprintf(text, sizeof text, "%c.%se%ld", dig[0], dig + 1, *e);
    return geluref_parse(text, dt, &back, NULL) == GELUREF_OK && back == abs_bits ? 0 : -1;
}

size_t geluref_format_dec(char *buf, size_t size, enum geluref_dtype dt, uint64_t bits)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    static const mpfr_rnd_t modes[] = { MPFR_RNDN, MPFR_RNDD, MPFR_RNDU };
    char dig[20], t[TEXT_MAX]; /* dig: 17 digits, NUL, mpfr_get_str's sign slot */
    long e = 0;

    if (!d)
        return put(buf, size, "(bad dtype)");
    if (d->bits < 64)
        bits &= (UINT64_C(1) << d->bits) - 1;
    struct decoded v = decode(d, bits);
    const char *sign = v.neg ? "-" : "";
    if (nonfinite(&v))
        return put(buf, size, nonfinite(&v));
    if (v.m == 0)
        return put(buf, size, v.neg ? "-0" : "0");

    uint64_t abs_bits = bits & ~(UINT64_C(1) << (d->bits - 1));
    mpfr_flags_t flags = mpfr_flags_save();
    mpfr_t a;
    mpfr_init2(a, 64);
    mpfr_set_uj_2exp(a, v.m, v.q, MPFR_RNDN); /* |value|, exact */
    /* The shortest digit string inside the rounding interval: if any n-digit decimal reads
     * back to bits, the nearest one below or above |value| does (RD or RU), and RN is one
     * of those two; 17 digits always suffice for binary64 and narrower. */
    int found = 0;
    for (int n = FIRST_DIGITS; n <= 17 && !found; n++)
        for (size_t i = 0; i < sizeof modes / sizeof modes[0] && !found; i++)
            found = try_digits(dig, &e, a, n, modes[i], dt, abs_bits) == 0;
    if (!found)
        try_digits(dig, &e, a, 17, MPFR_RNDN, dt, abs_bits);
    mpfr_clear(a);
    mpfr_flags_restore(flags, MPFR_FLAGS_ALL);
    layout(t, sizeof t, sign, dig, e);
    return put(buf, size, t);
}
