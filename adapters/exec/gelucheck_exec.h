/* gelucheck_exec: serve your kernels to gelucheck from a C program over the subprocess
 * protocol (`--adapter exec:./your_program`, docs/design.md section 5.2).  Copy this header and
 * gelucheck_exec.c into your project; they need only C99 and stdio.
 *
 *   static int my_gelu(const void *x, void *y, size_t n, char *err, size_t err_size)
 *   { const float *xf = x; float *yf = y;
 *     for (size_t i = 0; i < n; i++) yf[i] = 0.5f * xf[i] * erfcf(-xf[i] * 0.70710678f);
 *     return 0; }
 *   static const struct gelucheck_exec_kernel kernels[] = {
 *     { "erfc.f32", "gelu", "f32", "0.5 x erfcf(-x/sqrt2), glibc 2.36", my_gelu } };
 *   int main(void) { return gelucheck_exec_serve(kernels, 1, "mykernels 1.0"); }
 *
 * The process must write nothing else on stdout (use stderr for diagnostics: gelucheck
 * quotes its end when something goes wrong).
 */
#ifndef GELUCHECK_EXEC_H
#define GELUCHECK_EXEC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GELUCHECK_EXEC_BATCH_MAX 65536 /* the most elements one request carries */

struct gelucheck_exec_kernel {
    const char *name;        /* unique, [A-Za-z0-9_.-]+, formula and dtype: "erfc.f32" */
    const char *func;        /* what it computes: gelu, gelu_tanh, gelu_sigmoid, gelu_grad,
                                gelu_tanh_grad, normcdf, normpdf, erf, erfc */
    const char *dtype;       /* f64, f32, f16 or bf16 (f16/bf16 as uint16_t bit patterns) */
    const char *description; /* the formula in full, library, version; may be NULL */
    /* y[i] = f(x[i]) for i < n (0 <= n <= GELUCHECK_EXEC_BATCH_MAX), in the machine's byte
     * order.  Returns 0, or nonzero with a one-line reason in err (gelucheck then reports
     * "error REASON" for this batch and goes on). */
    int (*eval)(const void *x, void *y, size_t n, char *err, size_t err_size);
};

/* Announces the kernels (version may be NULL), then answers requests on stdin until it is
 * closed.  Returns the exit status for main(): 0 when stdin closed between requests, 1 when
 * the request stream broke or I/O failed, 2 when the table is bad (reason on stderr). */
int gelucheck_exec_serve(const struct gelucheck_exec_kernel *kernels, size_t n,
                         const char *version);

#ifdef __cplusplus
}
#endif
#endif
