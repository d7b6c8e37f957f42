/* report.md's table of every GELU of a PyTorch module across the models and runtimes of one
 * run --torch-module (docs/model-audit.md): a row per activation of the module, a column per
 * scan: adapter (the native build, onnxruntime-web, a float16 export) and per run of
 * optimization levels that run the same kernels at every site; each cell the count of outputs
 * of that side that differ from PyTorch's on the same inputs and which side is the worse, as
 * the pair's diff (cli/scan_pairs.c) found. */
#include <stdio.h>
#include <string.h>

#include "markdown.h"
#include "resread.h"

/* n with a comma every three digits: 17281 -> "17,281". */
static void md_count(struct md *m, long long n)
{
    char d[32];
    int len = snprintf(d, sizeof d, "%lld", n < 0 ? -n : n);
    md_puts(m, n < 0 ? "-" : "");
    for (int i = 0; i < len; i++) {
        md_printf(m, "%c", d[i]);
        if (i < len - 1 && (len - 1 - i) % 3 == 0)
            md_puts(m, ",");
    }
}

/* The site of scan paired with PyTorch activation index, or NULL. */
static const json_t *site_of(const json_t *scan, long long index)
{
    size_t i;
    const json_t *site;
    json_array_foreach(json_object_get(scan, "sites"), i, site) {
        const json_t *p = json_object_get(site, "torch");
        if (json_is_object(p) && json_integer_value(json_object_get(p, "activation")) == index)
            return site;
    }
    return NULL;
}

/* Whether levels i and j of scan run the same kernel at every site (one column for both). */
static int same_column(const json_t *scan, size_t i, size_t j)
{
    const json_t *levels = json_object_get(scan, "levels"), *site;
    const char *a = json_string_value(json_array_get(levels, i)),
               *b = json_string_value(json_array_get(levels, j));
    size_t k;
    json_array_foreach(json_object_get(scan, "sites"), k, site) {
        const json_t *per = json_object_get(site, "levels");
        if (strcmp(rr_str(json_object_get(per, a), "kernel"),
                   rr_str(json_object_get(per, b), "kernel")) != 0)
            return 0;
    }
    return 1;
}

/* The cell of one activation at one column: the site's diff at level lv of scan. */
static void runtime_cell(struct md *m, const json_t *scan, long long index, const char *lv)
{
    const json_t *site = site_of(scan, index), *d, *found = NULL, *l;
    size_t i, j;
    if (!site) {
        md_puts(m, "not paired");
        return;
    }
    json_array_foreach(json_object_get(json_object_get(site, "torch"), "diff"), i, d) {
        json_array_foreach(json_object_get(d, "levels"), j, l) {
            if (strcmp(json_string_value(l), lv) == 0)
                found = d;
        }
    }
    if (!found) {
        md_puts(m, strncmp(rr_str(site, "func"), "gelu", 4) != 0 ? "- (not a GELU)"
                                                                 : "- (no kernel)");
        return;
    }
    if (!json_is_true(json_object_get(found, "compared"))) {
        md_puts(m, "not compared");
        return;
    }
    if (json_is_true(json_object_get(json_object_get(site, "torch"), "formula_changed")))
        md_puts(m, "**formula changed**; ");
    long long differ = json_integer_value(json_object_get(found, "differ"));
    if (!differ) {
        md_puts(m, "same bits");
        return;
    }
    md_count(m, differ);
    const char *side = rr_str(found, "worse_side");
    md_puts(m, " differ; ");
    md_puts(m, strcmp(side, "onnx") == 0      ? "**ONNX worse**"
               : strcmp(side, "pytorch") == 0 ? "PyTorch worse"
               : strcmp(side, "mixed") == 0   ? "mixed"
                                              : "neither worse");
}

/* With run --torch-module: every PyTorch activation in one table, a column per scan: adapter
 * (native, onnxruntime-web, a float16 export) and per run of levels that run the same kernels
 * at every site, each cell the count of outputs that differ from PyTorch's and the worse side
 * (the verdict of that pair's diff row below). */
void md_runtimes(struct md *m, const json_t *doc)
{
    const json_t *a, *first = NULL, *act;
    size_t i, j, ncols = 0;
    json_array_foreach(json_object_get(doc, "adapters"), i, a) {
        const json_t *t = json_object_get(json_object_get(a, "scan"), "torch");
        if (json_is_object(t) && rr_str(t, "measured_by")[0] && !first)
            first = json_object_get(a, "scan");
    }
    if (!first)
        return;
    md_puts(m, "\n## Every GELU of the PyTorch module, per runtime\n\nEach activation of ");
    md_code(m, rr_str(json_object_get(first, "torch"), "module"));
    md_puts(m, " beside the site it was exported to, in each model and runtime of this run "
               "(a column per `scan:` adapter and per run of optimization levels that run the "
               "same kernels): how many outputs differ in their bits from PyTorch's on the "
               "same inputs (a float16 site: every f16 input, against PyTorch's float32 output "
               "rounded to f16), and which side is the worse (by the suites' measures, else "
               "by which is the farther from the correctly rounded value where they differ; "
               "the diff tables below say by what).\n\n| PyTorch activation | PyTorch "
               "computes | site |");
    json_array_foreach(json_object_get(doc, "adapters"), i, a) {
        const json_t *scan = json_object_get(a, "scan"), *t = json_object_get(scan, "torch");
        const json_t *levels = json_object_get(scan, "levels");
        if (!json_is_object(t) || !rr_str(t, "measured_by")[0])
            continue;
        const char *dt = rr_str(json_array_get(json_object_get(scan, "sites"), 0), "dtype");
        for (size_t l = 0; l < json_array_size(levels); l = j) {
            md_puts(m, " ");
            md_code(m, rr_str(a, "id")[0] ? rr_str(a, "id") : rr_str(a, "spec"));
            md_puts(m, rr_str(scan, "kernels_runtime")[0] ? " WebAssembly" : " native");
            md_printf(m, " %s: ", dt[0] ? dt : "?");
            for (j = l; j < json_array_size(levels) && same_column(scan, l, j); j++) {
                md_puts(m, j > l ? ", " : "");
                md_text(m, json_string_value(json_array_get(levels, j)));
            }
            md_puts(m, " |");
            ncols++;
        }
    }
    md_puts(m, "\n|---|---|---|");
    for (i = 0; i < ncols; i++)
        md_puts(m, "---|");
    md_puts(m, "\n");
    json_array_foreach(json_object_get(json_object_get(first, "torch"), "activations"), i, act) {
        long long index = json_integer_value(json_object_get(act, "index"));
        md_printf(m, "| #%lld ", index);
        md_code(m, rr_str(act, "path")[0] ? rr_str(act, "path") : "(top)");
        md_puts(m, " | ");
        md_text(m, rr_str(act, "formula"));
        md_puts(m, " | ");
        const char *shown = NULL;
        json_array_foreach(json_object_get(doc, "adapters"), j, a) {
            const json_t *site = site_of(json_object_get(a, "scan"), index);
            if (!site || (shown && strcmp(shown, rr_str(site, "site")) == 0))
                continue;
            md_puts(m, shown ? ", " : "");
            md_code(m, rr_str(site, "site"));
            shown = rr_str(site, "site");
        }
        md_puts(m, shown ? "" : "**not paired**");
        json_array_foreach(json_object_get(doc, "adapters"), j, a) {
            const json_t *scan = json_object_get(a, "scan"), *t = json_object_get(scan, "torch");
            const json_t *levels = json_object_get(scan, "levels");
            if (!json_is_object(t) || !rr_str(t, "measured_by")[0])
                continue;
            for (size_t l = 0, e; l < json_array_size(levels); l = e) {
                for (e = l; e < json_array_size(levels) && same_column(scan, l, e); e++)
                    ;
                md_puts(m, " | ");
                runtime_cell(m, scan, index, json_string_value(json_array_get(levels, l)));
            }
        }
        md_puts(m, " |\n");
    }
}
