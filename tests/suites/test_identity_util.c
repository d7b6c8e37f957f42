/* Helpers of the special and identity suite tests (test_identity_util.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "test_identity_util.h"

const char *si_fixture = "";

typedef void (*suite_fn)(struct gs_ctx *c, struct gs_suite_result *r);

void si_run(struct si_run *s, const char *spec, const char *kernel, const char *policy,
            enum gs_suite suite, uint64_t samples)
{
    struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;
    char msg[512];
    memset(s, 0, sizeof *s);
    if (gc_adapter_open(spec, &opt, &s->a, msg, sizeof msg) != GC_OK)
        fail_msg("cannot open %s: %s", spec, msg);
    for (size_t i = 0; i < s->a->n_kernels; i++)
        if (strcmp(s->a->kernels[i].name, kernel) == 0)
            s->k = &s->a->kernels[i];
    if (s->k == NULL)
        fail_msg("%s: no kernel %s", spec, kernel);
    s->t.k = &s->k;
    s->t.n_threads = 1;
    s->t.adapter = spec;
    gs_config_init(&s->cfg);
    s->cfg.policy = gs_policy_builtin(policy);
    s->cfg.samples = samples;
    assert_non_null(s->cfg.policy);
    if (gs_ctx_init(&s->c, &s->cfg, &s->t, msg, sizeof msg) != 0)
        fail_msg("%s %s: %s", spec, kernel, msg);
    s->r.suite = suite;
    s->r.verdict = GS_SKIP;
    gs_findings_init(&s->r.findings);
    suite_fn fn = suite == GS_SUITE_SPECIAL ? gs_suite_special : gs_suite_identity;
    fn(&s->c, &s->r);
    if (s->c.internal_error)
        fail_msg("%s %s: internal error: %s", spec, kernel, s->c.internal_msg);
}

void si_done(struct si_run *s)
{
    gs_findings_release(&s->r.findings);
    json_decref(s->r.metrics);
    json_decref(s->r.inputs);
    gs_ctx_release(&s->c);
    gc_adapter_close(s->a);
    memset(s, 0, sizeof *s);
}

const struct gs_finding *si_find(const struct gs_findings *f, enum gs_kind k, uint64_t x)
{
    for (int r = 0; r <= GS_N_REGIONS; r++) {
        const struct gs_bucket *b = f->b[k][r];
        for (size_t i = 0; b != NULL && i < b->n_worst; i++)
            if (b->worst[i].x == x)
                return &b->worst[i];
    }
    return NULL;
}

const char *si_severity(const struct gs_findings *f, const struct gs_policy_values *v,
                        enum geluref_func func, enum geluref_dtype dt, enum gs_kind k,
                        char *buf, size_t size)
{
    json_t *o = json_object(), *e;
    size_t i;
    gs_findings_json(o, f, v, func, dt);
    snprintf(buf, size, "%s", "");
    json_array_foreach(json_object_get(o, "findings"), i, e) {
        const char *kind = json_string_value(json_object_get(e, "kind"));
        if (kind != NULL && strcmp(kind, gs_kind_name(k)) == 0) {
            snprintf(buf, size, "%s", json_string_value(json_object_get(e, "severity")));
            break;
        }
    }
    json_decref(o);
    return buf;
}
