/* shard.c: which work a shard of --shard K/N does (docs/design.md section 9; suites.h).
 *
 * The ulp and tail suites split: theirs is the work that grows with --exhaustive (every
 * binary32 input, 2^32, and the tail's scan of every input of its underflow side, about 2^30),
 * and their statistics are counts, maxima with their arguments and worst lists, which merge
 * exactly.  The tail suite splits only where its scan takes every input (binary32 with
 * --exhaustive, f16, bf16) or there is no scan: then its flush point is the scan's first zero
 * output, the least of the shards'; a sampled scan refines its flush point with kernel calls
 * between two samples, which no merge can redo, and runs whole in shard 0 (tail.c decides,
 * after its plan).  The identity suite stays whole because its inputs are a fixed-size sample
 * that --exhaustive does not grow (seconds); special, vector and fingerprint are fixed probe
 * sets (docs/design.md: shard 0 only). */
#include <stdio.h>

#include "suites.h"

int gs_sharded(const struct gs_config *c) { return c->shard_n > 1; }

int gs_suite_splits(enum gs_suite s) { return s == GS_SUITE_ULP || s == GS_SUITE_TAIL; }

void gs_shard_skip_note(const struct gs_config *c, char *buf, size_t size)
{
    snprintf(buf, size, "not run in shard %u of %u: this suite runs in shard 0 only", c->shard_k,
             c->shard_n);
}

int gs_suite_in_shard(const struct gs_config *c, enum gs_suite s)
{
    return !gs_sharded(c) || c->shard_k == 0 || gs_suite_splits(s);
}

/* Items K, K + N, K + 2N, ...: interleaved rather than contiguous ranges, because the cost of
 * an item depends on where its inputs lie (the reference is fast where a rule decides, slow in
 * the negative tail), and contiguous ranges of the exhaustive sweep would give one shard all
 * of x < 0. */
uint64_t gs_shard_items(const struct gs_config *c, uint64_t n)
{
    if (!gs_sharded(c))
        return n;
    return n > c->shard_k ? (n - c->shard_k - 1) / c->shard_n + 1 : 0;
}

uint64_t gs_shard_item(const struct gs_config *c, uint64_t j)
{
    return gs_sharded(c) ? c->shard_k + j * c->shard_n : j;
}
