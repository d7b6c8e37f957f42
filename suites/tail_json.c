/* The tail suite's metrics and input description (see tail.c). */
#include <stdio.h>
#include <string.h>

#include "tail_run.h"

void tail_acc_clear(struct tail_acc *a)
{
    memset(a, 0, sizeof *a);
    gs_findings_init(&a->f);
    a->kmin = UINT64_MAX;
    gs_errstat_init(&a->beyond);
    for (int i = 0; i < TAIL_DEPTH_MAX; i++)
        gs_errstat_init(&a->depth[i]);
    gs_errstat_init(&a->sat[0]);
    gs_errstat_init(&a->sat[1]);
}

void tail_acc_merge(struct tail_acc *into, const struct tail_acc *from)
{
    gs_findings_merge(&into->f, &from->f);
    into->points += from->points;
    into->zero += from->zero;
    into->ftz += from->ftz;
    into->prem += from->prem;
    into->zero_measured += from->zero_measured;
    into->signed_zero += from->signed_zero;
    if (from->kmin < into->kmin)
        into->kmin = from->kmin;
    gs_errstat_merge(&into->beyond, &from->beyond);
    for (int i = 0; i < TAIL_DEPTH_MAX; i++)
        gs_errstat_merge(&into->depth[i], &from->depth[i]);
    for (int s = 0; s < 2; s++) {
        gs_errstat_merge(&into->sat[s], &from->sat[s]);
        into->sat_checked[s] += from->sat_checked[s];
        into->sat_fail[s] += from->sat_fail[s];
    }
}

static json_t *value_or_null(const struct tail_run *u, int has, uint64_t bits)
{
    return has ? gs_value_json(u->c->dt, bits) : json_null();
}

static json_t *saturation_json(const struct tail_run *u, int side)
{
    const struct tail_acc *a = &u->acc[0];
    if (!u->has_sat[side])
        return json_null();
    json_t *o = json_object();
    json_object_set_new(o, "from", gs_value_json(u->c->dt, u->sat[side]));
    json_object_set_new(o, "checked", gs_ut_count_json(a->sat_checked[side]));
    json_object_set_new(o, "failures", gs_ut_count_json(a->sat_fail[side]));
    json_object_set_new(o, "errors", gs_errstat_json(&a->sat[side], u->c->dt));
    return o;
}

json_t *tail_metrics_json(const struct tail_run *u)
{
    const struct tail_acc *a = &u->acc[0];
    const struct gs_targets *tg = &u->c->targets;
    enum geluref_dtype dt = u->c->dt;
    json_t *m = json_object();
    uint64_t fbits = gs_ut_bits(&u->sh, u->neg, u->flush);
    json_object_set_new(m, "flush_point", value_or_null(u, u->has_flush, fbits));
    json_object_set_new(m, "last_nonzero", value_or_null(u, u->has_side, tg->last_nonzero));
    json_object_set_new(m, "last_normal",
                        value_or_null(u, u->has_side && u->has_lnorm, tg->last_normal));
    if (u->has_flush) {
        /* how far the flush comes before last_nonzero: in x, and in floats (positions) */
        json_t *g = json_object();
        double dx = gs_to_double(dt, fbits) - gs_to_double(dt, tg->last_nonzero);
        json_object_set_new(g, "x", gs_real_json(dx < 0 ? -dx : dx));
        json_object_set_new(g, "floats", gs_ut_count_json(u->lnz - u->flush));
        json_object_set_new(m, "flush_gap", g);
    } else {
        json_object_set_new(m, "flush_gap", json_null());
    }
    json_object_set_new(m, "zero_outputs", gs_ut_count_json(a->zero));
    json_object_set_new(m, "zero_outputs_measured", gs_ut_count_json(a->zero_measured));
    json_object_set_new(m, "ftz", gs_ut_count_json(a->ftz));
    json_object_set_new(m, "premature_flush", gs_ut_count_json(a->prem));
    json_object_set_new(m, "signed_zero", gs_ut_count_json(a->signed_zero));
    json_t *depth = json_array();
    for (unsigned b = 0; b < u->n_depth; b++) {
        if (a->depth[b].points == 0)
            continue;
        char label[32];
        if (u->neg)
            snprintf(label, sizeof label, "[-%u,%s%u)", b + 1, b ? "-" : "", b);
        else
            snprintf(label, sizeof label, "[%u,%u)", b, b + 1);
        json_t *o = gs_errstat_json(&a->depth[b], dt);
        json_object_set_new(o, "bin", json_string(label));
        json_array_append_new(depth, o);
    }
    json_object_set_new(m, "depth", depth);
    json_object_set_new(m, "beyond_last_nonzero",
                        u->has_side ? gs_errstat_json(&a->beyond, dt) : json_null());
    json_object_set_new(m, "saturation", saturation_json(u, 0));
    if (u->has_sat[1])
        json_object_set_new(m, "saturation_neg", saturation_json(u, 1));
    return m;
}

json_t *tail_inputs_json(const struct tail_run *u)
{
    const struct gs_config *cfg = u->c->cfg;
    const struct tail_acc *a = &u->acc[0];
    json_t *o = json_object();
    json_object_set_new(o, "side", json_string(!u->has_side ? "none" : u->neg ? "negative"
                                                                           : "positive"));
    if (u->has_scan) {
        json_t *s = json_object();
        json_object_set_new(s, "kind", json_string(u->stride == 1 ? "exhaustive" : "stride"));
        json_object_set_new(s, "stride", gs_ut_count_json(u->stride));
        json_object_set_new(s, "count", gs_ut_count_json(u->n_scan));
        json_object_set_new(s, "from", gs_value_json(u->c->dt, gs_ut_bits(&u->sh, u->neg,
                                                                          u->s_lo)));
        json_object_set_new(s, "to", gs_value_json(u->c->dt, gs_ut_bits(&u->sh, u->neg,
                                                                        u->s_hi)));
        json_object_set_new(o, "scan", s);
    } else {
        json_object_set_new(o, "scan", json_null());
    }
    json_object_set_new(o, "beyond", gs_ut_count_json(a->beyond.points));
    uint64_t depth = 0;
    for (unsigned b = 0; b < u->n_depth; b++)
        depth += a->depth[b].points;
    json_object_set_new(o, "depth", json_pack("{s:i,s:i,s:o}", "per_unit",
                                              TAIL_DEPTH_PER_UNIT, "bins", (int)u->n_depth,
                                              "count", gs_ut_count_json(depth)));
    json_object_set_new(o, "saturation",
                        gs_ut_count_json(a->sat_checked[0] + a->sat_checked[1]));
    json_object_set_new(o, "seed", gs_ut_count_json(cfg->seed));
    if (cfg->has_range)
        json_object_set_new(o, "range", json_pack("[oo]", gs_real_json(cfg->range_lo),
                                                  gs_real_json(cfg->range_hi)));
    else
        json_object_set_new(o, "range", json_null());
    json_object_set_new(o, "count", gs_ut_count_json(a->points));
    return o;
}
