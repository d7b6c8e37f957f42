/* The reference's rules (saturation, near 0, deep tail) switch on at thresholds computed from
 * bounds of the correction term.  For every function, dtype and rule this finds the exact
 * boundary float by bisection (a rule decided the input or it did not, per the reference's
 * own counters) and checks the floats around it, on both paths, against the oracle in all
 * four rounding modes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "geluref.h"
#include "refcheck.h"

static int by_rule(enum geluref_func f, enum geluref_dtype dt, uint64_t x)
{
    struct geluref_stats st = { 0 };
    uint64_t y;
    int status = geluref_eval(f, dt, x, MPFR_RNDN, &y, NULL, &st);
    if (status != GELUREF_OK)
        fail_msg("%s %s x = 0x%llx: %s", geluref_func_name(f), geluref_dtype_name(dt),
                 (unsigned long long)x, geluref_strerror(status));
    return st.rule == 1;
}

/* Bit patterns of one sign between from and to are ordered like |x|: bisect for the first
 * pattern (going from 'from' to 'to') on which by_rule differs from its value at 'from'.
 * Returns 0 when both ends agree (no boundary on this stretch). */
static int boundary(enum geluref_func f, enum geluref_dtype dt, uint64_t from, uint64_t to,
                    uint64_t *at)
{
    int r0 = by_rule(f, dt, from);
    if (by_rule(f, dt, to) == r0)
        return 0;
    while (from + 1 != to && to + 1 != from) {
        uint64_t mid = from + (to > from ? (to - from) / 2 : -((from - to) / 2));
        if (by_rule(f, dt, mid) == r0)
            from = mid;
        else
            to = mid;
    }
    *at = to;
    return 1;
}

static size_t check_around(enum geluref_func f, enum geluref_dtype dt, uint64_t b)
{
    uint64_t xs[7] = { b };
    uint64_t up = b, down = b;
    for (int i = 0; i < 3; i++) {
        xs[1 + 2 * i] = up = refcheck_next_up(dt, up);
        xs[2 + 2 * i] = down = refcheck_next_down(dt, down);
    }
    return refcheck_many(&f, 1, dt, xs, 7, refcheck_modes, 4);
}

static void test_rule_boundaries(void **state)
{
    (void)state;
    size_t bad = 0, found = 0;
    for (int dt = GELUREF_DTYPE_FIRST; dt <= GELUREF_DTYPE_LAST; dt++) {
        const struct geluref_dtype_info *d = geluref_dtype_info(dt);
        uint64_t sign = UINT64_C(1) << (d->bits - 1);
        uint64_t maxf = (((UINT64_C(1) << d->exp_bits) - 1) << (d->prec - 1)) - 1;
        uint64_t one = refcheck_bits(dt, 1.0), tiny = 1;
        /* stretches: [1, max] (saturation), [-1, -max] (deep tail), [tiny, 1] and
         * [-tiny, -1] (near 0) */
        const uint64_t ends[4][2] = { { one, maxf }, { sign | one, sign | maxf },
                                      { tiny, one }, { sign | tiny, sign | one } };
        for (int f = GELUREF_FUNC_FIRST; f <= GELUREF_FUNC_LAST; f++)
            for (int s = 0; s < 4; s++) {
                uint64_t b;
                if (!boundary(f, dt, ends[s][0], ends[s][1], &b))
                    continue;
                found++;
                size_t k = check_around(f, dt, b);
                if (k)
                    print_message("%s %s: boundary at 0x%llx: %zu mismatches\n",
                                  geluref_func_name(f), d->name, (unsigned long long)b, k);
                bad += k;
            }
    }
    print_message("%zu rule boundaries checked\n", found);
    /* per dtype: the gelu family (4 functions) and the step-like ones (normcdf, gelu_grad,
     * gelu_tanh_grad) switch on all four stretches, normpdf and gelu_grad2 on both tails;
     * erf and erfc have no rules (MPFR decides them) */
    assert_int_equal(found, 4 * (4 * 4 + 3 * 4 + 2 * 2));
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_rule_boundaries) };
    return cmocka_run_group_tests_name("reference_thresholds", tests, NULL, NULL);
}
