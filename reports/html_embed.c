/* The plots of a report folder embedded in its page (html.h): each <img> a data: URI of the
 * SVG file's bytes, base64.
 *
 * Why a data: URI and not the SVG inline: every plot is a document of its own with its own
 * ids (the clip path "plot-area" of the plot area, "flush_point", ...); inline, those ids
 * would meet in one document and every url(#plot-area) would resolve to the first plot's.
 * Inside an <img>, each plot keeps its own id space untouched (no rewriting of SVG text that
 * a new id or reference could slip past), an SVG image runs no script and loads nothing, the
 * page stays free of markup taken from elsewhere, and the bytes shown are exactly the file's.
 * The cost: base64 is 4/3 of the SVG's size, and a browser's find does not see plot text. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"

/* Largest plot embedded: far above any our writers make (tens of kB). */
#define MAX_PLOT (16u << 20)

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* p[0..n) in base64 (RFC 4648, padded). */
static void put_base64(struct ht_buf *b, const unsigned char *p, size_t n)
{
    char q[4];
    for (size_t i = 0; i < n; i += 3) {
        unsigned long v = (unsigned long)p[i] << 16;
        v |= i + 1 < n ? (unsigned long)p[i + 1] << 8 : 0;
        v |= i + 2 < n ? p[i + 2] : 0;
        q[0] = b64[v >> 18 & 63];
        q[1] = b64[v >> 12 & 63];
        q[2] = i + 1 < n ? b64[v >> 6 & 63] : '=';
        q[3] = i + 2 < n ? b64[v & 63] : '=';
        ht_put(b, q, 4);
    }
}

/* src is "plots/NAME.svg", NAME of [A-Za-z0-9_.-], not starting with '.'. */
static int plot_src(const char *src, size_t n)
{
    static const char set[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-";
    if (n <= 6 + 4 + 1 || memcmp(src, "plots/", 6) != 0 || memcmp(src + n - 4, ".svg", 4) != 0 ||
        src[6] == '.')
        return 0;
    for (size_t i = 6; i < n; i++)
        if (!strchr(set, src[i]) || !src[i])
            return 0;
    return 1;
}

/* The file path into a malloc'ed buffer, *n its size; NULL with b's
 * message set. */
static unsigned char *slurp(struct ht_buf *b, const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    unsigned char *p = NULL;
    long size = -1;
    int e = 0;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
        e = errno;
    else if ((unsigned long)size > MAX_PLOT)
        e = EFBIG;
    else if (!(p = malloc((size_t)size + 1)))
        e = ENOMEM;
    else if (fread(p, 1, (size_t)size, f) != (size_t)size)
        e = EIO; /* a read error, or shorter than it was a moment ago */
    if (f)
        fclose(f);
    if (e) {
        free(p);
        b->failed = 1;
        snprintf(b->msg, b->msize, "cannot embed '%s' in the page: %s", path, strerror(e));
        return NULL;
    }
    *n = (size_t)size;
    return p;
}

void ht_embed_image(struct ht_buf *b, const char *src, size_t srcn, const char *alt,
                    size_t altn)
{
    char path[4200];
    size_t n;
    if (b->failed || b->nomem)
        return;
    if (!plot_src(src, srcn)) {
        ht_plain(b, alt, altn); /* no reference to another file */
        return;
    }
    int len = snprintf(path, sizeof path, "%s/%.*s", b->dir, (int)srcn, src);
    if (len < 0 || (size_t)len >= sizeof path) {
        b->failed = 1;
        snprintf(b->msg, b->msize, "cannot embed '%s/%.*s' in the page: path too long", b->dir,
                 (int)srcn, src);
        return;
    }
    unsigned char *p = slurp(b, path, &n);
    if (!p)
        return;
    ht_puts(b, "<img src=\"data:image/svg+xml;base64,");
    put_base64(b, p, n);
    ht_puts(b, "\" alt=\"");
    ht_plain(b, alt, altn);
    ht_puts(b, "\">");
    free(p);
}
