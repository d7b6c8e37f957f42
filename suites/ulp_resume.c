/* ulp_resume.c: which work items of the ulp sweep are measured, for interrupted runs and
 * --resume (docs/design.md sections 7 and 10).
 *
 * A sweep interrupted by SIGINT or SIGTERM (gs_config.interrupt) hands out no further work
 * item; items in flight finish, so each item is either measured whole or not at all, and the
 * measured ones need not be a prefix (two threads: item 9 can be left while item 10 is done).
 * The entry then records them as "inputs"."covered" (item ranges of this shard, and for an
 * exhaustive sweep the intervals of x they span).  --resume reads such an entry back into the
 * accumulators exactly as gelucheck merge reads a shard (ulp_entry_read) and measures only
 * the other items; statistics merge in any order (errstat.c, findings.c) and every item's
 * inputs are a function of (seed, item) alone (ulp.c), so the resumed entry is the one an
 * uninterrupted run writes, byte for byte. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ulp_run.h"

int ulp_item_done(const struct ulp_run *u, uint64_t j)
{
    return u->done && (atomic_load(&u->done[j / 64]) >> (j % 64) & 1u);
}

void ulp_item_set_done(struct ulp_run *u, uint64_t j)
{
    if (u->done)
        atomic_fetch_or(&u->done[j / 64], UINT64_C(1) << (j % 64));
}

/* A non-negative JSON integer below lim into *v; 0, or -1. */
static int index_of(const json_t *j, uint64_t lim, uint64_t *v)
{
    if (!json_is_integer(j) || json_integer_value(j) < 0 ||
        (uint64_t)json_integer_value(j) >= lim)
        return -1;
    *v = (uint64_t)json_integer_value(j);
    return 0;
}

/* Marks the items of "covered" (checked against this run's plan: item ranges in increasing
 * order, apart, inside this shard's items) and sets *points to their number of inputs. */
static int mark_covered(struct ulp_run *u, const json_t *cov, uint64_t *points, char *msg,
                        size_t size)
{
    const json_t *items = json_object_get(cov, "items"), *done = json_object_get(cov, "done");
    size_t i;
    json_t *r;
    uint64_t next = 0; /* the least index the next range may start at */
    *points = 0;
    if (!json_is_integer(items) || (uint64_t)json_integer_value(items) != u->n_mine) {
        snprintf(msg, size, "ulp suite: 'inputs'.'covered'.'items' is not this run's %llu "
                 "work items", (unsigned long long)u->n_mine);
        return -1;
    }
    if (!json_is_array(done))
        goto bad;
    json_array_foreach(done, i, r) {
        uint64_t a, b;
        if (json_array_size(r) != 2 || index_of(json_array_get(r, 0), u->n_mine, &a) ||
            index_of(json_array_get(r, 1), u->n_mine, &b) || a > b || a < next)
            goto bad;
        for (uint64_t j = a; j <= b; j++) {
            ulp_item_set_done(u, j);
            *points += ulp_item_count(u, gs_shard_item(u->c->cfg, j));
        }
        next = b + 1;
    }
    return 0;
bad:
    snprintf(msg, size, "ulp suite: bad 'inputs'.'covered'.'done' (want [[first, last]...] "
             "of item indexes below %llu, in increasing order, apart)",
             (unsigned long long)u->n_mine);
    return -1;
}

int ulp_resume_start(struct ulp_run *u, char *msg, size_t size)
{
    const json_t *e = u->c->resume_ulp;
    size_t words = (size_t)(u->n_mine / 64 + 1);
    uint64_t points;
    u->done = calloc(words, sizeof *u->done);
    if (!u->done) {
        snprintf(msg, size, "out of memory");
        return -1;
    }
    if (!e)
        return 0;
    const json_t *cov = json_object_get(json_object_get(e, "inputs"), "covered");
    if (mark_covered(u, cov, &points, msg, size) || ulp_entry_read(&u->acc[0], u, e, msg, size))
        return -1;
    /* the statistics read back are of the covered items' inputs, no more, no fewer */
    if (u->acc[0].points != points) {
        snprintf(msg, size, "ulp suite: 'points' %llu is not the %llu inputs of the covered "
                 "work items", (unsigned long long)u->acc[0].points,
                 (unsigned long long)points);
        return -1;
    }
    return 0;
}

/* The x interval of the patterns [p0, p1] (one sign) within the sweep's magnitudes, appended
 * to a as [lo, hi]; nothing when none is swept. */
static void x_interval(const struct ulp_run *u, json_t *a, uint64_t p0, uint64_t p1)
{
    const struct gs_ut_shape *s = &u->sh;
    int neg = (p0 & s->sign) != 0;
    uint64_t lo = p0 & ~s->sign, hi = p1 & ~s->sign;
    uint64_t mlo = u->mlo[neg] > 1 ? u->mlo[neg] : 1; /* +-0 are the special suite's */
    uint64_t mhi = u->mhi[neg] < s->inf_mag - 1 ? u->mhi[neg] : s->inf_mag - 1;
    lo = lo > mlo ? lo : mlo;
    hi = hi < mhi ? hi : mhi;
    if (!u->rok[neg] || lo > hi)
        return;
    enum geluref_dtype dt = u->c->dt;
    double a0 = gs_to_double(dt, gs_ut_bits(s, neg, neg ? hi : lo));
    double a1 = gs_to_double(dt, gs_ut_bits(s, neg, neg ? lo : hi));
    json_array_append_new(a, json_pack("[oo]", gs_real_json(a0), gs_real_json(a1)));
}

/* The global items [g0, g1] (contiguous patterns) as x intervals, split at the sign bit. */
static void x_intervals(const struct ulp_run *u, json_t *a, uint64_t g0, uint64_t g1)
{
    uint64_t p0 = g0 * u->chunk, p1 = (g1 + 1) * u->chunk - 1, sign = u->sh.sign;
    if ((p0 & sign) == (p1 & sign)) {
        x_interval(u, a, p0, p1);
        return;
    }
    x_interval(u, a, p0, sign - 1);
    x_interval(u, a, sign, p1);
}

json_t *ulp_covered_json(const struct ulp_run *u)
{
    const struct gs_config *cfg = u->c->cfg;
    json_t *done = json_array(), *xs = u->exhaustive ? json_array() : NULL;
    uint64_t j = 0;
    while (done && j < u->n_mine) {
        if (!ulp_item_done(u, j)) {
            j++;
            continue;
        }
        uint64_t a = j;
        while (j + 1 < u->n_mine && ulp_item_done(u, j + 1))
            j++;
        json_array_append_new(done, json_pack("[II]", (json_int_t)a, (json_int_t)j));
        /* x: the runs of consecutive global items (sharded: items K, K + N, ... are not) */
        for (uint64_t k = a; xs && k <= j;) {
            uint64_t g0 = gs_shard_item(cfg, k), g1 = g0;
            while (k + 1 <= j && gs_shard_item(cfg, k + 1) == g1 + 1) {
                k++;
                g1++;
            }
            x_intervals(u, xs, g0, g1);
            k++;
        }
        j++;
    }
    json_t *o = json_pack("{s:I, s:o}", "items", (json_int_t)u->n_mine, "done",
                          done ? done : json_array());
    if (o && xs)
        json_object_set_new(o, "x", xs);
    else
        json_decref(xs);
    return o;
}
