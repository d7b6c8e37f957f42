/* geluref_parse: text -> dtype bits (docs/design.md section 11).
 *
 * The grammar is checked here, character by character, before MPFR sees the text: mpfr_strtofr
 * alone would skip leading space, stop quietly at trailing garbage and accept forms we do not
 * want ("@inf@", "nan(123)", "0b101").  Decimal and hex float are then rounded once, to
 * nearest-even, straight into the dtype: mpfr_strtofr at the dtype's precision inside the
 * dtype's exponent range, then mpfr_subnormalize with the ternary value (MPFR's documented
 * recipe, which rounds subnormals once, not twice).  Never through float or double. */
#include <ctype.h>
#include <string.h>

#include "internal.h"

/* Indexed by dtype: "0x" without 'p' and the wrong number of digits for raw bits. */
static const char *const why_bits[] = {
    [GELUREF_F64] = "hex float needs a 'p' exponent, or give exactly 16 hex digits for f64 bits",
    [GELUREF_F32] = "hex float needs a 'p' exponent, or give exactly 8 hex digits for f32 bits",
    [GELUREF_F16] = "hex float needs a 'p' exponent, or give exactly 4 hex digits for f16 bits",
    [GELUREF_BF16] = "hex float needs a 'p' exponent, or give exactly 4 hex digits for bf16 bits",
};

static int is_digit(char c, int hex)
{
    return hex ? isxdigit((unsigned char)c) : isdigit((unsigned char)c);
}

static int ci_equal(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

/* DIGITS [. DIGITS] with at least one digit; returns the end, or NULL and *why. */
static const char *scan_mantissa(const char *s, int hex, const char **why)
{
    int digits = 0, point = 0;

    for (;; s++) {
        if (is_digit(*s, hex))
            digits++;
        else if (*s == '.' && !point)
            point = 1;
        else
            break;
    }
    if (*s == '.')
        *why = "more than one decimal point";
    else if (!digits && !point)
        *why = "not a number: expected a decimal, a hex float, 0x bits, inf or nan";
    else if (!digits)
        *why = "no digits";
    else
        return s;
    return NULL;
}

/* The exponent after 'e' or 'p': [+-] DIGITS, in decimal; returns the end or NULL. */
static const char *scan_exponent(const char *s, const char **why)
{
    if (*s == '+' || *s == '-')
        s++;
    if (!isdigit((unsigned char)*s)) {
        *why = "exponent has no digits";
        return NULL;
    }
    while (isdigit((unsigned char)*s))
        s++;
    return s;
}

/* Checks a decimal (hex = 0) or the part of a hex float after "0x" (hex = 1) up to the end. */
static int check_float(const char *s, int hex, const char **why)
{
    s = scan_mantissa(s, hex, why);
    if (!s)
        return -1;
    if (hex && *s != 'p' && *s != 'P') {
        *why = "unexpected character in hex float";
        return -1;
    }
    if (*s == 'p' || *s == 'P' || (!hex && (*s == 'e' || *s == 'E'))) {
        s = scan_exponent(s + 1, why);
        if (!s)
            return -1;
    }
    if (*s) {
        *why = "unexpected character after the number";
        return -1;
    }
    return 0;
}

/* Raw bits: "0x" and exactly the dtype's width in hex digits (checked by the caller). */
static int read_bits(const char *h, uint64_t *bits, const char **why)
{
    uint64_t v = 0;

    for (; *h; h++) {
        if (!isxdigit((unsigned char)*h)) {
            *why = "not a hex digit in raw bits";
            return -1;
        }
        int c = tolower((unsigned char)*h);
        v = v << 4 | (uint64_t)(isdigit(c) ? c - '0' : c - 'a' + 10);
    }
    *bits = v;
    return 0;
}

/* RN(text) in the dtype; text is checked already. */
static int round_text(const char *text, int base, enum geluref_dtype dt, uint64_t *bits)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_flags_t flags = mpfr_flags_save();
    char *end;
    mpfr_t t;

    mpfr_init2(t, d->prec);
    mpfr_set_emin(gr_dtype_emin(d));
    mpfr_set_emax(gr_dtype_emax(d));
    int inex = mpfr_strtofr(t, text, &end, base, MPFR_RNDN);
    inex = mpfr_check_range(t, inex, MPFR_RNDN);
    mpfr_subnormalize(t, inex, MPFR_RNDN);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    int rc = *end == '\0' ? geluref_mpfr_to_bits(dt, t, bits) : -1;
    mpfr_clear(t);
    mpfr_flags_restore(flags, MPFR_FLAGS_ALL);
    return rc;
}

static enum geluref_status fail(const char **why, const char *msg)
{
    if (why)
        *why = msg;
    return GELUREF_E_SYNTAX;
}

/* After the sign: "0x" + hex digits = raw bits, or a hex float with a 'p' exponent. */
static enum geluref_status parse_hex(const char *text, const char *h, enum geluref_dtype dt,
                                     uint64_t *bits, const char **why)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    const char *w = NULL;
    uint64_t v = 0;

    if (!strpbrk(h, "pP")) {
        if (strchr(h, '.'))
            return fail(why, "hex float needs a 'p' exponent");
        if (strlen(h) != (size_t)d->bits / 4)
            return fail(why, why_bits[dt]);
        if (text[0] == '-' || text[0] == '+')
            return fail(why, "raw bits take no sign: set the sign bit, or write a hex float");
        if (read_bits(h, &v, &w))
            return fail(why, w);
    } else if (check_float(h, 1, &w) || round_text(text, 16, dt, &v)) {
        return fail(why, w ? w : "not a number");
    }
    *bits = v;
    return GELUREF_OK;
}

enum geluref_status geluref_parse(const char *text, enum geluref_dtype dt, uint64_t *bits,
                                  const char **why)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    const char *w = NULL, *s = text;
    uint64_t v = 0;

    if (!d) {
        fail(why, "unknown dtype");
        return GELUREF_E_INVALID;
    }
    if (!text || !*text)
        return fail(why, "empty");
    for (const char *p = text; *p; p++)
        if (isspace((unsigned char)*p))
            return fail(why, "contains white space");
    int neg = *s == '-';
    if (*s == '-' || *s == '+')
        s++;
    if (*s == '-' || *s == '+')
        return fail(why, "more than one sign");

    if (ci_equal(s, "inf") || ci_equal(s, "infinity")) {
        uint64_t inf = ((UINT64_C(1) << d->exp_bits) - 1) << (d->prec - 1);
        *bits = (neg ? UINT64_C(1) << (d->bits - 1) : 0) | inf;
        return GELUREF_OK;
    }
    if (ci_equal(s, "nan")) {
        *bits = gr_dtype_qnan(d); /* NaN's sign is never judged: the default quiet NaN */
        return GELUREF_OK;
    }
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        return parse_hex(text, s + 2, dt, bits, why);
    if (check_float(s, 0, &w) || round_text(text, 10, dt, &v))
        return fail(why, w ? w : "not a number");
    *bits = v;
    return GELUREF_OK;
}
