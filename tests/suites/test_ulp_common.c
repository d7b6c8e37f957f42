/* Helpers of the ulp and tail suite tests (test_ulp_common.h). */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_ulp_common.h"

const char *ut_fixture_cr(void)
{
    return FIXTURE_CR;
}

void ut_open(struct ut_kernel *u, const char *spec, const char *name, unsigned threads,
             const char *policy)
{
    struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;
    char msg[512];
    memset(u, 0, sizeof *u);
    assert_true(threads >= 1 && threads <= UT_MAX_THREADS);
    for (unsigned t = 0; t < threads; t++) {
        if (gc_adapter_open(spec, &opt, &u->a[t], msg, sizeof msg) != GC_OK)
            fail_msg("cannot open '%s': %s", spec, msg);
        for (size_t i = 0; i < u->a[t]->n_kernels; i++)
            if (strcmp(u->a[t]->kernels[i].name, name) == 0)
                u->k[t] = &u->a[t]->kernels[i];
        if (u->k[t] == NULL)
            fail_msg("no kernel '%s' in '%s'", name, spec);
    }
    u->t.k = u->k;
    u->t.n_threads = threads;
    u->t.adapter = spec;
    gs_config_init(&u->cfg);
    u->cfg.threads = threads;
    u->pol = gs_policy_builtin(policy);
    assert_non_null(u->pol);
    u->cfg.policy = u->pol;
}

void ut_run(struct ut_kernel *u, enum gs_suite s, struct gs_suite_result *r)
{
    char msg[256];
    if (gs_ctx_init(&u->c, &u->cfg, &u->t, msg, sizeof msg) != 0)
        fail_msg("gs_ctx_init: %s", msg);
    memset(r, 0, sizeof *r);
    r->suite = s;
    gs_findings_init(&r->findings);
    if (s == GS_SUITE_ULP)
        gs_suite_ulp(&u->c, r);
    else
        gs_suite_tail(&u->c, r);
    if (u->c.internal_error)
        fail_msg("internal error: %s", u->c.internal_msg);
    gs_ctx_release(&u->c);
    assert_non_null(r->metrics);
    assert_non_null(r->inputs);
}

void ut_result_release(struct gs_suite_result *r)
{
    gs_findings_release(&r->findings);
    json_decref(r->metrics);
    json_decref(r->inputs);
    r->metrics = r->inputs = NULL;
}

void ut_close(struct ut_kernel *u)
{
    for (unsigned t = 0; t < UT_MAX_THREADS; t++)
        gc_adapter_close(u->a[t]);
    gs_policy_free(u->pol);
}

json_t *ut_get(json_t *o, ...)
{
    va_list ap;
    va_start(ap, o);
    const char *key;
    while ((key = va_arg(ap, const char *)) != NULL) {
        json_t *n = json_object_get(o, key);
        if (n == NULL) {
            va_end(ap);
            fail_msg("metrics: no member '%s'", key);
        }
        o = n;
    }
    va_end(ap);
    return o;
}

double ut_num(json_t *o, ...)
{
    va_list ap;
    va_start(ap, o);
    const char *key;
    while ((key = va_arg(ap, const char *)) != NULL) {
        json_t *n = json_object_get(o, key);
        if (n == NULL) {
            va_end(ap);
            fail_msg("metrics: no member '%s'", key);
        }
        o = n;
    }
    va_end(ap);
    if (!json_is_number(o))
        fail_msg("metrics: not a number");
    return json_number_value(o);
}

uint64_t ut_bits(json_t *value)
{
    json_t *b = json_object_get(value, "bits");
    if (!json_is_string(b))
        fail_msg("metrics: a value without bits");
    return strtoull(json_string_value(b), NULL, 16);
}

uint64_t ut_count(const struct gs_suite_result *r, enum gs_kind k, enum gs_region rg)
{
    if (rg == GS_N_REGIONS)
        return gs_findings_count(&r->findings, k);
    const struct gs_bucket *b = r->findings.b[k][rg];
    return b ? b->count : 0;
}

double ut_worst_ulp(const struct gs_suite_result *r, enum gs_kind k, enum gs_region rg)
{
    const struct gs_bucket *b = r->findings.b[k][rg];
    double w = -1;
    for (size_t i = 0; b && i < b->n_worst; i++)
        if (b->worst[i].ulp > w)
            w = b->worst[i].ulp;
    return w;
}

uint64_t ut_eval1(struct ut_kernel *u, uint64_t x)
{
    unsigned char xb[8], yb[8];
    char msg[256];
    gs_store(u->k[0]->dtype, xb, 0, x);
    if (gc_kernel_eval(u->k[0], xb, yb, 1, msg, sizeof msg) != GC_OK)
        fail_msg("eval: %s", msg);
    return gs_load(u->k[0]->dtype, yb, 0);
}
