/* geluref_eval_odd_run(): each rule it reports holds where it says, checked against the MPFR
 * path (the ground truth), not against the fast path that made the claim.
 *   GELUREF_RUN_SAME: the MPFR path gives every sampled x' in (lo, hi) the very result that
 *   was reported for x, every field.
 *   GELUREF_RUN_SCALED: the MPFR path's value at each sampled x' is the odd end of the open
 *   prec-bit cell next to x' 2^k on the side dir (computed here with MPFR), and its rn, rd,
 *   ru are that value's roundings.
 * Also: x itself lies in (lo, hi); the result equals geluref_eval_odd's; GELUREF_RUN_NONE
 * comes with lo = 1, hi = 0; the MPFR path reports no rule.
 * Usage: test_ref_run DTYPE N SEED: N random inputs per function (every binade alike, both
 * signs), each rule found checked at the first and last patterns inside its interval and at
 * 6 random ones; plus every rule's edges.  Exit 0 when every claim holds, and at least one
 * claim of each kind was checked. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geluref.h"
#include "oddtest.h"

static enum geluref_dtype dt;
static const struct geluref_dtype_info *di;
static uint64_t sign_bit, inf_mag;
static uint64_t n_bad, n_claims[3], n_points;

/* The bits at position p on the number line (monotone in the value: -p for the negative
 * magnitude p). */
static uint64_t bits_at(int64_t p) { return p < 0 ? sign_bit | (uint64_t)-p : (uint64_t)p; }

static double value_of(uint64_t b)
{
    mpfr_t v;
    mpfr_init2(v, 64);
    geluref_bits_to_mpfr(v, dt, b);
    double d = mpfr_get_d(v, MPFR_RNDN); /* exact: every dtype value is a double */
    mpfr_clear(v);
    return d;
}

/* The smallest finite position whose value is > v (or >= v when incl); inf_mag when none.
 * Searched as offsets from the most negative finite position: binary64's positions span
 * nearly 2^64. */
static int64_t first_above(double v, int incl)
{
    uint64_t lo = 0, hi = 2 * (inf_mag - 1), base = inf_mag - 1;
#define AT(u) value_of(bits_at((int64_t)((u) - base)))
    if (!(incl ? AT(hi) >= v : AT(hi) > v))
        return (int64_t)inf_mag;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        double m = AT(mid);
        if (incl ? m >= v : m > v)
            hi = mid;
        else
            lo = mid + 1;
    }
#undef AT
    return (int64_t)(lo - base);
}

static void report(const char *what, enum geluref_func f, uint64_t x, uint64_t xp)
{
    char a[64], b[64];
    geluref_format_hex(a, sizeof a, dt, x);
    geluref_format_hex(b, sizeof b, dt, xp);
    printf("FAIL %s %s: %s (rule of x = %s, at x' = %s)\n", geluref_func_name(f),
           geluref_dtype_name(dt), what, a, b);
    n_bad++;
}

/* The claim of the rule r reported for x (result o) at x'. */
static void check_at(enum geluref_func f, uint64_t x, const struct geluref_odd *o,
                     const struct geluref_odd_run *r, uint64_t xp)
{
    struct geluref_odd s;
    memset(&s, 0, sizeof s);
    if (geluref_eval_odd(f, dt, xp, GELUREF_PATH_MPFR, NULL, NULL, &s) != GELUREF_OK) {
        report("the MPFR path failed", f, x, xp);
        return;
    }
    n_points++;
    if (r->kind == GELUREF_RUN_SAME) {
        if (!same_odd(&s, o))
            report("SAME: a different result", f, x, xp);
        return;
    }
    /* SCALED: the odd end of the cell next to x' 2^k on the side dir */
    int prec = di->prec + 16;
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
    mpfr_t w;
    mpfr_init2(w, prec);
    geluref_bits_to_mpfr(w, dt, xp); /* exact: p <= prec */
    mpfr_mul_2si(w, w, r->k, MPFR_RNDN); /* exact */
    int away = r->dir > 0, pos = mpfr_sgn(w) > 0;
    if (away == pos)
        mpfr_nextabove(w);
    else
        mpfr_nextbelow(w);
    int odd = mpfr_min_prec(w) == (mpfr_prec_t)prec;
    mpz_t z;
    mpz_init(z);
    mpfr_exp_t e = mpfr_get_z_2exp(z, w);
    mpz_abs(z, z);
    uint64_t lo = mpz_getlimbn(z, 0), hi = mpz_size(z) > 1 ? mpz_getlimbn(z, 1) : 0;
    uint64_t rn = geluref_round_to_bits(dt, w, MPFR_RNDN);
    uint64_t rd = geluref_round_to_bits(dt, w, MPFR_RNDD);
    uint64_t ru = geluref_round_to_bits(dt, w, MPFR_RNDU);
    mpz_clear(z);
    mpfr_clear(w);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    if (!odd)
        report("SCALED: the neighbour of x' 2^k is not odd (test error)", f, x, xp);
    else if (s.kind != GELUREF_ODD_FINITE || s.sig_lo != lo || s.sig_hi != hi || s.exp != e ||
             s.neg != !pos || s.exact)
        report("SCALED: the MPFR path's value is not the cell next to x' 2^k", f, x, xp);
    else if (s.rn != rn || s.rd != rd || s.ru != ru)
        report("SCALED: roundings differ", f, x, xp);
}

static void check(enum geluref_func f, uint64_t x)
{
    struct geluref_odd o, a;
    struct geluref_odd_run r, rm;
    memset(&o, 0, sizeof o);
    memset(&a, 0, sizeof a);
    if (geluref_eval_odd_run(f, dt, x, GELUREF_PATH_FAST, NULL, NULL, &o, &r) != GELUREF_OK ||
        geluref_eval_odd(f, dt, x, GELUREF_PATH_FAST, NULL, NULL, &a) != GELUREF_OK) {
        report("evaluation failed", f, x, x);
        return;
    }
    if (!same_odd(&o, &a))
        report("the result differs from geluref_eval_odd's", f, x, x);
    if (geluref_eval_odd_run(f, dt, x, GELUREF_PATH_MPFR, NULL, NULL, &a, &rm) != GELUREF_OK ||
        rm.kind != GELUREF_RUN_NONE || rm.lo != 1 || rm.hi != 0)
        report("the MPFR path reports a rule", f, x, x);
    if (r.kind == GELUREF_RUN_NONE) {
        if (r.lo != 1 || r.hi != 0 || r.k != 0 || r.dir != 0)
            report("RUN_NONE with an interval", f, x, x);
        return;
    }
    if (r.kind != GELUREF_RUN_SAME && r.kind != GELUREF_RUN_SCALED) {
        report("an unknown kind", f, x, x);
        return;
    }
    n_claims[r.kind]++;
    double xv = value_of(x);
    if (!(r.lo < xv && xv < r.hi)) {
        report("x outside its own rule's interval", f, x, x);
        return;
    }
    if (r.kind == GELUREF_RUN_SCALED && (r.dir != 1 && r.dir != -1))
        report("SCALED with dir not +-1", f, x, x);
    /* the interval's first and last patterns (never +-0: zero is not a rule's input), and
     * random ones inside it */
    int64_t p0 = first_above(r.lo, 0), p1 = first_above(r.hi, 1) - 1;
    int64_t ends[2] = { p0, p1 };
    for (int i = 0; i < 2; i++)
        if (ends[i] != 0 && bits_at(ends[i]) != sign_bit)
            check_at(f, x, &o, &r, bits_at(ends[i]));
    for (int i = 0; i < 6 && p1 >= p0; i++) {
        int64_t p = p0 + (int64_t)(next64() % (uint64_t)(p1 - p0 + 1));
        if (p != 0)
            check_at(f, x, &o, &r, bits_at(p));
    }
}

int main(int argc, char **argv)
{
    if (argc != 4 || geluref_dtype_from_name(argv[1], &dt) != 0) {
        fprintf(stderr, "usage: test_ref_run DTYPE N SEED\n");
        return 2;
    }
    uint64_t n = strtoull(argv[2], NULL, 10);
    rng_state = strtoull(argv[3], NULL, 10);
    di = geluref_dtype_info(dt);
    sign_bit = (uint64_t)1 << (di->bits - 1);
    inf_mag = (((uint64_t)1 << di->exp_bits) - 1) << (di->prec - 1);
    /* the values where rules start or stop (fast_fn.c), both signs, and the near-zero
     * threshold 2^-(prec+1) */
    double edges[] = { 40, 60, 30, 1200, 42.7, 30.2, 0x1p-1,
                       /* gelu's saturation from sqrt(2 (p + 17) ln2) on */
                       5.887050112577374, 6.230268221461812, 7.539102652565192,
                       9.850919006792836,
                       /* erf's and erfc's from sqrt((p + 17) ln2) on, and normcdf's (above) */
                       4.162773055788489, 4.4054649080066985, 5.330950609690335,
                       6.965651630622663,
                       /* gelu_tanh_grad's (tanh_grad_sat_x) and gelu_grad's (gelu_grad_sat_x)
                        * for bfloat16, binary16, binary32 and binary64 */
                       6.087481255704915, 6.356997419967229, 7.3262411727700965,
                       8.871698458260653, 6.64088282345922, 6.998203240250945,
                       8.348487518252686, 10.705812963291242,
                       /* gelu_grad's TINY rule from above -60 (gelu_grad_tiny_z) */
                       42.174904886047095, 41.90467066970551, 40.01392055708731,
                       55.56826070540714,
                       /* the TINY rules from the dtypes' negligible bounds (bfloat16,
                        * binary16, binary32, binary64): gelu's, normcdf's and normpdf's
                        * (gauss_tiny_z), erfc's (erfc_tiny_z), gelu_tanh's, gelu_sigmoid's
                        * and gelu_tanh_grad's (tiny_rule_z) */
                       40.916892386849142, 39.026734391115149, 41.187046414800754,
                       54.577422771812742, 28.948487720406025, 27.612712626928325,
                       29.139411390545927, 38.603969202746413, 22.431087409100883,
                       21.717429622056649, 22.532143498082121, 27.288786901889555,
                       496.04654328117482, 451.59803281382199, 502.57067596117844,
                       879.63214228656545, 22.480327967653814, 21.769284486030905,
                       22.581030440322536, 27.324630514626822,
                       /* gelu_tanh's and gelu_sigmoid's saturation (approx_sat_x) */
                       5.0613808326645184, 5.3427630246464028, 6.3515305459187745,
                       7.9487446543039084, 10.181961612132742, 11.403796938345637,
                       16.698416685268189, 28.509491505326174,
                       /* normpdf's flat top below 2^-32 and 2^-46 */
                       0x1p-32, 0x1p-46 };
    for (int f = GELUREF_FUNC_FIRST; f <= GELUREF_GELU_GRAD2; f++) {
        enum geluref_func fn = (enum geluref_func)f;
        for (size_t e = 0; e < sizeof edges / sizeof edges[0] + 1; e++) {
            double v = e < sizeof edges / sizeof edges[0] ? edges[e]
                                                          : ldexp(1.0, -(di->prec + 17));
            for (int s = -1; s <= 1; s += 2) {
                int64_t p = first_above(s * v, 0);
                for (int64_t d = -1; d <= 1; d++)
                    if (p + d != 0 && p + d > -(int64_t)inf_mag && p + d < (int64_t)inf_mag)
                        check(fn, bits_at(p + d));
            }
        }
        for (uint64_t i = 0; i < n; i++) {
            /* every binade alike: a random sign, exponent field and significand */
            uint64_t b = next64() & (((uint64_t)1 << (di->bits - 1)) - 1);
            if ((b & inf_mag) == inf_mag || b == 0)
                continue;
            check(fn, b | ((next64() & 1) ? sign_bit : 0));
        }
    }
    /* the rules a binary32 sweep relies on for its runs (suites/ulp.c), reported where the
     * sweep meets them: saturation of erf, erfc and normcdf below 40, phi's flat top, the
     * TINY rules from the negligible bound, the approximations' saturation */
    static const struct {
        enum geluref_func f;
        double x, lo, hi;
        int scaled; /* a SCALED rule (else SAME) */
    } want[] = {
        { GELUREF_ERF, -6.0, -42.7, -5.330950609690335, 0 },
        { GELUREF_ERF, 16.0, 5.330950609690335, 42.7, 0 },
        { GELUREF_ERFC, -5.5, -42.7, -5.330950609690335, 0 },
        { GELUREF_NORMCDF, 7.75, 7.539102652565192, 40.0, 0 },
        { GELUREF_GELU_GRAD, 10.0, 8.348487518252686, 40.0, 0 },
        { GELUREF_GELU_TANH_GRAD, 10.0, 7.3262411727700965, 30.0, 0 },
        { GELUREF_GELU_GRAD, -50.0, -60.0, -42.174904886047095, 0 },
        { GELUREF_GELU, -50.0, -60.0, -41.187046414800754, 0 },
        { GELUREF_NORMCDF, -50.0, -60.0, -41.187046414800754, 0 },
        { GELUREF_NORMPDF, -50.0, -60.0, -41.187046414800754, 0 },
        { GELUREF_NORMPDF, 50.0, 41.187046414800754, 60.0, 0 },
        { GELUREF_ERFC, 35.0, 29.139411390545927, 42.7, 0 },
        { GELUREF_GELU_TANH, -25.0, -30.0, -22.532143498082121, 0 },
        { GELUREF_GELU_SIGMOID, -700.0, -1200.0, -502.57067596117844, 0 },
        { GELUREF_GELU_TANH_GRAD, -25.0, -30.0, -22.581030440322536, 0 },
        { GELUREF_GELU_TANH, 20.0, 6.3515305459187745, 30.0, 1 },
        { GELUREF_GELU_SIGMOID, 100.0, 16.698416685268189, 1200.0, 1 },
        { GELUREF_NORMPDF, 1e-20, 0, 0x1p-32, 0 },
        { GELUREF_NORMPDF, -0x1.fffffep-33, -0x1p-32, 0, 0 },
    };
    for (size_t i = 0; dt == GELUREF_F32 && i < sizeof want / sizeof want[0]; i++) {
        float xf = (float)want[i].x;
        uint32_t xb;
        memcpy(&xb, &xf, sizeof xb);
        struct geluref_odd o;
        struct geluref_odd_run r;
        if (geluref_eval_odd_run(want[i].f, dt, xb, GELUREF_PATH_FAST, NULL, NULL, &o, &r) !=
                GELUREF_OK ||
            r.kind != (want[i].scaled ? GELUREF_RUN_SCALED : GELUREF_RUN_SAME) ||
            !(fabs(r.lo - want[i].lo) <= 1e-9 * fabs(want[i].lo)) ||
            !(fabs(r.hi - want[i].hi) <= 1e-9 * fabs(want[i].hi))) {
            printf("FAIL %s at %a: no %s rule over (%a, %a) (kind %d, (%a, %a))\n",
                   geluref_func_name(want[i].f), want[i].x, want[i].scaled ? "SCALED" : "SAME",
                   want[i].lo, want[i].hi, (int)r.kind,
                   r.lo, r.hi);
            n_bad++;
        }
    }
    printf("%s: %" PRIu64 " SAME and %" PRIu64 " SCALED rules, %" PRIu64
           " points checked on the MPFR path, %" PRIu64 " failures\n",
           geluref_dtype_name(dt), n_claims[GELUREF_RUN_SAME], n_claims[GELUREF_RUN_SCALED],
           n_points, n_bad);
    if (n_claims[GELUREF_RUN_SAME] == 0 || n_claims[GELUREF_RUN_SCALED] == 0) {
        printf("FAIL: a kind of rule was never reported\n");
        return 1;
    }
    return n_bad != 0;
}
