/* Private to the HTML writer (html.c, html_inline.c): a growing text buffer, HTML escaping and
 * inline Markdown.  Prefix ht_. */
#ifndef GELUCHECK_HTML_H
#define GELUCHECK_HTML_H

#include <stddef.h>

struct ht_buf {
    char *s;
    size_t len, cap;
    int nomem; /* an allocation failed: the rest is dropped, rp_markdown_html returns NULL */
};

void ht_put(struct ht_buf *b, const char *s, size_t n);
void ht_puts(struct ht_buf *b, const char *s);
/* s[0..n) with & < > " as entities and control bytes other than tab and newline as spaces. */
void ht_esc(struct ht_buf *b, const char *s, size_t n);
/* s[0..n) with backslash escapes resolved, then escaped: an attribute value or alt text. */
void ht_plain(struct ht_buf *b, const char *s, size_t n);
/* The inline Markdown s[0..n) (a paragraph, a heading, a cell, a list item) as HTML. */
void ht_inline(struct ht_buf *b, const char *s, size_t n);

#endif
