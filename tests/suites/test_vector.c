/* The vector suite (suites/vector*.c): each vector mutant is caught by the one finding kind
 * its description names (and, where a defect shows in several ways, only the kinds it must
 * show), the accurate libm erfc kernels give no finding in any dtype, a write at n == 0 is
 * seen, and the findings say where.  Expected values come from the mutants' descriptions
 * (adapters/mutants/mut_vector.c), never from running the suite. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "test_vf_common.h"

#define KBIT(k) (UINT64_C(1) << (k))

/* the first kept finding of kind k */
static const struct gs_finding *first(const struct vf_run *u, enum gs_kind k)
{
    const struct gs_bucket *b = u->r.findings.b[k][GS_R_NONE];
    if (b == NULL || b->n_worst == 0)
        fail_msg("%s: no %s finding kept", u->k[0]->name, gs_kind_name(k));
    return &b->worst[0];
}

static void show(const struct vf_run *u, enum gs_kind k)
{
    if (vf_count(u, k) > 0)
        printf("%-18s %-20s %6llu  %s\n", u->k[0]->name, gs_kind_name(k),
               (unsigned long long)vf_count(u, k), first(u, k)->detail);
}

static const struct {
    const char *kernel;
    enum gs_kind kind;
} mutants[] = {
    { "tail_mod8.f32", GS_K_POSITION_DEPENDENT },
    { "misaligned32.f32", GS_K_ALIGNMENT_DEPENDENT },
    { "inplace_half.f32", GS_K_INPLACE_MISMATCH },
    { "writes_yn.f32", GS_K_OUT_OF_BOUNDS_WRITE },
    { "writes_x.f32", GS_K_INPUT_MODIFIED },
    { "lane_nan8.f32", GS_K_LANE_CONTAMINATION },
    { "call_count.f32", GS_K_NONDETERMINISTIC },
    { "fpenv_ftz.f32", GS_K_FPENV_MODIFIED },
};

static void test_mutants(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof mutants / sizeof mutants[0]; i++) {
        struct vf_run u;
        vf_run(&u, "mutants", mutants[i].kernel, GS_SUITE_VECTOR);
        show(&u, mutants[i].kind);
        vf_only(&u, KBIT(mutants[i].kind));
        assert_int_equal(u.r.verdict, GS_FAIL);
        vf_release(&u);
    }
}

/* accurate kernels (one per dtype, and the in-float erf1p): no finding, pass */
static void test_clean(void **state)
{
    static const char *const names[] = { "erfc.f32", "erfc.f64", "erfc.f16", "erf1p.bf16",
                                         "erf1p.f32", "tanh.f32", "grad_erf.f64" };
    (void)state;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct vf_run u;
        vf_run(&u, "libm", names[i], GS_SUITE_VECTOR);
        vf_only(&u, 0);
        assert_int_equal(u.r.verdict, GS_PASS);
        vf_release(&u);
    }
}

/* writes_yn.f32 stores 0x7fc0ffee at y[n] (its description): seen as y[n+0], that value */
static void test_writes_yn(void **state)
{
    struct vf_run u;
    (void)state;
    vf_run(&u, "mutants", "writes_yn.f32", GS_SUITE_VECTOR);
    const struct gs_finding *f = first(&u, GS_K_OUT_OF_BOUNDS_WRITE);
    assert_non_null(strstr(f->detail, "wrote element y[n+0]"));
    assert_true(f->has_got);
    assert_int_equal(f->got, 0x7fc0ffee);
    vf_release(&u);
}

/* writes_x.f32 flips the sign of x[0]: in the worker (the default) x is read-only, so the
 * write faults and is reported with its offset; the caller's x stays as it was */
static void test_writes_x(void **state)
{
    struct vf_run u;
    (void)state;
    vf_run(&u, "mutants", "writes_x.f32", GS_SUITE_VECTOR);
    const struct gs_finding *f = first(&u, GS_K_INPUT_MODIFIED);
    assert_non_null(strstr(f->detail, "x[0] written (the input, not in place)"));
    assert_non_null(strstr(f->detail, "read-only mapping of x"));
    assert_true(f->has_x);
    assert_false(f->has_got);
    vf_release(&u);
}

/* inplace_half.f32 returns -GELU(x) in place: got is want with the sign flipped */
static void test_inplace(void **state)
{
    struct vf_run u;
    (void)state;
    vf_run(&u, "mutants", "inplace_half.f32", GS_SUITE_VECTOR);
    const struct gs_finding *f = first(&u, GS_K_INPLACE_MISMATCH);
    assert_true(f->has_x && f->has_got && f->has_want);
    assert_int_equal(f->got, f->want ^ UINT32_C(0x80000000));
    assert_non_null(strstr(f->detail, "in place"));
    vf_release(&u);
}

/* tail_mod8.f32: a length-1 call is all straggler (tanh formula), a length-8 block is not;
 * misaligned32.f32: only y's alignment matters, and 1 ulp off */
static void test_details(void **state)
{
    struct vf_run u;
    (void)state;
    vf_run(&u, "mutants", "tail_mod8.f32", GS_SUITE_VECTOR);
    assert_non_null(strstr(first(&u, GS_K_POSITION_DEPENDENT)->detail, "want (n=1)"));
    vf_release(&u);
    vf_run(&u, "mutants", "misaligned32.f32", GS_SUITE_VECTOR);
    const struct gs_finding *f = first(&u, GS_K_ALIGNMENT_DEPENDENT);
    assert_true(f->score == 1.0);
    assert_null(strstr(f->detail, "y at +0 "));
    assert_null(strstr(f->detail, "y at +32 ")); /* 32-byte aligned: the mutant is right */
    vf_release(&u);
}

/* n == 0 must touch nothing: the fixture's n0_write.f32 stores into y[0] */
static void test_n0(void **state)
{
    struct vf_run u;
    char spec[1024];
    (void)state;
    snprintf(spec, sizeof spec, "plugin:%s", vf_fixture());
    vf_run(&u, spec, "n0_write.f32", GS_SUITE_VECTOR);
    vf_only(&u, KBIT(GS_K_OUT_OF_BOUNDS_WRITE));
    assert_non_null(strstr(first(&u, GS_K_OUT_OF_BOUNDS_WRITE)->detail,
                           "n = 0 (aligned): wrote element y[n+0]"));
    vf_release(&u);
}

/* the metrics: every length 0 .. 131 and two large ones, and every check ran */
static void test_metrics(void **state)
{
    static const char *const checks[] = { "position_dependent", "alignment_dependent",
        "inplace_mismatch", "lane_contamination", "nondeterministic", "out_of_bounds_write",
        "input_modified", "fpenv_modified" };
    struct vf_run u;
    (void)state;
    vf_run(&u, "libm", "erfc.f32", GS_SUITE_VECTOR);
    assert_true(vf_num(&u, "lengths_checked") >= 2 * 64 + 3 + 1 + 2);
    assert_true(vf_num(&u, "calls") > 1000);
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
        json_t *c = json_object_get(u.r.metrics, checks[i]);
        if (!json_is_object(c) || json_integer_value(json_object_get(c, "checked")) <= 0)
            fail_msg("metrics: check '%s' missing or empty", checks[i]);
        assert_int_equal(json_integer_value(json_object_get(c, "failures")), 0);
    }
    assert_true(u.r.points > 65536);
    assert_non_null(u.r.inputs);
    vf_release(&u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mutants),   cmocka_unit_test(test_clean),
        cmocka_unit_test(test_writes_yn), cmocka_unit_test(test_writes_x),
        cmocka_unit_test(test_inplace),   cmocka_unit_test(test_details),
        cmocka_unit_test(test_n0),        cmocka_unit_test(test_metrics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
