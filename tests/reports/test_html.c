/* rp_markdown_html (reports/html.c, html_inline.c): each construct of the Markdown subset our
 * writers produce, hostile text (markup in cells, code and links), an unterminated fence, an
 * escaped pipe in a table row, and the page around it.  The golden report.html of a real
 * report is compared by html_check.cmake.
 *
 *   test_html                              the unit tests
 *   test_html render IN.md OUT TITLE       rp_markdown_html of the file IN.md into OUT
 *   test_html render IN.md OUT TITLE DIR   rp_markdown_html_embedded, the plots from DIR */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "reports.h"

/* A Markdown input, what its page must hold and what it must not. */
static const struct {
    const char *why, *md;
    const char *want[3], *bad[2];
} cases[] = {
    { "ATX headings", "# a\n## b *c*\n### d ##\n",
      { "<body>\n<h1>a</h1>\n<h2>b <em>c</em></h2>\n<h3>d</h3>\n</body>" }, { 0 } },
    { "paragraphs split by a blank line", "one\ntwo\n\n\nthree\n",
      { "<body>\n<p>one\ntwo</p>\n<p>three</p>\n</body>" }, { 0 } },
    { "fenced code: verbatim and escaped, the language as a class",
      "```sh\nx <y> & \"z\" **not bold** \\_\n```\nafter\n",
      { "<pre><code class=\"language-sh\">x &lt;y&gt; &amp; &quot;z&quot; **not bold** \\_\n"
        "</code></pre>\n<p>after</p>\n" },
      { 0 } },
    { "unterminated fence: code to the end, nothing parsed in it",
      "text\n```\n<script>alert(1)</script>\n# no heading\n| a |\n",
      { "<p>text</p>\n<pre><code>&lt;script&gt;alert(1)&lt;/script&gt;\n# no heading\n| a |\n"
        "</code></pre>\n</body>" },
      { "<script>", "<h1>" } },
    { "table: header, alignment from the delimiter row",
      "| a | b | c | d |\n|---|--:|:-:|:--|\n| 1 | 2 | 3 | 4 |\n| 5 |\n",
      { "<table>\n<thead>\n<tr><th>a</th><th class=\"r\">b</th><th class=\"c\">c</th><th>d</th>"
        "</tr>\n</thead>\n<tbody>\n",
        "<tr><td>1</td><td class=\"r\">2</td><td class=\"c\">3</td><td>4</td></tr>\n",
        "<tr><td>5</td><td class=\"r\"></td><td class=\"c\"></td><td></td></tr>\n</tbody>\n"
        "</table>\n" },
      { 0 } },
    { "hostile text in table cells and code",
      "| x | y |\n|---|---|\n| <script>alert(\"x\")</script> | `<img src=x onerror=y>&` |\n",
      { "<tr><td>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</td>"
        "<td><code>&lt;img src=x onerror=y&gt;&amp;</code></td></tr>" },
      { "<script", "<img src=x" } },
    { "escaped pipe in a row, in text and in code", "| a | b |\n|---|---|\n| x\\|y | `p\\|q` |\n",
      { "<tr><td>x|y</td><td><code>p|q</code></td></tr>\n</tbody>" }, { "\\|" } },
    { "a row of only a delimiter is no table", "| a |\nb\n", { "<p>| a |\nb</p>" },
      { "<table>" } },
    { "backslash escapes as md_text writes them",
      "\\| \\[ \\] \\< \\> \\_ \\* \\` \\\\ \\# \\! \\~ \\& a\\b\n",
      { "<p>| [ ] &lt; &gt; _ * ` \\ # ! ~ &amp; a\\b</p>" }, { "<em>", "<code>" } },
    { "code, strong, emphasis; a lone star or backtick is text",
      "`a*b*` **bold `c`** *em* x * y `` d`e `` f`g\n",
      { "<p><code>a*b*</code> <strong>bold <code>c</code></strong> <em>em</em> x * y "
        "<code>d`e</code> f`g</p>" },
      { 0 } },
    { "links and images, URL and alt escaped",
      "[t *e*](https://e.org/a?b=1&c=2) ![alt \\<1\\> \"q\"](plots/x\\_1.svg)\n",
      { "<a href=\"https://e.org/a?b=1&amp;c=2\">t <em>e</em></a> "
        "<img src=\"plots/x_1.svg\" alt=\"alt &lt;1&gt; &quot;q&quot;\">" },
      { 0 } },
    { "a link to a script URL stays text", "[x](javascript:alert(1)) ![y](data:image/svg)\n",
      { "<p>[x](javascript:alert(1)) ![y](data:image/svg)</p>" }, { "<a ", "<img" } },
    { "brackets that are no link", "on [-inf, -0.75]; [0,1) [a] (b)\n",
      { "<p>on [-inf, -0.75]; [0,1) [a] (b)</p>" }, { "<a " } },
    { "bullet list after a paragraph, lazy continuation",
      "Columns:\n- *a*: one\ntwo\n- b **c**\n",
      { "<p>Columns:</p>\n<ul>\n<li><em>a</em>: one\ntwo</li>\n<li>b <strong>c</strong></li>\n"
        "</ul>\n" },
      { 0 } },
    { "ordered list with a nested bullet list", "1. x\n   - y \\<z\\>\n2. w\n\n5. v\n",
      { "<ol>\n<li>x<ul>\n<li>y &lt;z&gt;</li>\n</ul>\n</li>\n<li>w</li>\n<li>v</li>\n</ol>\n" },
      { "start=" } },
    { "an ordered list that starts at 3", "3. c\n", { "<ol start=\"3\">\n<li>c</li>\n</ol>" },
      { 0 } },
    { "entity references kept, a bare & escaped", "&gt;99.99% &lt;0.01% & &bogus; &#60; &#x3c;\n",
      { "<p>&gt;99.99% &lt;0.01% &amp; &amp;bogus; &#60; &#x3c;</p>" }, { 0 } },
    { "raw HTML is text", "<div onclick=\"x()\">hi</div>\n<!-- c -->\n",
      { "<p>&lt;div onclick=&quot;x()&quot;&gt;hi&lt;/div&gt;\n&lt;!-- c --&gt;</p>" },
      { "<div", "<!--" } },
    { "unknown constructs fall back to paragraphs", "> quote\n    indented\n* star\n---\n",
      { "<p>&gt; quote\n    indented\n* star\n---</p>" }, { "<blockquote>", "<hr" } },
};

static void constructs(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *h = rp_markdown_html(cases[i].md, "t");
        assert_non_null(h);
        const char *body = strstr(h, "<body>");
        assert_non_null(body);
        for (size_t j = 0; j < 3 && cases[i].want[j]; j++)
            if (!strstr(h, cases[i].want[j]))
                fail_msg("row %zu (%s): no\n%s\nin\n%s", i, cases[i].why, cases[i].want[j], body);
        for (size_t j = 0; j < 2 && cases[i].bad[j]; j++)
            if (strstr(body, cases[i].bad[j]))
                fail_msg("row %zu (%s): has '%s' in\n%s", i, cases[i].why, cases[i].bad[j], body);
        free(h);
    }
}

/* The page: doctype, charset, the title escaped, an inline style, no script, nothing
 * external, and nothing after </html>. */
static void page(void **state)
{
    (void)state;
    char *h = rp_markdown_html(NULL, "<T & \"x\">");
    assert_non_null(h);
    static const char *const want[] = {
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
        "<title>&lt;T &amp; &quot;x&quot;&gt;</title>\n<style>\n",
        "th, td { border",
        ".r { text-align: right;",
        "code, pre { font-family: monospace; }",
        "</style>\n</head>\n<body>\n</body>\n</html>\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(h, want[i]))
            fail_msg("page lacks '%s':\n%s", want[i], h);
    assert_int_equal(strncmp(h, want[0], strlen(want[0])), 0);
    assert_string_equal(h + strlen(h) - 8, "</html>\n");
    assert_null(strstr(h, "<script"));
    assert_null(strstr(h, "http"));
    assert_null(strstr(h, "<link"));
    free(h);
}

/* rp_markdown_html_embedded: two plots with the same ids embedded as data: URIs of their
 * bytes, in order; an image that is not a plot beside the page and a relative link left as
 * text; a missing plot an error naming it. */
static void embedded(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_html.XXXXXX", path[64], msg[512];
    static const char *const svg[] = { "<svg id=\"plot-area\">a</svg>\n",
                                       "<svg id=\"plot-area\">bb</svg>\n" };
    /* base64 of the two files (printf '...' | base64 -w0) */
    static const char *const b64[] = { "PHN2ZyBpZD0icGxvdC1hcmVhIj5hPC9zdmc+Cg==",
                                       "PHN2ZyBpZD0icGxvdC1hcmVhIj5iYjwvc3ZnPgo=" };
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/plots", dir);
    assert_int_equal(mkdir(path, 0777), 0);
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/plots/k%d-ulp.svg", dir, i);
        assert_int_equal(rp_write_text(path, svg[i], msg, sizeof msg), 0);
    }
    const char *md = "![one](plots/k0-ulp.svg)\n\n![two \\<2\\>](plots/k1-ulp.svg)\n\n"
                     "![up](../k0-ulp.svg) ![hid](plots/.h.svg) [rel](other.html) "
                     "[abs](https://e.org/)\n";
    char *h = rp_markdown_html_embedded(md, "t", dir, msg, sizeof msg);
    assert_non_null(h);
    char want[160];
    snprintf(want, sizeof want, "<p><img src=\"data:image/svg+xml;base64,%s\" alt=\"one\"></p>",
             b64[0]);
    assert_non_null(strstr(h, want));
    snprintf(want, sizeof want,
             "<p><img src=\"data:image/svg+xml;base64,%s\" alt=\"two &lt;2&gt;\"></p>", b64[1]);
    assert_non_null(strstr(h, want));
    assert_non_null(strstr(h, "<p>up hid rel <a href=\"https://e.org/\">abs</a></p>"));
    assert_null(strstr(h, "plots/"));
    free(h);
    /* a plot that is not there */
    h = rp_markdown_html_embedded("![x](plots/gone.svg)\n", "t", dir, msg, sizeof msg);
    assert_null(h);
    assert_non_null(strstr(msg, "cannot embed '"));
    assert_non_null(strstr(msg, "/plots/gone.svg' in the page: No such file or directory"));
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/plots/k%d-ulp.svg", dir, i);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/plots", dir);
    rmdir(path);
    rmdir(dir);
}

static int render(const char *in, const char *out, const char *title, const char *dir)
{
    FILE *f = fopen(in, "rb");
    char *md = NULL;
    size_t n = 0, cap = 0, r;
    if (!f) {
        perror(in);
        return 1;
    }
    do {
        char *p = n + 4096 > cap ? realloc(md, cap = 2 * cap + 4096) : md;
        if (!p)
            return fclose(f), free(md), 1;
        md = p;
        r = fread(md + n, 1, cap - n - 1, f);
        n += r;
    } while (r > 0);
    fclose(f);
    md[n] = '\0';
    char msg[4400];
    char *h = dir ? rp_markdown_html_embedded(md, title, dir, msg, sizeof msg)
                  : rp_markdown_html(md, title);
    free(md);
    if (!h) {
        fprintf(stderr, "test_html: %s\n", dir ? msg : "out of memory");
        return 1;
    }
    int rc = rp_write_text(out, h, msg, sizeof msg);
    if (rc)
        fprintf(stderr, "%s\n", msg);
    free(h);
    return rc != 0;
}

int main(int argc, char **argv)
{
    if ((argc == 5 || argc == 6) && strcmp(argv[1], "render") == 0)
        return render(argv[2], argv[3], argv[4], argc == 6 ? argv[5] : NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(constructs),
        cmocka_unit_test(page),
        cmocka_unit_test(embedded),
    };
    return cmocka_run_group_tests_name("reports_html", tests, NULL, NULL);
}
