/* report.md: the section of one kernel (markdown.h): what it declares and what it behaves
 * like, its suites, the ten worst inputs, the regions, the plots and how to reproduce the
 * findings; the tail, specials, identity and vector parts are in markdown_suites.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "markdown.h"
#include "reports.h"

/* the worst inputs shown per kernel (the issue: "the ten worst inputs") */
#define MD_WORST 10

/* A finding's ulp as a number for sorting: a string ("inf", "nan") counts as infinite. */
static double ulp_of(const json_t *f)
{
    const json_t *u = json_object_get(f, "ulp");
    if (json_is_number(u))
        return json_number_value(u);
    return u ? INFINITY : -1;
}

static int worse(const json_t *a, const json_t *b)
{
    double ua = ulp_of(a), ub = ulp_of(b);
    if (ua != ub)
        return ua > ub;
    /* ties: the smaller x bits first, as the suites order their own lists */
    return strcmp(md_str(json_object_get(a, "x"), "bits"),
                  md_str(json_object_get(b, "x"), "bits")) < 0;
}

/* The MD_WORST findings of the ulp and tail suites with the largest ulp error, one per x. */
static size_t worst(const json_t *k, const json_t **out)
{
    static const char *const suites[] = { "ulp", "tail" };
    size_t n = 0, i;
    json_t *f;

    for (int s = 0; s < 2; s++)
        json_array_foreach(json_object_get(md_suite(k, suites[s]), "findings"), i, f) {
            const char *bits = md_str(json_object_get(f, "x"), "bits");
            if (!bits[0] || !json_object_get(f, "ulp"))
                continue;
            size_t j, dup = n;
            for (j = 0; j < n; j++)
                if (strcmp(md_str(json_object_get(out[j], "x"), "bits"), bits) == 0)
                    dup = j;
            if (dup < n) {
                if (!worse(f, out[dup]))
                    continue;
                memmove(out + dup, out + dup + 1, (n - dup - 1) * sizeof *out);
                n--;
            }
            /* insertion into the sorted list, keeping at most MD_WORST */
            for (j = n; j > 0 && worse(f, out[j - 1]); j--)
                if (j < MD_WORST)
                    out[j] = out[j - 1];
            if (j < MD_WORST) {
                out[j] = f;
                n += n < MD_WORST;
            }
        }
    return n;
}

static void worst_table(struct md *m, const json_t *k)
{
    const json_t *w[MD_WORST];
    size_t n = worst(k, w);

    md_puts(m, "\n### The worst inputs\n\n");
    if (!n) {
        md_puts(m, "The ulp and tail suites made no finding with an input.\n");
        return;
    }
    md_printf(m, "The %zu largest ulp errors among the findings of the ulp and tail suites "
                 "(each suite keeps the 10 worst per kind and region).\n\n"
                 "| x | x (hex) | x (bits) | got | correctly rounded | ulp | kind | region |\n"
                 "|--:|--:|--:|--:|--:|--:|---|---|\n", n);
    for (size_t i = 0; i < n; i++) {
        const json_t *got = json_object_get(w[i], "got"), *want = json_object_get(w[i], "want");
        md_value_cells(m, json_object_get(w[i], "x"));
        md_puts(m, "| ");
        md_dec(m, got);
        md_puts(m, " ");
        md_code(m, md_str(got, "hex"));
        md_puts(m, " | ");
        md_dec(m, want);
        md_puts(m, " ");
        md_code(m, md_str(want, "hex"));
        md_puts(m, " | ");
        md_num(m, json_object_get(w[i], "ulp"));
        md_puts(m, " | ");
        md_code(m, md_str(w[i], "kind"));
        md_puts(m, " | ");
        md_text(m, md_str(w[i], "region"));
        md_puts(m, " |\n");
    }
}

/* A table of error statistics objects: label column, then points, correctly rounded, max ulp
 * and where, max abs error. */
void md_stats_row(struct md *m, const char *label, const json_t *st)
{
    const json_t *at = json_object_get(json_object_get(st, "max_ulp_at"), "x");
    md_puts(m, "| ");
    md_text(m, label);
    md_printf(m, " | %lld | ", json_integer_value(json_object_get(st, "points")));
    md_pct(m, json_object_get(st, "fraction_correctly_rounded"));
    md_puts(m, " | ");
    md_num(m, json_object_get(st, "max_ulp"));
    md_puts(m, " | ");
    md_dec(m, at);
    md_puts(m, " | ");
    md_num(m, json_object_get(st, "max_abs_err"));
    md_puts(m, " |\n");
}

static void regions(struct md *m, const json_t *k)
{
    const json_t *reg = json_object_get(json_object_get(md_suite(k, "ulp"), "metrics"),
                                        "regions");
    const char *name;
    json_t *st;

    if (!json_object_size(reg))
        return;
    md_puts(m, "\n### Regions (ulp suite)\n\n"
               "| region | points | correctly rounded | max ulp | at x | max abs error |\n"
               "|---|--:|--:|--:|--:|--:|\n");
    json_object_foreach((json_t *)reg, name, st)
        md_stats_row(m, name, st);
}

/* What the kernel declares, what it behaves like, and its distance from the exact function. */
static void identity_line(struct md *m, const json_t *k)
{
    const json_t *fp = json_object_get(k, "fingerprint");
    const json_t *vx = json_object_get(k, "vs_exact"), *vo = json_object_get(vx, "overall");

    md_puts(m, "\nDeclares ");
    md_code(m, md_str(k, "func"));
    md_puts(m, " in ");
    md_text(m, md_str(k, "dtype"));
    if (md_str(k, "description")[0]) {
        md_puts(m, ": ");
        md_code(m, md_str(k, "description"));
    }
    md_puts(m, ".\n");
    const char *det = md_str(fp, "detected");
    if (det[0] && strcmp(det, "n/a") != 0) {
        md_puts(m, strcmp(det, md_str(k, "func")) == 0 ? "Behaves like its declared formula, "
                                                       : "**Behaves like another formula:** ");
        md_code(m, det);
        if (json_is_number(json_object_get(fp, "scale"))) {
            md_puts(m, " with s = ");
            md_num(m, json_object_get(fp, "scale"));
        }
        md_puts(m, " (fingerprint: the runner-up is ");
        md_num(m, json_object_get(fp, "margin"));
        md_puts(m, " bits behind, ");
        md_num(m, json_object_get(fp, "margin_required"));
        md_puts(m, " required).\n");
    }
    if (vo) {
        md_puts(m, "An approximation of ");
        md_code(m, md_str(vx, "func"));
        md_puts(m, ": against the exact function its max error is ");
        md_num(m, json_object_get(vo, "max_ulp"));
        md_puts(m, " ulp, and ");
        md_pct(m, json_object_get(vo, "fraction_correctly_rounded"));
        md_puts(m, " of its outputs are the correctly rounded exact value.\n\n"
                   "| region (vs exact) | points | correctly rounded | max ulp | at x | "
                   "max abs error |\n|---|--:|--:|--:|--:|--:|\n");
        md_stats_row(m, "all", vo);
        const char *name;
        json_t *st;
        json_object_foreach(json_object_get(vx, "regions"), name, st)
            md_stats_row(m, name, st);
    }
    if (json_object_get(k, "error")) {
        md_puts(m, "\n**Error:** ");
        md_text(m, md_str(k, "error"));
        md_puts(m, "\n");
    }
}

/* One row per suite, with its finding counts by kind. */
static void suites(struct md *m, const json_t *k)
{
    size_t i, j;
    json_t *s, *c;

    md_puts(m, "\n| suite | verdict | points | findings |\n|---|---|--:|---|\n");
    json_array_foreach(json_object_get(k, "suites"), i, s) {
        md_puts(m, "| ");
        md_text(m, md_str(s, "name"));
        md_puts(m, " | ");
        md_verdict(m, md_str(s, "verdict"));
        md_puts(m, " | ");
        md_num(m, json_object_get(s, "points"));
        md_puts(m, " | ");
        const char *sep = "";
        json_array_foreach(json_object_get(s, "finding_counts"), j, c) {
            md_puts(m, sep);
            md_code(m, md_str(c, "kind"));
            md_printf(m, " %lld in ", json_integer_value(json_object_get(c, "count")));
            md_text(m, md_str(c, "region"));
            if (strcmp(md_str(c, "severity"), "fail") != 0) {
                md_puts(m, " (");
                md_text(m, md_str(c, "severity"));
                md_puts(m, ")");
            }
            sep = "; ";
        }
        if (json_object_get(s, "note")) {
            md_puts(m, sep[0] ? "; note: " : "note: ");
            md_text(m, md_str(s, "note"));
        }
        md_puts(m, " |\n");
    }
}

static void plot_links(struct md *m, const json_t *k, unsigned plots)
{
    static const struct {
        unsigned bit;
        const char *file, *alt;
    } p[] = { { RP_PLOT_ULP, "ulp", "ulp error against x" },
              { RP_PLOT_ULP_LINEAR, "ulp_linear", "ulp error against x from -10 to 10" },
              { RP_PLOT_TAIL, "tail", "output against the true curve in the tail" },
              { RP_PLOT_APPROX, "approx", "deviation from the exact function" } };
    char slug[RP_SLUG_SIZE];

    if (!plots)
        return;
    rp_kernel_slug(k, slug, sizeof slug);
    md_puts(m, "\n### Plots\n");
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        if (plots & p[i].bit)
            md_printf(m, "\n![%s](plots/%s-%s.svg)\n", p[i].alt, slug, p[i].file);
}

void md_kernel(struct md *m, const json_t *doc, const json_t *k, unsigned plots)
{
    md_puts(m, "\n## ");
    md_text(m, md_str(k, "adapter"));
    md_puts(m, " ");
    md_text(m, md_str(k, "kernel"));
    md_puts(m, ": ");
    md_verdict(m, md_str(k, "verdict"));
    md_puts(m, "\n");
    identity_line(m, k);
    md_baseline(m, k);
    suites(m, k);
    md_findings(m, k);
    md_companion(m, doc, k);
    worst_table(m, k);
    regions(m, k);
    md_tail(m, k);
    md_special(m, k);
    md_identity(m, k);
    md_vector(m, k);
    plot_links(m, k, plots);
    md_reproduce(m, doc, k);
}
