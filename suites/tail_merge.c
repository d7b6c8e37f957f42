/* tail_merge.c: the tail suite entries of the shards of one run joined into the entry of the
 * unsharded run (gelucheck merge, docs/design.md section 9; shard.c says when the tail suite
 * splits).
 *
 * A run whose tail suite did not split (a sampled scan: shard 0 ran it whole, the others
 * skipped it with gs_shard_skip_note's note) gives shard 0's entry.  Otherwise each shard's
 * entry is read back into the accumulators of tail_run.h (errstat and findings readers of
 * readback.c), the accumulators merged as the run merges its threads' (tail_acc_merge), the
 * flush point is the least of the shards' (each shard's is the first zero output of its own
 * jobs, which together are the whole scan: tail_flush.c), and the metrics are written by the
 * run's own writer (tail_metrics_json), so the bytes are the run's.  The curve is plot data
 * made once, in shard 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tail_run.h"

static int bad(char *msg, size_t size, const char *what)
{
    snprintf(msg, size, "tail suite: bad %s", what);
    return -1;
}

static int count_of(const json_t *o, const char *key, uint64_t *n)
{
    const json_t *j = json_object_get(o, key);
    if (!json_is_integer(j) || json_integer_value(j) < 0)
        return -1;
    *n = (uint64_t)json_integer_value(j);
    return 0;
}

/* A value member that may be null: *has, and its bits. */
static int value_of(const json_t *m, const char *key, int *has, uint64_t *bits)
{
    const json_t *j = json_object_get(m, key);
    *has = j && !json_is_null(j);
    *bits = 0;
    if (!j)
        return -1;
    return *has ? gs_bits_from_json(j, bits) : 0;
}

/* The shape of the run from a shard's entry (the same in every shard): what tail_metrics_json
 * reads besides the accumulators (the side and its targets, the depth bins, the saturation
 * thresholds). */
static int shape_from_json(struct tail_run *u, struct gs_ctx *c, const json_t *e, char *msg,
                           size_t size)
{
    const json_t *m = json_object_get(e, "metrics"), *in = json_object_get(e, "inputs");
    const char *side = json_string_value(json_object_get(in, "side"));
    if (!side || (strcmp(side, "none") != 0 && strcmp(side, "negative") != 0 &&
                  strcmp(side, "positive") != 0))
        return bad(msg, size, "'inputs'.'side'");
    u->neg = strcmp(side, "negative") == 0;
    int has_normal;
    if (value_of(m, "last_nonzero", &u->has_side, &c->targets.last_nonzero) ||
        value_of(m, "last_normal", &has_normal, &c->targets.last_normal))
        return bad(msg, size, "'metrics'.'last_nonzero' or 'last_normal'");
    if (u->has_side != (strcmp(side, "none") != 0))
        return bad(msg, size, "'inputs'.'side'");
    u->lnz = c->targets.last_nonzero & ~u->sh.sign;
    u->has_lnorm = has_normal;
    u->lnorm = c->targets.last_normal & ~u->sh.sign;
    uint64_t bins;
    if (count_of(json_object_get(in, "depth"), "bins", &bins) || bins > TAIL_DEPTH_MAX)
        return bad(msg, size, "'inputs'.'depth'.'bins'");
    u->n_depth = (unsigned)bins;
    for (int s = 0; s < 2; s++) {
        const json_t *sat = json_object_get(m, s ? "saturation_neg" : "saturation");
        u->has_sat[s] = sat && !json_is_null(sat);
        if ((s == 0 && !sat) ||
            (u->has_sat[s] && gs_bits_from_json(json_object_get(sat, "from"), &u->sat[s])))
            return bad(msg, size, "'metrics'.'saturation'");
    }
    return 0;
}

/* A depth bin's label ("[-3,-2)", "[2,3)") into its index. */
static int bin_of(const struct tail_run *u, const char *label, unsigned *b)
{
    unsigned v;
    char tail;
    if (!label || sscanf(label, u->neg ? "[-%u,%c" : "[%u,%c", &v, &tail) != 2)
        return -1;
    *b = u->neg ? v - 1 : v;
    return (u->neg && v == 0) || *b >= u->n_depth ? -1 : 0;
}

/* One shard's metrics into a, and its flush point (*has_flush, *flush: a magnitude). */
static int metrics_from_json(struct tail_acc *a, const struct tail_run *u, const json_t *m,
                             int *has_flush, uint64_t *flush, char *msg, size_t size)
{
    static const char *const known[] = {
        "flush_point", "last_nonzero", "last_normal", "flush_gap", "zero_outputs",
        "zero_outputs_measured", "ftz", "premature_flush", "signed_zero", "depth",
        "beyond_last_nonzero", "saturation", "saturation_neg", "curve",
    };
    if (gs_merge_known_members(m, known, sizeof known / sizeof known[0], "tail", msg, size))
        return -1;
    uint64_t fbits;
    if (value_of(m, "flush_point", has_flush, &fbits))
        return bad(msg, size, "'metrics'.'flush_point'");
    *flush = fbits & ~u->sh.sign;
    if (count_of(m, "zero_outputs", &a->zero) ||
        count_of(m, "zero_outputs_measured", &a->zero_measured) || count_of(m, "ftz", &a->ftz) ||
        count_of(m, "premature_flush", &a->prem) || count_of(m, "signed_zero", &a->signed_zero))
        return bad(msg, size, "count in 'metrics'");
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(m, "depth"), i, v) {
        unsigned b;
        if (bin_of(u, json_string_value(json_object_get(v, "bin")), &b) ||
            a->depth[b].points != 0 || gs_errstat_from_json(&a->depth[b], v))
            return bad(msg, size, "'metrics'.'depth'");
    }
    if (!json_is_array(json_object_get(m, "depth")))
        return bad(msg, size, "'metrics'.'depth'");
    const json_t *beyond = json_object_get(m, "beyond_last_nonzero");
    if (u->has_side ? gs_errstat_from_json(&a->beyond, beyond) != 0 : !json_is_null(beyond))
        return bad(msg, size, "'metrics'.'beyond_last_nonzero'");
    for (int s = 0; s < 2; s++) {
        const json_t *sat = json_object_get(m, s ? "saturation_neg" : "saturation");
        if (!u->has_sat[s]) {
            if (sat && !json_is_null(sat))
                return bad(msg, size, "'metrics'.'saturation'");
            continue;
        }
        uint64_t from;
        if (gs_bits_from_json(json_object_get(sat, "from"), &from) || from != u->sat[s] ||
            count_of(sat, "checked", &a->sat_checked[s]) ||
            count_of(sat, "failures", &a->sat_fail[s]) ||
            gs_errstat_from_json(&a->sat[s], json_object_get(sat, "errors")))
            return bad(msg, size, "'metrics'.'saturation'");
    }
    return 0;
}

/* Shard i's entry into a (its metrics are {} when its suite ran out of memory or could not
 * be served: then its verdict says error and only its findings are added). */
static int entry_from_json(struct tail_acc *a, const struct tail_run *u, const json_t *e,
                           enum gs_severity sev[GS_N_KINDS], int *has_flush, uint64_t *flush,
                           char *msg, size_t size)
{
    const json_t *m = json_object_get(e, "metrics");
    *has_flush = 0;
    if (count_of(e, "points", &a->points))
        return bad(msg, size, "'points'");
    if (!json_is_object(m))
        return bad(msg, size, "'metrics'");
    if (json_object_size(m) != 0 && metrics_from_json(a, u, m, has_flush, flush, msg, size))
        return -1;
    if (gs_findings_from_json(&a->f, sev, e))
        return bad(msg, size, "'finding_counts' or 'findings'");
    return 0;
}

/* The entry, in suite_json's member order (run.c), inputs and metrics as the run writes them. */
static json_t *entry_json(const struct tail_run *u, json_t *const *s, size_t n, size_t with,
                          const struct gs_policy_values *pv, enum geluref_func func)
{
    const struct tail_acc *a = &u->acc[0];
    const char *note;
    enum gs_verdict v = gs_merge_verdict(s, n, &a->f, pv, &note);
    json_t *m = with < n ? tail_metrics_json(u) : json_object();
    json_t *curve = json_object_get(json_object_get(s[0], "metrics"), "curve");
    if (m && curve)
        json_object_set_new(m, "curve", json_deep_copy(curve));
    /* shard 0's inputs with the counts of the whole run (the rest is the same in every shard) */
    json_t *in = json_deep_copy(json_object_get(s[0], "inputs"));
    if (json_is_object(in)) {
        uint64_t depth = 0;
        for (unsigned b = 0; b < u->n_depth; b++)
            depth += a->depth[b].points;
        json_object_set_new(in, "beyond", gs_ut_count_json(a->beyond.points));
        json_object_set_new(json_object_get(in, "depth"), "count", gs_ut_count_json(depth));
        json_object_set_new(in, "saturation",
                            gs_ut_count_json(a->sat_checked[0] + a->sat_checked[1]));
        json_object_set_new(in, "count", gs_ut_count_json(a->points));
    }
    return gs_merge_entry_json("tail", v, a->points, in, m, &a->f, pv, func, u->c->dt, note);
}

json_t *tail_merge_json(json_t *const *s, size_t n, enum geluref_func func,
                        enum geluref_dtype dt, size_t *bad_shard, char *msg, size_t size)
{
    char skip[128];
    struct gs_config cfg;
    memset(&cfg, 0, sizeof cfg);
    /* not split: shard 0 ran it whole, the others left it (s[i] is shard i of n) */
    for (size_t i = 1; i < n; i++) {
        const char *note = json_string_value(json_object_get(s[i], "note"));
        cfg.shard_k = (unsigned)i;
        cfg.shard_n = (unsigned)n;
        gs_shard_skip_note(&cfg, skip, sizeof skip);
        if (note && strcmp(note, skip) == 0)
            return json_deep_copy(s[0]);
    }
    /* skipped in a shard for another reason (the kernel crashed or timed out in an earlier
       suite of its part): the whole run, which measures that part too, skips it alike */
    for (size_t i = 0; i < n; i++) {
        enum gs_verdict v = GS_ERROR;
        gs_verdict_from_name(json_string_value(json_object_get(s[i], "verdict")), &v);
        if (v == GS_SKIP)
            return json_deep_copy(s[i]);
    }
    struct gs_ctx c;
    struct tail_run u;
    struct tail_acc all, one;
    struct gs_policy_values pv;
    memset(&c, 0, sizeof c);
    memset(&u, 0, sizeof u);
    memset(&pv, 0, sizeof pv);
    c.dt = dt;
    c.func = func;
    u.c = &c;
    gs_ut_shape_of(dt, &u.sh);
    json_t *o = NULL;
    *bad_shard = 0;
    tail_acc_clear(&all);
    /* the shape from the first shard with metrics (they are {} only where memory ran out) */
    size_t with = 0;
    while (with < n && json_object_size(json_object_get(s[with], "metrics")) == 0)
        with++;
    if (with < n && shape_from_json(&u, &c, s[with], msg, size)) {
        *bad_shard = with;
        goto out;
    }
    size_t i = 0;
    for (; i < n; i++) {
        int has;
        uint64_t flush;
        tail_acc_clear(&one);
        int rc = entry_from_json(&one, &u, s[i], pv.severity, &has, &flush, msg, size);
        if (rc == 0) {
            tail_acc_merge(&all, &one);
            if (has && (!u.has_flush || flush < u.flush)) {
                u.has_flush = 1;
                u.flush = flush;
            }
        }
        gs_findings_release(&one.f);
        if (rc != 0)
            break;
    }
    if (i < n) {
        *bad_shard = i;
    } else {
        *bad_shard = n;
        u.acc = &all;
        o = entry_json(&u, s, n, with, &pv, func);
    }
out:
    gs_findings_release(&all.f);
    return o;
}
