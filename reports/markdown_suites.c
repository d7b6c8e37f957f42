/* report.md, per kernel (markdown.h): the tail analysis, the special-value table, identity and
 * monotonicity, the vector suite and a baseline comparison.  Each part is left out when its
 * suite did not run. */
#include <string.h>

#include "markdown.h"

/* "| label | dec | hex | bits |" */
static void value_row(struct md *m, const char *label, const json_t *v)
{
    md_puts(m, "| ");
    md_text(m, label);
    md_puts(m, " ");
    md_value_cells(m, json_is_null(v) ? NULL : v);
    md_puts(m, "|\n");
}

void md_tail(struct md *m, const json_t *k)
{
    const json_t *s = md_suite(k, "tail"), *mt = json_object_get(s, "metrics");
    const json_t *gap = json_object_get(mt, "flush_gap");
    size_t i;
    json_t *d;

    if (!s || !json_object_get(mt, "last_nonzero"))
        return;
    md_puts(m, "\n### Tail\n\nWhere the output first flushes to zero beside where the correctly "
               "rounded result does.\n\n| | x | hex | bits |\n|---|--:|--:|--:|\n");
    value_row(m, "flush point (first zero output)", json_object_get(mt, "flush_point"));
    value_row(m, "last non-zero correctly rounded result", json_object_get(mt, "last_nonzero"));
    value_row(m, "last normal correctly rounded result", json_object_get(mt, "last_normal"));
    md_puts(m, "\n");
    if (strcmp(md_str(s, "verdict"), "error") == 0) {
        md_puts(m, "The tail suite could not evaluate this kernel (its `adapter_error`, `crash` "
                   "or `timeout` findings say why): no conclusion on where it flushes.\n");
        return;
    }
    if (json_is_null(json_object_get(mt, "flush_point")))
        md_puts(m, "No zero output before the last non-zero result: no early flush.");
    else if (gap) {
        md_puts(m, "The flush comes ");
        md_num(m, json_object_get(gap, "x"));
        md_puts(m, " in x (");
        md_num(m, json_object_get(gap, "floats"));
        md_puts(m, " floats) before the last non-zero result.");
    }
    md_puts(m, " Zero outputs on the scan: ");
    md_num(m, json_object_get(mt, "zero_outputs"));
    md_puts(m, " (");
    md_num(m, json_object_get(mt, "zero_outputs_measured"));
    md_puts(m, " measured): ftz ");
    md_num(m, json_object_get(mt, "ftz"));
    md_puts(m, ", premature flush ");
    md_num(m, json_object_get(mt, "premature_flush"));
    md_puts(m, "; zeros of the wrong sign beyond the last non-zero result: ");
    md_num(m, json_object_get(mt, "signed_zero"));
    md_puts(m, ".\n");
    if (!json_array_size(json_object_get(mt, "depth")))
        return;
    md_puts(m, "\n| depth bin | points | correctly rounded | max ulp | at x | max abs error |\n"
               "|---|--:|--:|--:|--:|--:|\n");
    json_array_foreach(json_object_get(mt, "depth"), i, d)
        md_stats_row(m, md_str(d, "bin"), d);
    if (json_object_get(mt, "beyond_last_nonzero"))
        md_stats_row(m, "beyond the last non-zero", json_object_get(mt, "beyond_last_nonzero"));
    const json_t *sat = json_object_get(mt, "saturation");
    if (sat)
        md_stats_row(m, "saturation", json_object_get(sat, "errors"));
}

void md_special(struct md *m, const json_t *k)
{
    const json_t *mt = json_object_get(md_suite(k, "special"), "metrics");
    size_t i;
    json_t *r;

    if (!json_array_size(json_object_get(mt, "table")))
        return;
    md_printf(m, "\n### Special values\n\n%lld of %lld as expected.\n\n"
                 "| input | x | got | want | ok |\n|---|--:|--:|--:|---|\n",
              json_integer_value(json_object_get(mt, "passed")),
              json_integer_value(json_object_get(mt, "checked")));
    json_array_foreach(json_object_get(mt, "table"), i, r) {
        static const char *const cols[] = { "x", "got", "want" };
        md_puts(m, "| ");
        md_text(m, md_str(r, "input"));
        for (int c = 0; c < 3; c++) {
            const json_t *v = json_object_get(r, cols[c]);
            md_puts(m, " | ");
            md_dec(m, v);
            if (md_str(v, "bits")[0]) {
                md_puts(m, " ");
                md_code(m, md_str(v, "bits"));
            }
        }
        md_puts(m, json_is_true(json_object_get(r, "ok")) ? " | yes |\n" : " | **no** |\n");
    }
}

static void count_row(struct md *m, const char *label, const json_t *o, const char *checked,
                      const char *bad)
{
    md_puts(m, "| ");
    md_text(m, label);
    md_puts(m, " | ");
    md_num(m, json_object_get(o, checked));
    md_puts(m, " | ");
    md_num(m, json_object_get(o, bad));
    md_puts(m, " |");
}

void md_identity(struct md *m, const json_t *k)
{
    const json_t *mt = json_object_get(md_suite(k, "identity"), "metrics");
    const json_t *id = json_object_get(mt, "identity"), *b = json_object_get(mt, "bounds");
    const json_t *mono = json_object_get(mt, "monotonic");
    size_t i;
    json_t *p;

    if (!id && !mono)
        return;
    md_puts(m, "\n### Identity and monotonicity\n\n| check | checked | violations | detail |\n"
               "|---|--:|--:|---|\n");
    count_row(m, "identity f(x) vs f(-x)", id, "checked", "violations");
    md_puts(m, " max residual ");
    md_num(m, json_object_get(id, "max_residual_ulps"));
    md_puts(m, " ulp |\n");
    count_row(m, "f(0)", json_object_get(mt, "zero"), "checked", "violations");
    md_puts(m, " |\n");
    count_row(m, "bounds", b, "checked", "violations");
    md_puts(m, " min ");
    if (json_is_null(json_object_get(b, "min")))
        md_puts(m, "none");
    else
        md_dec(m, json_object_get(b, "min"));
    md_puts(m, ", max ");
    if (json_is_null(json_object_get(b, "max")))
        md_puts(m, "none");
    else
        md_dec(m, json_object_get(b, "max"));
    md_puts(m, " |\n");
    count_row(m, "monotonic pieces", mono, "checked_pairs", "violations");
    md_puts(m, " ");
    json_array_foreach(json_object_get(mono, "pieces"), i, p) {
        md_puts(m, i ? "; " : "");
        md_text(m, md_str(p, "direction"));
        md_puts(m, " on [");
        md_dec(m, json_object_get(p, "from"));
        md_puts(m, ", ");
        md_dec(m, json_object_get(p, "to"));
        md_puts(m, "]");
    }
    md_puts(m, " |\n");
}

void md_vector(struct md *m, const json_t *k)
{
    const json_t *mt = json_object_get(md_suite(k, "vector"), "metrics");
    const char *name;
    json_t *v;

    if (!json_object_get(mt, "calls"))
        return;
    md_puts(m, "\n### Vector\n\n");
    md_num(m, json_object_get(mt, "calls"));
    md_puts(m, " calls, ");
    md_num(m, json_object_get(mt, "lengths_checked"));
    md_puts(m, " lengths; value checks: ");
    md_text(m, md_str(mt, "value_checks"));
    md_puts(m, ".\n\n| check | checked | failures |\n|---|--:|--:|\n");
    json_object_foreach((json_t *)mt, name, v) {
        if (!json_is_object(v) || !json_object_get(v, "failures"))
            continue;
        count_row(m, name, v, "checked", "failures");
        md_puts(m, "\n");
    }
}

void md_baseline(struct md *m, const json_t *k)
{
    const json_t *b = json_object_get(k, "baseline");
    size_t i;
    json_t *r;

    if (!b)
        return;
    md_puts(m, "\n### Against the baseline\n\n");
    if (!json_is_true(json_object_get(b, "found"))) {
        md_puts(m, "Not in the baseline (");
        md_text(m, md_str(b, "why")[0] ? md_str(b, "why") : "no kernel of that adapter, name, "
                                                             "func and dtype");
        md_puts(m, ").\n");
        return;
    }
    if (md_str(b, "site")[0]) { /* through --site-map */
        md_puts(m, "Compared with ");
        md_code(m, md_str(b, "kernel"));
        md_puts(m, " of the baseline, at the site ");
        md_code(m, md_str(b, "site"));
        md_puts(m, " of the site map");
        json_array_foreach(json_object_get(b, "also"), i, r) {
            md_puts(m, i ? "; " : " (the comparison with the most regressions; also ");
            md_code(m, md_str(r, "kernel"));
            md_puts(m, " at ");
            md_code(m, md_str(r, "site"));
            md_printf(m, ": %lld regressions, %lld improvements",
                      json_integer_value(json_object_get(r, "regressions")),
                      json_integer_value(json_object_get(r, "improvements")));
        }
        md_puts(m, json_array_size(json_object_get(b, "also")) ? ").\n\n" : ".\n\n");
    }
    md_printf(m, "%lld regression%s.\n\n| metric | old | new | worse |\n|---|--:|--:|---|\n",
              json_integer_value(json_object_get(b, "regressions")),
              json_integer_value(json_object_get(b, "regressions")) == 1 ? "" : "s");
    json_array_foreach(json_object_get(b, "metrics"), i, r) {
        static const char *const cols[] = { "old", "new" };
        md_puts(m, "| ");
        md_text(m, md_str(r, "name"));
        for (int c = 0; c < 2; c++) {
            const json_t *v = json_object_get(r, cols[c]);
            md_puts(m, " | ");
            if (json_is_object(v))
                md_dec(m, v);
            else if (json_is_string(v)) /* func, dtype: through a site map */
                md_text(m, json_string_value(v));
            else
                md_num(m, v);
        }
        md_puts(m, json_is_true(json_object_get(r, "worse")) ? " | **yes** |\n" : " | no |\n");
    }
    json_array_foreach(json_object_get(b, "new_kinds"), i, r) {
        md_puts(m, i ? ", " : "\nNew finding kinds: ");
        md_code(m, json_string_value(r));
    }
    if (json_array_size(json_object_get(b, "new_kinds")))
        md_puts(m, ".\n");
}
