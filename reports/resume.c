/* `gelucheck run --resume OLD.json` (docs/design.md sections 7, 10): whether OLD is an interrupted
 * result of the very run about to start, so that continuing it gives the result the run
 * would have given uninterrupted.  The run must record the same head (tool, policy, options,
 * shard) and the same command but for the options that change nothing measured (--threads,
 * --progress, --shard, --resume: never recorded; --json, --report, --junit: where the result
 * goes), and its policy must give the same values for every (func, dtype) OLD judged. */
#include <stdio.h>
#include <string.h>

#include "reports.h"
#include "runopts.h"

/* Head members that must be equal ("shard" without "merged": a merged result is complete). */
static const char *const same_members[] = {
    "schema", "tool", "rounding", "reference", "seed", "samples", "exhaustive", "range",
    "memory_limit", "suites", "shard",
};

static int equal(const json_t *a, const json_t *b) { return (!a && !b) || json_equal(a, b); }

/* Word i of a recorded command that is not an output option or its value, from *i on; NULL
 * at the end. */
static const char *next_word(const json_t *cmd, size_t *i)
{
    for (; *i < json_array_size(cmd); (*i)++) {
        const char *w = json_string_value(json_array_get(cmd, *i)), *name;
        int value;
        if (w && rp_run_option(w, &name, &value) &&
            (strcmp(name, "json") == 0 || strcmp(name, "report") == 0 ||
             strcmp(name, "junit") == 0)) {
            *i += value && !strchr(w, '='); /* and its value */
            continue;
        }
        return w ? w : "";
    }
    return NULL;
}

/* 0 when the commands agree (outputs aside), else -1 with msg naming the first difference. */
static int same_command(const json_t *old, const json_t *now, const char *path, char *msg,
                        size_t size)
{
    size_t i = 0, j = 0;
    for (;; i++, j++) {
        const char *a = next_word(old, &i), *b = next_word(now, &j);
        if (!a && !b)
            return 0;
        if (a && b && strcmp(a, b) == 0)
            continue;
        snprintf(msg, size, "--resume '%s': a result of another command: it has '%.100s' "
                 "where this one has '%.100s' (give the same options; --threads, --progress, "
                 "--json, --report and --junit may differ)", path, a ? a : "(end)",
                 b ? b : "(end)");
        return -1;
    }
}

/* Every "policy"."values" entry of old equals what policy gives now, and so do the values
 * each kernel of old was judged by. */
static int same_policy(const json_t *old, const struct gs_policy *policy, const char *path,
                       char *msg, size_t size)
{
    const char *key;
    json_t *v;
    json_object_foreach(json_object_get(json_object_get(old, "policy"), "values"), key, v) {
        char fn[32];
        const char *dot = strchr(key, '.');
        enum geluref_func f;
        enum geluref_dtype dt;
        size_t n = dot ? (size_t)(dot - key) : 0;
        int ok = n > 0 && n < sizeof fn;
        if (ok) {
            memcpy(fn, key, n);
            fn[n] = '\0';
            ok = geluref_func_from_name(fn, &f) == 0 &&
                 geluref_dtype_from_name(dot + 1, &dt) == 0;
        }
        struct gs_policy_values pv;
        json_t *now = NULL;
        if (ok) {
            gs_policy_resolve(policy, f, dt, &pv);
            now = gs_policy_values_json(&pv);
            ok = equal(now, v);
        }
        json_decref(now);
        if (!ok) {
            snprintf(msg, size, "--resume '%s': a result of another policy: its values for "
                     "'%.40s' differ from this run's", path, key);
            return -1;
        }
    }
    /* each kernel judged: the values it was judged by (its [kernel ID] section's, else its
       (func, dtype)'s) are those it gets now, so that a section added or changed since is
       seen */
    size_t i;
    json_t *k;
    const json_t *pol = json_object_get(old, "policy");
    json_array_foreach(json_object_get(old, "kernels"), i, k) {
        const char *id = json_string_value(json_object_get(k, "id"));
        const char *fn = json_string_value(json_object_get(k, "func"));
        const char *dn = json_string_value(json_object_get(k, "dtype"));
        enum geluref_func f;
        enum geluref_dtype dt;
        struct gs_policy_values pv;
        char fd[64];
        if (!id || geluref_func_from_name(fn, &f) || geluref_dtype_from_name(dn, &dt))
            continue; /* no identity: judged by its (func, dtype), compared above */
        snprintf(fd, sizeof fd, "%s.%s", fn, dn);
        const json_t *then = json_object_get(json_object_get(pol, "kernel_values"), id);
        if (!then)
            then = json_object_get(json_object_get(pol, "values"), fd);
        gs_policy_resolve_kernel(policy, id, f, dt, &pv);
        json_t *now = gs_policy_values_json(&pv);
        int same = equal(now, then);
        json_decref(now);
        if (!same) {
            snprintf(msg, size, "--resume '%s': a result of another policy: the values for "
                     "kernel '%.200s' differ from this run's (a [kernel] section added or "
                     "changed)", path, id);
            return -1;
        }
    }
    return 0;
}

int rp_resume_check(const json_t *old, const json_t *head, const struct gs_policy *policy,
                    const char *path, char *msg, size_t size)
{
    if (!json_is_false(json_object_get(old, "complete"))) {
        snprintf(msg, size, "--resume '%s': the result is complete: nothing to resume (only "
                 "an interrupted run's result, with \"complete\": false, can be)", path);
        return -1;
    }
    for (size_t i = 0; i < sizeof same_members / sizeof same_members[0]; i++) {
        json_t *a = json_deep_copy(json_object_get(old, same_members[i]));
        if (json_is_object(a))
            json_object_del(a, "merged");
        int same = equal(a, json_object_get(head, same_members[i]));
        json_decref(a);
        if (!same) {
            snprintf(msg, size, "--resume '%s': a result of another run: '%s' differs from "
                     "this run's", path, same_members[i]);
            return -1;
        }
    }
    const char *pn = json_string_value(json_object_get(json_object_get(old, "policy"), "name"));
    if (!pn || strcmp(pn, gs_policy_name(policy)) != 0) {
        snprintf(msg, size, "--resume '%s': a result of another run: 'policy' differs from "
                 "this run's", path);
        return -1;
    }
    return same_command(json_object_get(old, "command"), json_object_get(head, "command"),
                        path, msg, size) ||
                   same_policy(old, policy, path, msg, size)
               ? -1
               : 0;
}

int rp_resume_adapters_check(const json_t *old, const json_t *doc, const char *path,
                             char *msg, size_t size)
{
    static const char *const keys[] = { "spec", "name", "version", "kind" };
    const json_t *a = json_object_get(old, "adapters"), *b = json_object_get(doc, "adapters");
    for (size_t i = 0; i < json_array_size(a) || i < json_array_size(b); i++)
        for (size_t j = 0; j < sizeof keys / sizeof keys[0]; j++)
            if (!equal(json_object_get(json_array_get(a, i), keys[j]),
                       json_object_get(json_array_get(b, i), keys[j]))) {
                snprintf(msg, size, "--resume '%s': adapters[%zu]: '%s' differs from this "
                         "run's (another library version, or an adapter that now loads or "
                         "fails to)", path, i, keys[j]);
                return -1;
            }
    return 0;
}

int rp_resume_kernel_check(const json_t *old, size_t i, const char *adapter,
                           const struct gc_kernel *k, const char *path, char *msg, size_t size)
{
    const json_t *o = json_array_get(json_object_get(old, "kernels"), i);
    const char *want[] = { adapter, k->name, geluref_func_name(k->func),
                           geluref_dtype_name(k->dtype), k->description };
    static const char *const keys[] = { "adapter", "kernel", "func", "dtype", "description" };
    for (size_t j = 0; o && j < sizeof keys / sizeof keys[0]; j++) {
        const char *have = json_string_value(json_object_get(o, keys[j]));
        if (have && want[j] && strcmp(have, want[j]) != 0) {
            snprintf(msg, size, "--resume '%s': kernels[%zu] is '%.64s %.64s', but this run's "
                     "kernel %zu is '%.64s %.64s' ('%s' differs)", path, i,
                     json_string_value(json_object_get(o, "adapter")),
                     json_string_value(json_object_get(o, "kernel")), i + 1, adapter,
                     k->name, keys[j]);
            return -1;
        }
    }
    return 0;
}
