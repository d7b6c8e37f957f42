/* Helpers of the reference's tests (test_fast.c, test_batch.c, test_run.c, the double tier's
 * test_fast_encl*.c and test_fast_arg.c): a seedable generator, binary32 bits and values, and
 * the comparison of two results. */
#ifndef ODDTEST_H
#define ODDTEST_H

#include <stdint.h>
#include <string.h>

#include "geluref.h"

static uint64_t rng_state; /* seed by assigning */

/* splitmix64 */
static inline uint64_t next64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* A binary32 value from its bits, as a double (exact), and the bits of a binary32 value. */
static inline double f32_of(uint32_t b)
{
    float v;
    memcpy(&v, &b, sizeof v);
    return v;
}
static inline uint32_t f32_bits(float v)
{
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

/* Every field of two results equal. */
static inline int same_odd(const struct geluref_odd *a, const struct geluref_odd *b)
{
    return a->kind == b->kind && a->neg == b->neg && a->sig_hi == b->sig_hi &&
           a->sig_lo == b->sig_lo && a->exp == b->exp && a->prec == b->prec &&
           a->exact == b->exact && a->rn == b->rn && a->rd == b->rd && a->ru == b->ru;
}

#endif
