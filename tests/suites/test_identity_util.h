/* Running the special or identity suite on one kernel of an adapter, for the tests of
 * test_special.c and test_identity*.c. */
#ifndef TEST_IDENTITY_UTIL_H
#define TEST_IDENTITY_UTIL_H

#include "suites.h"

struct si_run {
    struct gc_adapter *a;
    const struct gc_kernel *k;
    struct gs_target t;
    struct gs_config cfg;
    struct gs_ctx c;
    struct gs_suite_result r;
};

/* Opens spec, finds the kernel, prepares a context under the built-in policy and runs the
 * suite (samples: cfg.samples); a setup failure fails the test. */
void si_run(struct si_run *s, const char *spec, const char *kernel, const char *policy,
            enum gs_suite suite, uint64_t samples);
void si_done(struct si_run *s);

/* The recorded finding of kind k at input x (in the worst lists), or NULL. */
const struct gs_finding *si_find(const struct gs_findings *f, enum gs_kind k, uint64_t x);
/* The findings' JSON ("findings" array) rendered with v, and the severity string of the first
 * finding of kind k in it ("" when none); the caller frees nothing. */
const char *si_severity(const struct gs_findings *f, const struct gs_policy_values *v,
                        enum geluref_func func, enum geluref_dtype dt, enum gs_kind k,
                        char *buf, size_t size);
/* The plug-in spec of the correctly rounded fixture, from argv[1] ("" when not given). */
extern const char *si_fixture;

#endif
