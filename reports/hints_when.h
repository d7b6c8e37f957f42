/* Private to the hint table (hints.c): what its conditions look at, and the conditions
 * (hints_when.c), each true when the suites saw what the row's cause would produce. */
#ifndef GELUCHECK_HINTS_WHEN_H
#define GELUCHECK_HINTS_WHEN_H

#include <jansson.h>

#include "suites.h"

/* What a condition looks at: the finding, its kernel, and their members parsed once. */
struct hx {
    const json_t *k, *fd;
    int func, dt;            /* enum geluref_func / geluref_dtype, 0 when unknown */
    const char *detected;    /* the fingerprint's verdict, "" when none */
    const char *detail;
    int has_x, has_got;
    double x, got, abs_err;  /* abs_err NAN when absent */
    double ulp;              /* the ulp error, NAN when absent */
};

/* c for finding fd of kernel k; -1 when fd's kind is unknown. */
int hw_init(struct hx *c, const json_t *k, const json_t *fd, enum gs_kind *kind);

int hw_other(const struct hx *c);
int hw_nonfinite(const struct hx *c);
int hw_segv(const struct hx *c);
int hw_fpe(const struct hx *c);
int hw_abort(const struct hx *c);
int hw_is_tanh(const struct hx *c);
int hw_is_sigmoid(const struct hx *c);
int hw_is_nosqrt2(const struct hx *c);
int hw_is_silu(const struct hx *c);
int hw_tanh_gelu(const struct hx *c);
int hw_grad_neg(const struct hx *c);
int hw_erf_deep(const struct hx *c);
int hw_tanh_deep(const struct hx *c);
int hw_sigmoid_deep(const struct hx *c);
int hw_clamp(const struct hx *c);
int hw_lanes(const struct hx *c);
int hw_nan_neg_inf(const struct hx *c);
int hw_nan_pos_inf(const struct hx *c);
int hw_grad_zero(const struct hx *c);
int hw_erf1p_tail(const struct hx *c);
int hw_arg_tail(const struct hx *c);
int hw_vector(const struct hx *c);
int hw_clamped(const struct hx *c);
int hw_ftz_env(const struct hx *c);
int hw_grad_sum_zero(const struct hx *c);
int hw_tanh_form(const struct hx *c);

#endif
