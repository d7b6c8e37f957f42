/* Helpers shared by the built-in adapter tests: table checks, running every kernel, dtype
 * bit handling, and error against the reference (docs/design.md section 4's measures). */
#ifndef ADAPT_UTIL_H
#define ADAPT_UTIL_H

#include <fenv.h>
#include <stddef.h>
#include <stdint.h>

#include <gelucheck/plugin.h>

#include "geluref.h"

/* cmocka-asserts the table: ABI 1, sizes as built, names [A-Za-z0-9_.-]+ and unique, funcs
 * and dtypes in range, descriptions and evals present; the name and version given. */
void au_check_table(const struct gelucheck_plugin *p, const char *name);

/* Runs every kernel on n = 0, 1, 17, 1000 (out of place with a guard element, and in place),
 * through open/close when the plug-in has them; asserts eval returns 0 and n = 0 writes
 * nothing.  Restores the FP environment after every call (fpenv_ftz.f32 spoils it). */
void au_eval_all(const struct gelucheck_plugin *p);

/* The kernel named name (cmocka fails if there is none). */
const struct gelucheck_kernel *au_kernel(const struct gelucheck_plugin *p, const char *name);

/* Evaluates k at one input (bits of its dtype) with ctx NULL; returns the output bits. */
uint64_t au_eval1(const struct gelucheck_kernel *k, uint64_t x);

size_t au_dtype_size(uint32_t dt);
uint64_t au_bits_f32(float v);
uint64_t au_bits_f64(double v);
float au_f32(uint64_t b);
double au_f64(uint64_t b);
int au_is_nan(uint32_t dt, uint64_t b);
int au_is_zero(uint32_t dt, uint64_t b);
/* |b| is a normal number of the dtype (not zero, subnormal, inf or NaN) */
int au_is_normal(uint32_t dt, uint64_t b);

/* The reference, RN: geluref_eval's bits (cmocka fails on an error status). */
uint64_t au_ref(uint32_t func, uint32_t dt, uint64_t x);
/* cr_distance (docs/design.md section 4): positions apart in the dtype's ordered values, +0 and
 * -0 one position.  Both NaN: 0; one NaN: UINT64_MAX. */
uint64_t au_cr_distance(uint32_t dt, uint64_t y, uint64_t r);
/* ulp error |y - f(x)| / ulp(f(x)) with f(x) from the reference at 160 bits; INFINITY when y
 * is NaN or inf and f(x) is finite; 0 when both NaN or both the same infinity. */
double au_ulp_error(uint32_t func, uint32_t dt, uint64_t x, uint64_t y);

/* Deterministic generator (splitmix64) and a uniform double in [lo, hi). */
uint64_t au_rand(uint64_t *state);
double au_uniform(uint64_t *state, double lo, double hi);

/* Saves and restores the FP environment, MXCSR's FTZ/DAZ included on x86. */
struct au_fpenv {
    fenv_t env;
    unsigned int mxcsr; /* x86 only */
};
void au_fpenv_save(struct au_fpenv *e);
void au_fpenv_restore(const struct au_fpenv *e);
/* nonzero when MXCSR's FTZ bit is set (x86), or the rounding mode is not FE_TONEAREST */
int au_fpenv_spoiled(void);

#endif
