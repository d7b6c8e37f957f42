/* Private to the HTML writer (html.c, html_inline.c, html_embed.c): a growing text buffer,
 * HTML escaping, inline Markdown and plots embedded as data: URIs.  Prefix ht_. */
#ifndef GELUCHECK_HTML_H
#define GELUCHECK_HTML_H

#include <stddef.h>

struct ht_buf {
    char *s;
    size_t len, cap;
    int nomem; /* an allocation failed: the rest is dropped, rp_markdown_html returns NULL */
    /* Embedding (rp_markdown_html_embedded): the folder the page's images are relative to,
     * NULL to link them; failed set, with msg[0..msize), when a plot could not be read. */
    const char *dir;
    char *msg;
    size_t msize;
    int failed;
};

void ht_put(struct ht_buf *b, const char *s, size_t n);
void ht_puts(struct ht_buf *b, const char *s);
/* s[0..n) with & < > " as entities and control bytes other than tab and newline as spaces. */
void ht_esc(struct ht_buf *b, const char *s, size_t n);
/* s[0..n) with backslash escapes resolved, then escaped: an attribute value or alt text. */
void ht_plain(struct ht_buf *b, const char *s, size_t n);
/* The image ![alt](src) with b->dir set: a plot beside the page (src "plots/NAME.svg", NAME
 * of [A-Za-z0-9_.-] not starting with '.') as <img> of a data:image/svg+xml;base64 URI of
 * the file's bytes; any other src as the alt text alone, so that the page refers to no other
 * file.  alt[0..altn) and src[0..srcn) are the raw Markdown (html_embed.c). */
void ht_embed_image(struct ht_buf *b, const char *src, size_t srcn, const char *alt,
                    size_t altn);
/* The inline Markdown s[0..n) (a paragraph, a heading, a cell, a list item) as HTML. */
void ht_inline(struct ht_buf *b, const char *s, size_t n);

#endif
