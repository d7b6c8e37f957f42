/* The report folder (reports.h): DIR/result.json, DIR/plots/SLUG-*.svg, DIR/report.md (which
 * links the plots written), DIR/report.html (report.md for a browser, the plots embedded: it
 * travels alone) and DIR/junit.xml, each written atomically, in that order: a report never
 * links or embeds a plot that is not there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports.h"

/* dir + "/" + name into buf; 0, or -1 with msg when it does not fit. */
static int join(char *buf, size_t bsize, const char *dir, const char *name, char *msg,
                size_t size)
{
    int n = snprintf(buf, bsize, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= bsize) {
        snprintf(msg, size, "cannot write '%s/%s': path too long", dir, name);
        return -1;
    }
    return 0;
}

int rp_report_write(const json_t *doc, const char *dir, char *msg, size_t size)
{
    char path[4096], plots_dir[4096], emsg[4400];
    const json_t *kernels = json_object_get(doc, "kernels");
    size_t n = json_array_size(kernels);
    unsigned *masks = calloc(n ? n : 1, sizeof *masks);
    char *text = NULL, *html = NULL;
    int rc = -1;

    if (!masks) {
        snprintf(msg, size, "cannot write the report in '%s': out of memory", dir);
        return -1;
    }
    if (join(plots_dir, sizeof plots_dir, dir, "plots", msg, size) ||
        rp_mkdirs(plots_dir, msg, size) ||
        join(path, sizeof path, dir, "result.json", msg, size) ||
        rp_write_json(doc, path, msg, size))
        goto out;
    for (size_t i = 0; i < n; i++)
        if (rp_plots_write(json_array_get(kernels, i), plots_dir, &masks[i], msg, size))
            goto out;
    if (join(path, sizeof path, dir, "report.md", msg, size))
        goto out;
    if (!(text = rp_markdown(doc, masks))) {
        snprintf(msg, size, "cannot write '%s': out of memory", path);
        goto out;
    }
    if (rp_write_text(path, text, msg, size))
        goto out;
    if (join(path, sizeof path, dir, "report.html", msg, size))
        goto out;
    if (!(html = rp_markdown_html_embedded(text, "gelucheck report", dir, emsg, sizeof emsg))) {
        snprintf(msg, size, "cannot write '%s': %s", path, emsg);
        goto out;
    }
    if (rp_write_text(path, html, msg, size))
        goto out;
    free(text);
    text = NULL;
    if (join(path, sizeof path, dir, "junit.xml", msg, size))
        goto out;
    if (!(text = rp_junit(doc))) {
        snprintf(msg, size, "cannot write '%s': out of memory", path);
        goto out;
    }
    rc = rp_write_text(path, text, msg, size);
out:
    free(html);
    free(text);
    free(masks);
    return rc;
}
