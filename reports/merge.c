/* gelucheck merge (docs/design.md section 9): the results of the N shards of one run (--shard K/N)
 * joined into the result the run without --shard writes.  First every file is checked to be a
 * complete shard of the same run (same options, kernels, policy and tool; each K once); then
 * each kernel is merged by the suites module (gs_kernel_merge), and the document's verdict,
 * exit code, adapters and totals are recomputed by rp_result_finish, as the run computes them.
 *
 * The merged result is shard 0's with its kernels merged; it differs from the unsharded run
 * only in "shard" ({"index": 0, "count": 1, "merged": N}) and "timing" (the sums of the
 * shards' wall times).  "environment" is shard 0's, and so is "command": shards may write to
 * different --json, --report and --junit paths and still be one run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memlimit.h"
#include "reports.h"
#include "runopts.h"

/* Members of the head that must be equal in every shard of a run. */
static const char *const same_members[] = {
    "schema", "tool", "policy", "rounding", "reference", "seed", "samples", "exhaustive",
    "range", "memory_limit", "suites",
};
#define N_SAME (sizeof same_members / sizeof same_members[0])

static int equal(const json_t *a, const json_t *b) { return (!a && !b) || json_equal(a, b); }

/* "index" and "count" of a result's "shard"; 0, or -1 with msg. */
static int shard_of(const json_t *doc, const char *path, json_int_t *k, json_int_t *n,
                    char *msg, size_t size)
{
    const json_t *s = json_object_get(doc, "shard");
    *k = json_integer_value(json_object_get(s, "index"));
    *n = json_integer_value(json_object_get(s, "count"));
    if (!json_is_integer(json_object_get(s, "index")) || *n < 1 || *k < 0 || *k >= *n) {
        snprintf(msg, size, "%s: no valid 'shard' {\"index\": K, \"count\": N}", path);
        return -1;
    }
    if (!json_is_true(json_object_get(doc, "complete"))) {
        snprintf(msg, size, "%s: shard %lld of %lld is incomplete (its run was interrupted): "
                 "run that shard again", path, (long long)*k, (long long)*n);
        return -1;
    }
    return 0;
}

/* ord[K] = the index of shard K's file: every K of 0..N-1 exactly once.  0, or -1 + msg. */
static int order(json_t *const *docs, const char *const *paths, size_t n, size_t *ord,
                 char *msg, size_t size)
{
    json_int_t k, count = 0;
    for (size_t i = 0; i < n; i++) {
        json_int_t c;
        if (shard_of(docs[i], paths[i], &k, &c, msg, size))
            return -1;
        if (i > 0 && c != count) {
            snprintf(msg, size, "%s: a shard of %lld, but %s is a shard of %lld", paths[i],
                     (long long)c, paths[0], (long long)count);
            return -1;
        }
        count = c;
        if (k < (json_int_t)n && ord[k] != n) {
            snprintf(msg, size, "%s: shard %lld of %lld given twice (also %s)", paths[i],
                     (long long)k, (long long)c, paths[ord[k]]);
            return -1;
        }
        if (k < (json_int_t)n)
            ord[k] = i;
    }
    for (size_t j = 0; j < (size_t)count; j++)
        if (j >= n || ord[j] == n) {
            snprintf(msg, size, "shard %zu of %lld missing (%s is shard %lld of %lld; give all "
                     "%lld)", j, (long long)count, paths[0],
                     (long long)json_integer_value(json_object_get(
                         json_object_get(docs[0], "shard"), "index")),
                     (long long)count, (long long)count);
            return -1;
        }
    return 0;
}

/* The recorded command without the output options (--json, --report, --junit and values). */
static json_t *run_command(const json_t *doc)
{
    const json_t *cmd = json_object_get(doc, "command");
    json_t *out = json_array();
    for (size_t i = 0; out && i < json_array_size(cmd); i++) {
        const char *w = json_string_value(json_array_get(cmd, i)), *name;
        int value;
        if (w && rp_run_option(w, &name, &value) &&
            (strcmp(name, "json") == 0 || strcmp(name, "report") == 0 ||
             strcmp(name, "junit") == 0)) {
            i += value && !strchr(w, '='); /* skip its value */
            continue;
        }
        json_array_append(out, json_array_get(cmd, i));
    }
    return out;
}

/* Adapters and kernels name the same things (not their verdicts: those are per shard). */
static int same_parts(const json_t *a, const json_t *b, const char *what,
                      const char *const *keys, size_t n_keys)
{
    const json_t *x = json_object_get(a, what), *y = json_object_get(b, what);
    if (json_array_size(x) != json_array_size(y))
        return 0;
    for (size_t i = 0; i < json_array_size(x); i++)
        for (size_t k = 0; k < n_keys; k++)
            if (!equal(json_object_get(json_array_get(x, i), keys[k]),
                       json_object_get(json_array_get(y, i), keys[k])))
                return 0;
    return 1;
}

/* Which member differs between doc and the first shard (NULL: none). */
static const char *differs(const json_t *doc, const json_t *first)
{
    static const char *const adapter_keys[] = { "spec", "name", "version", "kind" };
    static const char *const kernel_keys[] = { "adapter", "kernel", "description", "func",
                                               "dtype" };
    for (size_t i = 0; i < N_SAME; i++)
        if (!equal(json_object_get(doc, same_members[i]), json_object_get(first,
                                                                          same_members[i])))
            return same_members[i];
    json_t *c1 = run_command(doc), *c2 = run_command(first);
    int same_cmd = equal(c1, c2);
    json_decref(c1);
    json_decref(c2);
    if (!same_cmd)
        return "command";
    if (!same_parts(doc, first, "adapters", adapter_keys, 4))
        return "adapters";
    if (!same_parts(doc, first, "kernels", kernel_keys, 5))
        return "kernels";
    return NULL;
}

/* Every file a shard of the first one's run, without --baseline comparisons. */
static int same_run(json_t *const *docs, const char *const *paths, const size_t *ord,
                    size_t n, char *msg, size_t size)
{
    size_t i0 = ord[0], j;
    json_t *k;
    for (size_t i = 0; i < n; i++) {
        const char *d = differs(docs[ord[i]], docs[i0]);
        if (d) {
            snprintf(msg, size, "%s: not a shard of the same run as %s: '%s' differs",
                     paths[ord[i]], paths[i0], d);
            return -1;
        }
        json_array_foreach(json_object_get(docs[ord[i]], "kernels"), j, k) {
            if (json_object_get(k, "baseline")) {
                snprintf(msg, size, "%s: a result compared with --baseline cannot be merged",
                         paths[ord[i]]);
                return -1;
            }
        }
    }
    return 0;
}

/* Kernel j of every shard (in shard order) merged into out's kernels[j]. */
static int merge_kernel(json_t *out, json_t *const *docs, const char *const *paths,
                        const size_t *ord, size_t n, size_t j, char *msg, size_t size)
{
    json_t **k = calloc(n ? n : 1, sizeof *k);
    char why[512];
    size_t bad = n;
    if (!k) {
        snprintf(msg, size, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        k[i] = json_array_get(json_object_get(docs[ord[i]], "kernels"), j);
    const json_t *ml = json_object_get(docs[ord[0]], "memory_limit");
    unsigned long long limit = json_is_integer(ml) && json_integer_value(ml) >= 0
                                   ? (unsigned long long)json_integer_value(ml)
                                   : GC_MEM_DEFAULT; /* a result from before --memory-limit */
    json_t *m = gs_kernel_merge(k, n, limit, &bad, why, sizeof why);
    json_t *kernels = json_object_get(out, "kernels");
    if (!m)
        snprintf(msg, size, "%s: kernels[%zu] ('%.64s'): %s", paths[ord[bad < n ? bad : 0]], j,
                 json_string_value(json_object_get(json_array_get(kernels, j), "kernel")), why);
    else
        json_array_set_new(kernels, j, m);
    free(k);
    return m ? 0 : -1;
}

/* "timing" of out (a copy of shard 0's result): the other shards' wall times added, per
 * kernel and in all ("threads" stays shard 0's).  Returns the total. */
static double merge_timing(json_t *out, json_t *const *docs, const size_t *ord, size_t n)
{
    json_t *t0 = json_object_get(out, "timing"), *tk = json_object_get(t0, "kernels");
    double all = 0;
    gs_real_from_json(json_object_get(t0, "wall_s"), &all);
    for (size_t i = 1; i < n; i++) {
        const json_t *t = json_object_get(docs[ord[i]], "timing");
        double w = 0;
        if (gs_real_from_json(json_object_get(t, "wall_s"), &w) == 0)
            all += w;
        for (size_t j = 0; j < json_array_size(tk); j++) {
            json_t *e = json_array_get(tk, j);
            double a = 0, b = 0;
            gs_real_from_json(json_object_get(e, "wall_s"), &a);
            gs_real_from_json(json_object_get(json_array_get(json_object_get(t, "kernels"), j),
                                              "wall_s"), &b);
            json_object_set_new(e, "wall_s", gs_real_json(a + b));
        }
    }
    return all;
}

json_t *rp_merge(json_t *const *docs, const char *const *paths, size_t n, char *msg,
                 size_t size)
{
    size_t *ord = malloc((n ? n : 1) * sizeof *ord);
    json_t *out = NULL;
    int internal = 0;
    if (!ord || n == 0) {
        snprintf(msg, size, n ? "out of memory" : "no shard results given");
        free(ord);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        ord[i] = n;
    if (order(docs, paths, n, ord, msg, size) || same_run(docs, paths, ord, n, msg, size))
        goto out;
    out = json_deep_copy(docs[ord[0]]);
    for (size_t j = 0; out && j < json_array_size(json_object_get(out, "kernels")); j++)
        if (merge_kernel(out, docs, paths, ord, n, j, msg, size)) {
            json_decref(out);
            out = NULL;
        }
    for (size_t i = 0; i < n; i++)
        internal |= json_integer_value(json_object_get(docs[i], "exit_code")) == 4;
    if (out) {
        json_object_set_new(out, "complete", json_true());
        json_object_set_new(out, "shard", json_pack("{s:i, s:i, s:I}", "index", 0, "count", 1,
                                                    "merged", (json_int_t)n));
        rp_result_finish(out, NULL, internal, merge_timing(out, docs, ord, n));
    }
out:
    free(ord);
    return out;
}
