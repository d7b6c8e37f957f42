/* special.h: what the special suite adds beside suites.h (not part of its contract).
 *
 * Two policy keys bend severities for the special suite only (suites.h, struct
 * gs_policy_values): special_zero_sign = any makes its zero-sign-only mismatches (signed_zero)
 * warnings, and nan_at_neg_inf = allow makes NaN for x = -inf a warning.  The first is a
 * severity of the kind, so the suite keeps the kinds and judges, and must be rendered, with a
 * private copy of the values: gs_special_values().  The second excuses one finding, not the
 * kind (NaN for +inf stays a failing special_value beside it): that finding is marked
 * tolerated (struct gs_finding), and gs_finding_severity shows it as a warning. */
#ifndef GELUCHECK_SPECIAL_H
#define GELUCHECK_SPECIAL_H

#include "suites.h"

/* The values the special suite's findings are judged and rendered with: pv, except
 * severity[signed_zero]: pv's under special_zero_sign = exact; under any, warn where pv says
 * fail (ignore stays ignore).  out may be pv. */
void gs_special_values(const struct gs_policy_values *pv, struct gs_policy_values *out);

#endif
