/* Shared by test_mutants.c and test_mutants_vector.c. */
#ifndef TEST_MUTANTS_H
#define TEST_MUTANTS_H

#include <stddef.h>
#include <stdint.h>

#include <gelucheck/plugin.h>

const struct gelucheck_plugin *mutants(void);
/* the mutant named name at one f32 input (ctx NULL) */
float mut_at(const char *name, float x);
/* the correctly rounded GELU (func f) of x in f32 */
float ref_at(uint32_t f, float x);
/* cr_distance in f32 */
uint64_t dist32(float a, float b);

/* sample input i: fixed specials first, then uniform in [lo, hi) */
float sample(uint64_t *rng, size_t i, float lo, float hi);
/* the mutant agrees with the reference of func within cr_distance 1 on 300 inputs */
void agrees(const char *name, uint32_t func, float lo, float hi);

void test_wrong_formulas(void **state);
void test_erf1p_float(void **state);
void test_poly6(void **state);
void test_tanh_overshoot(void **state);
void test_ulp8(void **state);
void test_grad_no_xphi(void **state);
void test_clamp0(void **state);
void test_nan_neginf(void **state);
void test_pos_zero(void **state);
void test_overflow2x(void **state);
void test_ftz_result(void **state);
void test_tanh_f16div(void **state);
void test_tail_mod8(void **state);
void test_misaligned32(void **state);
void test_inplace_half(void **state);
void test_writes_yn(void **state);
void test_writes_x(void **state);
void test_lane_nan8(void **state);
void test_call_count(void **state);
void test_fpenv(void **state);

#endif
