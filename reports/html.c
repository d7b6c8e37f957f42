/* report.html and compare.html (reports.h): one self-contained HTML page from the Markdown
 * text that markdown*.c and compare.c write, so that the Markdown stays the one source; the
 * plots that the Markdown links embedded as data: URIs (html_embed.c).
 * Exactly that subset of GitHub-flavoured Markdown is converted: ATX headings, paragraphs,
 * fenced code blocks (an unterminated fence runs to the end, as in CommonMark), pipe tables
 * with a delimiter row (":-:" centred, "--:" right), "- " and "N. " lists (a list nested by
 * indentation), and inline backslash escapes, `code`, **strong**, *emphasis*, [text](url),
 * ![alt](src) and the entities &amp; &lt; &gt; &quot; &apos; &nbsp; &#N; &#xH;.  Anything else
 * is text: every other & < > " comes out escaped, so no input yields raw HTML, and a link or
 * image whose URL has a scheme other than http, https or mailto stays text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "reports.h"

/* One line of the input: s[0..n), without its '\n'. */
struct line {
    const char *s;
    size_t n;
};

/* ------------------------------------------------------------------------ blocks ------ */

static int is_blank(struct line l) { return strspn(l.s, " \t") >= l.n; }

/* An opening fence "```info": its length, 0 when l is none. */
static size_t fence(struct line l)
{
    size_t k = 0;
    while (k < l.n && l.s[k] == '`')
        k++;
    return k >= 3 && !memchr(l.s + k, '`', l.n - k) ? k : 0;
}

/* "#".."######" then a space or the end: the level, else 0. */
static int heading(struct line l)
{
    size_t h = 0;
    while (h < l.n && l.s[h] == '#')
        h++;
    return h >= 1 && h <= 6 && (h == l.n || l.s[h] == ' ') ? (int)h : 0;
}

/* A list item at indentation exactly ind: 1 for "- ", 2 for "N. "; *text its content. */
static int item(struct line l, size_t ind, size_t *text, long *num)
{
    size_t i = ind, d = 0;
    if (strspn(l.s, " ") < ind || (i < l.n && l.s[i] == ' '))
        return 0;
    if (i + 1 < l.n && l.s[i] == '-' && l.s[i + 1] == ' ')
        return *text = i + 2, 1;
    while (i + d < l.n && l.s[i + d] >= '0' && l.s[i + d] <= '9' && d < 9)
        d++;
    if (!d || i + d + 1 >= l.n || l.s[i + d] != '.' || l.s[i + d + 1] != ' ')
        return 0;
    *num = strtol(l.s + i, NULL, 10);
    return *text = i + d + 2, 2;
}

/* The cells of a table row: trimmed spans into cell[], at most max; returns how many. */
static size_t cells(struct line l, struct line *cell, size_t max)
{
    size_t i = strspn(l.s, " "), n = l.n, k = 0;
    while (n > i && l.s[n - 1] == ' ')
        n--;
    i += i < n && l.s[i] == '|';
    while (i < n) {
        size_t a = i;
        while (i < n && l.s[i] != '|')
            i += l.s[i] == '\\' && i + 1 < n ? 2 : 1;
        size_t z = i < n ? i : n;
        while (a < z && l.s[a] == ' ')
            a++;
        while (z > a && l.s[z - 1] == ' ')
            z--;
        if (k < max)
            cell[k] = (struct line){ l.s + a, z - a };
        k++;
        i++;
    }
    return k < max ? k : max;
}

enum { MAXCOL = 64 };

/* The delimiter row of a table of ncol columns: 1 and align[] ('l', 'c', 'r', 0), else 0. */
static int delim_row(struct line l, size_t ncol, char *align)
{
    struct line c[MAXCOL];
    if (!memchr(l.s, '|', l.n) || cells(l, c, MAXCOL) != ncol)
        return 0;
    for (size_t j = 0; j < ncol; j++) {
        int left = c[j].n && c[j].s[0] == ':', right = c[j].n > 1 && c[j].s[c[j].n - 1] == ':';
        size_t dashes = c[j].n - (size_t)left - (size_t)right;
        if (!dashes || strspn(c[j].s + left, "-") != dashes)
            return 0;
        align[j] = left && right ? 'c' : right ? 'r' : left ? 'l' : 0;
    }
    return 1;
}

/* One row: each cell with "\|" as "|" (GFM), padded to ncol, extra cells dropped. */
static void row(struct ht_buf *b, struct line l, size_t ncol, const char *align, const char *tag)
{
    struct line c[MAXCOL];
    size_t k = cells(l, c, MAXCOL);
    struct ht_buf cell = { 0 };
    ht_puts(b, "<tr>");
    for (size_t j = 0; j < ncol; j++) {
        ht_put(b, "<", 1);
        ht_puts(b, tag);
        ht_puts(b, align[j] == 'r' ? " class=\"r\">" : align[j] == 'c' ? " class=\"c\">" : ">");
        cell.len = 0;
        for (size_t i = 0; j < k && i < c[j].n; i++) {
            int pair = c[j].s[i] == '\\' && i + 1 < c[j].n;
            if (pair && c[j].s[i + 1] == '|')
                i++; /* "\|" is "|" */
            else if (pair)
                ht_put(&cell, c[j].s + i++, 1); /* any other escape stays for inl */
            ht_put(&cell, c[j].s + i, 1);
        }
        ht_inline(b, cell.s ? cell.s : "", cell.len);
        ht_puts(b, "</");
        ht_puts(b, tag);
        ht_put(b, ">", 1);
    }
    ht_puts(b, "</tr>\n");
    b->nomem |= cell.nomem;
    free(cell.s);
}

/* Whether line i starts a table: a row with a pipe, then a delimiter row of as many cells. */
static int table_at(const struct line *L, size_t i, size_t nl, char *align, size_t *ncol)
{
    struct line c[MAXCOL];
    if (i + 1 >= nl || !memchr(L[i].s, '|', L[i].n))
        return 0;
    *ncol = cells(L[i], c, MAXCOL);
    return *ncol > 0 && delim_row(L[i + 1], *ncol, align);
}

/* Lines that begin a block and so end a paragraph or a list item's text. */
static int starts_block(const struct line *L, size_t i, size_t nl)
{
    char align[MAXCOL];
    size_t t, ncol;
    long num;
    return is_blank(L[i]) || fence(L[i]) || heading(L[i]) ||
           item(L[i], strspn(L[i].s, " "), &t, &num) || table_at(L, i, nl, align, &ncol);
}

/* The span from line a to the end of line z, inclusive. */
static void inl_lines(struct ht_buf *b, const struct line *L, size_t a, size_t z, size_t skip)
{
    ht_inline(b, L[a].s + skip, (size_t)(L[z].s + L[z].n - L[a].s) - skip);
}

/* A list whose items sit at indentation ind, from line i; returns the line after it. */
static size_t list(struct ht_buf *b, const struct line *L, size_t i, size_t nl, size_t ind)
{
    size_t t;
    long num = 1;
    int kind = item(L[i], ind, &t, &num);
    char open[40] = "<ul>\n";
    if (kind == 2 && num != 1)
        snprintf(open, sizeof open, "<ol start=\"%ld\">\n", num);
    else if (kind == 2)
        strcpy(open, "<ol>\n");
    ht_puts(b, open);
    while (i < nl) {
        size_t a = i, z = i, sub, j;
        ht_puts(b, "<li>");
        while (z + 1 < nl && !starts_block(L, z + 1, nl))
            z++; /* lazy continuation lines */
        inl_lines(b, L, a, z, t);
        for (i = z + 1; i < nl && (sub = strspn(L[i].s, " ")) > ind && item(L[i], sub, &t, &num);)
            i = list(b, L, i, nl, sub);
        ht_puts(b, "</li>\n");
        for (j = i; j < nl && is_blank(L[j]);)
            j++;
        if (j >= nl || item(L[j], ind, &t, &num) != kind)
            break;
        i = j;
    }
    ht_puts(b, kind == 2 ? "</ol>\n" : "</ul>\n");
    return i;
}

/* A fenced code block from line i (its opening fence k backticks long) to the closing fence,
 * or to the end when there is none (CommonMark); returns the line after it. */
static size_t code_block(struct ht_buf *b, const struct line *L, size_t i, size_t nl, size_t k)
{
    size_t info = strspn(L[i].s + k, " "), w = strcspn(L[i].s + k + info, " \n");
    ht_puts(b, "<pre><code");
    if (w) {
        ht_puts(b, " class=\"language-");
        ht_plain(b, L[i].s + k + info, w);
        ht_put(b, "\"", 1);
    }
    ht_put(b, ">", 1);
    for (i++; i < nl && !(fence(L[i]) >= k && strspn(L[i].s, "` ") >= L[i].n); i++) {
        ht_esc(b, L[i].s, L[i].n);
        ht_put(b, "\n", 1);
    }
    ht_puts(b, "</code></pre>\n");
    return i + (i < nl);
}

/* An ATX heading of level h, without an optional closing sequence of '#'. */
static void heading_block(struct ht_buf *b, struct line l, int h)
{
    size_t a = (size_t)h + strspn(l.s + h, " "), z = l.n, c;
    while (z > a && l.s[z - 1] == ' ')
        z--;
    for (c = z; c > a && l.s[c - 1] == '#';)
        c--;
    if (c < z && (c == a || l.s[c - 1] == ' '))
        for (z = c; z > a && l.s[z - 1] == ' ';)
            z--;
    char tag[] = { 'h', (char)('0' + h), '>', '\0' };
    ht_put(b, "<", 1);
    ht_puts(b, tag);
    ht_inline(b, l.s + a, z - a);
    ht_puts(b, "</");
    ht_puts(b, tag);
    ht_put(b, "\n", 1);
}

/* A table from line i (table_at holds): header, delimiter row, then every following line with
 * a pipe; returns the line after it. */
static size_t table(struct ht_buf *b, const struct line *L, size_t i, size_t nl,
                    const char *align, size_t ncol)
{
    size_t first = i + 2;
    ht_puts(b, "<table>\n<thead>\n");
    row(b, L[i], ncol, align, "th");
    ht_puts(b, "</thead>\n");
    for (i = first; i < nl && !is_blank(L[i]) && memchr(L[i].s, '|', L[i].n); i++) {
        ht_puts(b, i == first ? "<tbody>\n" : "");
        row(b, L[i], ncol, align, "td");
    }
    ht_puts(b, i > first ? "</tbody>\n</table>\n" : "</table>\n");
    return i;
}

static const char head[] =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>";
static const char style[] =
    "</title>\n<style>\n"
    "body { font-family: sans-serif; line-height: 1.4; max-width: 80em; margin: 1em auto;"
    " padding: 0 1em; }\n"
    "table { border-collapse: collapse; margin: 0.5em 0; display: block; overflow-x: auto; }\n"
    "th, td { border: 1px solid #aaa; padding: 0.2em 0.5em; vertical-align: top; }\n"
    "th { background: #eee; }\n"
    ".r { text-align: right; font-variant-numeric: tabular-nums; }\n"
    ".c { text-align: center; }\n"
    "code, pre { font-family: monospace; }\n"
    "pre { background: #f4f4f4; padding: 0.5em; overflow-x: auto; }\n"
    "img { max-width: 100%; }\n"
    "</style>\n</head>\n<body>\n";

/* The page; dir NULL: images linked, else embedded (msg set when that fails). */
static char *page(const char *markdown, const char *title, const char *dir, char *msg,
                  size_t size)
{
    struct ht_buf b = { .dir = dir, .msg = msg, .msize = size };
    size_t nl = 0, cap = 64, i = 0, k, ncol;
    struct line *L = malloc(cap * sizeof *L);
    char align[MAXCOL];

    for (const char *p = markdown ? markdown : ""; L && *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        struct line *G = nl == cap ? realloc(L, (cap *= 2) * sizeof *L) : L;
        if (!G) {
            free(L);
            snprintf(msg, size, "out of memory");
            return NULL;
        }
        L = G;
        L[nl++] = (struct line){ p, n };
        p += n + (e != NULL);
    }
    if (!L) {
        snprintf(msg, size, "out of memory");
        return NULL;
    }
    ht_puts(&b, head);
    ht_esc(&b, title ? title : "", title ? strlen(title) : 0);
    ht_puts(&b, style);
    while (i < nl) {
        int h = heading(L[i]);
        long num;
        if (is_blank(L[i])) {
            i++;
        } else if ((k = fence(L[i]))) {
            i = code_block(&b, L, i, nl, k);
        } else if (h) {
            heading_block(&b, L[i++], h);
        } else if (table_at(L, i, nl, align, &ncol)) {
            i = table(&b, L, i, nl, align, ncol);
        } else if (item(L[i], strspn(L[i].s, " "), &k, &num)) {
            i = list(&b, L, i, nl, strspn(L[i].s, " "));
        } else {
            size_t a = i; /* a paragraph: up to a blank line or the start of another block */
            while (i + 1 < nl && !starts_block(L, i + 1, nl))
                i++;
            ht_puts(&b, "<p>");
            inl_lines(&b, L, a, i, 0);
            ht_puts(&b, "</p>\n");
            i++;
        }
    }
    ht_puts(&b, "</body>\n</html>\n");
    free(L);
    if (b.nomem || b.failed) {
        if (!b.failed)
            snprintf(msg, size, "out of memory");
        free(b.s);
        return NULL;
    }
    return b.s;
}

char *rp_markdown_html(const char *markdown, const char *title)
{
    char msg[8];
    return page(markdown, title, NULL, msg, sizeof msg);
}

char *rp_markdown_html_embedded(const char *markdown, const char *title, const char *dir,
                                char *msg, size_t size)
{
    return page(markdown, title, dir, msg, size);
}
