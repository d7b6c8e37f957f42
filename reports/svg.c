/* svg.c: the text buffer, escaping, locale-free number formatting, scales and ticks of the
 * SVG plotting library (svg.h); the figure itself is drawn in svg_fig.c. */
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"

static int reserve(struct svg_buf *b, size_t more)
{
    if (b->nomem)
        return -1;
    if (b->n + more + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->n + more + 1)
        cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) {
        b->nomem = 1;
        return -1;
    }
    b->p = p;
    b->cap = cap;
    return 0;
}

static void put_bytes(struct svg_buf *b, const char *s, size_t n)
{
    if (reserve(b, n) != 0)
        return;
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

void svg_puts(struct svg_buf *b, const char *s)
{
    put_bytes(b, s, strlen(s));
}

void svg_printf(struct svg_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        put_bytes(b, small, (size_t)n);
        return;
    }
    if (reserve(b, (size_t)n) != 0)
        return;
    va_start(ap, fmt);
    vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)n;
}

/* The length of the valid UTF-8 sequence at s (1 to 4), or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
                                : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (n == 0 || c == 0xc0 || c == 0xc1 || c > 0xf4)
        return 0; /* stray continuation byte, overlong 2-byte form, beyond U+10FFFF */
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xf0 && s[1] < 0x90) || (c == 0xed && s[1] >= 0xa0))
        return 0; /* overlong 3- and 4-byte forms, UTF-16 surrogates */
    return n;
}

void svg_escaped(struct svg_buf *b, const char *s)
{
    static const char replacement[] = "\xef\xbf\xbd"; /* U+FFFD */
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p;
        const char *e = c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;"
                        : c == '"' ? "&quot;" : c == '\'' ? "&apos;" : NULL;
        if (e) {
            svg_puts(b, e);
            p++;
        } else if (c == '\t' || c == '\n' || c == '\r') {
            svg_printf(b, "&#%u;", c); /* kept as characters, even in attribute values */
            p++;
        } else if (c < 0x20 || c == 0x7f) {
            svg_puts(b, replacement); /* not allowed in XML 1.0, even as a reference */
            p++;
        } else {
            size_t n = utf8_len(p);
            if (n == 0) {
                svg_puts(b, replacement);
                p++;
            } else {
                put_bytes(b, (const char *)p, n);
                p += n;
            }
        }
    }
}

void svg_fmt_num(char *buf, size_t size, double v, int digits)
{
    if (size == 0)
        return;
    if (!isfinite(v)) {
        snprintf(buf, size, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
        return;
    }
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.*g", digits, v);
    /* the locale's decimal point (possibly several bytes) becomes '.' */
    const char *dp = localeconv()->decimal_point;
    size_t dl = dp ? strlen(dp) : 0;
    char *at = dl && strcmp(dp, ".") != 0 ? strstr(tmp, dp) : NULL;
    if (at) {
        *at = '.';
        memmove(at + 1, at + dl, strlen(at + dl) + 1);
    }
    snprintf(buf, size, "%s", tmp);
}

void svg_fmt_px(char *buf, size_t size, double v)
{
    /* pixels stay within a few thousand: the clamps of svg_scale_px */
    if (!isfinite(v) || fabs(v) > 1e9)
        v = 0;
    long long c = llround(v * 100);
    unsigned long long a = (unsigned long long)(c < 0 ? -c : c);
    if (a % 100 == 0)
        snprintf(buf, size, "%s%llu", c < 0 ? "-" : "", a / 100);
    else
        snprintf(buf, size, "%s%llu.%02llu", c < 0 ? "-" : "", a / 100, a % 100);
}

double svg_scale_t(const struct svg_scale *s, double v)
{
    switch (s->kind) {
    case SVG_LOG:
        return v > 0 ? log10(v) : -HUGE_VAL;
    case SVG_SYMLOG: {
        double a = fabs(v);
        if (isnan(v))
            return v;
        if (a < s->tiny)
            return v / s->tiny;
        return copysign(log2(a) - log2(s->tiny) + 1, v); /* a / tiny overflows for f64 */
    }
    case SVG_LINEAR:
        break;
    }
    return v;
}

double svg_scale_px(const struct svg_scale *s, double v)
{
    double t0 = svg_scale_t(s, s->lo), t1 = svg_scale_t(s, s->hi), t = svg_scale_t(s, v);
    double u = (t - t0) / (t1 - t0);
    if (isnan(u))
        u = 0;
    u = u < -0.05 ? -0.05 : u > 1.05 ? 1.05 : u;
    return s->p0 + u * (s->p1 - s->p0);
}

/* The nice step of decades: the first of 1, 2, 5, 10, 20, 50, 100, ... that puts at most
 * max powers of ten 10^(k step) into [a, b] (0 < a < b). */
static double decade_step(double a, double b, double max)
{
    static const double m[] = { 1, 2, 5 };
    double la = log10(a), lb = log10(b);
    for (double p = 1; p < 1e4; p *= 10) /* 10^1000 decades: beyond any double */
        for (int i = 0; i < 3; i++) {
            double st = m[i] * p;
            if (floor(lb / st + 1e-9) - ceil(la / st - 1e-9) + 1 <= max)
                return st;
        }
    return 1e4;
}

/* Powers of ten 10^k, k a multiple of step, in [a, b] (0 < a < b), times sign; appended in
 * increasing order of value. */
static size_t decades(double a, double b, double step, int neg, double *v, size_t n,
                      size_t max)
{
    double k0 = ceil(log10(a) / step - 1e-9), k1 = floor(log10(b) / step + 1e-9);
    for (double i = 0; i <= k1 - k0 && n < max; i++) {
        double k = neg ? k1 - i : k0 + i;
        v[n++] = (neg ? -1 : 1) * pow(10, k * step);
    }
    return n;
}

size_t svg_scale_ticks(const struct svg_scale *s, double *v, size_t max)
{
    size_t n = 0;
    /* none on a degenerate axis (the loops below would not end) */
    if (!(s->lo < s->hi) || !isfinite(s->lo) || !isfinite(s->hi) ||
        (s->kind == SVG_LOG && !(s->lo > 0)) || (s->kind == SVG_SYMLOG && !(s->tiny > 0)))
        return 0;
    if (s->kind == SVG_LINEAR) {
        double raw = (s->hi - s->lo) / 6, mag = pow(10, floor(log10(raw)));
        double step = raw <= mag ? mag : raw <= 2 * mag ? 2 * mag : raw <= 5 * mag ? 5 * mag
                                                                                : 10 * mag;
        for (double k = ceil(s->lo / step - 1e-9); k * step <= s->hi + step * 1e-9 && n < max;
             k++)
            v[n++] = fabs(k) < 0.5 ? 0 : k * step; /* never -0 */
        return n;
    }
    if (s->kind == SVG_LOG) {
        double step = decade_step(s->lo, s->hi, 8);
        return decades(s->lo, s->hi, step, 0, v, 0, max);
    }
    /* symlog: each sign's decades from tiny to its end of the domain */
    double neg = s->lo < 0 ? -s->lo : 0, pos = s->hi > 0 ? s->hi : 0;
    double step = decade_step(s->tiny, fmax(fmax(neg, pos), 2 * s->tiny), 6);
    if (neg > s->tiny)
        n = decades(s->tiny, neg, step, 1, v, n, max);
    if (s->lo <= 0 && s->hi >= 0 && n < max)
        v[n++] = 0;
    if (pos > s->tiny)
        n = decades(s->tiny, pos, step, 0, v, n, max);
    return n;
}

void svg_tick_label(const struct svg_scale *s, double v, char *buf, size_t size)
{
    if (s->kind == SVG_LINEAR || v == 0) {
        svg_fmt_num(buf, size, v, 6);
        return;
    }
    int k = (int)lround(log10(fabs(v)));
    if (k >= -3 && k <= 3)
        svg_fmt_num(buf, size, v, 6);
    else
        snprintf(buf, size, "%s1e%d", v < 0 ? "-" : "", k);
}
