/* hints.c: the likely cause and the usual fix of a finding (findings.h, docs/findings.md),
 * in one table.  A row applies to a set of kinds when its condition holds for what the suites
 * saw: the func the kernel declares, the formula the fingerprint detected, where x is, the
 * kernel's other findings.  Rows are tried in order; every kind ends with a general row.
 * Each row is tested against a kernel with that defect, and a row with a condition against
 * every kernel without it (tests/reports/hints_expect.h, findings_check.py). */
#include <stddef.h>

#include "findings.h"
#include "hints_when.h"

#define K(k) (1u << (k))
#define SHAPE                                                                               \
    (K(GS_K_ULP_EXCEEDED) | K(GS_K_PREMATURE_FLUSH) | K(GS_K_FTZ) | K(GS_K_WRONG_SIGN) |       \
     K(GS_K_BOUND_VIOLATION) | K(GS_K_NON_MONOTONIC) | K(GS_K_IDENTITY_VIOLATION))
#define CONSEQUENCE (K(GS_K_BOUND_VIOLATION) | K(GS_K_NON_MONOTONIC) | K(GS_K_IDENTITY_VIOLATION))

static const struct row {
    unsigned kinds;                   /* mask of 1u << enum gs_kind */
    int (*when)(const struct hx *c);  /* NULL: always (the kinds' general row) */
    struct rp_hint h;
} rows[] = {
    /* what follows from another defect */
    { SHAPE, hw_other, { "formula",
      "the kernel computes another formula than it declares (see declared_mismatch): these "
      "errors measure the distance between the formulas, not rounding",
      "fix the formula first, then run again" } },
    { CONSEQUENCE, hw_nonfinite, { "nonfinite",
      "the outputs that break the bounds, identities or monotonicity are the NaN or infinite "
      "ones (see nan_output, inf_output)", "fix the non-finite outputs first" } },
    { SHAPE, hw_vector, { "vector_lanes",
      "some lanes or calls compute differently (see position_dependent, alignment_dependent, "
      "nondeterministic): these errors are theirs", "fix the vector finding first: one "
      "formula for every lane and call" } },
    /* the process */
    { K(GS_K_CRASH), hw_segv, { "crash_segv",
      "the kernel read or wrote memory it does not own: an index past n, a full vector load "
      "or store on the last partial block, or a pointer it was not given",
      "rerun the finding's command under a debugger or AddressSanitizer; handle the n mod "
      "vector-width tail with a masked or scalar loop; assume only element alignment" } },
    { K(GS_K_CRASH), hw_fpe, { "crash_fpe",
      "an integer division by zero, or a floating-point exception the kernel unmasked "
      "(feenableexcept) that then trapped", "check integer divisors; never unmask "
      "floating-point exceptions in a kernel (NaN and inf inputs raise them)" } },
    { K(GS_K_CRASH), hw_abort, { "crash_abort",
      "abort(): a failed assert or check in the kernel or its library (on n = 0, a NaN, an "
      "alignment, an allocation)", "read the kernel's stderr in the report; n = 0, NaN and "
      "+-inf inputs and element-aligned pointers are all valid and must not abort" } },
    { K(GS_K_CRASH), NULL, { "crash",
      "the kernel's process ended in the middle of a call (exit() or a fatal error handler "
      "in the kernel or its runtime)", "return a nonzero status from eval (with last_error) "
      "instead of exiting; the detail gives the exit status and the input" } },
    { K(GS_K_TIMEOUT), NULL, { "timeout",
      "no answer within --timeout: a loop that does not end for some input (an iteration or "
      "a range reduction that never converges on NaN, +-inf or a huge x), a deadlock, or a "
      "very slow path", "test NaN, +-inf and the extremes before any loop and cap its "
      "iterations; raise --timeout only if the kernel is merely slow" } },
    { K(GS_K_ADAPTER_ERROR), NULL, { "adapter_error",
      "the kernel could not be evaluated: eval returned an error or the adapter broke the "
      "protocol (the detail quotes it)", "eval must accept every n from 0 to 65536 and return "
      "exactly n outputs; the detail says which request failed" } },
    /* the formula */
    { K(GS_K_DECLARED_MISMATCH), hw_is_tanh, { "mismatch_tanh",
      "the kernel computes the tanh approximation 0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3))) "
      "(an approximate='tanh' switch or a fused op) where it declares the erf form: the wrong "
      "formula, not a rounding problem", "compute x*Phi(x) = 0.5*x*erfc(-x/sqrt2), or declare "
      "gelu_tanh if the approximation is meant" } },
    { K(GS_K_DECLARED_MISMATCH), hw_is_sigmoid, { "mismatch_sigmoid",
      "the kernel behaves like x*sigmoid(1.702x), the sigmoid approximation, where it "
      "declares gelu: the wrong formula, not a rounding problem", "compute x*Phi(x) = "
      "0.5*x*erfc(-x/sqrt2), or declare gelu_sigmoid if the approximation is meant" } },
    { K(GS_K_DECLARED_MISMATCH), hw_is_nosqrt2, { "mismatch_nosqrt2",
      "the kernel behaves like x*Phi(sqrt2 x) = 0.5*x*erfc(-x): the 1/sqrt2 in the erf "
      "argument is missing (or applied twice the wrong way): the wrong formula, not rounding",
      "divide the argument by sqrt2: Phi(x) = erfc(-x/sqrt2)/2 = 0.5*erfc(-x*M_SQRT1_2)" } },
    { K(GS_K_DECLARED_MISMATCH), hw_is_silu, { "mismatch_silu",
      "the kernel behaves like SiLU (Swish), x*sigmoid(x): another activation was mapped to "
      "GELU", "map the op to GELU, x*Phi(x); or declare what it computes" } },
    { K(GS_K_DECLARED_MISMATCH), NULL, { "declared_mismatch",
      "the outputs match none of the declared formula's neighbours closely (the fingerprint "
      "names what they match, or unknown): a wrong constant, a missing factor, a clamp, or "
      "defects in the tail (x < -3) where the candidates differ", "fix the other findings "
      "first; then compare with gelucheck ref at a few x < -3 to find the formula" } },
    /* non-finite outputs and signs */
    { K(GS_K_NAN_OUTPUT), hw_tanh_gelu, { "nan_tanh_div",
      "tanh(u) as (e^2u - 1)/(e^2u + 1): e^2u overflows to inf for large u and inf/inf = "
      "NaN", "saturate: tanh(u) = copysign(1, u) for |u| > 9 (f32), or use 1 - 2/(e^2u + 1), "
      "which goes to 1" } },
    { K(GS_K_NAN_OUTPUT), NULL, { "nan_output",
      "an intermediate overflowed to inf and met a zero or another inf (inf * 0, inf/inf, "
      "inf - inf): for large |x|, x^2 or x^3 overflows while 1 - tanh^2 or exp(-x^2/2) is 0",
      "return the limit beyond the saturation threshold (gelu: x; its derivatives: 1 or 0) "
      "before the formula, or let the vanishing factor multiply first" } },
    { K(GS_K_INF_OUTPUT), NULL, { "inf_output",
      "an intermediate overflows where the result does not: x*(1 + erf(x/sqrt2)) = 2 GELU(x), "
      "or x^3 in the tanh form, passes the dtype's largest value for large |x|",
      "halve before multiplying (0.5*x first), or return x from the saturation threshold on "
      "(GELU(x) = x there)" } },
    { K(GS_K_WRONG_SIGN), hw_tanh_gelu, { "sign_tanh",
      "tanh(u) returned a value below -1 (a fast tanh approximation that overshoots), so "
      "1 + tanh(u) < 0 for u << 0 and the output's sign flips", "clamp tanh to [-1, 1], or "
      "compute 1 + tanh(u) as 2/(1 + exp(-2u)), never negative: GELU = x/(1 + exp(-2u))" } },
    { K(GS_K_WRONG_SIGN), hw_grad_neg, { "sign_grad",
      "GELU'(x) = Phi(x) + x phi(x) is negative for x < -0.7518; a positive output means the "
      "x phi(x) term is missing or too small", "compute both terms: Phi(x) + x*phi(x), "
      "phi(x) = exp(-x^2/2)/sqrt(2 pi)" } },
    { K(GS_K_WRONG_SIGN), NULL, { "wrong_sign",
      "the output has the sign opposite to f(x): an approximation (polynomial, rational) that "
      "crosses zero where the function does not, or a difference that cancels to the wrong "
      "side", "fit with the sign as a constraint, or use the exact form where f is small" } },
    /* the caller's memory and state */
    { K(GS_K_OUT_OF_BOUNDS_WRITE), NULL, { "out_of_bounds_write",
      "the kernel writes outside y[0..n-1]: a full vector store on the last partial block, "
      "or an off-by-one loop bound", "mask the last store or finish with a scalar loop; test "
      "n = 1 .. 2W+3 for vector width W" } },
    { K(GS_K_INPUT_MODIFIED), NULL, { "input_modified",
      "the kernel writes into x although x != y (uses the input as scratch space)",
      "treat x as const; keep scratch in registers or your own buffer" } },
    { K(GS_K_FPENV_MODIFIED), NULL, { "fpenv_modified",
      "the kernel (or its library) changed the floating-point environment and left it so: "
      "FTZ/DAZ set in MXCSR (-ffast-math's start-up code, _MM_SET_FLUSH_ZERO_MODE) or another "
      "rounding mode", "save the environment (fegetenv) and restore it (fesetenv) before "
      "returning; do not link with -ffast-math or -Ofast" } },
    /* zeros and the special inputs */
    { K(GS_K_PREMATURE_FLUSH), hw_erf_deep, { "flush_erf1p",
      "1 + erf(x/sqrt2) cancels: erf rounds to -1 below x = -5.54 in float arithmetic (-8.3 "
      "in double), so the output is 0 where x*Phi(x) is still a normal number",
      "compute Phi(x) = erfc(-x/sqrt2)/2, which does not cancel: GELU(x) = "
      "0.5*x*erfc(-x/sqrt2)" } },
    { K(GS_K_PREMATURE_FLUSH), hw_tanh_form, { "flush_tanh",
      "1 + tanh(u) cancels: tanh(u) rounds to -1 for u below about -9 (f32), so the output is "
      "0 where GELU_tanh(x) is still normal", "compute 1 + tanh(u) as 2/(1 + exp(-2u)): "
      "GELU_tanh(x) = x/(1 + exp(-2u)), u = sqrt(2/pi)(x + 0.044715 x^3)" } },
    { K(GS_K_PREMATURE_FLUSH), hw_sigmoid_deep, { "flush_sigmoid",
      "x/(1 + exp(-1.702x)): exp overflows to inf for x below about -52 (f32) and x/inf = 0 "
      "while x*sigmoid(1.702x) is still normal", "for x < 0 compute x*e/(1 + e) with "
      "e = exp(1.702x), which cannot overflow" } },
    { K(GS_K_PREMATURE_FLUSH), hw_grad_zero, { "flush_grad_zero",
      "the derivative passes through 0 at x* = -0.7518 (gelu_grad; -0.7525 for "
      "gelu_tanh_grad), where Phi(x) + x phi(x) cancels: one rounding of either term is "
      "larger than the true value, so 0 (or the wrong sign) comes out", "evaluate the sum in "
      "a wider type and round once, or near x* use (x - x*) times a short Taylor series of "
      "the derivative around x*" } },
    { K(GS_K_PREMATURE_FLUSH), hw_clamp, { "flush_clamp",
      "negative outputs became 0 for x > -5, far from any underflow: a max(y, 0) or "
      "ReLU-style clamp, or an approximation's piece that returns 0 too early",
      "remove the clamp: GELU is negative for every x < 0 (down to -0.17 at x = -0.75) and "
      "underflows only below -14.36 (f32)" } },
    { K(GS_K_PREMATURE_FLUSH), NULL, { "premature_flush",
      "an intermediate underflowed or cancelled to 0 before the result does (exp(-x^2/2), "
      "1 + erf or 1 + tanh of a large negative argument, a cheaper formula on some lanes)",
      "compute Phi(x) as erfc(-x/sqrt2)/2 and keep every intermediate normal, or evaluate in "
      "a wider type and round once" } },
    { K(GS_K_SPECIAL_VALUE), hw_lanes, { "special_lanes",
      "the NaN inputs of the batch leak into these lanes (see lane_contamination): the special "
      "inputs were evaluated beside a NaN", "fix the lane contamination; then run again" } },
    { K(GS_K_SPECIAL_VALUE), hw_nan_neg_inf, { "nan_neg_inf",
      "-inf * 0 = NaN: at x = -inf the formula multiplies x by 1 + erf(-inf) = 0 (or "
      "erfc(+inf), 1 + tanh(-inf), exp(-inf) = 0)", "guard x = -inf before the formula and "
      "return the limit, -0 for the gelu family and its derivatives (+0 for normcdf): e.g. "
      "if (isinf(x) && x < 0) return -0.0f" } },
    { K(GS_K_SPECIAL_VALUE), hw_nan_pos_inf, { "nan_pos_inf",
      "inf * 0 or inf/inf = NaN at x = +inf: x*phi(x) = inf * exp(-inf), or the tanh "
      "form's (1 - tanh^2) * x^3, or (e^2u - 1)/(e^2u + 1)", "guard x = +inf and return the "
      "limit: +inf for the gelu family, 1 for its derivatives and normcdf, +0 for normpdf" } },
    { K(GS_K_SPECIAL_VALUE), NULL, { "special_value",
      "a special input gave the wrong value: +-0, +-inf and NaN have exact results (gelu: "
      "+-0, -0, +inf; grads and normcdf at +-0: 0.5; NaN in, NaN out), and an approximation "
      "with a constant term, or a comparison that swallows NaN, misses them",
      "handle +-0, +-inf and NaN before the formula, returning what gelucheck ref prints for "
      "them" } },
    /* one call against another */
    { K(GS_K_LANE_CONTAMINATION), NULL, { "lane_contamination",
      "a NaN or inf in one lane changes the others: a block-wide test (any NaN in the vector "
      "-> slow path for all), a reduction, or a shared intermediate", "compute lanes "
      "independently; treat special lanes with a per-lane mask and blend" } },
    { K(GS_K_NONDETERMINISTIC), NULL, { "nondeterministic",
      "two calls on the same inputs gave different bits: state kept between calls (a counter, "
      "a cache, an uninitialised buffer), threads racing, or a dispatcher choosing another "
      "code path per call", "make eval a pure function of x: no state in ctx that changes "
      "results, the same code path every call" } },
    { K(GS_K_POSITION_DEPENDENT), NULL, { "position_dependent",
      "the output depends on where the input sits in the batch: the vector main loop and the "
      "scalar tail loop (n mod W elements) compute different formulas or precisions",
      "use the same formula in the tail (a masked vector step, or the scalar version of the "
      "same polynomial)" } },
    { K(GS_K_ALIGNMENT_DEPENDENT), NULL, { "alignment_dependent",
      "the output depends on the pointers' alignment: a peeled prologue or an unaligned path "
      "computes differently from the aligned main loop", "make every path compute the same "
      "formula; use unaligned loads rather than a different algorithm" } },
    { K(GS_K_INPLACE_MISMATCH), NULL, { "inplace_mismatch",
      "with x == y the kernel reads inputs it has already overwritten (two passes over y, or "
      "x[i] read after y[i] was written)", "read every x[i] you need before writing y[i], or "
      "keep intermediates out of y" } },
    /* accuracy */
    { K(GS_K_ULP_EXCEEDED), hw_grad_zero, { "ulp_grad_zero",
      "cancellation in Phi(x) + x phi(x) near the derivative's zero x* = -0.7518: both terms "
      "are about 0.23 and their sum about 0, so the terms' rounding errors become a large "
      "relative error (the absolute error is small)", "evaluate the sum in double for a float "
      "kernel and round once; or near x* use GELU'(x) = GELU''(x*)(x - x*) + ... with "
      "GELU'' = phi(x)(2 - x^2) and x* as hi + lo; or judge by absolute error (abs_tol)" } },
    { K(GS_K_ULP_EXCEEDED), hw_erf1p_tail, { "ulp_erf1p",
      "1 + erf(x/sqrt2) loses relative accuracy as erf approaches -1 (x < -1): the error "
      "grows like 1/Phi(x) ulps until the result flushes to 0", "compute Phi(x) = "
      "erfc(-x/sqrt2)/2: GELU(x) = 0.5*x*erfc(-x/sqrt2)" } },
    { K(GS_K_ULP_EXCEEDED), hw_tanh_deep, { "ulp_tanh",
      "1 + tanh(u) loses relative accuracy as tanh approaches -1 (x < -1)",
      "compute 1 + tanh(u) as 2/(1 + exp(-2u)): GELU_tanh(x) = x/(1 + exp(-2u))" } },
    { K(GS_K_ULP_EXCEEDED), hw_arg_tail, { "ulp_argument",
      "the rounding of the argument is amplified: erfc(-x/sqrt2), exp(-x^2/2) and "
      "exp(-1.702x) change by about |argument| (erfc and exp(-x^2/2): about x^2) times the "
      "argument's relative error, so half an ulp lost forming it becomes many ulps here",
      "form the argument without rounding (a constant as hi + lo with an FMA; x*x as hi + lo), "
      "or evaluate in a wider type and round once" } },
    { K(GS_K_ULP_EXCEEDED), NULL, { "ulp_exceeded",
      "the formula loses accuracy where the worst input is: a rounded constant, a short "
      "polynomial, or float arithmetic where the error adds up", "evaluate in the next wider "
      "type and round once, or compare with the finding's gelucheck ref command there" } },
    { K(GS_K_BOUND_VIOLATION), NULL, { "bound_violation",
      "an approximation overshoots: the output passes the function's minimum (GELU: -0.16997 "
      "at x = -0.7518) or max(x, 0)", "fit with the bounds as constraints (or clamp to "
      "them), or use the exact form near the minimum" } },
    { K(GS_K_NON_MONOTONIC), NULL, { "non_monotonic",
      "outputs step the wrong way between neighbouring inputs: errors larger than the "
      "function's change where it is flat (near its minimum, in the tail), or the joins of a "
      "piecewise approximation", "bring the error below an ulp there (see ulp_exceeded), or "
      "make the pieces meet" } },
    { K(GS_K_IDENTITY_VIOLATION), NULL, { "identity_violation",
      "f(x) - f(-x) = x (or its relatives) fails beyond rounding: the two signs are computed "
      "with different formulas or accuracy, or one side is clamped", "compute both signs "
      "with one formula (x*Phi(x) everywhere) and fix the ulp findings first" } },
    /* subnormals and zero signs */
    { K(GS_K_FTZ), hw_clamped, { "ftz_clamp",
      "negative results are set to 0 (see premature_flush, a clamp or an early return of 0), "
      "the subnormal ones with them", "remove the clamp; x*Phi(x) underflows on its own only "
      "below -14.36 (f32)" } },
    { K(GS_K_FTZ), hw_ftz_env, { "ftz_env",
      "positive subnormal results come out as 0, which x/2 + ... never is: flush-to-zero "
      "(FTZ/DAZ, from -ffast-math/-Ofast, a library, or a GPU's .ftz instructions) or a "
      "conversion that flushes subnormals", "build without -ffast-math/-Ofast, keep FTZ and "
      "DAZ off around the kernel, use conversions that keep subnormals" } },
    { K(GS_K_FTZ), NULL, { "ftz",
      "a subnormal result came out as 0: an intermediate (exp(-x^2/2), erfc, 1 + erf or "
      "1 + tanh) underflowed first, so the last operation had nothing left; or FTZ/DAZ is on",
      "keep the intermediates normal (Phi(x) as erfc(-x/sqrt2)/2, 1 + tanh(u) as "
      "2/(1 + exp(-2u)); or compute in a wider type and round once), and keep FTZ/DAZ off" } },
    { K(GS_K_SIGNED_ZERO), hw_grad_sum_zero, { "zero_sum",
      "+0 where the result is a tiny negative number: the derivative's two terms (Phi(x) and "
      "x phi(x), or 0.5(1 + tanh) and its x term) both underflow, and +0 + (-0) = +0 in round "
      "to nearest", "where both terms underflow return -0.0 (the derivative is negative for "
      "every x below its zero, about -0.75)" } },
    { K(GS_K_SIGNED_ZERO), NULL, { "signed_zero",
      "a zero of the wrong sign: +0 where the result is a tiny negative number (x*Phi(x) for "
      "x < 0) that rounds to -0, or f(-0) = +0 from an early return of 0.0, a max(y, 0), or "
      "y + 0.0", "return x*0 or copysign(0, x) "
      "where the result underflows, and x itself for x = +-0" } },
};

const struct rp_hint *rp_hint_at(size_t i)
{
    return i < sizeof rows / sizeof rows[0] ? &rows[i].h : NULL;
}

const struct rp_hint *rp_hint(const json_t *k, const json_t *fd)
{
    struct hx c;
    enum gs_kind kind;
    if (hw_init(&c, k, fd, &kind))
        return NULL;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if ((rows[i].kinds & K(kind)) && (!rows[i].when || rows[i].when(&c)))
            return &rows[i].h;
    return NULL;
}
