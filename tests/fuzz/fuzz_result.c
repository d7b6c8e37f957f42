/* Fuzz target: reading a JSON result back (reports/read.c), what `gelucheck report`, compare,
 * merge and --baseline read, and everything those commands then do with it in memory: the
 * Markdown and HTML report, the JUnit XML, the plots, the compare table and plot, --baseline
 * (the result against itself) and merge (as the only shard).  Nothing is written but the
 * input's temporary file.  Checked: no crash, leak or undefined behaviour; a file that does
 * not load gives one line naming it. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fuzz.h"
#include "plots.h"
#include "reports.h"

#define T "fuzz_result"

static void draw(int (*svg)(const json_t *, char **), const json_t *kernel)
{
    char *text = NULL;

    if (svg(kernel, &text) == 0)
        free(text);
}

static void render(json_t *doc, const char *path)
{
    char slug[160], msg[1024];
    size_t i;
    json_t *k;

    char *md = rp_markdown(doc, NULL);
    char *html = md ? rp_markdown_html(md, "fuzz") : NULL;
    free(html);
    free(md);
    free(rp_junit(doc));
    json_array_foreach(json_object_get(doc, "kernels"), i, k) {
        rp_kernel_slug(k, slug, sizeof slug);
        draw(pl_ulp_svg, k);
        draw(pl_tail_svg, k);
        draw(pl_approx_svg, k);
    }
    char *svg = NULL;
    if (pl_compare_svg(&doc, 1, &svg) == 0)
        free(svg);
    free(rp_compare_markdown(&doc, &path, 1));

    json_t *now = json_deep_copy(doc);
    if (now) {
        rp_baseline_apply(now, doc, NULL);
        free(rp_markdown(now, NULL));
        json_decref(now);
    }
    msg[0] = '\0';
    json_t *merged = rp_merge(&doc, &path, 1, msg, sizeof msg);
    if (merged)
        json_decref(merged);
    else
        fuzz_check_line(T, "merge", msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char msg[1024];
    const char *path = fuzz_temp_file("fuzz_result", data, size);

    if (path == NULL)
        return 0;
    msg[0] = '\0';
    json_t *doc = rp_result_load(path, msg, sizeof msg);
    if (doc == NULL) {
        fuzz_check_line(T, "load", msg);
        if (strncmp(msg, path, strlen(path)) != 0)
            fuzz_fail(T, "message does not name the file: '%s'", msg);
        return 0;
    }
    render(doc, path);
    json_decref(doc);
    return 0;
}
