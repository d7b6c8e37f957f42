/* Shared helpers of the reference tests: comparing geluref_eval with the independent oracle
 * (tests/oracle) and naming the failing case in one message. */
#ifndef REFCHECK_H
#define REFCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "geluref.h"

extern const mpfr_rnd_t refcheck_modes[4]; /* RN, RZ, RU, RD */

/* The reference's counters over every refcheck_one* call of the program. */
extern struct geluref_stats refcheck_stats;

/* Prints refcheck_stats (which path decided, retries, the largest working precision) and
 * fails if the largest precision came within a quarter of the default cap. */
void refcheck_report_paths(void);

/* Evaluates f at x with the reference and the oracle; on a difference (or an error of
 * either) formats a message naming func, dtype, mode, input, both outputs into msg and
 * returns nonzero.  NaN results compare by NaN-ness only. */
int refcheck_one(enum geluref_func f, enum geluref_dtype dt, uint64_t x, mpfr_rnd_t rnd,
                 char *msg, size_t size);
/* The same for gelu_scaled with scale s (the other functions ignore it). */
int refcheck_one_scaled(enum geluref_func f, enum geluref_dtype dt, uint64_t x, mpfr_rnd_t rnd,
                        double s, char *msg, size_t size);

/* Runs refcheck_one over xs[0..n) for the functions funcs[0..nf) and modes; prints up to 10
 * mismatches to stderr and returns the number of mismatches. */
size_t refcheck_many(const enum geluref_func *funcs, size_t nf, enum geluref_dtype dt,
                     const uint64_t *xs, size_t n, const mpfr_rnd_t *modes, size_t nm);

/* Deterministic 64-bit generator (splitmix64). */
uint64_t refcheck_rand(uint64_t *state);

/* dtype bits of a double (exactly representable in dt), and back. */
uint64_t refcheck_bits(enum geluref_dtype dt, double v);
double refcheck_value(enum geluref_dtype dt, uint64_t bits);

/* Next and previous finite value of the dtype, by bit pattern (positive and negative). */
uint64_t refcheck_next_up(enum geluref_dtype dt, uint64_t bits);
uint64_t refcheck_next_down(enum geluref_dtype dt, uint64_t bits);

#endif
