/* gen_fast_tables: writes the tables of the fast path (reference/src/fast*.c) as C source.
 * Run by the build (reference/CMakeLists.txt): `gen_fast_tables > fast_tables.c`.  Every
 * number is computed here with MPFR at GEN_PREC bits and rounded to nearest into double or
 * double-double; the conditions the error analysis of fast_phi.c relies on are checked here,
 * and a violated one stops the build.
 *
 * Tables:
 *  - gr_fast_exp2[j] = 2^(-j/1024), j = 0..1023, as double-double (relative error <= 2^-106).
 *  - ln2/1024 = GR_LN2_1 + GR_LN2_2 + GR_LN2_3 (+ less than 2^-130): the first two have 31
 *    significant bits (so N * GR_LN2_k is exact for N < 2^22), the third is RN of the rest.
 *  - The Mills ratio M(z) = Phi(-z)/phi(z) = sqrt(pi/2) erfcx(z/sqrt2): Taylor coefficients
 *    a_k = M^(k)(z_i)/k! at z_i = i/32, i = 0..GR_M_POINTS-1, k = 0..15: k < 8 as
 *    double-double (gr_fast_mh, gr_fast_ml), k >= 8 as double (gr_fast_mt).  From M' = zM - 1:
 *    a_1 = z a_0 - 1 and (k+1) a_{k+1} = z a_k + a_{k-1} (k >= 1).  That forward recurrence
 *    amplifies the error of a_0 by about z^(2k)/k! (< 2^146 here): GEN_PREC = 320 bits
 *    leaves more than 170 correct bits.
 *  - Constants as double-double. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <mpfr.h>

#define GEN_PREC 320
#define M_POINTS 1936 /* z_i = i/32 up to 60.47: the fast path's |z| <= 60.4 */
#define M_TERMS 16
#define M_DD 8        /* terms 0..7 as double-double */
#define M_TERMS_LIGHT 11 /* terms of the light evaluation (binary32 and narrower) */
#define H_HALF_LOG2 (-6) /* |t| <= h/2 = 2^-6 */

static void die(const char *what, int i)
{
    fprintf(stderr, "gen_fast_tables: check failed: %s at i = %d\n", what, i);
    exit(1);
}

/* Prints v as a double-double {hi, lo} (hi = RN(v), lo = RN(v - hi)). */
static void put_dd(mpfr_srcptr v)
{
    mpfr_t r;
    mpfr_init2(r, GEN_PREC);
    double hi = mpfr_get_d(v, MPFR_RNDN);
    mpfr_sub_d(r, v, hi, MPFR_RNDN);
    double lo = mpfr_get_d(r, MPFR_RNDN);
    printf("{ %a, %a }", hi, lo);
    mpfr_clear(r);
}

/* M(z) = erfc(z/sqrt2)/2 sqrt(2 pi) e^(z^2/2), into m. */
static void mills(mpfr_ptr m, mpfr_srcptr z)
{
    mpfr_t t, u;
    mpfr_inits2(GEN_PREC + 64, t, u, (mpfr_ptr)0);
    mpfr_sqrt_ui(t, 2, MPFR_RNDN);
    mpfr_div(t, z, t, MPFR_RNDN);
    mpfr_erfc(t, t, MPFR_RNDN);
    mpfr_const_pi(u, MPFR_RNDN);
    mpfr_mul_ui(u, u, 2, MPFR_RNDN);
    mpfr_sqrt(u, u, MPFR_RNDN);
    mpfr_mul(t, t, u, MPFR_RNDN);
    mpfr_div_2ui(t, t, 1, MPFR_RNDN);
    mpfr_sqr(u, z, MPFR_RNDN);
    mpfr_div_2ui(u, u, 1, MPFR_RNDN);
    mpfr_exp(u, u, MPFR_RNDN);
    mpfr_mul(m, t, u, MPFR_RNDN);
    mpfr_clears(t, u, (mpfr_ptr)0);
}

/* a[0..n-1]: the Taylor coefficients of M at z. */
static void taylor(mpfr_t *a, int n, mpfr_srcptr z)
{
    mills(a[0], z);
    mpfr_mul(a[1], a[0], z, MPFR_RNDN);
    mpfr_sub_ui(a[1], a[1], 1, MPFR_RNDN);
    for (int k = 1; k + 1 < n; k++) {
        mpfr_mul(a[k + 1], a[k], z, MPFR_RNDN);
        mpfr_add(a[k + 1], a[k + 1], a[k - 1], MPFR_RNDN);
        mpfr_div_ui(a[k + 1], a[k + 1], (unsigned long)(k + 1), MPFR_RNDN);
    }
}

static void m_table(void)
{
    mpfr_t a[M_TERMS + 1], b[M_TERMS + 1], z, s, lim, mr, sum1, sum3;
    for (int k = 0; k <= M_TERMS; k++) {
        mpfr_init2(a[k], GEN_PREC);
        mpfr_init2(b[k], GEN_PREC);
    }
    mpfr_inits2(GEN_PREC, z, s, lim, mr, sum1, sum3, (mpfr_ptr)0);
    printf("const double gr_fast_mh[GR_M_POINTS][8] = {\n");
    char *lo_text = NULL, *tail_text = NULL;
    size_t lo_len = 0, tail_len = 0;
    FILE *lo = open_memstream(&lo_text, &lo_len), *tail = open_memstream(&tail_text, &tail_len);
    for (int i = 0; i < M_POINTS; i++) {
        mpfr_set_si_2exp(z, i, -5, MPFR_RNDN); /* i/32, exact */
        taylor(a, M_TERMS, z);
        /* M at the right end bounds M on the cell from below (M decreases) */
        mpfr_set_si_2exp(s, 2 * i + 1, -6, MPFR_RNDN);
        mills(mr, s);
        /* Lagrange remainder after 16 terms: |M^(16)(xi)|/16! |t|^16, and |M^(n)| decreases
         * in z (|M^(n)(z)| = int_0^inf t^n e^(-zt - t^2/2) dt), so its largest value on the
         * cell is at the left end z_i - 2^-6 */
        mpfr_set_si_2exp(s, 2 * i - 1, -6, MPFR_RNDN);
        taylor(b, M_TERMS + 1, s);
        mpfr_abs(s, b[M_TERMS], MPFR_RNDU);
        mpfr_mul_2si(s, s, H_HALF_LOG2 * M_TERMS, MPFR_RNDU);
        mpfr_mul_2si(lim, mr, -106, MPFR_RNDD);
        if (mpfr_cmp(s, lim) > 0)
            die("Taylor remainder <= 2^-106 M", i);
        /* the light evaluation stops after 11 terms: remainder <= 2^-72 M */
        mpfr_abs(s, b[M_TERMS_LIGHT], MPFR_RNDU);
        mpfr_mul_2si(s, s, H_HALF_LOG2 * M_TERMS_LIGHT, MPFR_RNDU);
        mpfr_mul_2si(lim, mr, -72, MPFR_RNDD);
        if (mpfr_cmp(s, lim) > 0)
            die("light Taylor remainder <= 2^-72 M", i);
        /* the double terms: sum_{k>=8} |a_k| 2^(-6k) <= 2^-53 M; all terms k >= 1 together
         * <= 2^-4 M (fast_phi.c: the rounding errors of Horner's steps k >= 1 weigh that
         * little) */
        mpfr_set_zero(s, 1);
        mpfr_set_zero(sum1, 1);
        mpfr_set_zero(sum3, 1);
        for (int k = 1; k < M_TERMS; k++) {
            mpfr_abs(lim, a[k], MPFR_RNDU);
            mpfr_mul_2si(lim, lim, H_HALF_LOG2 * k, MPFR_RNDU);
            if (k >= M_DD)
                mpfr_add(s, s, lim, MPFR_RNDU);
            if (k >= 3)
                mpfr_add(sum3, sum3, lim, MPFR_RNDU);
            mpfr_add(sum1, sum1, lim, MPFR_RNDU);
        }
        /* the light evaluation (binary32 and narrower) sums the terms k >= 3 in double */
        mpfr_mul_2si(lim, mr, -16, MPFR_RNDD);
        if (mpfr_cmp(sum3, lim) > 0)
            die("sum_{k>=3} |a_k t^k| <= 2^-16 M", i);
        mpfr_mul_2si(lim, mr, -53, MPFR_RNDD);
        if (mpfr_cmp(s, lim) > 0)
            die("double tail <= 2^-53 M", i);
        mpfr_mul_2si(lim, mr, -4, MPFR_RNDD);
        if (mpfr_cmp(sum1, lim) > 0)
            die("sum_{k>=1} |a_k t^k| <= 2^-4 M", i);
        printf("  {");
        fprintf(lo, "  {");
        fprintf(tail, "  {");
        for (int k = 0; k < M_TERMS; k++) {
            double hi = mpfr_get_d(a[k], MPFR_RNDN);
            if (k < M_DD) {
                mpfr_sub_d(s, a[k], hi, MPFR_RNDN);
                printf(" %a,", hi);
                fprintf(lo, " %a,", mpfr_get_d(s, MPFR_RNDN));
            } else {
                fprintf(tail, " %a,", hi);
            }
        }
        printf(" },\n");
        fprintf(lo, " },\n");
        fprintf(tail, " },\n");
    }
    fclose(lo);
    fclose(tail);
    printf("};\nconst double gr_fast_ml[GR_M_POINTS][8] = {\n%s};\n", lo_text);
    printf("const double gr_fast_mt[GR_M_POINTS][8] = {\n%s};\n", tail_text);
    free(lo_text);
    free(tail_text);
    for (int k = 0; k <= M_TERMS; k++) {
        mpfr_clear(a[k]);
        mpfr_clear(b[k]);
    }
    mpfr_clears(z, s, lim, mr, sum1, sum3, (mpfr_ptr)0);
}

static void exp_table(void)
{
    mpfr_t v;
    mpfr_init2(v, GEN_PREC);
    printf("const dd gr_fast_exp2[1024] = {\n");
    for (int j = 0; j < 1024; j++) {
        mpfr_set_si(v, -j, MPFR_RNDN);
        mpfr_div_ui(v, v, 1024, MPFR_RNDN);
        mpfr_exp2(v, v, MPFR_RNDN);
        printf("  ");
        put_dd(v);
        printf(",\n");
    }
    printf("};\n");
    /* ln2/1024 in three pieces: 31 + 31 bits, then the rest rounded */
    mpfr_t r, p;
    mpfr_inits2(GEN_PREC, r, p, (mpfr_ptr)0);
    mpfr_const_log2(r, MPFR_RNDN);
    mpfr_div_ui(r, r, 1024, MPFR_RNDN);
    for (int k = 1; k <= 3; k++) {
        mpfr_set_prec(p, k < 3 ? 31 : 53);
        mpfr_set(p, r, k < 3 ? MPFR_RNDZ : MPFR_RNDN);
        printf("const double gr_fast_ln2_%d = %a;\n", k, mpfr_get_d(p, MPFR_RNDN));
        mpfr_sub(r, r, p, MPFR_RNDN);
    }
    mpfr_clears(v, r, p, (mpfr_ptr)0);
}

/* Named constants: 1/sqrt(2 pi), sqrt(2), sqrt(2/pi), 2/sqrt(pi), 0.044715, 1.702, and the
 * coefficients (-1)^n / (n! (2n+1)) of erf(x) sqrt(pi)/(2x) = sum_n c_n x^(2n). */
static void constants(void)
{
    mpfr_t v, t;
    mpfr_inits2(GEN_PREC, v, t, (mpfr_ptr)0);
    mpfr_const_pi(t, MPFR_RNDN);
    mpfr_mul_ui(v, t, 2, MPFR_RNDN);
    mpfr_rec_sqrt(v, v, MPFR_RNDN);
    printf("const dd gr_fast_inv_sqrt2pi = ");
    put_dd(v);
    printf(";\nconst dd gr_fast_sqrt2 = ");
    mpfr_sqrt_ui(v, 2, MPFR_RNDN);
    put_dd(v);
    printf(";\nconst dd gr_fast_sqrt_2_pi = ");
    mpfr_ui_div(v, 2, t, MPFR_RNDN);
    mpfr_sqrt(v, v, MPFR_RNDN);
    put_dd(v);
    printf(";\nconst dd gr_fast_two_sqrtpi = ");
    mpfr_rec_sqrt(v, t, MPFR_RNDN);
    mpfr_mul_ui(v, v, 2, MPFR_RNDN);
    put_dd(v);
    printf(";\nconst dd gr_fast_tanh_c = ");
    mpfr_set_str(v, "0.044715", 10, MPFR_RNDN);
    put_dd(v);
    printf(";\nconst dd gr_fast_sigmoid_c = ");
    mpfr_set_str(v, "1.702", 10, MPFR_RNDN);
    put_dd(v);
    printf(";\nconst dd gr_fast_erf_c[GR_ERF_TERMS] = {\n");
    mpfr_set_ui(t, 1, MPFR_RNDN); /* n! */
    for (int n = 0; n < 10; n++) {
        if (n > 0)
            mpfr_mul_ui(t, t, (unsigned long)n, MPFR_RNDN);
        mpfr_mul_ui(v, t, (unsigned long)(2 * n + 1), MPFR_RNDN);
        mpfr_ui_div(v, 1, v, MPFR_RNDN);
        if (n % 2)
            mpfr_neg(v, v, MPFR_RNDN);
        printf("  ");
        put_dd(v);
        printf(",\n");
    }
    printf("};\n");
    mpfr_clears(v, t, (mpfr_ptr)0);
}

int main(void)
{
    printf("/* Generated by reference/gen/gen_fast_tables.c (built and run by the build); do not "
           "edit. */\n#include \"fast.h\"\n\n");
    constants();
    exp_table();
    m_table();
    return 0;
}
