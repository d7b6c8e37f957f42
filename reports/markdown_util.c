/* The Markdown writer's buffer and escaping (markdown.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "markdown.h"
#include "resread.h"

static int grow(struct md *m, size_t more)
{
    if (m->nomem)
        return -1;
    if (m->len + more + 1 <= m->cap)
        return 0;
    size_t cap = m->cap ? m->cap : 4096;
    while (cap < m->len + more + 1)
        cap *= 2;
    char *s = realloc(m->s, cap);
    if (!s) {
        m->nomem = 1;
        return -1;
    }
    m->s = s;
    m->cap = cap;
    return 0;
}

void md_printf(struct md *m, const char *fmt, ...)
{
    va_list ap;
    char small[256];

    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0 || grow(m, (size_t)n))
        return;
    if ((size_t)n < sizeof small) {
        memcpy(m->s + m->len, small, (size_t)n + 1);
    } else {
        va_start(ap, fmt);
        vsnprintf(m->s + m->len, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    m->len += (size_t)n;
}

void md_puts(struct md *m, const char *s)
{
    size_t n = strlen(s);
    if (grow(m, n))
        return;
    memcpy(m->s + m->len, s, n + 1);
    m->len += n;
}

static void putc_md(struct md *m, char c)
{
    if (grow(m, 1))
        return;
    m->s[m->len++] = c;
    m->s[m->len] = '\0';
}

void md_text(struct md *m, const char *s)
{
    /* the ASCII punctuation that can start or end Markdown syntax inline (CommonMark lets any
     * ASCII punctuation be backslash-escaped) */
    static const char special[] = "\\`*_[]<>|#!~&";
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f)
            putc_md(m, ' ');
        else if (strchr(special, c))
            md_printf(m, "\\%c", c);
        else
            putc_md(m, (char)c);
    }
}

void md_code(struct md *m, const char *s)
{
    size_t run = 0, longest = 0;
    if (!s)
        s = "";
    for (const char *p = s; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        longest = run > longest ? run : longest;
    }
    /* a fence one backtick longer than any run inside; spaces keep a leading or trailing
     * backtick apart from the fence (CommonMark strips one space on each side) */
    for (size_t i = 0; i <= longest; i++)
        putc_md(m, '`');
    if (longest)
        putc_md(m, ' ');
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '|')
            md_puts(m, "\\|"); /* GFM: a pipe ends a table cell even inside a code span */
        else
            putc_md(m, c < 0x20 || c == 0x7f ? ' ' : (char)c);
    }
    if (longest)
        putc_md(m, ' ');
    for (size_t i = 0; i <= longest; i++)
        putc_md(m, '`');
}

void md_num(struct md *m, const json_t *v)
{
    if (json_is_number(v)) {
        double d = json_number_value(v);
        /* 3 significant digits: enough to compare, few enough to read in a table */
        md_printf(m, d == floor(d) && fabs(d) < 1e6 ? "%.0f" : "%.3g", d);
    } else if (json_is_string(v)) {
        md_text(m, json_string_value(v));
    } else {
        md_puts(m, "-");
    }
}

void md_pct(struct md *m, const json_t *v)
{
    if (!json_is_number(v)) {
        md_puts(m, "-");
        return;
    }
    double f = json_number_value(v);
    if (f < 1 && f > 0.99995)
        md_puts(m, "&gt;99.99%"); /* not all of them: never rounded up to 100% */
    else if (f > 0 && f < 0.00005)
        md_puts(m, "&lt;0.01%");
    else
        md_printf(m, "%.2f%%", 100 * f);
}

void md_dec(struct md *m, const json_t *v)
{
    const char *d = md_str(v, "dec");
    if (d[0])
        md_text(m, d);
    else
        md_puts(m, "-");
}

void md_value_cells(struct md *m, const json_t *v)
{
    static const char *const keys[] = { "dec", "hex", "bits" };
    for (int i = 0; i < 3; i++) {
        md_puts(m, "| ");
        if (md_str(v, keys[i])[0])
            md_code(m, md_str(v, keys[i]));
        else
            md_puts(m, "-");
        md_puts(m, " ");
    }
}

void md_verdict(struct md *m, const char *v)
{
    char up[16];
    size_t i = 0;
    for (; v && v[i] && i + 1 < sizeof up; i++)
        up[i] = (char)(v[i] >= 'a' && v[i] <= 'z' ? v[i] - 'a' + 'A' : v[i]);
    up[i] = '\0';
    int bad = strcmp(up, "FAIL") == 0 || strcmp(up, "ERROR") == 0;
    md_puts(m, bad ? "**" : "");
    md_text(m, up[0] ? up : "-");
    md_puts(m, bad ? "**" : "");
}

const char *md_str(const json_t *o, const char *key)
{
    return rr_str(o, key);
}
