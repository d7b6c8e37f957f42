/* Helpers of the vector and fingerprint suite tests (test_vf_common.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "test_vf_common.h"

const char *vf_fixture(void)
{
    return FIXTURE_VF;
}

void vf_run(struct vf_run *u, const char *spec, const char *name, enum gs_suite s)
{
    struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;
    char msg[512];
    memset(u, 0, sizeof *u);
    if (gc_adapter_open(spec, &opt, &u->a, msg, sizeof msg) != GC_OK)
        fail_msg("cannot open '%s': %s", spec, msg);
    for (size_t i = 0; i < u->a->n_kernels; i++)
        if (strcmp(u->a->kernels[i].name, name) == 0)
            u->k[0] = &u->a->kernels[i];
    if (u->k[0] == NULL)
        fail_msg("no kernel '%s' in '%s'", name, spec);
    u->t.k = u->k;
    u->t.n_threads = 1;
    u->t.adapter = spec;
    gs_config_init(&u->cfg);
    u->pol = gs_policy_builtin("default");
    assert_non_null(u->pol);
    u->cfg.policy = u->pol;
    if (gs_ctx_init(&u->c, &u->cfg, &u->t, msg, sizeof msg) != 0)
        fail_msg("gs_ctx_init: %s", msg);
    u->r.suite = s;
    gs_findings_init(&u->r.findings);
    if (s == GS_SUITE_VECTOR)
        gs_suite_vector(&u->c, &u->r);
    else
        gs_suite_fingerprint(&u->c, &u->r);
    if (u->c.internal_error)
        fail_msg("%s: internal error: %s", name, u->c.internal_msg);
    assert_int_equal(u->r.suite, s);
    assert_non_null(u->r.metrics);
}

void vf_release(struct vf_run *u)
{
    gs_ctx_release(&u->c);
    gs_findings_release(&u->r.findings);
    json_decref(u->r.metrics);
    json_decref(u->r.inputs);
    gs_policy_free(u->pol);
    gc_adapter_close(u->a);
}

uint64_t vf_count(const struct vf_run *u, enum gs_kind k)
{
    return gs_findings_count(&u->r.findings, k);
}

void vf_only(const struct vf_run *u, uint64_t mask)
{
    char seen[512] = "";
    int bad = 0;
    for (int k = 0; k < GS_N_KINDS; k++) {
        uint64_t n = vf_count(u, (enum gs_kind)k);
        int want = (mask >> k) & 1u;
        if ((n > 0) != want)
            bad = 1;
        if (n > 0) {
            size_t at = strlen(seen);
            snprintf(seen + at, sizeof seen - at, " %s:%llu", gs_kind_name((enum gs_kind)k),
                     (unsigned long long)n);
        }
    }
    if (bad)
        fail_msg("%s: unexpected findings: saw%s", u->k[0]->name, seen[0] ? seen : " none");
}

const char *vf_str(const struct vf_run *u, const char *key)
{
    json_t *v = json_object_get(u->r.metrics, key);
    if (!json_is_string(v))
        fail_msg("%s: metrics member '%s' missing", u->k[0]->name, key);
    return json_string_value(v);
}

double vf_num(const struct vf_run *u, const char *key)
{
    json_t *v = json_object_get(u->r.metrics, key);
    if (!json_is_number(v))
        fail_msg("%s: metrics number '%s' missing", u->k[0]->name, key);
    return json_number_value(v);
}
