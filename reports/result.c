/* The JSON result document, schema gelucheck-result/1 (docs/design.md section 8; the layout is in
 * reports.h and reports/schema/gelucheck-result-1.schema.json).  jansson keeps members in
 * insertion order, so the head is built with placeholders in their final places and
 * rp_result_finish() replaces them. */
#include <string.h>

#include <geluref.h>
#include <mpfr.h>

#include "reports.h"

static json_t *text_json(const char *s)
{
    json_t *j = json_string(s ? s : "");
    if (j || !s)
        return j;
    char buf[1024]; /* not UTF-8: each byte >= 0x80 as '?' */
    size_t n = 0;
    for (; s[n] && n + 1 < sizeof buf; n++)
        buf[n] = (unsigned char)s[n] < 0x80 ? s[n] : '?';
    buf[n] = '\0';
    return json_string(buf);
}

json_t *rp_result_new(const struct rp_meta *m)
{
    const struct gs_config *cfg = m->cfg;
    json_t *d = json_object(), *cmd = json_array(), *suites = json_array();

    if (!d || !cmd || !suites) {
        json_decref(d);
        json_decref(cmd);
        json_decref(suites);
        return NULL;
    }
    for (size_t i = 0; i < m->n_command; i++)
        json_array_append_new(cmd, text_json(m->command[i]));
    for (int s = 0; s < GS_N_SUITES; s++)
        if (cfg->suites & (1u << s))
            json_array_append_new(suites, json_string(gs_suite_name((enum gs_suite)s)));
    json_object_set_new(d, "schema", json_string(RP_SCHEMA));
    json_object_set_new(d, "tool", json_pack("{s:s, s:s, s:s, s:s, s:s}", "name", "gelucheck",
                                             "version", m->tool_version, "geluref",
                                             geluref_version(), "mpfr", mpfr_get_version(),
                                             "jansson", JANSSON_VERSION));
    json_object_set_new(d, "command", cmd);
    json_object_set_new(d, "policy", json_pack("{s:s, s:{}}", "name",
                                               cfg->policy ? gs_policy_name(cfg->policy) : "",
                                               "values"));
    json_object_set_new(d, "verdict", json_string("skip"));
    json_object_set_new(d, "exit_code", json_integer(0));
    json_object_set_new(d, "rounding", json_string("rn"));
    json_object_set_new(d, "reference",
                        json_string(cfg->reference == GS_REF_MPFR ? "mpfr" : "fast"));
    json_object_set_new(d, "seed", json_integer((json_int_t)cfg->seed));
    json_object_set_new(d, "samples", json_integer((json_int_t)cfg->samples));
    json_object_set_new(d, "exhaustive", json_boolean(cfg->exhaustive));
    json_object_set_new(d, "range", cfg->has_range ? json_pack("[o, o]",
                                                               gs_real_json(cfg->range_lo),
                                                               gs_real_json(cfg->range_hi))
                                                   : json_null());
    json_object_set_new(d, "memory_limit", json_integer((json_int_t)cfg->memory_limit));
    json_object_set_new(d, "suites", suites);
    /* complete: everything this run (or shard) was asked to measure was measured; an
     * interrupted run will say false (resuming comes with its issue).  shard: K of N, 0 of 1
     * for a whole run (gelucheck merge adds "merged") */
    json_object_set_new(d, "complete", json_true());
    json_object_set_new(d, "shard", json_pack("{s:I, s:I}", "index", (json_int_t)cfg->shard_k,
                                              "count", (json_int_t)(cfg->shard_n > 1
                                                                        ? cfg->shard_n : 1)));
    json_object_set_new(d, "environment", rp_environment());
    json_object_set_new(d, "adapters", json_array());
    json_object_set_new(d, "kernels", json_array());
    json_object_set_new(d, "totals", json_object());
    json_object_set_new(d, "timing", json_pack("{s:f, s:I, s:[]}", "wall_s", 0.0, "threads",
                                               (json_int_t)cfg->threads, "kernels"));
    /* any member that could not be made leaves a hole: report no memory */
    if (json_object_size(d) != 21 || !json_object_get(d, "environment")) {
        json_decref(d);
        return NULL;
    }
    return d;
}

static const char *kind_name(enum gc_adapter_kind k)
{
    return k == GC_ADAPTER_BUILTIN ? "builtin" : k == GC_ADAPTER_PLUGIN ? "plugin" : "exec";
}

int rp_result_add_adapter(json_t *doc, const char *spec, const char *id,
                          const struct gc_adapter *a, const char *error)
{
    json_t *o;
    if (a)
        o = json_pack("{s:o, s:o, s:o, s:s, s:i, s:s, s:n}", "spec", text_json(spec), "name",
                      text_json(a->name), "version", text_json(a->version), "kind",
                      kind_name(a->kind), "kernels", 0, "verdict", "skip", "error");
    else
        o = json_pack("{s:o, s:n, s:n, s:n, s:i, s:s, s:o}", "spec", text_json(spec), "name",
                      "version", "kind", "kernels", 0, "verdict", "error", "error",
                      text_json(error ? error : "cannot load"));
    if (o && id) /* its own name, the ADAPTER of its kernels' identities */
        json_object_set_new(o, "id", text_json(id));
    return json_array_append_new(json_object_get(doc, "adapters"), o);
}

int rp_result_add_kernel(json_t *doc, json_t *kernel, double wall_s)
{
    json_t *t = json_object_get(json_object_get(doc, "timing"), "kernels");
    if (!kernel)
        return -1;
    json_t *tk = json_pack("{s:O, s:O, s:o}", "adapter", json_object_get(kernel, "adapter"),
                           "kernel", json_object_get(kernel, "kernel"), "wall_s",
                           gs_real_json(wall_s));
    int rc = json_array_append_new(t, tk);
    return json_array_append_new(json_object_get(doc, "kernels"), kernel) || rc;
}

static enum gs_verdict verdict_of(const json_t *o)
{
    const char *s = json_string_value(json_object_get(o, "verdict"));
    for (int v = GS_PASS; v <= GS_ERROR; v++)
        if (s && strcmp(s, gs_verdict_name((enum gs_verdict)v)) == 0)
            return (enum gs_verdict)v;
    return GS_ERROR; /* not one of ours: treat as the worst */
}

/* "policy"."values": the effective values for every (func, dtype) present, in enum order;
 * "policy"."kernel_values": those of each kernel that has a [kernel ID] section. */
static void policy_values(json_t *doc, const struct gs_policy *policy)
{
    json_t *vals = json_object_get(json_object_get(doc, "policy"), "values");
    json_t *kernels = json_object_get(doc, "kernels");
    for (int f = GELUREF_GELU; policy && f <= GELUREF_ERFC; f++)
        for (int dt = GELUREF_DTYPE_FIRST; dt <= GELUREF_DTYPE_LAST; dt++) {
            const char *fn = geluref_func_name((enum geluref_func)f);
            const char *dn = geluref_dtype_name((enum geluref_dtype)dt);
            size_t i;
            json_t *k;
            int present = 0;
            json_array_foreach(kernels, i, k) {
                present |= strcmp(json_string_value(json_object_get(k, "func")), fn) == 0 &&
                           strcmp(json_string_value(json_object_get(k, "dtype")), dn) == 0;
            }
            if (!present)
                continue;
            struct gs_policy_values v;
            char key[64];
            gs_policy_resolve(policy, (enum geluref_func)f, (enum geluref_dtype)dt, &v);
            snprintf(key, sizeof key, "%s.%s", fn, dn);
            json_object_set_new(vals, key, gs_policy_values_json(&v));
        }
    /* "policy"."kernel_values": for each kernel a [kernel ID] section applies to, its values
       (present only when one does: results of policies without such sections are as before) */
    size_t i;
    json_t *k, *kv = json_object();
    json_array_foreach(kernels, i, k) {
        enum geluref_func f;
        enum geluref_dtype dt;
        struct gs_policy_values v;
        const char *id = json_string_value(json_object_get(k, "id"));
        if (policy && id && kv &&
            geluref_func_from_name(json_string_value(json_object_get(k, "func")), &f) == 0 &&
            geluref_dtype_from_name(json_string_value(json_object_get(k, "dtype")), &dt) == 0 &&
            gs_policy_resolve_kernel(policy, id, f, dt, &v))
            json_object_set_new(kv, id, gs_policy_values_json(&v));
    }
    if (kv && json_object_size(kv) > 0)
        json_object_set_new(json_object_get(doc, "policy"), "kernel_values", kv);
    else
        json_decref(kv);
}

/* Adds each suite's finding counts of kernel k into counts[kind]. */
static void count_findings(const json_t *k, uint64_t counts[GS_N_KINDS])
{
    size_t i, j;
    json_t *s, *c;
    json_array_foreach(json_object_get(k, "suites"), i, s) {
        json_array_foreach(json_object_get(s, "finding_counts"), j, c) {
            enum gs_kind kind;
            if (gs_kind_from_name(json_string_value(json_object_get(c, "kind")), &kind) == 0)
                counts[kind] += (uint64_t)json_integer_value(json_object_get(c, "count"));
        }
    }
}

int rp_result_finish(json_t *doc, const struct gs_policy *policy, int internal, double wall_s)
{
    json_t *kernels = json_object_get(doc, "kernels"), *adapters = json_object_get(doc, "adapters");
    uint64_t n[4] = { 0 }, counts[GS_N_KINDS] = { 0 };
    enum gs_verdict all = GS_SKIP;
    size_t i, j;
    json_t *k, *a;

    policy_values(doc, policy);
    json_array_foreach(kernels, i, k) {
        enum gs_verdict v = verdict_of(k);
        n[v]++;
        all = gs_verdict_worse(all, v);
        count_findings(k, counts);
    }
    json_array_foreach(adapters, i, a) {
        enum gs_verdict av = json_is_null(json_object_get(a, "name")) ? GS_ERROR : GS_SKIP;
        json_int_t nk = 0;
        /* both strings: written so, or checked when read back (rp_result_check) */
        const char *spec = json_string_value(json_object_get(a, "spec"));
        json_array_foreach(kernels, j, k) {
            if (strcmp(json_string_value(json_object_get(k, "adapter")), spec) != 0)
                continue;
            nk++;
            av = gs_verdict_worse(av, verdict_of(k));
        }
        json_object_set_new(a, "kernels", json_integer(nk));
        json_object_set_new(a, "verdict", json_string(gs_verdict_name(av)));
        all = gs_verdict_worse(all, av);
    }
    int code = internal ? 4 : all == GS_ERROR ? 3 : all == GS_FAIL ? 1 : 0;
    json_t *fc = json_object();
    for (int kd = 0; kd < GS_N_KINDS; kd++)
        if (counts[kd])
            json_object_set_new(fc, gs_kind_name((enum gs_kind)kd),
                                json_integer((json_int_t)counts[kd]));
    json_object_set_new(doc, "totals",
                        json_pack("{s:I, s:I, s:I, s:I, s:I, s:o}",
                                  "kernels", (json_int_t)json_array_size(kernels),
                                  "pass", (json_int_t)n[GS_PASS], "fail", (json_int_t)n[GS_FAIL],
                                  "error", (json_int_t)n[GS_ERROR], "skip", (json_int_t)n[GS_SKIP],
                                  "findings", fc));
    json_object_set_new(doc, "verdict", json_string(gs_verdict_name(all)));
    json_object_set_new(doc, "exit_code", json_integer(code));
    json_object_set_new(json_object_get(doc, "timing"), "wall_s", gs_real_json(wall_s));
    return code;
}
