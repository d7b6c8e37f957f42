/* `--baseline FILE` (docs/ci.md): a regression check of a result against an earlier result
 * or a compact baseline (baseline_form.c; a result is made compact first, so both compare
 * alike).  Kernels are matched by identity ADAPTER/KERNEL, func and dtype, never by the
 * spelling of a spec.  What is compared depends on whether the two runs measured the same
 * inputs (the same rounding, seed, samples, exhaustive, range and suites):
 *   max_ulp, fraction_correctly_rounded (ulp), flush_point (tail), and the kinds of findings
 *   of the swept suites (ulp, tail, identity): when the inputs are the same, or when they
 *   cannot differ: the same rounding and range, and the dtype f16 or bf16 (always swept
 *   whole) or both runs exhaustive;
 *   special_passed and the kinds of the special, vector and fingerprint suites (fixed inputs):
 *   when the rounding is the same;
 *   finding kinds and special_passed also need the same policy (it decides what is a finding).
 * Larger max_ulp, smaller fraction and special_passed, a flush nearer 0 (or one where there
 * was none) and a kind with findings where the baseline had none are regressions, past
 * --baseline-tolerance for the first two; the opposite moves are improvements.  A kernel
 * with a regression fails.  A baseline kernel this run selected (its adapter is one of the
 * run's, its name and dtype pass --kernel and --dtype) but did not produce is missing: the
 * run fails unless allow_missing.  A kernel the baseline lacks is new, and only reported.
 *
 * With a site map (opts->site_map, --site-map MAP: site -> [ADAPTER/KERNEL...]) a kernel
 * without a kernel of its own identity in the baseline is compared with the kernels of the
 * baseline that the map puts at its sites: at each site, those of its own kernel name (the
 * same level on another runtime or dtype) if any, else all of them there.  When that gives
 * several (a kernel shared by sites, several levels at one site), it is compared with each
 * and the comparison with the most regressions (the first in the map's order on a tie) is
 * its "baseline", the others listed under "also".  Through the map the func and dtype may
 * differ: another func is a regression (metric "func": the conversion changed the formula),
 * another dtype leaves max_ulp, the fraction and the flush point uncompared (ulps of
 * different types; a float16 GELU flushes far nearer 0 by its range alone).  What
 * matched nothing is listed under the summary's "site_map": the kernels with no baseline
 * through the map (each with "why", as its own "baseline"), the baseline's kernels no kernel
 * of the run was compared with, and the map's entries found in neither. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline_internal.h"
#include "reports.h"
#include "resread.h"


static const json_t *find_old(const json_t *ob, const json_t *nk)
{
    size_t i;
    json_t *o;
    json_array_foreach(json_object_get(ob, "kernels"), i, o) {
        if (strcmp(rr_str(o, "id"), rr_str(nk, "id")) == 0 &&
            strcmp(rr_str(o, "func"), rr_str(nk, "func")) == 0 &&
            strcmp(rr_str(o, "dtype"), rr_str(nk, "dtype")) == 0)
            return o;
    }
    return NULL;
}

/* Appends {"name", "old", "new", "worse", "better"}; returns worse. */
static int add_metric(json_t *metrics, const char *name, const json_t *old_v, const json_t *new_v,
                      int worse, int better)
{
    json_t *m = json_pack("{s:s, s:O, s:O, s:b, s:b}", "name", name,
                          "old", old_v ? old_v : json_null(), "new", new_v ? new_v : json_null(),
                          "worse", worse, "better", better);
    json_array_append_new(metrics, m);
    return worse;
}

/* sign * (new - old) > tol: worse (sign +1: larger is worse); never with either absent,
 * null or NaN.  The schema's "inf" counts as the largest. */
static int moved(const json_t *old_v, const json_t *new_v, int sign, double tol)
{
    double o, n;
    if (rr_real(old_v, &o) != 0 || rr_real(new_v, &n) != 0 || isnan(o) || isnan(n))
        return 0;
    if (isinf(o) || isinf(n))
        return sign > 0 ? n > o : n < o;
    return sign * (n - o) > tol;
}

/* A flush point got worse (1) or better (-1): one appeared (went away), or moved nearer 0
 * (further from it); 0 otherwise.  Only where both kernels ran the tail suite. */
static int flush_move(const json_t *old_v, const json_t *new_v)
{
    double o, n;
    if (!old_v || !new_v)
        return 0;
    if (json_is_null(old_v) || json_is_null(new_v))
        return json_is_null(old_v) == json_is_null(new_v) ? 0 : json_is_null(old_v) ? 1 : -1;
    if (rr_value(old_v, &o) != 0 || rr_value(new_v, &n) != 0)
        return 0;
    return fabs(n) < fabs(o) ? 1 : fabs(n) > fabs(o) ? -1 : 0;
}

static int swept_suite(const char *suite)
{
    return strcmp(suite, "ulp") == 0 || strcmp(suite, "tail") == 0 ||
           strcmp(suite, "identity") == 0;
}

/* Appends kind to list unless it is there already (a kind counts once, in however many
 * suites it appears). */
static void add_kind(json_t *list, const char *kind)
{
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v) {
        if (strcmp(json_string_value(v), kind) == 0)
            return;
    }
    json_array_append_new(list, json_string(kind));
}

/* The kinds with findings in nk and none in ok ("new_kinds"), and the other way round
 * ("gone_kinds"), over the suites both ran that may be compared. */
static void kinds_moved(const struct cmp *c, const json_t *nk, const json_t *ok, int swept_ok,
                        json_t *added, json_t *gone)
{
    const json_t *nks = json_object_get(nk, "kinds"), *oks = json_object_get(ok, "kinds");
    const char *suite;
    json_t *nsuite;
    if (!c->kinds_ok)
        return;
    json_object_foreach((json_t *)nks, suite, nsuite) {
        const json_t *osuite = json_object_get(oks, suite);
        const char *kind;
        json_t *v;
        if (!osuite || (swept_suite(suite) ? !swept_ok : !c->fixed_ok))
            continue;
        json_object_foreach(nsuite, kind, v) {
            if (!json_object_get(osuite, kind))
                add_kind(added, kind);
        }
        json_object_foreach((json_t *)osuite, kind, v) {
            if (!json_object_get(nsuite, kind))
                add_kind(gone, kind);
        }
    }
}

/* Sets k's "baseline"; *regressions and *improvements get the counts of worse and better
 * metrics and kinds. */
void bl_compare_kernel(const struct cmp *c, json_t *k, const json_t *nk, const json_t *ok,
                       long long *regressions, long long *improvements)
{
    json_t *b = json_object(), *metrics = json_array(), *added = json_array(),
           *gone = json_array(), *skipped = json_array();
    const char *dt = rr_str(nk, "dtype");
    int half = strcmp(dt, "f16") == 0 || strcmp(dt, "bf16") == 0;
    int swept_ok = c->same_inputs ||
                   (c->same_rounding && c->same_range && (half || c->both_exhaustive));
    long long worse = 0, better = 0;

    json_object_set_new(k, "baseline", b);
    json_object_set_new(b, "found", json_true());
    if (strcmp(rr_str(nk, "func"), rr_str(ok, "func")) != 0) /* only through a site map */
        worse += add_metric(metrics, "func", json_object_get(ok, "func"),
                            json_object_get(nk, "func"), 1, 0);
    int same_dtype = strcmp(dt, rr_str(ok, "dtype")) == 0;
    if (!same_dtype)
        add_metric(metrics, "dtype", json_object_get(ok, "dtype"), json_object_get(nk, "dtype"),
                   0, 0);
    if (swept_ok && same_dtype) {
        const json_t *on = json_object_get(ok, "max_ulp"), *nn = json_object_get(nk, "max_ulp");
        int w = moved(on, nn, +1, c->o->tol_ulp), g = moved(on, nn, -1, c->o->tol_ulp);
        worse += add_metric(metrics, "max_ulp", on, nn, w, g);
        better += g;
        on = json_object_get(ok, "fraction_correctly_rounded");
        nn = json_object_get(nk, "fraction_correctly_rounded");
        w = moved(on, nn, -1, c->o->tol_fraction);
        g = moved(on, nn, +1, c->o->tol_fraction);
        worse += add_metric(metrics, "fraction_correctly_rounded", on, nn, w, g);
        better += g;
        on = json_object_get(ok, "flush_point");
        nn = json_object_get(nk, "flush_point");
        if (on && nn) {
            int f = flush_move(on, nn);
            worse += add_metric(metrics, "flush_point", on, nn, f > 0, f < 0);
            better += f < 0;
        }
    } else {
        json_array_append_new(skipped, json_string("max_ulp"));
        json_array_append_new(skipped, json_string("fraction_correctly_rounded"));
        json_array_append_new(skipped, json_string("flush_point"));
    }
    if (c->fixed_ok && c->kinds_ok) {
        const json_t *on = json_object_get(ok, "special_passed");
        const json_t *nn = json_object_get(nk, "special_passed");
        int w = moved(on, nn, -1, 0), g = moved(on, nn, +1, 0);
        worse += add_metric(metrics, "special_passed", on, nn, w, g);
        better += g;
    } else {
        json_array_append_new(skipped, json_string("special_passed"));
    }
    kinds_moved(c, nk, ok, swept_ok, added, gone);
    worse += (long long)json_array_size(added);
    better += (long long)json_array_size(gone);
    json_object_set_new(b, "metrics", metrics);
    json_object_set_new(b, "new_kinds", added);
    json_object_set_new(b, "gone_kinds", gone);
    json_object_set_new(b, "not_compared", skipped);
    json_object_set_new(b, "regressions", json_integer(worse));
    json_object_set_new(b, "improvements", json_integer(better));
    *regressions = worse;
    *improvements = better;
}

/* Whether the run of doc selected kernel id (ADAPTER/KERNEL) of dtype dt: its adapter is one
 * of doc's, and the recorded command's --kernel and --dtype let it through. */
static int selected(const json_t *doc, const char *id, const char *dt)
{
    const json_t *cmd = json_object_get(doc, "command");
    const char *slash = strchr(id, '/'), *name = slash ? slash + 1 : id;
    size_t i, alen = slash ? (size_t)(slash - id) : strlen(id);
    int adapter = 0, any_kernel = 0, kernel = 0, any_dtype = 0, dtype = 0;
    json_t *a;
    char aid[256];

    json_array_foreach(json_object_get(doc, "adapters"), i, a) {
        const json_t *k0 = NULL, *k;
        size_t j;
        json_array_foreach(json_object_get(doc, "kernels"), j, k)
            if (!k0 && strcmp(rr_str(k, "adapter"), rr_str(a, "spec")) == 0)
                k0 = k;
        rp_adapter_id(doc, a, rr_str(k0, "func"), aid, sizeof aid);
        adapter |= strlen(aid) == alen && strncmp(aid, id, alen) == 0;
    }
    for (i = 0; i < json_array_size(cmd); i++) {
        const char *w = json_string_value(json_array_get(cmd, i));
        const char *v = json_string_value(json_array_get(cmd, i + 1));
        if (!w)
            continue;
        if (strncmp(w, "--kernel=", 9) == 0 || strncmp(w, "--dtype=", 8) == 0) {
            v = strchr(w, '=') + 1;
        } else if (strcmp(w, "--kernel") != 0 && strcmp(w, "--dtype") != 0) {
            continue;
        }
        if (!v)
            continue;
        if (strncmp(w, "--kernel", 8) == 0) {
            any_kernel = 1;
            kernel |= strcmp(v, name) == 0;
        } else {
            any_dtype = 1;
            dtype |= strcmp(v, dt) == 0;
        }
    }
    return adapter && (!any_kernel || kernel) && (!any_dtype || dtype);
}

static void list_add(json_t *summary, const char *list, const char *id)
{
    json_array_append_new(json_object_get(summary, list), json_string(id));
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
 * 1 for a fail or a missing kernel, 0).  Returns the exit code. */
static int reverdict(json_t *doc, int missing)
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
    if (missing) /* a kernel of the baseline that this run selected and did not produce */
        all = gs_verdict_worse(all, GS_FAIL);
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

int rp_baseline_apply(json_t *doc, const json_t *old, const struct rp_baseline_opts *opts)
{
    static const struct rp_baseline_opts none = { 0, 0, 0, NULL, NULL };
    int own = strcmp(rr_str(old, "schema"), RP_BASELINE_SCHEMA) != 0;
    json_t *ob = own ? rp_baseline_compact(old) : (json_t *)old, *nb = rp_baseline_compact(doc);
    json_t *summary = json_pack("{s:i, s:i, s:i, s:i, s:i, s:b, s:[], s:[], s:[], s:[]}",
                                "compared", 0, "regressions", 0, "improvements", 0, "missing",
                                0, "new", 0, "same_inputs", 0, "regressed_kernels",
                                "improved_kernels", "missing_kernels", "new_kernels");
    const json_t *ni = json_object_get(nb, "inputs"), *oi = json_object_get(ob, "inputs");
    struct cmp c = { opts ? opts : &none, 0, 0, 0, 0, 0, 0, 0, 0 };
    long long counts[5] = { 0 }; /* compared, regressed, improved, missing, new */
    size_t i;
    json_t *k, *o;

    if (!ob || !nb || !summary) {
        if (own)
            json_decref(ob);
        json_decref(nb);
        json_decref(summary);
        return 4;
    }
    c.same_inputs = json_equal(ni, oi);
    c.same_policy = strcmp(rr_str(nb, "policy"), rr_str(ob, "policy")) == 0;
    c.same_rounding = json_equal(json_object_get(ni, "rounding"), json_object_get(oi, "rounding"));
    c.same_range = json_equal(json_object_get(ni, "range"), json_object_get(oi, "range"));
    c.both_exhaustive = json_is_true(json_object_get(ni, "exhaustive")) &&
                        json_is_true(json_object_get(oi, "exhaustive"));
    c.fixed_ok = c.same_rounding;
    c.kinds_ok = c.same_policy;
    size_t n_old = json_array_size(json_object_get(ob, "kernels"));
    unsigned char *used = calloc(n_old + 1, 1);
    json_t *sm = c.o->site_map ? json_pack("{s:s, s:i, s:[], s:[], s:[]}", "file",
                                           c.o->site_map_file ? c.o->site_map_file : "",
                                           "matched", 0, "unmatched_kernels",
                                           "unmatched_baseline", "entries_in_no_result")
                               : NULL;
    long long by_map = 0;
    if (!used || (c.o->site_map && !sm)) {
        free(used);
        json_decref(sm);
        if (own)
            json_decref(ob);
        json_decref(nb);
        json_decref(summary);
        return 4;
    }
    json_array_foreach(json_object_get(doc, "kernels"), i, k) {
        const json_t *nk = json_array_get(json_object_get(nb, "kernels"), i);
        const json_t *ok = find_old(ob, nk);
        long long worse = 0, better = 0;
        if (ok) {
            used[bl_index_of(ob, rr_str(ok, "id"))] = 1;
            bl_compare_kernel(&c, k, nk, ok, &worse, &better);
        } else if (c.o->site_map && bl_through_map(&c, k, nk, ob, used, &worse, &better)) {
            by_map++;
        } else {
            if (!c.o->site_map)
                json_object_set_new(k, "baseline", json_pack(
                    "{s:b, s:i, s:s}", "found", 0, "regressions", 0, "why", "no kernel of the "
                    "baseline has its identity ADAPTER/KERNEL, func and dtype"));
            else
                json_array_append_new(json_object_get(sm, "unmatched_kernels"), json_pack(
                    "{s:s, s:O}", "kernel", rr_str(nk, "id"), "why", json_object_get(
                        json_object_get(k, "baseline"), "why")));
            counts[4]++;
            list_add(summary, "new_kernels", rr_str(nk, "id"));
            continue;
        }
        counts[0]++;
        counts[1] += worse > 0;
        counts[2] += better > 0 && worse == 0; /* docs/ci.md: "(and no regression)" */
        if (worse > 0)
            list_add(summary, "regressed_kernels", rr_str(nk, "id"));
        else if (better > 0)
            list_add(summary, "improved_kernels", rr_str(nk, "id"));
        const char *v = rr_str(k, "verdict");
        if (worse > 0 && (strcmp(v, "pass") == 0 || strcmp(v, "skip") == 0))
            json_object_set_new(k, "verdict", json_string("fail"));
    }
    json_array_foreach(json_object_get(ob, "kernels"), i, o) {
        if (used[i])
            continue;
        if (selected(doc, rr_str(o, "id"), rr_str(o, "dtype"))) {
            counts[3]++;
            list_add(summary, "missing_kernels", rr_str(o, "id"));
        } else if (sm) { /* another adapter's kernel that no kernel of this run matched */
            json_t *sites = json_array(), *cand = bl_candidates(c.o->site_map, nb,
                                                               rr_str(o, "id"), sites);
            char list[1024], why[1400];
            if (!json_array_size(sites))
                snprintf(why, sizeof why, "not in the site map '%s'", c.o->site_map_file);
            else
                snprintf(why, sizeof why, "no kernel of this run was compared with it at its "
                         "site%s %s in the site map '%s' (none is there, or one there has a "
                         "kernel of its own name in the baseline)", json_array_size(sites) == 1
                         ? "" : "s", bl_joined(sites, list, sizeof list), c.o->site_map_file);
            json_array_append_new(json_object_get(sm, "unmatched_baseline"),
                                  json_pack("{s:s, s:s}", "kernel", rr_str(o, "id"), "why",
                                            why));
            json_decref(sites);
            json_decref(cand);
        }
    }
    if (sm) { /* the map's entries that are a kernel of neither */
        const char *site;
        json_t *ids, *e;
        json_object_foreach((json_t *)c.o->site_map, site, ids) {
            size_t j;
            json_array_foreach(ids, j, e) {
                const char *id = json_string_value(e);
                if (bl_index_of(ob, id) < 0 && bl_index_of(nb, id) < 0)
                    json_array_append_new(json_object_get(sm, "entries_in_no_result"),
                                          json_pack("{s:s, s:s}", "site", site, "kernel", id));
            }
        }
        json_object_set_new(sm, "matched", json_integer(by_map));
        json_object_set_new(summary, "site_map", sm);
    }
    free(used);
    static const char *const names[] = { "compared", "regressions", "improvements", "missing",
                                         "new" };
    for (i = 0; i < 5; i++)
        json_object_set_new(summary, names[i], json_integer(counts[i]));
    json_object_set_new(summary, "same_inputs", json_boolean(c.same_inputs));
    json_object_set_new(summary, "same_policy", json_boolean(c.same_policy));
    json_object_set_new(summary, "allow_missing", json_boolean(c.o->allow_missing));
    json_object_set_new(doc, "baseline", summary);
    if (own)
        json_decref(ob);
    json_decref(nb);
    return reverdict(doc, counts[3] > 0 && !c.o->allow_missing);
}
