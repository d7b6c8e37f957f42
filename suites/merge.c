/* merge.c: one kernel's objects from the shard results of a run joined into the object of the
 * unsharded run (suites.h, gs_kernel_merge; docs/design.md section 9).  The suites that split
 * (shard.c) are merged by their own code (ulp_merge.c, tail_merge.c); the others ran whole
 * in shard 0 and are taken from there, with the fingerprint and the targets.  The kernel's
 * verdict is recomputed as run.c computes it, and the members are written in run.c's order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash.h"
#include "tail_run.h"
#include "ulp_run.h"

/* The members of a kernel object in the order run.c writes them. */
static const char *const member_order[] = {
    "adapter", "kernel", "id", "description", "func", "dtype", "verdict", "fingerprint",
    "targets", "vs_exact", "error", "suites",
};
#define N_MEMBERS (sizeof member_order / sizeof member_order[0])

/* The merged verdict of a split suite: the first shard's error (or skip: a timed-out kernel)
 * with its note; else fail or pass by the merged findings, as gs_ut_verdict judges them. */
enum gs_verdict gs_merge_verdict(json_t *const *s, size_t n, const struct gs_findings *f,
                                 const struct gs_policy_values *pv, const char **note)
{
    enum gs_verdict worst = GS_PASS;
    *note = NULL;
    for (size_t i = 0; i < n; i++) {
        enum gs_verdict v = GS_ERROR;
        gs_verdict_from_name(json_string_value(json_object_get(s[i], "verdict")), &v);
        if ((v == GS_ERROR || v == GS_SKIP) && (*note == NULL || v == GS_ERROR) &&
            worst != GS_ERROR) {
            worst = v;
            *note = json_string_value(json_object_get(s[i], "note"));
        }
    }
    if (worst != GS_PASS)
        return worst;
    return gs_findings_fail(f, pv) ? GS_FAIL : GS_PASS;
}

int gs_merge_known_members(const json_t *m, const char *const *known, size_t n,
                           const char *suite, char *msg, size_t size)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)m, key, v) {
        size_t k = 0;
        while (k < n && strcmp(key, known[k]) != 0)
            k++;
        if (k == n) {
            snprintf(msg, size, "%s suite: 'metrics'.'%.64s' is unknown to gelucheck merge",
                     suite, key);
            return -1;
        }
    }
    return 0;
}

json_t *gs_merge_entry_json(const char *name, enum gs_verdict v, uint64_t points, json_t *inputs,
                            json_t *metrics, const struct gs_findings *f,
                            const struct gs_policy_values *pv, enum geluref_func func,
                            enum geluref_dtype dt, const char *note)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(name));
    json_object_set_new(o, "verdict", json_string(gs_verdict_name(v)));
    json_object_set_new(o, "points", json_integer((json_int_t)points));
    json_object_set_new(o, "inputs", inputs ? inputs : json_null());
    json_object_set_new(o, "metrics", metrics ? metrics : json_object());
    gs_findings_json(o, f, pv, func, dt);
    if (note)
        json_object_set_new(o, "note", json_string(note));
    return o;
}

/* Suite entry i of every shard (the same suite: checked by name). */
static int gather(json_t *const *k, size_t n, size_t i, json_t **e, size_t *bad, char *msg,
                  size_t size)
{
    const char *name = json_string_value(json_object_get(
        json_array_get(json_object_get(k[0], "suites"), i), "name"));
    for (size_t j = 0; j < n; j++) {
        e[j] = json_array_get(json_object_get(k[j], "suites"), i);
        const char *nj = json_string_value(json_object_get(e[j], "name"));
        if (!name || !nj || strcmp(name, nj) != 0) {
            *bad = j;
            snprintf(msg, size, "suites[%zu] is not the '%.32s' suite of the first shard", i,
                     name ? name : "?");
            return -1;
        }
    }
    return 0;
}

/* One suite: merged when it splits, else shard 0's. */
static json_t *suite_merge(json_t *const *k, size_t n, size_t i, enum geluref_func func,
                           enum geluref_dtype dt, size_t *bad, char *msg, size_t size)
{
    json_t *s0 = json_array_get(json_object_get(k[0], "suites"), i), *o = NULL;
    enum gs_suite s;
    if (gs_suite_from_name(json_string_value(json_object_get(s0, "name")), &s)) {
        *bad = 0;
        snprintf(msg, size, "suites[%zu]: unknown suite", i);
        return NULL;
    }
    if (!gs_suite_splits(s))
        return json_deep_copy(s0);
    json_t **e = calloc(n ? n : 1, sizeof *e);
    if (!e)
        snprintf(msg, size, "out of memory");
    else if (gather(k, n, i, e, bad, msg, size) == 0)
        o = s == GS_SUITE_ULP    ? ulp_merge_json(e, n, func, dt, bad, msg, size)
            : s == GS_SUITE_TAIL ? tail_merge_json(e, n, func, dt, bad, msg, size)
                                 : NULL;
    if (e && !o && s != GS_SUITE_ULP && s != GS_SUITE_TAIL)
        snprintf(msg, size, "suite %s splits but has no merge", gs_suite_name(s));
    free(e);
    return o;
}

/* The members that change, by name: verdict, vs_exact, error, suites. */
struct merged {
    json_t *verdict, *vs_exact, *error, *suites;
};

static json_t *member(json_t *k0, const struct merged *m, const char *name)
{
    if (strcmp(name, "verdict") == 0)
        return json_incref(m->verdict);
    if (strcmp(name, "vs_exact") == 0)
        return json_incref(m->vs_exact);
    if (strcmp(name, "error") == 0)
        return json_incref(m->error);
    if (strcmp(name, "suites") == 0)
        return json_incref(m->suites);
    return json_deep_copy(json_object_get(k0, name));
}

/* The object, in run.c's member order; members of k[0] outside it keep theirs, after. */
static json_t *assemble(json_t *k0, const struct merged *m)
{
    json_t *o = json_object(), *v;
    const char *key;
    for (size_t i = 0; o && i < N_MEMBERS; i++) {
        json_t *x = member(k0, m, member_order[i]);
        if (x)
            json_object_set_new(o, member_order[i], x);
    }
    json_object_foreach(k0, key, v) {
        if (o && !json_object_get(o, key))
            json_object_set_new(o, key, json_deep_copy(v));
    }
    return o;
}

json_t *gs_kernel_merge(json_t *const *k, size_t n, unsigned long long memory_limit, size_t *bad,
                        char *msg, size_t size)
{
    enum geluref_func func;
    enum geluref_dtype dt;
    struct merged m = { NULL, NULL, NULL, json_array() };
    enum gs_verdict v = GS_SKIP;
    json_t *o = NULL;
    *bad = n;
    if (n == 0 || geluref_func_from_name(json_string_value(json_object_get(k[0], "func")),
                                         &func) ||
        geluref_dtype_from_name(json_string_value(json_object_get(k[0], "dtype")), &dt)) {
        *bad = 0;
        snprintf(msg, size, "bad 'func' or 'dtype'");
        goto out;
    }
    for (size_t i = 0; i < json_array_size(json_object_get(k[0], "suites")); i++) {
        json_t *s = suite_merge(k, n, i, func, dt, bad, msg, size);
        enum gs_verdict sv = GS_ERROR;
        if (!s)
            goto out;
        gs_crash_commands(s, json_string_value(json_object_get(k[0], "adapter")),
                          json_string_value(json_object_get(k[0], "kernel")), dt,
                          memory_limit);
        gs_verdict_from_name(json_string_value(json_object_get(s, "verdict")), &sv);
        v = gs_verdict_worse(v, sv);
        if (strcmp(json_string_value(json_object_get(s, "name")), "ulp") == 0)
            m.vs_exact = json_deep_copy(json_object_get(json_object_get(s, "metrics"),
                                                        "vs_exact"));
        json_array_append_new(m.suites, s);
    }
    /* the reference failed in some shard (gs_run_kernel: internal error): error, its message */
    for (size_t j = 0; j < n && !m.error; j++)
        m.error = json_deep_copy(json_object_get(k[j], "error"));
    if (m.error)
        v = GS_ERROR;
    m.verdict = json_string(gs_verdict_name(v));
    o = assemble(k[0], &m);
out:
    json_decref(m.verdict);
    json_decref(m.vs_exact);
    json_decref(m.error);
    json_decref(m.suites);
    return o;
}
