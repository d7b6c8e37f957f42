/* report.md of a result (reports.h, docs/design.md section 8): the head (verdict, totals, how the
 * run was made), the summary table of every kernel, then one section per kernel
 * (markdown_kernel.c, markdown_suites.c).  Everything comes from the result document, and
 * nothing from "timing", so the same result always gives the same bytes (golden tests in
 * tests/reports/). */
#include <stdlib.h>
#include <string.h>

#include "markdown.h"
#include "reports.h"
#include "resread.h"

const json_t *md_suite(const json_t *k, const char *name)
{
    return rr_suite(k, name);
}

static void head(struct md *m, const json_t *doc)
{
    const json_t *t = json_object_get(doc, "totals"), *fc = json_object_get(t, "findings");
    const json_t *tool = json_object_get(doc, "tool"), *env = json_object_get(doc, "environment");
    const char *key;
    json_t *v;
    size_t i;

    md_puts(m, "# gelucheck report\n\nVerdict: ");
    md_verdict(m, md_str(doc, "verdict"));
    md_printf(m, " (exit status %lld) under policy ",
              json_integer_value(json_object_get(doc, "exit_code")));
    md_code(m, md_str(json_object_get(doc, "policy"), "name"));
    md_printf(m, ": %lld kernel%s, %lld pass, %lld fail, %lld error, %lld skip.\n",
              json_integer_value(json_object_get(t, "kernels")),
              json_integer_value(json_object_get(t, "kernels")) == 1 ? "" : "s",
              json_integer_value(json_object_get(t, "pass")),
              json_integer_value(json_object_get(t, "fail")),
              json_integer_value(json_object_get(t, "error")),
              json_integer_value(json_object_get(t, "skip")));
    if (json_object_size(fc)) {
        const char *sep = "\nFindings: ";
        json_object_foreach((json_t *)fc, key, v) {
            md_puts(m, sep);
            md_code(m, key);
            md_printf(m, " %lld", json_integer_value(v));
            sep = ", ";
        }
        md_puts(m, ".\n");
    }
    json_array_foreach(json_object_get(doc, "adapters"), i, v) {
        if (json_is_null(json_object_get(v, "error")) || !json_object_get(v, "error"))
            continue;
        md_puts(m, "\n**Adapter not loaded:** ");
        md_code(m, md_str(v, "spec"));
        md_puts(m, ": ");
        md_text(m, md_str(v, "error"));
        md_puts(m, "\n");
    }
    md_puts(m, "\nMade by ");
    md_text(m, md_str(tool, "name"));
    md_puts(m, " ");
    md_text(m, md_str(tool, "version"));
    md_puts(m, " (geluref ");
    md_text(m, md_str(tool, "geluref"));
    md_puts(m, ", MPFR ");
    md_text(m, md_str(tool, "mpfr"));
    md_printf(m, ") with seed %lld, ", json_integer_value(json_object_get(doc, "seed")));
    json_int_t samples = json_integer_value(json_object_get(doc, "samples"));
    if (samples)
        md_printf(m, "%lld samples", samples);
    else
        md_puts(m, "the suites' default samples");
    md_printf(m, "%s, rounding ", json_is_true(json_object_get(doc, "exhaustive"))
                                      ? " (exhaustive)" : "");
    md_text(m, md_str(doc, "rounding"));
    md_puts(m, "; suites");
    json_array_foreach(json_object_get(doc, "suites"), i, v) {
        md_puts(m, i ? ", " : " ");
        md_text(m, json_string_value(v));
    }
    const json_t *sh = json_object_get(doc, "shard");
    if (json_integer_value(json_object_get(sh, "count")) > 1)
        md_printf(m, "; shard %lld of %lld", json_integer_value(json_object_get(sh, "index")),
                  json_integer_value(json_object_get(sh, "count")));
    if (json_is_false(json_object_get(doc, "complete")))
        md_puts(m, "; **incomplete**");
    md_puts(m, ".\n");
    if (env) {
        md_puts(m, "Machine: ");
        md_text(m, md_str(env, "cpu"));
        md_puts(m, ", ");
        md_text(m, md_str(env, "os"));
        md_puts(m, ", ");
        md_text(m, md_str(env, "libc"));
        md_puts(m, ", built with ");
        md_text(m, md_str(env, "compiler"));
        md_puts(m, ".\n");
    }
    md_puts(m, "\nThe command:\n\n```sh\n");
    json_array_foreach(json_object_get(doc, "command"), i, v) {
        md_puts(m, i ? " " : "");
        md_shell_word(m, json_string_value(v) ? json_string_value(v) : "");
    }
    md_puts(m, "\n```\n");
}

/* One row of the summary table. */
static void summary_row(struct md *m, const json_t *k)
{
    const json_t *ulp = json_object_get(md_suite(k, "ulp"), "metrics");
    const json_t *ov = json_object_get(ulp, "overall");
    const json_t *tail = json_object_get(md_suite(k, "tail"), "metrics");
    const json_t *sp = json_object_get(md_suite(k, "special"), "metrics");
    const json_t *fp = json_object_get(k, "fingerprint");

    md_puts(m, "| ");
    md_code(m, md_str(k, "kernel"));
    md_puts(m, " | ");
    md_text(m, md_str(k, "adapter"));
    md_puts(m, " | ");
    md_text(m, md_str(k, "func"));
    md_puts(m, " | ");
    md_text(m, md_str(k, "dtype"));
    md_puts(m, " | ");
    md_verdict(m, md_str(k, "verdict"));
    md_puts(m, " | ");
    md_worst_kind(m, k);
    md_puts(m, " | ");
    md_num(m, json_object_get(ov, "max_ulp"));
    md_puts(m, " | ");
    md_pct(m, json_object_get(ov, "fraction_correctly_rounded"));
    md_puts(m, " | ");
    /* a tail suite that could not evaluate the kernel measured nothing: no "none" */
    if (!tail || strcmp(md_str(md_suite(k, "tail"), "verdict"), "error") == 0)
        md_puts(m, "-");
    else if (json_is_null(json_object_get(tail, "flush_point")))
        md_puts(m, "none");
    else
        md_dec(m, json_object_get(tail, "flush_point"));
    md_puts(m, " | ");
    if (sp)
        md_printf(m, "%lld/%lld", json_integer_value(json_object_get(sp, "passed")),
                  json_integer_value(json_object_get(sp, "checked")));
    else
        md_puts(m, "-");
    md_puts(m, " | ");
    if (md_str(fp, "detected")[0]) {
        md_text(m, md_str(fp, "detected"));
        if (json_is_number(json_object_get(fp, "scale"))) {
            md_puts(m, " s = ");
            md_num(m, json_object_get(fp, "scale"));
        }
    } else {
        md_puts(m, "-");
    }
    md_puts(m, " |\n");
}

char *rp_markdown(const json_t *doc, const unsigned *plots)
{
    struct md m = { 0 };
    size_t i;
    json_t *k;

    head(&m, doc);
    md_puts(&m, "\n## Summary\n\nWorst finding: the kind of the kernel's most severe finding "
                "(its section says more); max ulp and correctly rounded: the ulp suite over all "
                "its inputs; flush point: the tail suite's first zero output (\"none\": it never "
                "flushes early); specials: passed/checked; formula: what the fingerprint suite "
                "detected.\n\n"
                "| kernel | adapter | func | dtype | verdict | worst finding | max ulp | "
                "correctly rounded | flush point | specials | formula |\n"
                "|---|---|---|---|---|---|--:|--:|--:|--:|---|\n");
    json_array_foreach(json_object_get(doc, "kernels"), i, k)
        summary_row(&m, k);
    md_sites(&m, doc);
    json_array_foreach(json_object_get(doc, "kernels"), i, k)
        md_kernel(&m, doc, k, plots ? plots[i] : 0);
    if (m.nomem || !m.s) {
        free(m.s);
        return NULL;
    }
    return m.s;
}
