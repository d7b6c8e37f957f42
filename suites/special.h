/* special.h: what the special suite adds beside suites.h (not part of its contract).
 *
 * Two policy keys bend severities for the special suite only (suites.h, struct
 * gs_policy_values): special_zero_sign = any makes its zero-sign-only mismatches (signed_zero)
 * warnings, and nan_at_neg_inf = allow makes NaN for x = -inf (a special_value) a warning.
 * A finding has no severity of its own (gs_findings_fail and gs_findings_json read
 * v->severity[kind]), so the suite keeps the kinds and judges, and must be rendered, with a
 * private copy of the values: gs_special_values(). */
#ifndef GELUCHECK_SPECIAL_H
#define GELUCHECK_SPECIAL_H

#include "suites.h"

/* The values the special suite's findings f are judged and rendered with: pv, except
 *  - severity[signed_zero]: pv's under special_zero_sign = exact; under any, warn where pv
 *    says fail (ignore stays ignore);
 *  - severity[special_value]: under nan_at_neg_inf = allow, warn where pv says fail, when the
 *    only special_value finding in f is NaN for x = -inf (with any other special_value
 *    finding the kind keeps pv's severity, so that the suite still fails).
 * out may be pv. */
void gs_special_values(const struct gs_policy_values *pv, enum geluref_dtype dt,
                       const struct gs_findings *f, struct gs_policy_values *out);

#endif
