/* `--baseline OLD.json` (DESIGN.md section 8): a regression check of a result against an
 * earlier one.  Each kernel of doc is matched with the kernel of the same adapter spec, kernel
 * name, func and dtype in old (the first such), and these are compared:
 *   max_ulp                     ulp suite, overall: larger is worse
 *   fraction_correctly_rounded  ulp suite, overall: smaller is worse
 *   flush_point                 tail suite: a flush nearer 0 starts earlier and is worse; no
 *                               flush (null) is best, so a flush where there was none is worse
 *   special_passed              special suite, inputs passed: fewer is worse
 *   new kinds                   a finding kind with a count in some suite of doc's kernel and
 *                               none in any suite of old's (every severity)
 * A metric is compared when doc's kernel has its suite; where old lacks it the entry's "old" is
 * null and it is not worse.  Values compare exactly: the same options give the same numbers.
 * A kernel with a regression that passed (or was skipped) fails; fail and error stay. */
#include <math.h>
#include <string.h>

#include "reports.h"
#include "resread.h"

static const json_t *find_old(const json_t *old, const json_t *k)
{
    static const char *const keys[] = { "adapter", "kernel", "func", "dtype" };
    size_t i, j;
    json_t *o;
    json_array_foreach(json_object_get(old, "kernels"), i, o) {
        int same = 1;
        for (j = 0; j < 4 && same; j++)
            same = strcmp(rr_str(o, keys[j]), rr_str(k, keys[j])) == 0;
        if (same)
            return o;
    }
    return NULL;
}

/* Appends {"name", "old", "new", "worse"} to metrics; old_v NULL (absent) becomes null. */
static int add_metric(json_t *metrics, const char *name, const json_t *old_v, const json_t *new_v,
                      int worse)
{
    json_t *m = json_pack("{s:s, s:O, s:O, s:b}", "name", name,
                          "old", old_v ? old_v : json_null(), "new", new_v ? new_v : json_null(),
                          "worse", worse);
    return json_array_append_new(metrics, m) ? 0 : worse;
}

static const json_t *metric(const json_t *k, const char *suite, const char *key)
{
    return json_object_get(json_object_get(rr_suite(k, suite), "metrics"), key);
}

/* Whether the number new_v is worse than old_v (sign +1: larger is worse, -1: smaller is);
 * never when either is absent or null.  The schema's "inf" counts as the largest. */
static int worse_number(const json_t *old_v, const json_t *new_v, int sign)
{
    double o, n;
    if (rr_real(old_v, &o) != 0 || rr_real(new_v, &n) != 0 || isnan(o) || isnan(n))
        return 0;
    return sign > 0 ? n > o : n < o;
}

/* A flush point got worse: one appeared where there was none, or it moved nearer 0. */
static int worse_flush(const json_t *old_v, const json_t *new_v)
{
    double o, n;
    if (!old_v || !new_v || json_is_null(new_v))
        return 0;
    if (json_is_null(old_v))
        return 1;
    return rr_value(old_v, &o) == 0 && rr_value(new_v, &n) == 0 && fabs(n) < fabs(o);
}

/* "new_kinds": the kinds with findings in k and none in o. */
static json_t *new_kinds(const json_t *k, const json_t *o)
{
    json_t *kinds = json_array();
    size_t i, j, l;
    json_t *s, *c, *seen;
    json_array_foreach(json_object_get(k, "suites"), i, s) {
        json_array_foreach(json_object_get(s, "finding_counts"), j, c) {
            const char *kind = rr_str(c, "kind");
            int dup = json_integer_value(json_object_get(c, "count")) <= 0 ||
                      rr_kind_count(o, kind) > 0;
            json_array_foreach(kinds, l, seen)
                dup |= strcmp(json_string_value(seen), kind) == 0;
            if (!dup)
                json_array_append_new(kinds, json_string(kind));
        }
    }
    return kinds;
}

/* Adds k's "baseline"; returns its number of regressions, -1 on no memory. */
static long long compare_kernel(json_t *k, const json_t *o)
{
    json_t *b = json_object(), *metrics = json_array();
    long long n = 0;

    if (!b || !metrics || json_object_set_new(k, "baseline", b)) {
        json_decref(metrics);
        return -1;
    }
    json_object_set_new(b, "found", json_boolean(o != NULL));
    if (!o) {
        json_decref(metrics);
        json_object_set_new(b, "regressions", json_integer(0));
        return 0;
    }
    json_object_set_new(b, "metrics", metrics);
    if (rr_suite(k, "ulp")) {
        const json_t *ko = metric(k, "ulp", "overall"), *oo = metric(o, "ulp", "overall");
        const json_t *kn = json_object_get(ko, "max_ulp"), *on = json_object_get(oo, "max_ulp");
        n += add_metric(metrics, "max_ulp", on, kn, worse_number(on, kn, +1));
        kn = json_object_get(ko, "fraction_correctly_rounded");
        on = json_object_get(oo, "fraction_correctly_rounded");
        n += add_metric(metrics, "fraction_correctly_rounded", on, kn, worse_number(on, kn, -1));
    }
    if (rr_suite(k, "tail")) {
        const json_t *kn = metric(k, "tail", "flush_point"), *on = metric(o, "tail", "flush_point");
        n += add_metric(metrics, "flush_point", on, kn, worse_flush(on, kn));
    }
    if (rr_suite(k, "special")) {
        const json_t *kn = metric(k, "special", "passed"), *on = metric(o, "special", "passed");
        n += add_metric(metrics, "special_passed", on, kn, worse_number(on, kn, -1));
    }
    json_t *kinds = new_kinds(k, o);
    n += (long long)json_array_size(kinds);
    json_object_set_new(b, "new_kinds", kinds ? kinds : json_array());
    json_object_set_new(b, "regressions", json_integer(n));
    return n;
}

static enum gs_verdict verdict_of(const json_t *o)
{
    const char *s = rr_str(o, "verdict");
    for (int v = GS_PASS; v <= GS_ERROR; v++)
        if (strcmp(s, gs_verdict_name((enum gs_verdict)v)) == 0)
            return (enum gs_verdict)v;
    return GS_ERROR; /* not one of ours: the worst, as rp_result_finish */
}

/* rp_result_finish's rules again after verdicts changed: each adapter's verdict (error when it
 * was not loaded, else the worst of its kernels), "totals" (the finding counts are kept),
 * "verdict" and "exit_code" (4 stays 4: the reference failed in the run; else 3 for an error,
 * 1 for a fail, 0).  Returns the exit code. */
static int reverdict(json_t *doc)
{
    json_t *kernels = json_object_get(doc, "kernels"), *totals = json_object_get(doc, "totals");
    json_int_t n[4] = { 0 };
    enum gs_verdict all = GS_SKIP;
    size_t i, j;
    json_t *k, *a;

    json_array_foreach(kernels, i, k) {
        enum gs_verdict v = verdict_of(k);
        n[v]++;
        all = gs_verdict_worse(all, v);
    }
    json_array_foreach(json_object_get(doc, "adapters"), i, a) {
        enum gs_verdict av = json_is_null(json_object_get(a, "name")) ? GS_ERROR : GS_SKIP;
        json_array_foreach(kernels, j, k) {
            if (strcmp(rr_str(k, "adapter"), rr_str(a, "spec")) == 0)
                av = gs_verdict_worse(av, verdict_of(k));
        }
        json_object_set_new(a, "verdict", json_string(gs_verdict_name(av)));
        all = gs_verdict_worse(all, av);
    }
    int code = json_integer_value(json_object_get(doc, "exit_code")) == 4 ? 4
               : all == GS_ERROR                                          ? 3
               : all == GS_FAIL                                           ? 1
                                                                          : 0;
    if (json_is_object(totals)) {
        json_object_set_new(totals, "pass", json_integer(n[GS_PASS]));
        json_object_set_new(totals, "fail", json_integer(n[GS_FAIL]));
        json_object_set_new(totals, "error", json_integer(n[GS_ERROR]));
        json_object_set_new(totals, "skip", json_integer(n[GS_SKIP]));
    }
    json_object_set_new(doc, "verdict", json_string(gs_verdict_name(all)));
    json_object_set_new(doc, "exit_code", json_integer(code));
    return code;
}

int rp_baseline_apply(json_t *doc, const json_t *old)
{
    size_t i;
    json_t *k;
    int nomem = 0;

    json_array_foreach(json_object_get(doc, "kernels"), i, k) {
        long long n = compare_kernel(k, find_old(old, k));
        const char *v = rr_str(k, "verdict");
        nomem |= n < 0;
        if (n > 0 && (strcmp(v, "pass") == 0 || strcmp(v, "skip") == 0))
            json_object_set_new(k, "verdict", json_string("fail"));
    }
    int code = reverdict(doc);
    return nomem && code < 4 ? 4 : code;
}
