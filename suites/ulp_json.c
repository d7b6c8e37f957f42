/* The ulp suite's metrics and input description (see ulp.c). */
#include <string.h>

#include "ulp_run.h"

void ulp_acc_merge(struct ulp_acc *into, const struct ulp_acc *from, size_t n_bins)
{
    gs_errstat_merge(&into->all, &from->all);
    gs_errstat_merge(&into->ex_all, &from->ex_all);
    for (int i = 0; i < GS_N_REGIONS; i++) {
        gs_errstat_merge(&into->reg[i], &from->reg[i]);
        gs_errstat_merge(&into->ex_reg[i], &from->ex_reg[i]);
    }
    for (size_t i = 0; i < n_bins; i++)
        gs_errstat_merge(&into->bin[i], &from->bin[i]);
    gs_findings_merge(&into->f, &from->f);
    into->points += from->points;
}

/* {region name: errstat} for the non-empty regions. */
static json_t *regions_json(const struct gs_errstat *reg, enum geluref_dtype dt)
{
    json_t *o = json_object();
    for (int i = 0; i < GS_N_REGIONS; i++)
        if (reg[i].points > 0)
            json_object_set_new(o, gs_region_name((enum gs_region)i),
                                gs_errstat_json(&reg[i], dt));
    return o;
}

/* One binade's entry: sign, exponent, its value range and its statistics. */
static json_t *binade_json(const struct ulp_run *u, int neg, unsigned e,
                           const struct gs_errstat *s)
{
    const struct gs_ut_shape *sh = &u->sh;
    enum geluref_dtype dt = u->c->dt;
    json_t *o = gs_errstat_json_brief(s, dt); /* brief: up to 4094 of them (f64) */
    uint64_t mlo = (uint64_t)e << sh->mant, mhi = ((uint64_t)(e + 1) << sh->mant) - 1;
    json_object_set_new(o, "sign", json_string(neg ? "-" : "+"));
    json_object_set_new(o, "exponent", e == 0 ? json_string("subnormal")
                                              : json_integer((json_int_t)e - sh->bias));
    /* lo < hi as values: the negative binades run from -largest to -smallest magnitude */
    json_object_set_new(o, "lo", gs_value_json(dt, gs_ut_bits(sh, neg, neg ? mhi : mlo)));
    json_object_set_new(o, "hi", gs_value_json(dt, gs_ut_bits(sh, neg, neg ? mlo : mhi)));
    return o;
}

json_t *ulp_metrics_json(const struct ulp_run *u)
{
    const struct ulp_acc *a = &u->acc[0];
    enum geluref_dtype dt = u->c->dt;
    json_t *m = json_object();
    json_object_set_new(m, "overall", gs_errstat_json(&a->all, dt));
    json_object_set_new(m, "regions", regions_json(a->reg, dt));
    /* binades in increasing order of value: negative ones from the largest magnitude down */
    json_t *bins = json_array();
    for (unsigned i = 0; i < u->sh.n_fields; i++) {
        unsigned e = u->sh.n_fields - 1 - i;
        const struct gs_errstat *s = &a->bin[u->sh.n_fields + e];
        if (s->points > 0)
            json_array_append_new(bins, binade_json(u, 1, e, s));
    }
    for (unsigned e = 0; e < u->sh.n_fields; e++)
        if (a->bin[e].points > 0)
            json_array_append_new(bins, binade_json(u, 0, e, &a->bin[e]));
    json_object_set_new(m, "binades", bins);
    if (u->exact) {
        json_t *v = json_object();
        json_object_set_new(v, "func", json_string(geluref_func_name(u->exact)));
        json_object_set_new(v, "overall", gs_errstat_json(&a->ex_all, dt));
        json_object_set_new(v, "regions", regions_json(a->ex_reg, dt));
        json_object_set_new(m, "vs_exact", v);
    }
    return m;
}

json_t *ulp_inputs_json(const struct ulp_run *u)
{
    const struct gs_config *cfg = u->c->cfg;
    json_t *o = json_object();
    json_object_set_new(o, "kind", json_string(u->exhaustive ? "exhaustive" : "stratified"));
    json_object_set_new(o, "seed", gs_ut_count_json(cfg->seed));
    json_object_set_new(o, "samples", gs_ut_count_json(u->samples));
    json_object_set_new(o, "targets", gs_ut_count_json(u->n_targets));
    if (cfg->has_range)
        json_object_set_new(o, "range", json_pack("[oo]", gs_real_json(cfg->range_lo),
                                                  gs_real_json(cfg->range_hi)));
    else
        json_object_set_new(o, "range", json_null());
    json_object_set_new(o, "count", gs_ut_count_json(u->acc[0].points));
    return o;
}
