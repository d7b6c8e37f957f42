/* ulp_merge.c: the ulp suite entries of the shards of one run joined into the entry of the
 * unsharded run (gelucheck merge, docs/design.md section 9).
 *
 * Each shard's entry is read back into the accumulators of ulp_run.h (errstat and findings
 * readers of readback.c), the accumulators are merged as the run merges its threads'
 * (ulp_acc_merge: counts added, maxima and worst lists ordered by value then bit pattern),
 * and the metrics are written by the run's own writer (ulp_metrics_json), so the bytes are
 * the run's.  The vs_exact curve is plot data made once, in shard 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ulp_run.h"

struct merge_err {
    char *msg;
    size_t size;
};

static int bad(struct merge_err *e, const char *what)
{
    snprintf(e->msg, e->size, "ulp suite: bad %s", what);
    return -1;
}

/* {region name: errstat} into reg[] */
static int regions_from_json(struct gs_errstat *reg, const json_t *o)
{
    const char *key;
    json_t *v;
    if (!json_is_object(o))
        return -1;
    json_object_foreach((json_t *)o, key, v) {
        enum gs_region r;
        if (gs_region_from_name(key, &r) || r >= GS_N_REGIONS ||
            gs_errstat_from_json(&reg[r], v))
            return -1;
    }
    return 0;
}

/* "binades": [{brief errstat, "sign", "exponent", "lo", "hi"}...] into bin[] (ulp_binade_index
 * order: sign x exponent field) */
static int binades_from_json(struct gs_errstat *bin, const struct gs_ut_shape *sh,
                             const json_t *a)
{
    size_t i;
    json_t *b;
    if (!json_is_array(a))
        return -1;
    json_array_foreach(a, i, b) {
        const char *sign = json_string_value(json_object_get(b, "sign"));
        const json_t *ex = json_object_get(b, "exponent");
        json_int_t field = json_is_integer(ex) ? json_integer_value(ex) + sh->bias : 0;
        if (!sign || (strcmp(sign, "-") != 0 && strcmp(sign, "+") != 0) ||
            (!json_is_integer(ex) && strcmp(json_string_value(ex) ? json_string_value(ex) : "",
                                            "subnormal") != 0) ||
            (json_is_integer(ex) && (field < 1 || field >= (json_int_t)sh->n_fields)))
            return -1;
        size_t idx = (size_t)(sign[0] == '-') * sh->n_fields + (size_t)field;
        if (bin[idx].points != 0 || gs_errstat_from_json(&bin[idx], b))
            return -1; /* a binade listed twice, or not an errstat */
    }
    return 0;
}

/* One shard's metrics into a (the metrics are {} when that shard's suite ran out of memory:
 * then its verdict says error and nothing is added). */
static int metrics_from_json(struct ulp_acc *a, const struct ulp_run *u, const json_t *m,
                             struct merge_err *e)
{
    if (!json_is_object(m))
        return bad(e, "'metrics'");
    if (json_object_size(m) == 0)
        return 0;
    if (gs_errstat_from_json(&a->all, json_object_get(m, "overall")))
        return bad(e, "'metrics'.'overall'");
    if (regions_from_json(a->reg, json_object_get(m, "regions")))
        return bad(e, "'metrics'.'regions'");
    if (binades_from_json(a->bin, &u->sh, json_object_get(m, "binades")))
        return bad(e, "'metrics'.'binades'");
    const json_t *vx = json_object_get(m, "vs_exact");
    if (!u->exact != !vx)
        return bad(e, "'metrics'.'vs_exact'");
    if (vx && (gs_errstat_from_json(&a->ex_all, json_object_get(vx, "overall")) ||
               regions_from_json(a->ex_reg, json_object_get(vx, "regions"))))
        return bad(e, "'metrics'.'vs_exact'");
    /* a member this reader does not know would be lost: refuse rather than drop it */
    static const char *const known[] = { "overall", "regions", "binades", "vs_exact" };
    if (gs_merge_known_members(m, known, sizeof known / sizeof known[0], "ulp", e->msg,
                               e->size))
        return -1;
    return 0;
}

/* Shard i's entry into a: points, metrics, findings, and the severities shown (sev). */
static int entry_from_json(struct ulp_acc *a, const struct ulp_run *u, const json_t *s,
                           enum gs_severity sev[GS_N_KINDS], struct merge_err *e)
{
    const json_t *p = json_object_get(s, "points");
    if (!json_is_integer(p) || json_integer_value(p) < 0)
        return bad(e, "'points'");
    a->points = (uint64_t)json_integer_value(p);
    if (metrics_from_json(a, u, json_object_get(s, "metrics"), e))
        return -1;
    if (gs_findings_from_json(&a->f, sev, s))
        return bad(e, "'finding_counts' or 'findings'");
    return 0;
}

int ulp_entry_read(struct ulp_acc *a, const struct ulp_run *u, const json_t *s, char *msg,
                   size_t size)
{
    enum gs_severity sev[GS_N_KINDS];
    struct merge_err e = { msg, size };
    return entry_from_json(a, u, s, sev, &e);
}

/* The entry, in suite_json's member order (run.c). */
static json_t *entry_json(const struct ulp_run *u, json_t *const *s, size_t n,
                          const struct gs_policy_values *pv, enum geluref_func func)
{
    const struct ulp_acc *a = &u->acc[0];
    const char *note;
    enum gs_verdict v = gs_merge_verdict(s, n, &a->f, pv, &note);
    json_t *inputs = json_deep_copy(json_object_get(s[0], "inputs"));
    json_t *m = ulp_metrics_json(u);
    json_t *curve = json_object_get(json_object_get(json_object_get(s[0], "metrics"),
                                                    "vs_exact"), "curve");
    json_t *vx = json_object_get(m, "vs_exact");
    if (curve && vx)
        json_object_set_new(vx, "curve", json_deep_copy(curve));
    if (json_is_object(inputs) && json_object_get(inputs, "count"))
        json_object_set_new(inputs, "count", gs_ut_count_json(a->points));
    return gs_merge_entry_json("ulp", v, a->points, inputs, m, &a->f, pv, func, u->c->dt, note);
}

json_t *ulp_merge_json(json_t *const *s, size_t n, enum geluref_func func,
                       enum geluref_dtype dt, size_t *bad_shard, char *msg, size_t size)
{
    struct gs_ctx c;
    struct ulp_run u;
    struct ulp_acc all, one;
    struct gs_policy_values pv;
    struct merge_err e = { msg, size };
    memset(&c, 0, sizeof c);
    memset(&u, 0, sizeof u);
    memset(&pv, 0, sizeof pv);
    c.dt = dt;
    u.c = &c;
    u.exact = ulp_exact_of(func);
    gs_ut_shape_of(dt, &u.sh);
    size_t n_bins = 2 * (size_t)u.sh.n_fields;
    json_t *o = NULL;
    *bad_shard = n;
    if (ulp_acc_init(&all, n_bins, 0)) {
        snprintf(msg, size, "out of memory");
        return NULL;
    }
    size_t i = 0;
    for (; i < n; i++) {
        int rc = ulp_acc_init(&one, n_bins, 0);
        if (rc != 0)
            snprintf(msg, size, "out of memory");
        else if ((rc = entry_from_json(&one, &u, s[i], pv.severity, &e)) == 0)
            ulp_acc_merge(&all, &one, n_bins);
        ulp_acc_release(&one);
        if (rc != 0)
            break;
    }
    if (i < n) {
        *bad_shard = i;
    } else {
        u.acc = &all;
        o = entry_json(&u, s, n, &pv, func);
    }
    ulp_acc_release(&all);
    return o;
}
