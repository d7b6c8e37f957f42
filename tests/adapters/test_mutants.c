/* The built-in `mutants` adapter: a valid table, every kernel runs, and each mutant differs
 * from the reference exactly where its defect says, asserted on chosen inputs, and agrees
 * elsewhere on a sample (cr_distance <= 1: the accurate base is within 0.5 ulp + tiny).
 * The table and the generic run here; the families in test_mutants_{formula,special,vector}.c. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "adapt_util.h"
#include "gc_libm.h"
#include "gc_mutants.h"
#include "test_mutants.h"

const struct gelucheck_plugin *mutants(void)
{
    return gc_mutants_entry(GELUCHECK_PLUGIN_ABI);
}

float mut_at(const char *name, float x)
{
    return au_f32(au_eval1(au_kernel(mutants(), name), au_bits_f32(x)));
}

float ref_at(uint32_t f, float x)
{
    return au_f32(au_ref(f, GELUCHECK_F32, au_bits_f32(x)));
}

uint64_t dist32(float a, float b)
{
    return au_cr_distance(GELUCHECK_F32, au_bits_f32(a), au_bits_f32(b));
}

/* sample input i: the fixed values first (the caller skips those outside its range), then
 * uniform in [max(lo, -20), min(hi, 20)) */
float sample(uint64_t *rng, size_t i, float lo, float hi)
{
    static const float fixed[] = { 0.0f, -0.0f, 1.0f, -1.0f, INFINITY, 0x1p-149f, -0x1p-149f,
                                   -3 * 0x1p-149f, 0x1p-127f, -14.0f, 8.0f, 1e30f, -1e30f };
    if (i < sizeof fixed / sizeof fixed[0])
        return fixed[i];
    return (float)au_uniform(rng, lo > -20.0f ? lo : -20.0f, hi < 20.0f ? hi : 20.0f);
}

void agrees(const char *name, uint32_t func, float lo, float hi)
{
    uint64_t rng = 7;
    for (size_t i = 0; i < 300; i++) {
        float x = sample(&rng, i, lo, hi);
        if (!(x >= lo && x <= hi))
            continue;
        float y = mut_at(name, x), r = ref_at(func, x);
        if (dist32(y, r) > 1)
            fail_msg("%s: x = %a: %a, reference %a", name, (double)x, (double)y, (double)r);
    }
}

static void test_table(void **state)
{
    (void)state;
    /* the finding kinds of docs/design.md section 6: every description names one */
    static const char *const kinds[] = {
        "ulp_exceeded", "nan_output", "inf_output", "wrong_sign", "premature_flush", "ftz",
        "signed_zero", "special_value", "identity_violation", "non_monotonic", "position_dependent",
        "alignment_dependent", "inplace_mismatch", "lane_contamination", "nondeterministic",
        "out_of_bounds_write", "input_modified", "fpenv_modified", "declared_mismatch" };
    const struct gelucheck_plugin *p = mutants();
    au_check_table(p, "mutants");
    assert_string_equal(p->version, "1");
    assert_null(gc_mutants_entry(0));
    assert_non_null(p->open);
    assert_non_null(p->close);
    assert_non_null(p->last_error);
#if defined(__x86_64__) || defined(__i386__) || defined(FE_TOWARDZERO)
    assert_int_equal(p->n_kernels, 23); /* one per row of issue 3's table, and wrong_sign */
#endif
    for (size_t i = 0; i < p->n_kernels; i++) {
        const char *d = p->kernels[i].description;
        size_t hit = 0;
        for (size_t j = 0; j < sizeof kinds / sizeof kinds[0]; j++)
            hit += strstr(d, kinds[j]) != NULL;
        if (strstr(d, "caught by ") == NULL || hit == 0)
            fail_msg("%s: description names no suite and finding kind", p->kernels[i].name);
    }
    assert_string_equal(p->last_error(NULL), p->last_error(NULL)); /* never NULL */
}

static void test_eval_all(void **state)
{
    (void)state;
    au_eval_all(mutants());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_eval_all),
        cmocka_unit_test(test_wrong_formulas),
        cmocka_unit_test(test_erf1p_float),
        cmocka_unit_test(test_poly6),
        cmocka_unit_test(test_tanh_overshoot),
        cmocka_unit_test(test_ulp8),
        cmocka_unit_test(test_grad_no_xphi),
        cmocka_unit_test(test_clamp0),
        cmocka_unit_test(test_nan_neginf),
        cmocka_unit_test(test_pos_zero),
        cmocka_unit_test(test_overflow2x),
        cmocka_unit_test(test_ftz_result),
        cmocka_unit_test(test_tanh_f16div),
        cmocka_unit_test(test_tail_mod8),
        cmocka_unit_test(test_misaligned32),
        cmocka_unit_test(test_inplace_half),
        cmocka_unit_test(test_writes_yn),
        cmocka_unit_test(test_writes_x),
        cmocka_unit_test(test_lane_nan8),
        cmocka_unit_test(test_call_count),
        cmocka_unit_test(test_fpenv),
    };
    return cmocka_run_group_tests_name("adapters_mutants", tests, NULL, NULL);
}
