/* Shared by test_sleef.c and test_sleef_vector.c: the backends as the tests see them,
 * decided here independently of the adapter (adapters/sleef/sleef_isa.c). */
#ifndef TEST_SLEEF_H
#define TEST_SLEEF_H

#include <stddef.h>
#include <stdint.h>

#include <gelucheck/plugin.h>

#define TS_NBACKENDS 4
#define TS_NFORMS 5
extern const char *const ts_tags[TS_NBACKENDS]; /* scalar, sse2, avx2, avx512f */
extern const char *const ts_forms[TS_NFORMS];   /* gelu_erf.u10, ..., erfc.u15 */

/* Whether this CPU runs the backend: __builtin_cpu_supports, as the issue asks. */
int ts_cpu_has(int backend);
/* Lanes of the backend's vectors for the dtype. */
unsigned ts_lanes(int backend, uint32_t dtype);
/* The kernel FORM.TAG.DT of the adapter, or NULL when the table lacks it. */
const struct gelucheck_kernel *ts_find(const struct gelucheck_plugin *p, int form, int backend,
                                       uint32_t dtype);

/* The groups of test_sleef_vector.c, run by test_sleef.c's main. */
void test_backends_agree(void **state);
void test_tails(void **state);
/* every binary32 input, label slow: `test_adapters_sleef exhaustive` */
void ts_exhaustive_f32(void **state);

#endif
