/* inputs.c: the seedable generator of the suites' random inputs.
 *
 * splitmix64: G. L. Steele, D. Lea, C. H. Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014 (the constants are those of its published finaliser, also used by
 * java.util.SplittableRandom).  A 64-bit state advanced by the golden-ratio increment and a
 * bijective mix: deterministic on every platform, period 2^64. */
#include "suites.h"

/* 2^64 / golden ratio, odd (Steele, Lea, Flood 2014) */
#define GOLDEN_GAMMA 0x9e3779b97f4a7c15u

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u; /* splitmix64's finaliser (Stafford's Mix13) */
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

void gs_rng_seed(struct gs_rng *r, uint64_t seed) { r->s = seed; }

uint64_t gs_rng_next(struct gs_rng *r)
{
    r->s += GOLDEN_GAMMA;
    return mix64(r->s);
}

/* Rejection: draws below the largest multiple of n are uniform modulo n; the rejected range
 * (2^64 mod n values) is less than half of all draws, so the expected number of draws is < 2. */
uint64_t gs_rng_below(struct gs_rng *r, uint64_t n)
{
    if (n <= 1)
        return 0;
    uint64_t reject = ((uint64_t)0 - n) % n; /* 2^64 mod n */
    for (;;) {
        uint64_t v = gs_rng_next(r);
        if (v >= reject) /* [reject, 2^64) has a multiple of n values */
            return v % n;
    }
}

/* seed, a, b mixed one after the other through splitmix64 steps: h = mix(seed + gamma),
 * h = mix((h ^ a) + 2 gamma), h = mix((h ^ b) + 3 gamma).  mix64 is a bijection, so for one
 * seed two sub-streams that differ in a alone, or in b alone, get different seeds; the result
 * depends only on the three numbers (not on threads or order). */
uint64_t gs_seed_mix(uint64_t seed, uint64_t a, uint64_t b)
{
    uint64_t h = mix64(seed + GOLDEN_GAMMA);
    h = mix64((h ^ a) + 2 * GOLDEN_GAMMA);
    return mix64((h ^ b) + 3 * GOLDEN_GAMMA);
}
