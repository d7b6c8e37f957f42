/* The sites of a scanned model in report.md (docs/model-audit.md): for each adapter of the run
 * that is "scan:MODEL" and whose result holds the scan ("scan", gelucheck-scan/1), one table
 * with a row per site and per distinct computation across the optimization levels: the node,
 * the formula, the levels, what ONNX Runtime runs there, the kernel that measured it and what
 * that kernel's suites found (verdict, max ulp for x >= -1, flush point, f(-inf), wrong
 * signs).  A site that is not a GELU, or whose computation could not be made a kernel, or
 * whose kernel was not run, says so in the row.  Before them, with run --torch-module, the
 * table of every PyTorch activation across the runtimes (markdown_runtimes.c). */
#include <string.h>

#include "markdown.h"
#include "resread.h"

/* The kernel of adapter spec named name in the result, or NULL. */
static const json_t *kernel_of(const json_t *doc, const char *spec, const char *name)
{
    size_t i;
    json_t *k;
    json_array_foreach(json_object_get(doc, "kernels"), i, k) {
        if (strcmp(rr_str(k, "adapter"), spec) == 0 && strcmp(rr_str(k, "kernel"), name) == 0)
            return k;
    }
    return NULL;
}

/* The largest max_ulp of the ulp suite's regions at x >= -1 (where no tail flush hides the
 * formula's accuracy), "-" when none was measured. */
static void near_ulp(struct md *m, const json_t *k)
{
    static const char *const near[] = { "[-1,0)", "[0,1)", "x>=1" };
    const json_t *regions = json_object_get(json_object_get(rr_suite(k, "ulp"), "metrics"),
                                            "regions");
    const json_t *best = NULL;
    double worst = -1, v;
    for (size_t i = 0; i < sizeof near / sizeof near[0]; i++) {
        const json_t *u = json_object_get(json_object_get(regions, near[i]), "max_ulp");
        if (rr_real(u, &v) == 0 && (v > worst || v != v)) {
            worst = v != v ? INFINITY : v;
            best = u;
        }
    }
    md_num(m, best);
}

static void measured(struct md *m, const json_t *k)
{
    const json_t *tail = rr_suite(k, "tail"), *sp = rr_suite(k, "special");
    md_verdict(m, rr_str(k, "verdict"));
    md_puts(m, " | ");
    near_ulp(m, k);
    md_puts(m, " | ");
    if (!tail || strcmp(rr_str(tail, "verdict"), "error") == 0)
        md_puts(m, "-");
    else if (json_is_null(json_object_get(json_object_get(tail, "metrics"), "flush_point")))
        md_puts(m, "none");
    else
        md_dec(m, json_object_get(json_object_get(tail, "metrics"), "flush_point"));
    md_puts(m, " | ");
    const json_t *minf = NULL, *row;
    size_t i;
    json_array_foreach(json_object_get(json_object_get(sp, "metrics"), "table"), i, row) {
        if (strcmp(rr_str(row, "input"), "-inf") == 0)
            minf = json_object_get(row, "got");
    }
    md_dec(m, minf);
    md_puts(m, " | ");
    long long wrong = 0;
    const json_t *s;
    json_array_foreach(json_object_get(k, "suites"), i, s)
        wrong = rr_count_add(wrong, rr_suite_kind_count(s, "wrong_sign"));
    md_printf(m, "%lld", wrong);
}

/* The node that names a site: the one its kernel names are made of, else the first. */
static const char *anchor_node(const json_t *site)
{
    const json_t *nodes = json_object_get(site, "nodes"), *n;
    size_t i;
    json_array_foreach(nodes, i, n) {
        const char *s = json_string_value(n);
        size_t len = s ? strlen(s) : 0;
        if (len >= 3 && (strcmp(s + len - 3, "Erf") == 0 || (len >= 4 &&
                         strcmp(s + len - 4, "Tanh") == 0) || (len >= 7 &&
                         strcmp(s + len - 7, "Sigmoid") == 0)))
            return s;
    }
    return json_string_value(json_array_get(nodes, 0));
}

/* One row per run of levels with the same kernel and operator at a site. */
static void site_rows(struct md *m, const json_t *doc, const char *spec, const json_t *scan,
                      const json_t *site)
{
    const json_t *levels = json_object_get(scan, "levels"), *per = json_object_get(site, "levels");
    size_t n = json_array_size(levels);
    unsigned char done[16] = { 0 };
    if (n > sizeof done)
        n = sizeof done;
    for (size_t i = 0; i < n; i++) {
        if (done[i])
            continue;
        const json_t *t = json_object_get(per, json_string_value(json_array_get(levels, i)));
        const char *kname = json_string_value(json_object_get(t, "kernel"));
        md_puts(m, "| ");
        md_code(m, rr_str(site, "site"));
        md_puts(m, " | ");
        md_code(m, anchor_node(site) ? anchor_node(site) : "");
        md_puts(m, " | ");
        md_text(m, rr_str(site, "func"));
        md_puts(m, " | ");
        for (size_t j = i, first = 1; j < n; j++) {
            const json_t *u = json_object_get(per, json_string_value(json_array_get(levels, j)));
            const char *kj = json_string_value(json_object_get(u, "kernel"));
            if ((kj == NULL) != (kname == NULL) || (kj && strcmp(kj, kname) != 0) ||
                strcmp(rr_str(u, "operator"), rr_str(t, "operator")) != 0)
                continue;
            done[j] = 1;
            md_puts(m, first ? "" : ", ");
            md_text(m, json_string_value(json_array_get(levels, j)));
            first = 0;
        }
        md_puts(m, " | ");
        md_text(m, rr_str(t, "operator"));
        if (rr_str(t, "note")[0]) {
            md_puts(m, " (");
            md_text(m, rr_str(t, "note"));
            md_puts(m, ")");
        }
        md_puts(m, " | ");
        const json_t *k = kname ? kernel_of(doc, spec, kname) : NULL;
        if (k) {
            md_code(m, kname);
            md_puts(m, " | ");
            measured(m, k);
        } else {
            if (kname) {
                md_code(m, kname);
                md_puts(m, " | not run");
            } else if (strncmp(rr_str(site, "func"), "gelu", 4) != 0) {
                md_puts(m, "- | not a GELU: not measured");
            } else {
                md_puts(m, "- | no kernel: ");
                md_text(m, rr_str(t, "no_kernel")[0] ? rr_str(t, "no_kernel") : "see the scan");
            }
            md_puts(m, " | - | - | - | -");
        }
        md_puts(m, " |\n");
    }
}

/* With --torch-module: each site beside the PyTorch activation it was paired with, how the
 * pair was made and whether the export changed the formula; what paired with nothing. */
static void torch_pairs(struct md *m, const json_t *scan)
{
    const json_t *t = json_object_get(scan, "torch"), *site, *act;
    size_t i;
    long long changed = 0;
    if (!json_is_object(t))
        return;
    md_puts(m, "\nEach site beside the PyTorch activation it was exported from (TorchScript "
               "module ");
    md_code(m, rr_str(t, "module"));
    md_puts(m, ", torch ");
    md_text(m, rr_str(t, "version"));
    md_puts(m, "), paired by the module path in the node's name where the exporter kept it "
               "(module path: a named activation module; order in module: the k-th site and "
               "activation of one module path; order: a node name without a path).\n\n"
               "| site | PyTorch activation | module | PyTorch computes | paired by | ONNX "
               "computes | formula changed |\n|---|---|---|---|---|---|---|\n");
    json_array_foreach(json_object_get(scan, "sites"), i, site) {
        const json_t *p = json_object_get(site, "torch");
        md_puts(m, "| ");
        md_code(m, rr_str(site, "site"));
        md_puts(m, " | ");
        if (!json_is_object(p)) {
            md_puts(m, "**not paired** | - | - | - | ");
            md_text(m, rr_str(site, "func"));
            md_puts(m, " | - |\n");
            continue;
        }
        md_printf(m, "#%lld ", (long long)json_integer_value(json_object_get(p, "activation")));
        md_code(m, rr_str(p, "path")[0] ? rr_str(p, "path") : "(top)");
        md_puts(m, " | ");
        md_text(m, rr_str(p, "module_type"));
        md_puts(m, " | ");
        md_text(m, rr_str(p, "formula"));
        md_puts(m, " | ");
        md_text(m, rr_str(p, "paired_by"));
        md_puts(m, " | ");
        md_text(m, rr_str(site, "func"));
        int ch = json_is_true(json_object_get(p, "formula_changed"));
        changed += ch;
        md_puts(m, " | ");
        if (ch) {
            md_puts(m, "**yes**: ");
            md_text(m, rr_str(p, "func"));
            md_puts(m, " in PyTorch, ");
            md_text(m, rr_str(site, "func"));
            md_puts(m, " in ONNX");
        } else {
            md_puts(m, "no");
        }
        md_puts(m, " |\n");
    }
    size_t left = 0;
    json_array_foreach(json_object_get(t, "activations"), i, act) {
        if (!json_is_null(json_object_get(act, "site")))
            continue;
        md_puts(m, left++ ? ", " : "\nPyTorch activations paired with no site: ");
        md_printf(m, "#%lld ", (long long)json_integer_value(json_object_get(act, "index")));
        md_code(m, rr_str(act, "path")[0] ? rr_str(act, "path") : "(top)");
        md_puts(m, " (");
        md_text(m, rr_str(act, "formula"));
        md_puts(m, ")");
    }
    if (left)
        md_puts(m, ".\n");
    md_printf(m, "\n%lld formula%s changed by the export.\n", changed, changed == 1 ? "" : "s");
}

/* One side's own accuracy in a cell: "1.98 ulp; flush -5.54; f(-inf) nan; 0 wrong signs". */
static void side(struct md *m, const json_t *a)
{
    if (!json_is_object(a)) {
        md_puts(m, "not measured");
        return;
    }
    const json_t *fp = json_object_get(a, "flush_point");
    md_verdict(m, rr_str(a, "verdict"));
    md_puts(m, ": ");
    if (json_is_number(json_object_get(a, "max_ulp_near"))) {
        md_num(m, json_object_get(a, "max_ulp_near"));
        md_puts(m, " ulp; ");
    }
    if (json_is_number(fp)) {
        md_printf(m, "flush %.8g; ", json_number_value(fp));
    }
    if (rr_str(a, "f_minus_inf")[0]) {
        md_puts(m, "f(-inf) ");
        md_text(m, rr_str(a, "f_minus_inf"));
        md_puts(m, "; ");
    }
    md_printf(m, "%lld wrong signs", (long long)json_integer_value(json_object_get(a,
                                                                               "wrong_signs")));
}

/* With run --torch-module: each pair measured on both sides on the same inputs. */
static void torch_diffs(struct md *m, const json_t *scan)
{
    const json_t *t = json_object_get(scan, "torch"), *site, *d;
    size_t i, j, rows = 0;
    if (!json_is_object(t) || !rr_str(t, "measured_by")[0])
        return;
    json_array_foreach(json_object_get(scan, "sites"), i, site) {
        const json_t *p = json_object_get(site, "torch");
        json_array_foreach(json_object_get(p, "diff"), j, d) {
            if (!rows++) {
                md_puts(m, "\nEach pair measured on both sides on the same inputs: the PyTorch "
                           "side is the kernel of ");
                md_code(m, rr_str(t, "measured_by"));
                md_puts(m, " that computes what PyTorch computes at that activation (its "
                           "description says how), the ONNX side the site's kernel at those "
                           "levels. *differ*: outputs whose bits differ (NaN = NaN); *ulp apart*: "
                           "the largest distance between them; *where*: the ulp suite's regions "
                           "of the inputs where they differ; *farther*: at how many of those "
                           "outputs each side is the farther from the correctly rounded value "
                           "of PyTorch's function; each side's own accuracy as its suites "
                           "measured it (max ulp for x >= -1, flush point, f(-inf), wrong "
                           "signs).\n\n| site | levels | ONNX kernel | PyTorch kernel | "
                           "inputs | differ | ulp apart | where | farther: ONNX / PyTorch | "
                           "PyTorch's accuracy | ONNX's accuracy | verdict |\n"
                           "|---|---|---|---|--:|--:|--:|---|--:|---|---|---|\n");
            }
            const json_t *lv;
            size_t q;
            md_puts(m, "| ");
            md_code(m, rr_str(site, "site"));
            md_puts(m, " | ");
            json_array_foreach(json_object_get(d, "levels"), q, lv) {
                md_puts(m, q ? ", " : "");
                md_text(m, json_string_value(lv));
            }
            md_puts(m, " | ");
            md_code(m, rr_str(d, "kernel"));
            md_puts(m, " | ");
            if (rr_str(d, "torch_kernel")[0])
                md_code(m, rr_str(d, "torch_kernel"));
            else
                md_puts(m, "-");
            if (!json_is_true(json_object_get(d, "compared"))) {
                md_puts(m, " | - | - | - | - | - | - | - | not compared: ");
                md_text(m, rr_str(d, "reason"));
                md_puts(m, " |\n");
                continue;
            }
            md_printf(m, " | %lld | %lld | ", (long long)json_integer_value(
                          json_object_get(d, "inputs")), (long long)json_integer_value(
                          json_object_get(d, "differ")));
            if (json_is_null(json_object_get(d, "max_ulp_apart")))
                md_puts(m, "NaN against a number");
            else
                md_num(m, json_object_get(d, "max_ulp_apart"));
            md_puts(m, " | ");
            const char *key;
            const json_t *c;
            size_t first = 1;
            json_object_foreach((json_t *)json_object_get(d, "regions"), key, c) {
                md_puts(m, first ? "" : ", ");
                md_text(m, key);
                md_printf(m, " %lld", (long long)json_integer_value(c));
                first = 0;
            }
            if (first)
                md_puts(m, "-");
            md_printf(m, " | %lld / %lld | ", (long long)json_integer_value(
                          json_object_get(d, "onnx_farther")), (long long)json_integer_value(
                          json_object_get(d, "torch_farther")));
            side(m, json_object_get(d, "torch_accuracy"));
            md_puts(m, " | ");
            side(m, json_object_get(d, "onnx_accuracy"));
            md_puts(m, " | ");
            int same = strcmp(rr_str(d, "verdict"), "same bits") == 0;
            md_puts(m, same ? "" : "**");
            md_text(m, rr_str(d, "verdict"));
            md_puts(m, same ? "" : "**");
            md_puts(m, " |\n");
        }
    }
}

void md_sites(struct md *m, const json_t *doc)
{
    md_runtimes(m, doc);
    size_t i, j;
    json_t *a, *site;
    json_array_foreach(json_object_get(doc, "adapters"), i, a) {
        const json_t *scan = json_object_get(a, "scan");
        if (!json_is_object(scan))
            continue;
        size_t ns = json_array_size(json_object_get(scan, "sites"));
        md_puts(m, "\n## Sites of ");
        md_code(m, rr_str(scan, "model"));
        if (rr_str(scan, "kernels_runtime")[0]) /* beside the same model's native rows */
            md_puts(m, " on onnxruntime-web");
        md_printf(m, "\n\n%zu GELU-like site%s found by `gelucheck scan` (", ns,
                  ns == 1 ? "" : "s");
        md_text(m, rr_str(scan, "runtime"));
        if (rr_str(scan, "kernels_runtime")[0]) {
            md_puts(m, "; the kernels ran on ");
            md_text(m, rr_str(scan, "kernels_runtime"));
            md_puts(m, ": ");
            md_text(m, rr_str(scan, "optimizer"));
        }
        md_puts(m, "): one row per site and per computation that ONNX Runtime runs there, the "
                   "levels where it runs it, and what its kernel measured: max ulp for x >= -1 "
                   "(the ulp suite's regions there), the tail suite's flush point, f(-inf) and "
                   "the count of wrong_sign findings. Equal computations share one kernel.\n\n"
                   "| site | node | formula | levels | ONNX Runtime runs | kernel | verdict | "
                   "max ulp, x >= -1 | flush point | f(-inf) | wrong signs |\n"
                   "|---|---|---|---|---|---|---|--:|--:|--:|--:|\n");
        json_array_foreach(json_object_get(scan, "sites"), j, site)
            site_rows(m, doc, rr_str(a, "spec"), scan, site);
        torch_pairs(m, scan);
        torch_diffs(m, scan);
    }
}
