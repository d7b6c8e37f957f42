/* Helpers of the vector and fingerprint suite tests (test_vf_common.c): open one kernel, run
 * one suite on it under the `default` policy, read the result. */
#ifndef TEST_VF_COMMON_H
#define TEST_VF_COMMON_H

#include <stdint.h>

#include "suites.h"

struct vf_run {
    struct gc_adapter *a;
    const struct gc_kernel *k[1];
    struct gs_target t;
    struct gs_config cfg;
    struct gs_policy *pol;
    struct gs_ctx c;
    struct gs_suite_result r;
};

/* Opens kernel `name` of adapter `spec` and runs suite s on it (default policy); fails the
 * test when the kernel cannot be opened or the reference fails. */
void vf_run(struct vf_run *u, const char *spec, const char *name, enum gs_suite s);
void vf_release(struct vf_run *u);
/* The path of the fixture plug-in (fixture_vf.c) (FIXTURE_VF at build time). */
const char *vf_fixture(void);
/* Findings of kind k (all regions). */
uint64_t vf_count(const struct vf_run *u, enum gs_kind k);
/* Fails the test, naming the kernel and the kinds seen, unless the findings are exactly
 * the kinds in mask (bit k = kind k); mask 0 = no findings at all. */
void vf_only(const struct vf_run *u, uint64_t mask);
/* The metrics' string member key (fails when missing). */
const char *vf_str(const struct vf_run *u, const char *key);
double vf_num(const struct vf_run *u, const char *key);

#endif
