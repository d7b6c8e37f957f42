/* Shared by the tests of the `musl` adapter (test_musl.c, test_musl_compare.c). */
#ifndef TEST_MUSL_H
#define TEST_MUSL_H

#include <stddef.h>
#include <stdint.h>

#include "adapter.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Opens the built-in adapter named spec ("musl": the subprocess; "libm": glibc in-process);
 * cmocka fails with the registry's message when it cannot. */
struct gc_adapter *tm_open(const char *spec);

/* The kernel named name (cmocka fails if there is none). */
const struct gc_kernel *tm_kernel(const struct gc_adapter *a, const char *name);

/* y[i] = k(x[i]) for n inputs given as bit patterns of k's dtype (any n: batched). */
void tm_eval(const struct gc_kernel *k, const uint64_t *x, uint64_t *y, size_t n);

/* The dtype's bits of v, rounded to nearest even (f16/bf16 through gc_libm's conversions,
 * exact for the values used here: doubles that are floats). */
uint64_t tm_bits(enum geluref_dtype dt, double v);
double tm_value(enum geluref_dtype dt, uint64_t b);

int tm_compare_tests(void);

#endif
