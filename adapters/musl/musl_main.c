/* The `musl` adapter (issue 6): the libm adapter's kernels (adapters/libm: the same formulas,
 * the same source files) linked statically against musl's libm and served over the subprocess
 * protocol (docs/design.md 5.2) with gelucheck_exec.h.  Built by musl-gcc -static in
 * adapters/musl/CMakeLists.txt, which also reads the musl version (musl has no version macro).
 *
 * What musl claims (its src/math comments, as of 1.2.3; git.musl-libc.org/cgit/musl):
 *   erf, erfc (erf.c, from FreeBSD msun s_erf.c, SunPro 1993): bounds for the approximations,
 *     not for the results: |R - (erf(x)-x)/x| <= 2^-57.90 on [0, 0.84375] ("0.84375 is chosen
 *     to guarantee the error is less than one ulp for erf"), |P1/Q1 - (erf(|x|)-c)| <=
 *     2^-59.06 on [0.84375, 1.25], |R1/S1 - f| < 2^-62.57 and |R2/S2 - f| < 2^-61.52 for the
 *     erfc = exp(-x^2-0.5625+R/S)/x forms up to |x| = 28.  No ulp bound for erfc.
 *   erff, erfcf (erff.c): the same method with float coefficients; no bound of their own.
 *   exp (exp.c, exp_data.c, from Arm's optimized-routines): "ulp error: 0.509 (0.511 without
 *     fma)"; expf (expf.c, same origin): "ULP error: 0.502 (nearest rounding.)".
 *   tanh (tanh.c, musl's own, on expm1): "up to 2ulp error in [0.1,0.2554]"; tanhf: none.
 * These are claims about the functions; what the formulas lose on top (cancellation in 1+erf,
 * the rounded x/sqrt2, -inf*0) is measured, not claimed.  musl's x86-64 libm has no run-time
 * CPU dispatch and no FMA (baseline x86-64): the same bits on every x86-64 CPU, unlike glibc,
 * whose exp/expf pick FMA variants at load time.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gc_musl_version.h"
#include "gelucheck_exec.h"
#include "libm_internal.h"

#define LIB "musl " GC_MUSL_VERSION " libm (static, musl-gcc)"
#define MAX_KERNELS 40 /* trampolines below; the libm adapter has 30 kernels */
#define DESC_BYTES 512 /* the longest libm formula is under 200 */

static const struct gc_libm_def *defs[MAX_KERNELS];
static struct gelucheck_exec_kernel kernels[MAX_KERNELS];
static char descs[MAX_KERNELS][DESC_BYTES];

/* gelucheck_exec's eval has no context: one trampoline per table slot calls defs[k]. */
static int call(size_t k, const void *x, void *y, size_t n, char *err, size_t err_size)
{
    if (defs[k]->eval(NULL, x, y, n) == 0)
        return 0;
    snprintf(err, err_size, "kernel %s failed", defs[k]->name); /* the libm ones never do */
    return 1;
}
#define TRAMP(k)                                                                 \
    static int eval_##k(const void *x, void *y, size_t n, char *e, size_t es)   \
    {                                                                            \
        return call(k, x, y, n, e, es);                                          \
    }
#define TRAMP10(d) TRAMP(d##0) TRAMP(d##1) TRAMP(d##2) TRAMP(d##3) TRAMP(d##4) \
                   TRAMP(d##5) TRAMP(d##6) TRAMP(d##7) TRAMP(d##8) TRAMP(d##9)
#define NAME10(d) eval_##d##0, eval_##d##1, eval_##d##2, eval_##d##3, eval_##d##4, \
                  eval_##d##5, eval_##d##6, eval_##d##7, eval_##d##8, eval_##d##9
TRAMP10() TRAMP10(1) TRAMP10(2) TRAMP10(3)
static int (*const evals[MAX_KERNELS])(const void *, void *, size_t, char *, size_t) = {
    NAME10(), NAME10(1), NAME10(2), NAME10(3)
};

/* docs/design.md section 2's names, indexed by enum gelucheck_func - 1 and gelucheck_dtype - 1 */
static const char *const funcs[] = { "gelu", "gelu_tanh", "gelu_sigmoid", "gelu_grad",
                                     "gelu_tanh_grad", "normcdf", "normpdf", "erf", "erfc" };
static const char *const dtypes[] = { "f64", "f32", "f16", "bf16" };

/* Appends n definitions at *k; 0, or -1 (reason on stderr) when one does not fit. */
static int add_defs(const struct gc_libm_def *d, size_t n, size_t *k)
{
    for (size_t i = 0; i < n; i++, ++*k) {
        if (*k == MAX_KERNELS) {
            fprintf(stderr, "gelucheck_musl: more than %d kernels\n", MAX_KERNELS);
            return -1;
        }
        if (d[i].func < 1 || d[i].func > 9 || d[i].dtype < 1 || d[i].dtype > 4) {
            fprintf(stderr, "gelucheck_musl: %s: func or dtype out of range\n", d[i].name);
            return -1;
        }
        int len = snprintf(descs[*k], DESC_BYTES, "%s; %s", d[i].formula, LIB);
        if (len < 0 || len >= DESC_BYTES) {
            fprintf(stderr, "gelucheck_musl: %s: description too long\n", d[i].name);
            return -1;
        }
        defs[*k] = &d[i];
        kernels[*k] = (struct gelucheck_exec_kernel){ d[i].name, funcs[d[i].func - 1],
                                                      dtypes[d[i].dtype - 1], descs[*k],
                                                      evals[*k] };
    }
    return 0;
}

int main(void)
{
    size_t k = 0;

    if (add_defs(gc_libm_gelu_defs, gc_libm_gelu_n, &k) != 0 ||
        add_defs(gc_libm_deriv_defs, gc_libm_deriv_n, &k) != 0 ||
        add_defs(gc_libm_half_defs, gc_libm_half_n, &k) != 0)
        return 2;
    return gelucheck_exec_serve(kernels, k, LIB);
}
