/* Helpers of the ulp and tail suite tests (test_ulp_common.c): one kernel opened once per
 * thread, a context under a built-in policy, a suite run, and reading its metrics. */
#ifndef TEST_ULP_COMMON_H
#define TEST_ULP_COMMON_H

#include <stdint.h>

#include "suites.h"

#define UT_MAX_THREADS 2

struct ut_kernel {
    struct gc_adapter *a[UT_MAX_THREADS];
    const struct gc_kernel *k[UT_MAX_THREADS];
    struct gs_target t;
    struct gs_config cfg;   /* defaults and the policy; the caller may change it before run */
    struct gs_policy *pol;
    struct gs_ctx c;
};

/* Opens kernel `name` of adapter `spec` once per thread, under built-in policy `policy`. */
void ut_open(struct ut_kernel *u, const char *spec, const char *name, unsigned threads,
             const char *policy);
/* gs_ctx_init, then suite s into r (initialised here); asserts no internal error. */
void ut_run(struct ut_kernel *u, enum gs_suite s, struct gs_suite_result *r);
void ut_result_release(struct gs_suite_result *r);
void ut_close(struct ut_kernel *u);

/* The path of the correctly rounded fixture plug-in (FIXTURE_CR at build time). */
const char *ut_fixture_cr(void);

/* Reading the metrics: a member by a path of keys ("regions", "[-1,0)", "max_ulp", NULL);
 * fails the test when missing. */
json_t *ut_get(json_t *o, ...);
double ut_num(json_t *o, ...);            /* a number member */
uint64_t ut_bits(json_t *value);          /* a value object's "bits" */
/* Findings of kind k in region rg (GS_N_REGIONS = every region). */
uint64_t ut_count(const struct gs_suite_result *r, enum gs_kind k, enum gs_region rg);
/* The largest ulp among the kept worst findings of kind k in region rg. */
double ut_worst_ulp(const struct gs_suite_result *r, enum gs_kind k, enum gs_region rg);
/* One evaluation of the kernel of thread 0. */
uint64_t ut_eval1(struct ut_kernel *u, uint64_t x);

#endif
