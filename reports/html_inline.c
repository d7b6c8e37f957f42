/* Inline Markdown as HTML (html.h): backslash escapes, `code`, **strong**, *emphasis*,
 * [text](url), ![alt](src) and a few entity references; every other & < > " escaped. */
#include <stdlib.h>
#include <string.h>

#include "html.h"

void ht_put(struct ht_buf *b, const char *s, size_t n)
{
    if (b->nomem)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 8192;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p) {
            b->nomem = 1;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void ht_puts(struct ht_buf *b, const char *s)
{
    ht_put(b, s, strlen(s));
}

/* Text with & < > " as entities and control bytes other than tab and newline as spaces. */
void ht_esc(struct ht_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '&')
            ht_puts(b, "&amp;");
        else if (c == '<')
            ht_puts(b, "&lt;");
        else if (c == '>')
            ht_puts(b, "&gt;");
        else if (c == '"')
            ht_puts(b, "&quot;");
        else
            ht_put(b, (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f ? " " : &s[i], 1);
    }
}

static int punct(char c) { return c && strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c); }
static int blank(char c) { return c == ' ' || c == '\t' || c == '\n'; }

/* s[i] starts a run of backticks: the index just past the code span that it opens, or 0 when
 * no run of the same length closes it.  *open gets the run's length. */
static size_t code_end(const char *s, size_t i, size_t n, size_t *open)
{
    size_t k = 0;
    while (i + k < n && s[i + k] == '`')
        k++;
    *open = k;
    for (size_t j = i + k; j < n;) {
        size_t r = 0;
        while (j + r < n && s[j + r] == '`')
            r++;
        if (r == k)
            return j + r;
        j += r ? r : 1;
    }
    return 0;
}

/* The first d[0..dn) at or after i outside escapes and code spans, or n. */
static size_t find(const char *s, size_t i, size_t n, const char *d, size_t dn)
{
    size_t k, e;
    while (i < n) {
        if (s[i] == '\\' && i + 1 < n)
            i += 2;
        else if (s[i] == '`' && (e = code_end(s, i, n, &k)))
            i = e;
        else if (i + dn <= n && memcmp(s + i, d, dn) == 0)
            return i;
        else
            i++;
    }
    return n;
}

/* s[i] == '&': the length of an entity reference kept as it is, or 0. */
static size_t entity(const char *s, size_t i, size_t n)
{
    static const char *const named[] = { "amp;", "lt;", "gt;", "quot;", "apos;", "nbsp;" };
    for (size_t k = 0; k < sizeof named / sizeof named[0]; k++) {
        size_t m = strlen(named[k]);
        if (i + 1 + m <= n && memcmp(s + i + 1, named[k], m) == 0)
            return 1 + m;
    }
    size_t j = i + 1, d = 0;
    if (j >= n || s[j++] != '#')
        return 0;
    int hex = j < n && (s[j] == 'x' || s[j] == 'X');
    j += hex;
    while (j < n && d < 7 && s[j] && strchr(hex ? "0123456789abcdefABCDEF" : "0123456789", s[j]))
        j++, d++;
    return d && j < n && s[j] == ';' ? j + 1 - i : 0;
}

/* Text with backslash escapes resolved, as an attribute value or image alt text. */
void ht_plain(struct ht_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\' && i + 1 < n && punct(s[i + 1]))
            i++; /* "\\_" is "_" */
        ht_esc(b, &s[i], 1);
    }
}

/* Whether the URL u[0..n) starts with a scheme ("https:"). */
static int has_scheme(const char *u, size_t n)
{
    size_t c = strcspn(u, ":/?#");
    return c < n && u[c] == ':';
}

/* A URL a report may link: relative, or http, https or mailto. */
static int safe_url(const char *u, size_t n)
{
    size_t c = strcspn(u, ":/?#");
    if (!has_scheme(u, n))
        return 1;
    return (c == 4 && strncmp(u, "http", 4) == 0) || (c == 5 && strncmp(u, "https", 5) == 0) ||
           (c == 6 && strncmp(u, "mailto", 6) == 0);
}

/* s[i] is '[' (or the '!' of "!["): a link or image written into b and the index past it, or
 * 0 when it is none (then nothing is written). */
static size_t link(struct ht_buf *b, const char *s, size_t i, size_t n)
{
    int img = s[i] == '!';
    size_t t = i + 1 + img, close = find(s, t, n, "]", 1);
    if (close + 1 >= n || s[close + 1] != '(' || find(s, t, close, "[", 1) < close)
        return 0;
    size_t u = close + 2, e = u;
    while (e < n && s[e] != ')' && !blank(s[e]) && s[e] != '<' && s[e] != '>')
        e++;
    if (e >= n || s[e] != ')' || e == u || !safe_url(s + u, e - u))
        return 0;
    if (img && b->dir) {
        ht_embed_image(b, s + u, e - u, s + t, close - t);
        return e + 1;
    }
    if (b->dir && !has_scheme(s + u, e - u)) { /* a self-contained page links no file */
        ht_inline(b, s + t, close - t);
        return e + 1;
    }
    ht_puts(b, img ? "<img src=\"" : "<a href=\"");
    ht_plain(b, s + u, e - u);
    if (img) {
        ht_puts(b, "\" alt=\"");
        ht_plain(b, s + t, close - t);
        ht_puts(b, "\">");
    } else {
        ht_puts(b, "\">");
        ht_inline(b, s + t, close - t);
        ht_puts(b, "</a>");
    }
    return e + 1;
}

/* "**x**" or "*x*" at s[i]: written with its tag and the index past it, or 0. */
static size_t emph(struct ht_buf *b, const char *s, size_t i, size_t n)
{
    size_t d = i + 1 < n && s[i + 1] == '*' ? 2 : 1, t = i + d;
    size_t c = find(s, t, n, d == 2 ? "**" : "*", d);
    if (c >= n || c == t || blank(s[t]) || blank(s[c - 1]))
        return 0;
    ht_puts(b, d == 2 ? "<strong>" : "<em>");
    ht_inline(b, s + t, c - t);
    ht_puts(b, d == 2 ? "</strong>" : "</em>");
    return c + d;
}

/* Inline Markdown s[0..n) as HTML. */
void ht_inline(struct ht_buf *b, const char *s, size_t n)
{
    size_t i = 0, e, k;
    while (i < n) {
        char c = s[i];
        if (c == '\\' && i + 1 < n && punct(s[i + 1])) {
            ht_esc(b, &s[i + 1], 1);
            i += 2;
        } else if (c == '`') {
            if (!(e = code_end(s, i, n, &k))) {
                ht_put(b, s + i, k); /* no closing run: the backticks are text */
                i += k;
                continue;
            }
            size_t a = i + k, z = e - k; /* one space stripped each side, unless all spaces */
            if (z - a >= 2 && s[a] == ' ' && s[z - 1] == ' ' && strspn(s + a, " ") < z - a)
                a++, z--;
            ht_puts(b, "<code>");
            ht_esc(b, s + a, z - a);
            ht_puts(b, "</code>");
            i = e;
        } else if (c == '&' && (k = entity(s, i, n))) {
            ht_put(b, s + i, k);
            i += k;
        } else if ((c == '[' || (c == '!' && i + 1 < n && s[i + 1] == '[')) &&
                   (e = link(b, s, i, n))) {
            i = e;
        } else if (c == '*' && (e = emph(b, s, i, n))) {
            i = e;
        } else {
            ht_esc(b, &s[i], 1);
            i++;
        }
    }
}

