/* What --baseline did, in the terminal: one line of counts (its words are a contract that CI
 * logs are grepped for), then which kernels regressed, improved, went missing or are new, and
 * what could not be compared when the inputs differ (docs/ci.md); on stderr, a warning per
 * kernel that matched nothing through --site-map and when the baseline matched no kernel at
 * all (docs/model-audit.md). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "resread.h"
#include "run_output.h"

static long long count(const json_t *b, const char *key)
{
    return (long long)json_integer_value(json_object_get(b, key));
}

/* "baseline: WHAT: a, b, c" (at most 8 named, then how many more), when list is not empty */
static void names(FILE *f, const json_t *b, const char *list, const char *what, const char *tail)
{
    const json_t *l = json_object_get(b, list), *v;
    size_t i, n = json_array_size(l);
    if (!n)
        return;
    fprintf(f, "baseline: %s: ", what);
    json_array_foreach(l, i, v) {
        if (i == 8) {
            fprintf(f, ", and %zu more", n - 8);
            break;
        }
        fprintf(f, "%s%s", i ? ", " : "", json_string_value(v));
    }
    fprintf(f, "%s\n", tail);
}

void run_baseline_print(FILE *f, const json_t *doc)
{
    const json_t *b = json_object_get(doc, "baseline");
    if (!json_is_object(b))
        return;
    fprintf(f, "baseline: %lld kernels compared, %lld regressions, %lld improvements, "
            "%lld missing, %lld new\n", count(b, "compared"), count(b, "regressions"),
            count(b, "improvements"), count(b, "missing"), count(b, "new"));
    if (!json_is_true(json_object_get(b, "same_inputs")))
        fprintf(f, "baseline: the baseline measured other inputs (rounding, seed, samples, "
                "range, exhaustive or suites differ): only what does not depend on them was "
                "compared (docs/ci.md)\n");
    if (!json_is_true(json_object_get(b, "same_policy")))
        fprintf(f, "baseline: the baseline used another policy: finding kinds and special "
                "values were not compared\n");
    names(f, b, "regressed_kernels", "regressed", " (they fail)");
    names(f, b, "missing_kernels", "missing", json_is_true(json_object_get(b, "allow_missing"))
          ? " (in the baseline, selected by this run, not produced; allowed by "
            "--baseline-allow-missing)"
          : " (in the baseline, selected by this run, not produced: the run fails; "
            "--baseline-allow-missing accepts it)");
    names(f, b, "improved_kernels", "improved",
          " (refresh the baseline to keep the gain: gelucheck baseline RESULT.json -o FILE)");
    names(f, b, "new_kernels", "new", " (not in the baseline: reported, not failed)");
    const json_t *sm = json_object_get(b, "site_map");
    if (json_is_object(sm))
        fprintf(f, "baseline: site map '%s': %lld kernels compared through it, %zu with no "
                "baseline through it, %zu kernels of the baseline matched by none, %zu "
                "entries of the map in neither\n", rr_str(sm, "file"), count(sm, "matched"),
                json_array_size(json_object_get(sm, "unmatched_kernels")),
                json_array_size(json_object_get(sm, "unmatched_baseline")),
                json_array_size(json_object_get(sm, "entries_in_no_result")));
}

void run_baseline_warn(const json_t *doc, const char *file)
{
    const json_t *b = json_object_get(doc, "baseline"), *sm = json_object_get(b, "site_map");
    const json_t *e;
    size_t i;
    if (!json_is_object(b))
        return;
    json_array_foreach(json_object_get(sm, "unmatched_kernels"), i, e)
        fprintf(stderr, "gelucheck: warning: --baseline '%s': kernel '%s' has no baseline: "
                "%s\n", file, rr_str(e, "kernel"), rr_str(e, "why"));
    json_array_foreach(json_object_get(sm, "unmatched_baseline"), i, e)
        fprintf(stderr, "gelucheck: warning: --baseline '%s': its kernel '%s' was compared "
                "with none: %s\n", file, rr_str(e, "kernel"), rr_str(e, "why"));
    json_array_foreach(json_object_get(sm, "entries_in_no_result"), i, e)
        fprintf(stderr, "gelucheck: warning: site map '%s': '%s' of site '%s' is neither in "
                "the baseline nor in this run\n", rr_str(sm, "file"), rr_str(e, "kernel"),
                rr_str(e, "site"));
    if (count(b, "compared") == 0 && count(b, "new") > 0) {
        if (json_is_object(sm))
            fprintf(stderr, "gelucheck: warning: --baseline '%s': no kernel of this run "
                    "matched a kernel of it, by identity or through the site map '%s': "
                    "nothing was compared\n", file, rr_str(sm, "file"));
        else
            fprintf(stderr, "gelucheck: warning: --baseline '%s': no kernel of this run has "
                    "the identity ADAPTER/KERNEL, func and dtype of one of its kernels: "
                    "nothing was compared; a baseline of another adapter (the PyTorch "
                    "module's, another runtime's or dtype's) is matched by the model site "
                    "with --site-map MAP (docs/model-audit.md)\n", file);
    }
}
