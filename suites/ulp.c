/* The ulp suite (docs/design.md section 6): the error of every output against the correctly
 * rounded reference, overall, per region of x and per binade of x.
 *
 * Inputs: f16/bf16 every finite non-zero pattern; f32 every finite non-zero pattern with
 * --exhaustive (streamed, never materialised); otherwise the target set plus a stratified
 * random sample spread evenly over every binade of both signs (uniform random significands).
 * NaN, +-inf and +-0 are the special suite's: their results are conventions (docs/design.md
 * section 2), not roundings, and the policy judges them there (special_zero_sign,
 * nan_at_neg_inf), so judging them here as well would override those keys.  Each work item's
 * inputs are a pure function of (seed, suite, item), and the per-thread statistics merge in an
 * order-independent way, so results do not depend on --threads; with --shard K/N this run
 * takes the items of shard K (shard.c), and gelucheck merge joins the shards the same way
 * (ulp_merge.c).  Metrics are built in ulp_json.c. */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure_hp.h"
#include "ulp_fused.h"
#include "ulp_lane.h"
#include "ulp_run.h"

/* Default --samples (random inputs of the stratified sweep).  Measured with `gelucheck run
 * --adapter libm --kernel K --threads 2` (all six suites, Debug build, on this project's 2-core
 * build machine shared with other jobs; the reference costs about 20 us per value, and a
 * gelu_tanh kernel is measured twice, against itself and vs_exact):
 *   f32, 2^19: erfc.f32 8.2 s, tanh.f32 16.5 s (2^18: 5.6 s, 11.8 s);
 *   f64, 2^18: erfc.f64 9.0 s, tanh.f64 18.0 s (2^17: 7.4 s, 16.1 s).
 * Both stay well under the minute a default run of one kernel should take. */
#define GS_ULP_SAMPLES_F32 (UINT64_C(1) << 19)
#define GS_ULP_SAMPLES_F64 (UINT64_C(1) << 18)
/* Work items of the exhaustive f16/bf16 sweep: 16 of 2^12 patterns (one of 2^16 would leave
 * every thread but one and every shard but shard 0 idle). */
#define ULP_ITEMS_16 16u
/* Outputs measured per gs_measure_n call, and a block of the fused pass (fused_block): its
 * per-block work (the span lanes' ends, the bounds and limits from the statistics, the
 * monotony and curvature tests) falls on 256 inputs instead of 128, which took sigmoid.f32's
 * sweep over [-16, -1] from 0.40 to 0.36 s, with 512 no further than the noise (0.35); the
 * block's enclosures (8 KB a function) stay in the L1 cache. */
#define ULP_MEAS_BLOCK 256u
_Static_assert(ULP_MEAS_BLOCK <= 256 && ULP_MEAS_BLOCK % 8 == 0,
               "block_lanes keeps an input's index in a byte and its flags eight to a word");

int ulp_acc_init(struct ulp_acc *a, size_t n_bins, int buffers)
{
    memset(a, 0, sizeof *a);
    gs_errstat_init(&a->all);
    gs_errstat_init(&a->ex_all);
    for (int i = 0; i < GS_N_REGIONS; i++) {
        gs_errstat_init(&a->reg[i]);
        gs_errstat_init(&a->ex_reg[i]);
    }
    gs_findings_init(&a->f);
    a->bin = malloc(n_bins * sizeof *a->bin);
    if (buffers) {
        a->x = malloc(GS_UT_BATCH * sizeof *a->x);
        a->y = malloc(GS_UT_BATCH * sizeof *a->y);
    }
    if (!a->bin || (buffers && (!a->x || !a->y)))
        return -1;
    for (size_t i = 0; i < n_bins; i++)
        gs_errstat_init(&a->bin[i]);
    return 0;
}

void ulp_acc_release(struct ulp_acc *a)
{
    free(a->bin);
    free(a->x);
    free(a->y);
    gs_ut_bufs_release(&a->kb);
    gs_findings_release(&a->f);
}

enum geluref_func ulp_exact_of(enum geluref_func f)
{
    if (f == GELUREF_GELU_TANH || f == GELUREF_GELU_SIGMOID)
        return GELUREF_GELU;
    if (f == GELUREF_GELU_TANH_GRAD)
        return GELUREF_GELU_GRAD;
    return (enum geluref_func)0;
}

/* Stratified: the binade holding item >= 1 (the last whose first_item <= item) and how many
 * inputs the item takes from it (*m). */
static const struct ulp_binade *item_binade(const struct ulp_run *u, uint64_t item, uint64_t *m)
{
    size_t lo = 0, hi = u->n_bins - 1;
    while (lo < hi) {
        size_t mid = (lo + hi + 1) / 2;
        if (u->bins[mid].first_item <= item)
            lo = mid;
        else
            hi = mid - 1;
    }
    const struct ulp_binade *b = &u->bins[lo];
    uint64_t done = (item - b->first_item) * GS_UT_BATCH;
    *m = b->count - done < GS_UT_BATCH ? b->count - done : GS_UT_BATCH;
    return b;
}

/* Exhaustive: the inputs of item (its patterns that are finite, non-zero and in --range),
 * the magnitudes [*lo, *hi] of sign *neg; returns their number (0: none, *lo and *hi
 * unset).  A chunk lies within one sign (chunk divides 2^(bits-1)), so its inputs are one
 * interval of magnitudes. */
static uint64_t chunk_span(const struct ulp_run *u, uint64_t item, int *neg, uint64_t *lo,
                           uint64_t *hi)
{
    uint64_t p0 = item * u->chunk;
    *neg = (p0 & u->sh.sign) != 0;
    uint64_t l = p0 & ~u->sh.sign, h = l + u->chunk - 1;
    uint64_t a = u->mlo[*neg] > 1 ? u->mlo[*neg] : 1;
    uint64_t b = u->mhi[*neg] < u->sh.inf_mag - 1 ? u->mhi[*neg] : u->sh.inf_mag - 1;
    l = l > a ? l : a;
    h = h < b ? h : b;
    if (!u->rok[*neg] || l > h)
        return 0;
    *lo = l;
    *hi = h;
    return h - l + 1;
}

/* How many inputs item has, without making them (the progress total of a shard). */
uint64_t ulp_item_count(const struct ulp_run *u, uint64_t item)
{
    uint64_t m;
    if (!u->exhaustive) {
        if (item == 0)
            return u->n_targets;
        item_binade(u, item, &m);
        return m;
    }
    int neg;
    uint64_t lo, hi;
    return chunk_span(u, item, &neg, &lo, &hi);
}

/* The inputs of item into a->x; returns their number. */
static size_t item_inputs(struct ulp_run *u, uint64_t item, struct ulp_acc *a)
{
    const struct gs_ut_shape *s = &u->sh;
    size_t n = 0;
    if (u->exhaustive) {
        int neg;
        uint64_t lo, hi;
        n = (size_t)chunk_span(u, item, &neg, &lo, &hi);
        for (size_t i = 0; i < n; i++)
            a->x[i] = gs_ut_bits(s, neg, lo + i);
        return n;
    }
    if (item == 0) {
        memcpy(a->x, u->targets, u->n_targets * sizeof *a->x);
        return u->n_targets;
    }
    uint64_t m;
    const struct ulp_binade *b = item_binade(u, item, &m);
    struct gs_rng r;
    gs_rng_seed(&r, gs_seed_mix(u->c->cfg->seed, GS_SUITE_ULP, item));
    for (uint64_t i = 0; i < m; i++)
        a->x[n++] = gs_ut_bits(s, b->neg, b->lo + gs_rng_below(&r, b->hi - b->lo + 1));
    return n;
}

/* The value of finite bits x (exact: every dtype value is a double); binary32 inline. */
static inline double value_of_x(enum geluref_dtype dt, uint64_t x)
{
    if (dt != GELUREF_F32)
        return gs_to_double(dt, x);
    uint32_t b = (uint32_t)x;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* gs_region_of(dt, x) for a finite non-zero input (every input of the sweep): binary32
 * decoded inline, the other dtypes through gs_region_of.  The same comparisons. */
static inline enum gs_region region_of(enum geluref_dtype dt, uint64_t x)
{
    if (dt != GELUREF_F32)
        return gs_region_of(dt, x);
    double v = value_of_x(dt, x);
    return v < -10.0 ? GS_R_LT_M10 : v < -5.0 ? GS_R_M10_M5 : v < -1.0 ? GS_R_M5_M1
           : v < 0.0 ? GS_R_M1_0 : v < 1.0 ? GS_R_0_1 : GS_R_GE_1;
}

/* What the sweep carries from one input to the next: the previous input's x, region and
 * binade, and whether the policy passed it. */
struct ulp_prev {
    uint64_t x;
    enum gs_region rg;
    size_t bin;
    int pass;
};

/* Input x with output y, measured as *m (rep: m is the previous input's measurement but for
 * x, gs_measure_n), into the statistics (the item's per-region ones when local), judged, and
 * measured against the exact function when the kernel has one and exact is set (else the
 * fused pass did that, ulp_fused.h).  Returns 0, or 1 when the reference failed (recorded). */
static int account(struct ulp_run *u, struct ulp_acc *a, unsigned t, int local, uint64_t x,
                   uint64_t y, struct gs_meas *m, int rep, int exact, struct ulp_prev *p)
{
    struct gs_ctx *c = u->c;
    enum gs_region rg = region_of(c->dt, x);
    size_t bin = (x & ~u->sh.sign) < u->sh.inf_mag ? ulp_binade_index(&u->sh, x) : 0;
    /* the same measurement as the previous input (rep, across blocks too) at a larger x, into
     * the same statistics: counts only (gs_errstat_add_repeat), and the same judgement
     * (gs_policy_judge does not read x), so nothing to record when it passed.  A rule range's
     * run (the deep tail) costs little this way. */
    int again = rep && x > p->x && rg == p->rg && bin == p->bin;
    if (again && rg < GS_N_REGIONS) {
        if (local) {
            gs_errstat_add_repeat(&a->loc[rg], m);
        } else {
            gs_errstat_add_repeat(&a->all, m);
            gs_errstat_add_repeat(&a->reg[rg], m);
            if ((x & ~u->sh.sign) < u->sh.inf_mag)
                gs_errstat_add_repeat(&a->bin[bin], m);
        }
    } else if (local) {
        if (rg < GS_N_REGIONS)
            gs_errstat_add(&a->loc[rg], m);
    } else {
        gs_errstat_add(&a->all, m);
        if (rg < GS_N_REGIONS)
            gs_errstat_add(&a->reg[rg], m);
        if ((x & ~u->sh.sign) < u->sh.inf_mag)
            gs_errstat_add(&a->bin[bin], m);
    }
    /* a correctly rounded output (defect none) passes every policy (gs_policy_judge) */
    if (!(again && p->pass))
        p->pass = m->defect == GS_K_NONE || gs_ut_judge_meas(c, m, &a->f, "ulp");
    p->x = x;
    p->rg = rg;
    p->bin = bin;
    if (u->exact && exact) {
        enum geluref_status es = gs_measure(c->ref[t], u->exact, c->dt, x, y, m);
        if (es != GELUREF_OK) {
            gs_ut_internal(c, "ulp", x, es);
            return 1;
        }
        if (local && rg < GS_N_REGIONS) {
            gs_errstat_add(&a->ex_loc[rg], m);
        } else {
            gs_errstat_add(&a->ex_all, m);
            if (rg < GS_N_REGIONS)
                gs_errstat_add(&a->ex_reg[rg], m);
        }
    }
    return 0;
}

/* ---- a rule's run: inputs counted instead of measured ----
 *
 * Where a rule of the fast path decides f (the deep tails, saturation, the neighbourhood of
 * 0: geluref_eval_odd_run), the inputs after a measured one, x_t, that the same rule decides
 * are judged without evaluating f.  Such an x' (larger bits than x_t, the same sign, exponent
 * field and region, inside the rule's interval) whose output is the one the rule makes
 * correctly rounded is counted like x_t (gs_errstat_add_repeat_n): its measurement has x_t's
 * counts (correctly rounded, faithful, cr_distance 0, the same want class, no defect, so the
 * policy passes it) and cannot beat x_t's maxima, which is all the statistics keep of it:
 *  - GELUREF_RUN_SAME: x' has x_t's very reference value, and its output equals x_t's, so
 *    its measurement is x_t's but for x, and a tie keeps the smaller x (errstat.c);
 *  - GELUREF_RUN_SCALED: f(x') = x' 2^k (1 + dir d), 0 < d < 2^-P (P = p + 16), rounded to
 *    odd V' = x' 2^k +- u', u' the P-bit unit next to x' 2^k.  With x_t 2^k a normal number
 *    that is not a power of two, so is every x' 2^k of x_t's binade, and RN(f(x')) = x' 2^k,
 *    u' = 2^(e - P + 1) and ulp(V') = 2^(e - p + 1) are the same for every x' (e: the binade's
 *    exponent): measure.c's errors() computes |y' - V'| scaled by 2^-k exactly (y' and V'
 *    are doubles within a few units of each other), so the ulp error 2^-16 and the absolute
 *    error u' come out as exactly x_t's, and the relative error u'/|V'| is a correctly
 *    rounded quotient by a larger |V'|, so at most x_t's; ties keep the smaller x.
 * Under a SAME rule the template need not be correctly rounded: x' with x_t's output has
 * x_t's measurement but for x whatever it is (a NaN output of a tail, a flushed zero), so
 * x_t's counts, maxima that a tie keeps at x_t, and x_t's verdict (gs_policy_judge does not
 * read x).  Failed, each such x' is also a finding of x_t's kind and score at its own x,
 * recorded in increasing x: kept where it can enter the worst list (gs_ut_judge_meas), and
 * from the first that cannot on (gs_findings_count_unkept), the rest only counted: the
 * list's last entry only moves ahead, so no larger x of the same score could enter it.
 * Any other output of such an x' is measured and judged in full.  The result is the same bit
 * for bit as measuring every input: tests/suites/ulp_runs.cmake compares the two (the MPFR
 * path reports no rule) on every rule's range with correct and wrong kernels. */
struct ulp_tmpl {
    double lo, hi;            /* x' values in (lo, hi) and in [rlo, rhi) (x_t's region) */
    double rlo, rhi;
    uint64_t x, xmax;         /* x_t, and the last pattern of its binade the run covers */
    int scaled;               /* SCALED: the expected output is x' + add; SAME: y */
    uint64_t add, y, width;
    struct gs_meas m, mx;     /* x_t's measurements (mx: against the exact function) */
    enum gs_kind fail;        /* GS_K_NONE when the policy passes m, else its finding's kind */
    double score;             /* and that finding's score (gs_ut_score) */
};

/* The region's interval of values [*lo, *hi) (region_of's comparisons). */
static void region_bounds(enum gs_region rg, double *lo, double *hi)
{
    static const double edge[] = { -INFINITY, -10.0, -5.0, -1.0, 0.0, 1.0, INFINITY };
    *lo = edge[rg];
    *hi = edge[rg + 1];
}

/* The run after input x with output y: *tp set and 1, or 0 when none may follow it. */
static int tmpl_at(struct ulp_run *u, unsigned t, uint64_t x, uint64_t y, struct ulp_tmpl *tp)
{
    struct gs_ctx *c = u->c;
    const struct gs_ut_shape *s = &u->sh;
    enum geluref_func fs[2] = { c->func, u->exact };
    uint64_t width = s->bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << s->bits) - 1;
    uint64_t mant_mask = ((uint64_t)1 << s->mant) - 1;
    uint64_t field = (x & ~s->sign) >> s->mant;
    enum gs_region rg = region_of(c->dt, x);
    if (rg >= GS_N_REGIONS || field == 0 || field >= s->n_fields)
        return 0;
    x &= width;
    y &= width;
    for (int g = 0; g < (u->exact ? 2 : 1); g++) {
        struct geluref_odd_run run;
        struct gs_meas *m = g ? &tp->mx : &tp->m;
        if (gs_measure_run(c->ref[t], fs[g], c->dt, x, y, m, &run) != GELUREF_OK ||
            run.kind == GELUREF_RUN_NONE || (!m->cr && run.kind != GELUREF_RUN_SAME))
            return 0;
        int scaled = run.kind == GELUREF_RUN_SCALED;
        uint64_t add = 0;
        if (scaled) {
            int64_t nf = (int64_t)field + run.k;
            if ((x & mant_mask) == 0 || nf < 1 || nf >= (int64_t)s->n_fields)
                return 0; /* a power of two, or x 2^k not a normal number */
            add = run.k >= 0 ? (uint64_t)run.k << s->mant : -((uint64_t)-run.k << s->mant);
            if (((x + add) & width) != m->want)
                return 0; /* cannot happen (RN(f(x)) = x 2^k): measured in full then */
        }
        if (g == 0) {
            tp->fail = m->cr ? GS_K_NONE : gs_policy_judge(&c->pv, m);
            tp->score = gs_ut_score(c, m);
            tp->scaled = scaled;
            tp->add = add;
            tp->y = y;
            tp->lo = run.lo;
            tp->hi = run.hi;
        } else {
            /* the exact function's rule must expect the same outputs */
            if (scaled != tp->scaled || add != tp->add)
                return 0;
            tp->lo = run.lo > tp->lo ? run.lo : tp->lo;
            tp->hi = run.hi < tp->hi ? run.hi : tp->hi;
        }
    }
    region_bounds(rg, &tp->rlo, &tp->rhi);
    tp->x = x;
    tp->width = width;
    /* the last pattern of x's binade (same sign and exponent field; values monotone in the
     * bits there) whose value still lies in the rule's interval and x's region: x' in
     * (x, xmax] is covered.  The interval is convex and holds x, so bisect. */
    uint64_t lo = x, hi = x | mant_mask;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo + 1) / 2;
        double v = value_of_x(c->dt, mid);
        if (tp->lo < v && v < tp->hi && v >= tp->rlo && v < tp->rhi)
            lo = mid;
        else
            hi = mid - 1;
    }
    tp->xmax = lo;
    return 1;
}

/* A failed template's findings (kind fail, score: its measurement m judged by the policy) at
 * each of the counted inputs q in [i, e), those sel marks (sel NULL: those whose output is
 * want_y), counted of them: a finding at its own x, recorded in increasing x, kept where it
 * can enter the worst list (gs_ut_judge_meas) and from the first that cannot on only counted
 * (gs_findings_count_unkept, gs_findings_count_more: the list's last entry only moves ahead,
 * so no larger x of the same score could enter it). */
static void tmpl_findings(struct gs_ctx *c, struct ulp_acc *a, enum gs_kind fail, double score,
                          enum gs_region rg, const struct gs_meas *m, const uint64_t *x,
                          const uint64_t *y, uint64_t want_y, const unsigned char *sel,
                          size_t i, size_t e, uint64_t counted)
{
    uint64_t left = counted;
    for (size_t q = i; left > 0 && q < e; q++) {
        if (sel ? !sel[q] : y[q] != want_y)
            continue;
        left--;
        if (gs_findings_count_unkept(&a->f, fail, rg, score, 1, x[q])) {
            gs_findings_count_more(&a->f, fail, rg, left);
            break;
        }
        struct gs_meas mq = *m;
        mq.x = x[q];
        (void)gs_ut_judge_meas(c, &mq, &a->f, "ulp");
    }
}

/* A template measured in full, m (its x and output m->x, m->got), and the inputs it stands
 * for: the template accounted (account(), its own measurement alone), then, where the policy
 * fails it, a finding at each counted input (tmpl_findings over [i, e), sel or want_y as
 * there), and the counted ones' counts (gs_errstat_add_repeat_n).  Returns -1 where
 * account() stopped the run. */
static int tmpl_account(struct ulp_run *u, struct ulp_acc *a, unsigned t, enum gs_region rg,
                        struct gs_meas *m, const uint64_t *x, const uint64_t *y,
                        uint64_t want_y, const unsigned char *sel, size_t i, size_t e,
                        uint64_t counted, struct ulp_prev *p)
{
    struct gs_ctx *c = u->c;
    if (account(u, a, t, 1, m->x, m->got, m, 0, 0, p) != 0)
        return -1;
    p->rg = GS_R_NONE; /* no repeat chain from a measurement made here */
    enum gs_kind fail = m->cr ? GS_K_NONE : gs_policy_judge(&c->pv, m);
    if (fail != GS_K_NONE)
        tmpl_findings(c, a, fail, gs_ut_score(c, m), rg, m, x, y, want_y, sel, i, e, counted);
    if (counted)
        gs_errstat_add_repeat_n(&a->loc[rg], m, counted);
    return 0;
}

/* The inputs from i on that tp's run covers, counted (or measured in full where the output
 * is not the expected one); returns the index of the first input it does not cover, or
 * (size_t)-1 when the reference failed (recorded). */
static size_t run_count(struct ulp_run *u, struct ulp_acc *a, unsigned t,
                        const struct ulp_tmpl *tp, size_t i, size_t n, struct ulp_prev *p)
{
    struct gs_ctx *c = u->c;
    enum gs_region rg = region_of(c->dt, tp->x);
    /* the stretch [i, e): inputs above x_t up to the last one the run covers (sweep inputs
     * and kernel outputs are clean dtype bits, gs_ut_bits and load_batch) */
    size_t e = gs_ut_stretch_end(a->x, i, n, tp->x, tp->xmax, u->exhaustive);
    uint64_t counted = 0;
    if (tp->scaled)
        for (size_t q = i; q < e; q++)
            counted += a->y[q] == ((a->x[q] + tp->add) & tp->width);
    else
        for (size_t q = i; q < e; q++)
            counted += a->y[q] == tp->y;
    /* other outputs: measured in full, except that under a SAME rule the output of the last
     * one measured here has that one's measurement (rep, as gs_measure_n) */
    struct gs_meas last;
    int have_last = 0;
    for (size_t q = i; counted < e - i && q < e; q++) {
        uint64_t x = a->x[q];
        if (a->y[q] == (tp->scaled ? (x + tp->add) & tp->width : tp->y))
            continue;
        struct gs_meas m;
        int rep = !tp->scaled && have_last && a->y[q] == last.got;
        if (rep) {
            m = last;
            m.x = x;
        } else {
            enum geluref_status st = gs_measure(c->ref[t], c->func, c->dt, x, a->y[q], &m);
            if (st != GELUREF_OK) {
                gs_ut_internal(c, "ulp", x, st);
                return (size_t)-1;
            }
            last = m;
            have_last = 1;
        }
        if (account(u, a, t, 1, x, a->y[q], &m, rep, 1, p) != 0)
            return (size_t)-1;
    }
    /* a failed template: each counted input is a finding at its own x (see above) */
    if (tp->fail != GS_K_NONE)
        tmpl_findings(c, a, tp->fail, tp->score, rg, &tp->m, a->x, a->y, tp->y, NULL, i, e,
                      counted);
    if (counted) {
        gs_errstat_add_repeat_n(&a->loc[rg], &tp->m, counted);
        if (u->exact)
            gs_errstat_add_repeat_n(&a->ex_loc[rg], &tp->mx, counted);
        gs_ref_add_run_inputs(c->ref[t], counted);
    }
    p->rg = GS_R_NONE; /* the next input is not a repeat of one counted here */
    return e;
}

/* ---- the fused pass (binary32): measurements decided from the double tier ----
 * ulp_fused.h decides from an enclosure of f(x) what measure.c would compute from the value
 * rounded to odd: the roundings, cr, faithful, cr_distance, the defect, and intervals holding
 * the three errors.  An input is then accounted here without that value when all of it is
 * certain: the policy's verdict (gs_policy_judge: passed for any error in the intervals, or
 * failed while its finding cannot enter the worst list, gs_findings_count_unkept) and the
 * statistics (every error interval below the maximum the item's statistics hold, so that
 * add_max would keep them: gs_errstat_count; a relative error of exactly 1 ties with a kept 1
 * of a smaller x, which stays ahead).  The maxima only grow, so what is below them now is
 * below them at the end, whatever order the other inputs are accounted in (counts add up,
 * findings and maxima merge order-independently: errstat.c, findings.c).  Anything else is
 * measured in full (account()); the exact function's measurement of an approximation kernel
 * shares the pass: the same inputs, outputs, regions and loop, its enclosure from the same
 * call.  The result is the same bit for bit: tests/suites/test_ulp_fused.c checks the
 * decisions against gs_measure, and the sweep tests compare whole results with --reference
 * mpfr, which takes no fused pass. */

/* Whether fm's errors cannot move st's maxima (input x, later than those kept): the upper
 * ends of the error intervals (ulp_fused.h) below them; the relative one without the
 * quotient: uh (1 + 2^-48) < max_rel (ms - w) (1 - 2^-48), each side within 2u of its real
 * value, puts gs_fused_rel_hi strictly below max_rel.  Errors known exactly (exact_errs) may
 * also equal a maximum kept for a smaller x: the tie keeps that one (errstat.c beats()), and
 * it stays ahead of x whatever else is added, the final holder's x being at most its x. */
static inline int fused_below_max(const struct gs_errstat *st, const struct gs_fused_meas *fm,
                                  uint64_t x)
{
    if (fm->exact_errs) { /* measure.c's errors: add_max keeps st's unless one beats it */
        if (!((fm->ulp < st->max_ulp || (fm->ulp == st->max_ulp && x > st->max_ulp_x)) &&
              (fm->abs < st->max_abs || (fm->abs == st->max_abs && x > st->max_abs_x))))
            return 0;
        /* the relative error without the division where a product decides it */
        if (gs_fused_rel_below(fm, st->max_rel))
            return 1;
        double rel = gs_fused_rel(fm);
        return rel < st->max_rel || (rel == st->max_rel && x > st->max_rel_x);
    }
    double uh = gs_fused_ulp_hi(fm);
    if (!(uh < st->max_ulp && uh * fm->p2k * (1 + 0x1p-50) + 0x1p-1074 < st->max_abs))
        return 0;
    if (fm->rel_one)
        return gs_fused_rel_one_below(st->max_rel, st->max_rel_x, x);
    return uh * (1 + 0x1p-48) < st->max_rel * (fm->ms - fm->w) * (1 - 0x1p-48);
}

/* gs_errstat_count, the histogram's first buckets inline. */
static inline void fused_count(struct gs_errstat *st, const struct gs_fused_meas *fm)
{
    if (fm->cr_distance <= 1) {
        st->points++;
        st->cr += fm->cr != 0;
        st->faithful += fm->faithful != 0;
        st->hist[fm->cr_distance]++; /* the buckets "0" and "1" (errstat.c) */
    } else {
        gs_errstat_count(st, fm->cr, fm->faithful, fm->cr_distance);
    }
}

/* gs_fused_measure_f32, its common case first. */
static inline int fused_measure(const struct geluref_encl *e, uint64_t y,
                                struct gs_fused_meas *fm)
{
    int r = gs_fused_measure_f32_fast(e, y, fm);
    return r < 0 ? gs_fused_measure_f32(e, y, fm) : r;
}

/* The state of an input's measurement (the kernel's own, the exact function's) in a block. */
enum { FS_FULL = 0, FS_DECIDED, FS_PICKED, FS_DONE };

/* A bound m of |f''| over [lo, hi] (geluref_curvature), kept between blocks: fused_curv. */
struct curv_cache {
    int f1; /* the function plus 1 (0: none yet, as a zeroed thread's state) */
    double lo, hi, m;
};

struct fused_state {
    struct gs_fused_meas fm[ULP_MEAS_BLOCK], fx[ULP_MEAS_BLOCK];
    unsigned char own[ULP_MEAS_BLOCK], ex[ULP_MEAS_BLOCK], failed[ULP_MEAS_BLOCK];
    unsigned char rg[ULP_MEAS_BLOCK];
    /* the bound lanes (pass 1) left out for this many more blocks: they took fewer than half
     * of a block's measurements (errors that grow along a tail, above the maxima the block
     * starts with), and each miss costs a second decision; the same results either way */
    unsigned skip_own, skip_ex;
    unsigned skip_qown, skip_qex; /* the quick lanes' likewise (a quarter) */
    unsigned skip_span;           /* the span lane's (half) */
    unsigned skip_spo;            /* the own span lane's (half) */
    unsigned skip_pre;            /* the own last input taken first (pre_own) */
    unsigned skip_flo, skip_flx;  /* the flat runs' of each function (half) */
    struct curv_cache cv_own, cv_ex; /* the own function's and the exact one's (fused_curv) */
};

/* A bound of |f''| over the block between a and b (its first and last inputs' values), -1
 * for none: geluref_curvature over an interval that holds the block, kept in cc.  Where none
 * is kept, it is asked over the block widened to FUSED_CURV_BLOCKS blocks in the sweep's
 * direction (an exhaustive item's next blocks continue past b at the same spacing): one call
 * serves the next blocks too (about 10 to 14 ns a call, two a block).  A bound over an
 * interval bounds |f''| over each of its subintervals, so the chords' argument (ulp_lane.h)
 * holds with it; it is at most a few percent above the block's own in the tails (f'' moves
 * by e^(|x| dx) over the widening, dx = 2^-9 at most below |x| = 16), a wider chord term
 * (wc) of as much.  Where the widened interval has no bound, the block's own is asked. */
#define FUSED_CURV_BLOCKS 8
static double fused_curv(enum geluref_func f, struct curv_cache *cc, double a, double b)
{
    double lo = fmin(a, b), hi = fmax(a, b);
    if (cc->f1 == (int)f + 1 && cc->lo <= lo && hi <= cc->hi)
        return cc->m;
    double e = a + FUSED_CURV_BLOCKS * (b - a);
    double wl = fmin(a, e), wh = fmax(a, e), m = geluref_curvature(f, wl, wh);
    if (m >= 0 && isfinite(wl) && isfinite(wh) && wl <= lo && hi <= wh) {
        cc->f1 = (int)f + 1;
        cc->lo = wl;
        cc->hi = wh;
        cc->m = m;
        return m;
    }
    return geluref_curvature(f, lo, hi);
}

/* Blocks without a lane after one where it took fewer than half (fused_state.skip_own). */
#define FUSED_LANE_SKIP 16
/* Inputs tried from a block's end for the exact function's measurement taken first. */
#define PRE_X_TRIES 4

/* Eight flags of a block (bytes 0 or 1: ok, the lanes' take) as one word, and how many of
 * them are 1 (the bytes' sum, at most 8, in the top byte of the product). */
#define FLAGS8_ALL UINT64_C(0x0101010101010101)
static inline uint64_t flags8(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return w;
}
static inline size_t flags8_count(uint64_t w) { return (size_t)((w * FLAGS8_ALL) >> 56); }
/* t[q] |= s[q] for q < k, eight flags at a time. */
static inline void flags_or(unsigned char *t, const unsigned char *s, size_t k)
{
    size_t q = 0;
    for (; q + 8 <= k; q += 8) {
        uint64_t w = flags8(t + q) | flags8(s + q);
        memcpy(t + q, &w, sizeof w);
    }
    for (; q < k; q++)
        t[q] |= s[q];
}

/* The inputs taken by one more way (src) added to a block's taken flags t, which hold
 * nothing yet where *any is 0 (then a copy); *any set. */
static inline void take_or(unsigned char *t, int *any, const unsigned char *src, size_t k)
{
    if (!*any)
        memcpy(t, src, k);
    else
        flags_or(t, src, k);
    *any = 1;
}

static void fused_meas_of(const struct gs_fused_meas *fm, uint64_t x, uint64_t y,
                          struct gs_meas *m);
static struct gs_quick_bounds quick_bounds(const struct gs_errstat *st,
                                           const struct gs_policy_values *v,
                                           const struct gs_findings *f, enum gs_region rg);

/* Inputs a block's bound lane or quick lane leaves, at least, for its largest errors to be
 * accounted first (block_lanes). */
#define QUICK_RETRY_MIN 8

/* Inputs the exact function's span lane leaves in a block, at most, for each to be accounted
 * in full at once (fused_block). */
#define SPAN_LEFT_FULL 8

/* The inputs of a block of k selected by sel (nonzero flags), copied side by side: their
 * enclosures, x, y and places (idx), then padded to a multiple of four with copies of the
 * first marked not to decide (okc 0: so that a lane passes over no one-at-a-time rest).
 * Returns how many were selected; *len, the padded count. */
static size_t sel_copy(const struct geluref_encl *e, const unsigned char *sel,
                       const uint64_t *x, const uint64_t *y, size_t k, struct geluref_encl *ec,
                       uint64_t *xc, uint64_t *yc, unsigned char *okc, unsigned char *idx,
                       size_t *len)
{
    size_t m = 0;
    /* words of eight flags (0 or 1 each; a last partial word padded with zeros): the
     * selected inputs one by one, by the lowest set bit (a sparse selection copies only
     * what it selects); flag j of a word is its byte j, bit 8j once in little-endian
     * order */
    for (size_t q = 0; q < k; q += 8) {
        uint64_t w = 0;
        if (q + 8 <= k)
            w = flags8(sel + q);
        else
            memcpy(&w, sel + q, k - q);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = __builtin_bswap64(w);
#endif
        for (; w != 0; w &= w - 1) {
            size_t i = q + ((size_t)__builtin_ctzll(w) >> 3);
            ec[m] = e[i];
            xc[m] = x[i];
            yc[m] = y[i];
            idx[m++] = (unsigned char)i;
        }
    }
    if (m == 0)
        return 0;
    memset(okc, 1, m);
    *len = (m + 3) & ~(size_t)3;
    for (size_t j = m; j < *len; j++) {
        ec[j] = ec[0];
        xc[j] = yc[j] = 0;
        okc[j] = 0;
    }
    return m;
}

/* The quick lane over the nr inputs of a block selected by sel (ulp_lane.h, with b): over
 * the whole block where they are at least half of it, else over a copy of them side by side
 * (so that it does not pass over the others four at a time; the same decisions: each input's
 * is its own, its x with it), padded to a multiple of four with inputs it leaves.  t[q] |= 1
 * where it takes input q, n gains their counts.  With pick (not NULL), where it leaves at
 * least QUICK_RETRY_MIN inputs: pick[] receives those of the largest ulp, absolute and
 * relative errors (ulp / a, compared by cross products) among the ones it decided and left,
 * distinct, and the count is returned (0 otherwise). */
static size_t quick_over(const struct geluref_encl *e, const unsigned char *sel, size_t nr,
                         const uint64_t *x, const uint64_t *y, size_t k,
                         const struct gs_quick_bounds *b, unsigned char *t,
                         struct gs_quick_counts *n, size_t *pick)
{
    if (nr == 0)
        return 0;
    unsigned char tq[ULP_MEAS_BLOCK], idx[ULP_MEAS_BLOCK];
    double eu[ULP_MEAS_BLOCK], ea[ULP_MEAS_BLOCK], eav[ULP_MEAS_BLOCK];
    struct gs_quick_errs er = { eu, ea, eav };
    uint64_t n0 = n->n;
    size_t len = k; /* the lane's inputs: the block's, or the copy's (idx: their places) */
    int copy = 2 * nr < k;
    if (!copy) {
        gs_fused_quick_lane_n(e, sel, x, y, k, b, tq, n, pick ? &er : NULL);
        flags_or(t, tq, k);
    } else {
        struct geluref_encl ec[ULP_MEAS_BLOCK / 2];
        uint64_t xc[ULP_MEAS_BLOCK / 2], yc[ULP_MEAS_BLOCK / 2];
        unsigned char okc[ULP_MEAS_BLOCK / 2];
        size_t m = sel_copy(e, sel, x, y, k, ec, xc, yc, okc, idx, &len);
        if (m == 0) /* nr > 0 says otherwise; for the compiler */
            return 0;
        gs_fused_quick_lane_n(ec, okc, xc, yc, len, b, tq, n, pick ? &er : NULL);
        len = m;
        for (size_t j = 0; j < m; j++)
            t[idx[j]] |= tq[j];
    }
    if (pick == NULL || nr - (n->n - n0) < QUICK_RETRY_MIN)
        return 0;
    size_t ju = len, ja = len, jr = len;
    for (size_t j = 0; j < len; j++) {
        if (tq[j] || !(eu[j] >= 0)) /* taken, or not decided (-1; an input not selected too) */
            continue;
        if (ju == len || eu[j] > eu[ju])
            ju = j;
        if (ja == len || ea[j] > ea[ja])
            ja = j;
        if (jr == len || eu[j] * eav[jr] > eu[jr] * eav[j])
            jr = j;
    }
    if (ju == len)
        return 0;
    size_t np = 0;
    pick[np++] = copy ? idx[ju] : ju;
    if (ja != ju)
        pick[np++] = copy ? idx[ja] : ja;
    if (jr != ju && jr != ja)
        pick[np++] = copy ? idx[jr] : jr;
    return np;
}

/* What block_lanes needs to account a measurement in full: the kernel's own (own: account(),
 * the findings and the repeat chain p with it) or the exact function's (into st alone); err
 * set where account() stopped the run. */
struct lane_full {
    struct ulp_run *u;
    struct ulp_acc *a;
    unsigned t;
    struct ulp_prev *p;
    enum gs_region rg;
    int own, err;
};

/* Input j of a block accounted in full where its enclosure gives V itself
 * (gs_fused_measure_f32_quick's measurement, fused_meas_of, as pass 3 accounts a picked one:
 * the kernel's own by account(), the exact function's into st).  Returns 1 when accounted, 0
 * when V is not known (nothing done), -1 when account() stopped the run (lf->err set). */
static int lane_account(const struct geluref_encl *e, const uint64_t *x, const uint64_t *y,
                        size_t j, struct gs_errstat *st, struct lane_full *lf)
{
    struct gs_fused_meas fm;
    struct gs_meas m;
    if (gs_fused_measure_f32_quick(&e[j], y[j], &fm) != 1 || !fm.exact_errs)
        return 0;
    fused_meas_of(&fm, x[j], y[j], &m);
    if (!lf->own) {
        gs_errstat_add(st, &m);
        return 1;
    }
    if (account(lf->u, lf->a, lf->t, 1, x[j], y[j], &m, 0, 0, lf->p) != 0) {
        lf->err = 1;
        return -1;
    }
    lf->p->rg = GS_R_NONE; /* no repeat chain from a measurement made here */
    return 1;
}

/* The bound lane (lim) over the nr inputs of a block selected by sel: over the whole block
 * where they are at least half of it, else over a copy of them side by side (sel_copy: the
 * same decisions, each input's its own).  t[q] |= 1 where it takes input q; n gains their
 * counts; where uh is not NULL, uh[q] = input q's uh as the lane sets it, -1 for the others
 * (gs_fused_bound_lane_n). */
static void bound_over(const struct geluref_encl *e, const unsigned char *sel, size_t nr,
                       const uint64_t *x, const uint64_t *y, size_t k,
                       const struct gs_bound_limits *lim, unsigned char *t,
                       struct gs_quick_counts *n, double *uh)
{
    unsigned char tq[ULP_MEAS_BLOCK];
    if (2 * nr >= k && nr > 0) {
        gs_fused_bound_lane_n(e, sel, y, k, lim, tq, n, uh);
        flags_or(t, tq, k);
        return;
    }
    for (size_t q = 0; uh != NULL && q < k; q++)
        uh[q] = -1;
    if (nr == 0)
        return;
    struct geluref_encl ec[ULP_MEAS_BLOCK / 2];
    uint64_t xc[ULP_MEAS_BLOCK / 2], yc[ULP_MEAS_BLOCK / 2];
    unsigned char okc[ULP_MEAS_BLOCK / 2], idx[ULP_MEAS_BLOCK];
    double uc[ULP_MEAS_BLOCK / 2];
    size_t len = 0, m = sel_copy(e, sel, x, y, k, ec, xc, yc, okc, idx, &len);
    gs_fused_bound_lane_n(ec, okc, yc, len, lim, tq, n, uh != NULL ? uc : NULL);
    for (size_t j = 0; j < m; j++) {
        t[idx[j]] |= tq[j];
        if (uh != NULL)
            uh[idx[j]] = uc[j];
    }
}

/* The bound lane's limits for statistics st (their maxima and counts), policy v (NULL: not
 * judged) and unkept bound unkept (gs_fused_bound_limits). */
static struct gs_bound_limits bound_limits_of(const struct gs_errstat *st,
                                              const struct gs_policy_values *v, double unkept)
{
    return gs_fused_bound_limits(st->max_ulp, st->max_abs, st->max_rel, st->cr, st->points, v,
                                 unkept);
}

/* The inputs of a block ok leaves and t has not taken, into rest; returns how many. */
static size_t rest_of(const unsigned char *ok, const unsigned char *t, size_t k,
                      unsigned char *rest)
{
    size_t nr = 0, q = 0;
    for (; q + 8 <= k; q += 8) {
        uint64_t w = flags8(ok + q) & ~flags8(t + q) & FLAGS8_ALL;
        memcpy(rest + q, &w, sizeof w);
        nr += flags8_count(w);
    }
    for (; q < k; q++) {
        rest[q] = (unsigned char)(ok[q] & !t[q]);
        nr += rest[q];
    }
    return nr;
}

/* The lanes' decisions for a block (ulp_lane.h), their outputs counted into st: where the
 * bound lane runs (bound, with lim: gs_fused_bound_lane), the outputs it takes (their
 * measurement certain, their errors bounded below the maxima, passed by the policy or failed
 * below the unkept bound); where the quick lane runs (quick, with b), those it takes of the
 * rest.  t[q] is nonzero where either took input q; failed[0] to failed[3] gain how many of
 * them the policy failed for ulp_exceeded, premature_flush, ftz and signed_zero (their
 * findings for the caller to count), *crn how many the bound lane took (with its retry below
 * and those the retry accounted in full: a block where the retry takes most is one where the
 * lane is worth its time).  Errors that grow along a tail or a block (an approximation's
 * against the exact function, a kernel's own near 2^-20 for the sigmoid form), with the
 * outputs' rounding as noise over a block, leave a part of a block above the maxima the block
 * starts with.  So where the bound lane leaves QUICK_RETRY_MIN inputs or more, the one of the
 * largest uh among them is accounted in full first (lane_account: its V known) and the bound
 * lane runs again over the rest, against the maxima and findings it leaves; and where the
 * quick lane then leaves QUICK_RETRY_MIN or more, those of the largest errors among the ones
 * it decided are accounted in full and it runs again likewise.  The same result (any input may
 * be accounted in full at any time, and the lanes' decisions hold against maxima and worst
 * lists that only grow).  Returns how many they took (those accounted in full too). */
static uint64_t block_lanes(const struct geluref_encl *e, const unsigned char *ok,
                            const uint64_t *x, const uint64_t *y, size_t k, int bound,
                            const struct gs_bound_limits *lim, int quick,
                            const struct gs_quick_bounds *b, unsigned char *t,
                            struct gs_errstat *st, uint64_t *failed, uint64_t *crn,
                            struct lane_full *lf)
{
    struct gs_quick_counts n = { 0 };
    uint64_t full = 0; /* accounted in full (the largest errors the lanes left) */
    double uh[ULP_MEAS_BLOCK];
    memset(t, 0, k);
    if (bound) { /* over a copy of the inputs ok leaves where they are fewer than half of the
                    block (after a span lane took most) */
        unsigned char sel[ULP_MEAS_BLOCK];
        size_t nok = rest_of(ok, t, k, sel);
        bound_over(e, sel, nok, x, y, k, lim, t, &n, quick ? uh : NULL);
    }
    *crn = n.n;
    if (quick && n.n < k) {
        unsigned char rest[ULP_MEAS_BLOCK];
        size_t nr = rest_of(ok, t, k, rest);
        if (bound && nr >= QUICK_RETRY_MIN) { /* the largest uh left in full, the lane again */
            size_t j = k;
            for (size_t q = 0; q < k; q++)
                if (rest[q] && uh[q] >= 0 && (j == k || uh[q] > uh[j]))
                    j = q;
            int r = j < k ? lane_account(e, x, y, j, st, lf) : 0;
            if (r < 0)
                return 0;
            if (r > 0) {
                t[j] = 1;
                full++;
                rest[j] = 0;
                struct gs_bound_limits l2 = bound_limits_of(
                    st, b->v,
                    lf->own ? gs_findings_unkept_below(&lf->a->f, GS_K_ULP_EXCEEDED, lf->rg)
                            : -INFINITY);
                bound_over(e, rest, nr - 1, x, y, k, &l2, t, &n, NULL);
                nr = rest_of(ok, t, k, rest);
                /* a few it left again (above a maximum of another kind, or tied), each in
                 * full at once: pass 2 to 5 would pick and measure them so */
                size_t nd = 0;
                for (size_t q = 0; q < k; q++)
                    nd += rest[q] && uh[q] >= 0;
                for (size_t q = 0; nd < QUICK_RETRY_MIN && q < k; q++) {
                    if (!rest[q] || !(uh[q] >= 0))
                        continue;
                    if ((r = lane_account(e, x, y, q, st, lf)) < 0)
                        return 0;
                    if (r > 0) {
                        t[q] = 1;
                        full++;
                        rest[q] = 0;
                        nr--;
                    }
                }
            }
        }
        *crn = n.n + full; /* the bound lane's, with its retry */
        /* the largest errors left in full, then the quick lane again */
        size_t pick[3];
        size_t np = quick_over(e, rest, nr, x, y, k, b, t, &n, pick);
        if (np > 0) {
            for (size_t i = 0; i < np; i++) {
                int r = lane_account(e, x, y, pick[i], st, lf);
                if (r < 0)
                    return 0;
                if (r > 0) {
                    t[pick[i]] = 1;
                    full++;
                }
            }
            nr = rest_of(ok, t, k, rest);
            struct gs_quick_bounds b2 =
                quick_bounds(st, b->v, lf->own ? &lf->a->f : NULL, lf->rg);
            quick_over(e, rest, nr, x, y, k, &b2, t, &n, NULL);
        }
    }
    st->points += n.n;
    st->cr += n.cr;
    st->faithful += n.faithful;
    for (int i = 0; i < GS_HIST_N; i++)
        st->hist[i] += n.hist[i];
    failed[0] += n.failed;
    failed[1] += n.failed_flush;
    failed[2] += n.failed_ftz;
    failed[3] += n.failed_sz;
    return n.n + full;
}

/* The quick lane's bounds for statistics st (ulp_lane.h): their maxima, the policy v (NULL:
 * not judged), and findings f's bounds for an unkept ulp_exceeded, premature_flush, ftz and
 * signed_zero finding in region rg. */
static struct gs_quick_bounds quick_bounds(const struct gs_errstat *st,
                                           const struct gs_policy_values *v,
                                           const struct gs_findings *f, enum gs_region rg)
{
    struct gs_quick_bounds b = { st->max_ulp,   st->max_abs,   st->max_rel, st->max_rel_x,
                                 st->max_ulp_x, st->max_abs_x, v,           -INFINITY,
                                 -INFINITY,     -INFINITY,     -INFINITY };
    if (v != NULL) {
        b.unkept = gs_findings_unkept_below(f, GS_K_ULP_EXCEEDED, rg);
        b.unkept_flush = gs_findings_unkept_below(f, GS_K_PREMATURE_FLUSH, rg);
        b.unkept_ftz = gs_findings_unkept_below(f, GS_K_FTZ, rg);
        b.unkept_sz = gs_findings_unkept_below(f, GS_K_SIGNED_ZERO, rg);
    }
    return b;
}

/* Pass 1's measurement of (x, y) from enclosure e (ok: e holds), its quick case accounted at
 * once: when gs_fused_measure_f32_quick (or, for a zero output far below the subnormals,
 * gs_fused_quick_tiny) decides it with V itself known, its verdict is
 * certain, its errors are below the maxima of its statistics st and, failed, it cannot enter
 * its worst list, it is counted as pass 4 would count it (fused_count into st; failed, into
 * the findings' count by gs_findings_count_unkept, which counts only where certain) instead
 * of being kept for passes 2 to 4.  The same result: the maxima and the worst lists only
 * grow ahead of it, so what is below them now is below them when pass 4 would have tested
 * it; counts add up in any order; the picks of pass 2 only choose which other inputs are
 * measured in full first, never what any input adds (each is either certain or measured in
 * full).  v: the policy (NULL for the exact function's measurement, which is not judged);
 * f: the findings (unused without v).  Returns 2 when accounted, 1 when *fm holds the
 * decided measurement for the passes below, 0 when the enclosure decides nothing. */
static inline __attribute__((always_inline)) int
fused_quick(const struct geluref_encl *e, int ok, uint64_t y, uint64_t x, struct gs_errstat *st,
            const struct gs_policy_values *v, struct gs_findings *f, enum gs_region rg,
            struct gs_fused_meas *fm)
{
    if (!ok)
        return 0;
    struct gs_fused_meas qm;
    int tiny = 0; /* a zero output far below the subnormals (gs_fused_quick_tiny) */
    if (!gs_fused_quick_core(e, y, &qm, 0)) {
        if (!gs_fused_quick_tiny(e, y, &qm))
            return fused_measure(e, y, fm);
        tiny = 1;
    }
    int j = v ? gs_fused_judge(v, &qm) : 1;
    if (j >= 0 && fused_below_max(st, &qm, x) &&
        (j == 1 || gs_findings_count_unkept(f, qm.defect, rg, qm.ulp, 1, x))) {
        fused_count(st, &qm);
        return 2;
    }
    if (tiny) { /* every field set */
        *fm = qm;
        return 1;
    }
    return gs_fused_measure_f32_quick(e, y, fm); /* the same case, every field (1) */
}

/* Among the block's decided measurements (st[q] = FS_DECIDED), for each error kind (ulp,
 * absolute, relative) the one of the largest lower bound, if it could move the maximum of that
 * kind of its statistics: picked to be measured in full first (FS_PICKED), so that the maxima
 * hold the block's largest errors before the others are tested against them.  Where a
 * kernel's errors grow along the sweep (a tail), each input would otherwise be a new maximum.
 * (The lower bounds are compared through monotone stand-ins: d - w for the ulp error, times
 * 2^k for the absolute one, over ms + w for the relative one.) */
static void fused_pick_max(struct ulp_acc *a, const struct gs_fused_meas *fm, unsigned char *st,
                           const unsigned char *rg, size_t k, int exact, const uint64_t *x)
{
    size_t best[3] = { k, k, k };
    double bv[3] = { -INFINITY, -INFINITY, -INFINITY };
    for (size_t q = 0; q < k; q++) {
        if (st[q] != FS_DECIDED)
            continue;
        double lo = fm[q].d - fm[q].w;
        double vv[3] = { lo, lo * fm[q].p2k, fm[q].rel_one ? 1.0 : lo / (fm[q].ms + fm[q].w) };
        for (int w = 0; w < 3; w++)
            if (vv[w] > bv[w]) {
                bv[w] = vv[w];
                best[w] = q;
            }
    }
    for (int w = 0; w < 3; w++) {
        size_t b = best[w];
        if (b == k || st[b] != FS_DECIDED)
            continue;
        const struct gs_errstat *s = exact ? &a->ex_loc[rg[b]] : &a->loc[rg[b]];
        if (!fused_below_max(s, &fm[b], x[b]))
            st[b] = FS_PICKED;
    }
}

/* The failing decided measurements of the GS_WORST_K largest lower ulp bounds that could
 * enter their worst lists: picked (measured in full first, so that the lists hold the block's
 * worst before the others are counted against them). */
static void fused_pick_worst(struct ulp_acc *a, struct fused_state *fs, size_t k)
{
    size_t top[GS_WORST_K];
    double tv[GS_WORST_K];
    size_t n = 0;
    for (size_t q = 0; q < k; q++) {
        if (fs->own[q] != FS_DECIDED || !fs->failed[q])
            continue;
        double v = fs->fm[q].d - fs->fm[q].w;
        if (n == GS_WORST_K && v <= tv[n - 1])
            continue;
        size_t i = n < GS_WORST_K ? n++ : n - 1;
        while (i > 0 && tv[i - 1] < v) {
            tv[i] = tv[i - 1];
            top[i] = top[i - 1];
            i--;
        }
        tv[i] = v;
        top[i] = q;
    }
    for (size_t i = 0; i < n; i++) {
        const struct gs_fused_meas *fm = &fs->fm[top[i]];
        if (gs_findings_may_keep(&a->f, fm->defect, (enum gs_region)fs->rg[top[i]],
                                 gs_fused_ulp_hi(fm)))
            fs->own[top[i]] = FS_PICKED;
    }
}

/* The exact function's measurement of (x, y) in full, into the item's statistics. */
static int exact_full(struct ulp_run *u, struct ulp_acc *a, unsigned t, uint64_t x, uint64_t y,
                      enum gs_region rg)
{
    struct gs_meas m;
    enum geluref_status es = gs_measure(u->c->ref[t], u->exact, u->c->dt, x, y, &m);
    if (es != GELUREF_OK) {
        gs_ut_internal(u->c, "ulp", x, es);
        return 1;
    }
    gs_errstat_add(&a->ex_loc[rg], &m);
    return 0;
}

/* The measurement measure.c makes of (x, y) where the decided fm knows V itself
 * (exact_errs): its fields and its very errors (ulp_fused.h; tests/suites/test_ulp_fused.c
 * compares them with gs_measure's), f(x) not a value of the dtype (exact 0: the fused pass
 * decides only where f(x) is transcendental). */
static void fused_meas_of(const struct gs_fused_meas *fm, uint64_t x, uint64_t y,
                          struct gs_meas *m)
{
    m->x = x;
    m->got = y;
    m->want = fm->want;
    m->cr = fm->cr;
    m->faithful = fm->faithful;
    m->exact = 0;
    m->cr_distance = fm->cr_distance;
    m->ulp = fm->ulp;
    m->abs_err = fm->abs;
    m->rel_err = gs_fused_rel(fm);
    m->defect = fm->defect;
    m->want_class = fm->want_class;
}

/* The inputs q of the block whose own measurement is in state want, measured in full (the
 * exact function's too where its state is FS_FULL or FS_PICKED); the exact function's alone
 * where only it is in state want.  A picked measurement whose V the fused pass knows
 * (exact_errs) is not evaluated again: fused_meas_of is the measurement.  Those are accounted
 * after the evaluated ones, and the next input does not count as a repeat of them (account()'s
 * repeat chain follows gs_measure_n's batch).  Returns 0, or 1 when the reference failed
 * (recorded). */
static int fused_full(struct ulp_run *u, struct ulp_acc *a, unsigned t, struct fused_state *fs,
                      const uint64_t *x, const uint64_t *y, size_t k, unsigned char want,
                      struct ulp_prev *p)
{
    struct gs_ctx *c = u->c;
    uint64_t fx[ULP_MEAS_BLOCK], fy[ULP_MEAS_BLOCK];
    unsigned char fex[ULP_MEAS_BLOCK], rep[ULP_MEAS_BLOCK];
    struct gs_meas mb[ULP_MEAS_BLOCK];
    size_t n = 0, syn[ULP_MEAS_BLOCK], ns = 0;
    for (size_t q = 0; q < k; q++) {
        int ex_here = u->exact && (fs->ex[q] == want || fs->ex[q] == FS_FULL);
        if (u->exact && want == FS_PICKED && fs->ex[q] == FS_PICKED && fs->fx[q].exact_errs) {
            struct gs_meas m; /* the exact function's, known: into its statistics */
            fused_meas_of(&fs->fx[q], x[q], y[q], &m);
            gs_errstat_add(&a->ex_loc[fs->rg[q]], &m);
            fs->ex[q] = FS_DONE;
            ex_here = 0;
        }
        if (fs->own[q] == want && want == FS_PICKED && fs->fm[q].exact_errs) {
            syn[ns++] = q; /* accounted below; the exact function's now, where left */
            fs->own[q] = FS_DONE;
            if (ex_here && exact_full(u, a, t, x[q], y[q], (enum gs_region)fs->rg[q]) != 0)
                return 1;
            if (ex_here)
                fs->ex[q] = FS_DONE;
        } else if (fs->own[q] == want) {
            fx[n] = x[q];
            fy[n] = y[q];
            fex[n++] = (unsigned char)ex_here;
            fs->own[q] = FS_DONE;
            if (ex_here)
                fs->ex[q] = FS_DONE;
        } else if (u->exact && fs->ex[q] == want) {
            if (exact_full(u, a, t, x[q], y[q], (enum gs_region)fs->rg[q]) != 0)
                return 1;
            fs->ex[q] = FS_DONE;
        }
    }
    if (n > 0) {
        size_t bad = 0;
        enum geluref_status rs =
            gs_measure_n(c->ref[t], c->func, c->dt, fx, fy, n, mb, rep, &bad);
        size_t good = rs == GELUREF_OK ? n : bad;
        for (size_t j = 0; j < good; j++)
            if (account(u, a, t, 1, fx[j], fy[j], &mb[j], rep[j], fex[j], p) != 0)
                return 1;
        if (rs != GELUREF_OK) {
            gs_ut_internal(c, "ulp", fx[bad], rs);
            return 1;
        }
    }
    for (size_t j = 0; j < ns; j++) {
        size_t q = syn[j];
        struct gs_meas m;
        fused_meas_of(&fs->fm[q], x[q], y[q], &m);
        if (account(u, a, t, 1, x[q], y[q], &m, 0, 0, p) != 0)
            return 1;
    }
    if (ns > 0)
        p->rg = GS_R_NONE; /* no repeat chain from a measurement made here */
    return 0;
}

/* The kernel's own measurement of the block's last input (k > 1) first, in full where its
 * enclosure gives V itself (lane_account): as the exact function's (fused_block), so that
 * where a kernel's errors grow along a binade the lanes find most of the block's below the
 * maxima.  Near 0 they do: an output holds for many inputs while f moves away from it (a
 * kernel's 0.5 against gelu_tanh_grad's 0.5 + 0.8 x, errors growing with x through each
 * binade below 2^-26), so every block's errors are above the maxima its predecessors left,
 * and every input would go the dear way (fused_quick one at a time, pass 2 to 5).  The same
 * result (any input may be accounted in full at any time); the caller marks it done and
 * masks it off (ok 0).  *pre = k - 1 where accounted; returns -1 where account() stopped the
 * run.  Not tried while *skip counts down (the blocks it is left out for, then 0). */
static int pre_own(const struct geluref_encl *e, unsigned char *ok, const uint64_t *x,
                   const uint64_t *y, size_t k, struct gs_errstat *st, struct lane_full *lf,
                   size_t *pre, unsigned *skip)
{
    if (*skip > 0) {
        --*skip;
        return 0;
    }
    if (k < 2 || !ok[k - 1])
        return 0;
    double mu = st->max_ulp, ma = st->max_abs, mr = st->max_rel;
    int r = lane_account(e, x, y, k - 1, st, lf);
    if (r > 0) {
        *pre = k - 1;
        ok[k - 1] = 0;
        /* left out for a while where it raised no maximum (errors that do not grow: the
         * lanes need no help, and the full accounting costs an input or two's share of a
         * block) */
        if (st->max_ulp == mu && st->max_abs == ma && st->max_rel == mr)
            *skip = FUSED_LANE_SKIP;
    }
    return r < 0 ? -1 : 0;
}

/* Whether the fused pass can decide nothing from enclosure e (ok: it holds): it does not
 * hold, or f(x) lies below 2^GS_FUSED_TINY_EMIN (a TINY rule's tail, where the double tier
 * still serves). */
static inline int undecidable(const struct geluref_encl *e, unsigned char ok)
{
    uint64_t mb;
    memcpy(&mb, &e->m, sizeof mb);
    return !ok || (int64_t)((mb >> 52) & 0x7ff) - 1023 + e->e < GS_FUSED_TINY_EMIN;
}

/* Inputs of a block the fused pass cannot decide, at least, for rule_take to try. */
#define OWN_RULE_MIN 8

/* What own_rule and ex_rule share: among a block's inputs (one region and binade, patterns
 * increasing: an exhaustive sweep) those the fused pass cannot decide for function f from its
 * enclosures e (undecidable; not input done, accounted already, nor one skip marks, a span
 * lane's), where there are OWN_RULE_MIN or more, the first, q0, measured in full (*m,
 * gs_measure_run) where a rule of the reference decides it (GELUREF_RUN_SAME), and those after
 * it inside the rule's interval with its output: they have its very measurement but for x
 * (the same reference value, the same output), and its x is the smallest, which a tie keeps.
 * tk[q] = 1 for q0 and them, ok[q] cleared (the lanes pass over them), *q0p = q0; returns
 * their count, q0 included (0: none, tk unset; where gs_measure_run fails, pass 5 measures q0
 * again and records it).  A block neither of whose ends is such an input is passed over
 * without its scan (a TINY tail takes whole blocks; a block it only enters is measured in
 * full, as before, the same result). */
static uint64_t rule_take(struct ulp_run *u, unsigned t, enum geluref_func f, const double *xd,
                          const uint64_t *x, const uint64_t *y, size_t k,
                          const struct geluref_encl *e, unsigned char *ok,
                          const unsigned char *skip, size_t done, unsigned char *tk,
                          struct gs_meas *m, size_t *q0p)
{
    unsigned char bad[ULP_MEAS_BLOCK];
#define RULE_BAD(q) ((q) != done && !(skip && skip[q]) && undecidable(&e[q], ok[q]))
    if (k == 0 || !(RULE_BAD(0) || RULE_BAD(k - 1)))
        return 0;
    size_t q0 = k, nbad = 0;
    for (size_t q = 0; q < k; q++) {
        bad[q] = (unsigned char)RULE_BAD(q);
        nbad += bad[q];
    }
#undef RULE_BAD
    if (nbad < OWN_RULE_MIN)
        return 0;
    for (q0 = 0; !bad[q0]; q0++)
        ;
    struct geluref_odd_run run;
    if (gs_measure_run(u->c->ref[t], f, u->c->dt, x[q0], y[q0], m, &run) != GELUREF_OK ||
        run.kind != GELUREF_RUN_SAME)
        return 0;
    memset(tk, 0, k);
    uint64_t n = 0;
    for (size_t q = q0; q < k; q++)
        if (q == q0 || (bad[q] && y[q] == y[q0] && run.lo < xd[q] && xd[q] < run.hi)) {
            tk[q] = 1;
            ok[q] = 0;
            n++;
        }
    *q0p = q0;
    return n;
}

/* The kernel's own measurement of a block's inputs that the fused pass cannot decide under a
 * rule of the reference where an approximation's exact function has none, so that no run of
 * both takes them (work(), tmpl_at): for binary32, gelu_tanh_grad's TINY rule from -22.58
 * against gelu_grad's from -42.17, gelu_tanh's from -22.53 against gelu's from -41.19.  The
 * inputs rule_take finds: the first accounted in full (account(), its own measurement alone:
 * the exact function's stays the fused pass's), the others counted as a rule's run counts
 * them (run_count: gs_errstat_add_repeat_n, and where the policy fails the template a finding
 * at each one's own x, tmpl_findings).  Input done (pre_own's, or k) and those skip marks
 * (the flat runs'; NULL: none) are left alone.  tk, ok and *n as rule_take's.  The same
 * result as measuring each in full (pass 5).  Returns -1 where account() stopped the run. */
static int own_rule(struct ulp_run *u, struct ulp_acc *a, unsigned t, const double *xd,
                    const uint64_t *x, const uint64_t *y, size_t k, enum gs_region rg,
                    const struct geluref_encl *e, unsigned char *ok, const unsigned char *skip,
                    size_t done, unsigned char *tk, uint64_t *n, struct ulp_prev *p)
{
    struct gs_meas m;
    size_t q0;
    *n = rule_take(u, t, u->c->func, xd, x, y, k, e, ok, skip, done, tk, &m, &q0);
    if (*n == 0)
        return 0;
    return tmpl_account(u, a, t, rg, &m, x, y, 0, tk, q0 + 1, k, *n - 1, p);
}

/* The exact function's measurement of a block's inputs that the fused pass cannot decide under
 * a rule of the reference where the kernel's own function has none: for binary32, gelu's TINY
 * rule below -41.19 against gelu_sigmoid, whose own starts at -502.6.  The inputs rule_take
 * finds (not those skip marks, a span lane's, nor done, pre_x's): the first added to the exact
 * function's statistics (gs_errstat_add, as pre_x's measurement), the others counted
 * (gs_errstat_add_repeat_n; the exact function's measurement is not judged).  tk, ok and *n
 * as rule_take's.  The same result as measuring each in full (pass 5). */
static void ex_rule(struct ulp_run *u, struct ulp_acc *a, unsigned t, const double *xd,
                    const uint64_t *x, const uint64_t *y, size_t k, enum gs_region rg,
                    const struct geluref_encl *e, unsigned char *ok, const unsigned char *skip,
                    size_t done, unsigned char *tk, uint64_t *n)
{
    struct gs_meas m;
    size_t q0;
    *n = rule_take(u, t, u->exact, xd, x, y, k, e, ok, skip, done, tk, &m, &q0);
    if (*n == 0)
        return;
    gs_errstat_add(&a->ex_loc[rg], &m);
    if (*n > 1)
        gs_errstat_add_repeat_n(&a->ex_loc[rg], &m, *n - 1);
}

/* ---- flat runs: one output while f(x) rounded to odd holds ----
 *
 * Near 0, where f(0) is not 0 (gelu_grad's and gelu_tanh_grad's 1/2 + 0.8 x, normcdf's 1/2 +
 * 0.4 x, erfc's 1 - 1.13 x, normpdf's flat top), between the reference's near-zero rule
 * (|x| < 2^-41 for binary32) and |x| of about 2^-22, V = f(x) rounded to odd at 40 bits holds
 * for hundreds to hundreds of thousands of consecutive binary32 inputs (f moves by less than
 * V's cell from one to the next), and a kernel's output is one value for as many (its rounding
 * of 1/2).  Every lane above needs an enclosure of each input, and errors there are tiny and
 * tied (one V), so the quick lane decided them one by one.  But inputs with one V and one
 * output have one measurement but for x (measure.c's is a function of V and y alone, its
 * judgement too), and a tie keeps the smaller x (errstat.c): as in a rule's run, the first is
 * measured and the others counted (gs_errstat_add_repeat_n, a failed one's findings at each
 * x: tmpl_findings).  Where f is monotone over the block (geluref_monotone) and its inputs
 * increase (an exhaustive sweep's block of one sign: increasing or decreasing values), V is
 * monotone along it (rounding to odd is monotone), so two inputs with one V have it at every
 * input between them.  So each stretch of one output in the block (FLAT_MIN inputs or more)
 * is taken whole where its ends have one V, or in two pieces where V changes once in it (the
 * place found by bisection): V at each probe from its enclosure where that pins it
 * (gs_fused_measure_f32_quick with exact_errs: |V| = a 2^k, its sign want's; a normal
 * result).  The rest go the ways above, as do the blocks where V changes every few inputs
 * (flat_try: |x| above about 2^-24 for gelu_tanh_grad).  The same result. */
#define FLAT_MIN 16
_Static_assert(FLAT_MIN >= 16, "flat_take's test of outputs 8 apart");
/* Probes a block may spend (two for each stretch's ends, one for each step of a bisection). */
#define FLAT_PROBES 12

/* A piece [s, e] of a block (inputs s to e, one output, one V) and input s's measurement. */
struct flat_seg {
    size_t s, e;
    struct gs_fused_meas fm;
};

/* Input xd's measurement with output y where its enclosure under f pins V and f(x) is a
 * normal binary32 number (the subnormal case's a and 2^k are not |V|): 1, *fm set; 0
 * otherwise. */
static int flat_probe(enum geluref_func f, double xd, uint64_t y, struct gs_fused_meas *fm)
{
    struct geluref_encl e;
    unsigned char ok = 0;
    uint64_t mb;
    geluref_enclose_n(f, &xd, 1, &e, &ok);
    memcpy(&mb, &e.m, sizeof mb);
    if (!ok || (int64_t)((mb >> 52) & 0x7ff) - 1023 + e.e < -126)
        return 0;
    return gs_fused_measure_f32_quick(&e, y, fm) == 1 && fm->exact_errs;
}

/* Whether two probes have one V: |V| = a 2^k, and the sign of RN(V). */
static int flat_same_v(const struct gs_fused_meas *a, const struct gs_fused_meas *b)
{
    return a->a == b->a && a->p2k == b->p2k && ((a->want ^ b->want) >> 31) == 0;
}

/* Piece [s, e] of one output, whose ends' measurements are fs and fe, into sg[*n..] (at most
 * FLAT_PROBES pieces): whole where its ends have one V.  Else the place where V changes is
 * found by bisection (*budget probes left), and the pieces of fs's V from s and of fe's V up
 * to e taken (each with its first input's measurement: the same V and output as the end's,
 * so the same but for x); where a middle has neither end's V (V changes twice or more, every
 * few inputs further from 0: the other lanes cost less there) nothing is taken. */
static void flat_split(enum geluref_func f, const double *xd, const uint64_t *y, size_t s,
                       size_t e, const struct gs_fused_meas *fs, const struct gs_fused_meas *fe,
                       struct flat_seg *sg, size_t *n, unsigned *budget)
{
    size_t a = e, b = e; /* V(s .. a) is fs's, V(b .. e) fe's */
    if (!flat_same_v(fs, fe)) {
        for (a = s; b - a > 1 && *budget > 0;) {
            size_t m = a + (b - a) / 2;
            struct gs_fused_meas fmm;
            --*budget;
            if (!flat_probe(f, xd[m], y[m], &fmm))
                break;
            if (flat_same_v(&fmm, fs))
                a = m;
            else if (flat_same_v(&fmm, fe))
                b = m;
            else
                return;
        }
    }
    if (a > s && *n < FLAT_PROBES) {
        sg[*n] = (struct flat_seg){ s, a, *fs };
        ++*n;
    }
    if (b < e && *n < FLAT_PROBES) {
        sg[*n] = (struct flat_seg){ b, e, *fe };
        ++*n;
    }
}

/* The flat runs of a block of k inputs (increasing patterns of one sign, f monotone over
 * them: the caller's test) under f: its pieces into sg (*nsg of them), tk[q] = 1 for each of
 * their inputs, 0 for the others.  Returns how many inputs they hold. */
static uint64_t flat_take(enum geluref_func f, const double *xd, const uint64_t *y, size_t k,
                          unsigned char *tk, struct flat_seg *sg, size_t *nsg)
{
    unsigned budget = FLAT_PROBES;
    *nsg = 0;
    /* A stretch of FLAT_MIN (16) or more has two equal outputs 8 apart at a multiple of 8
     * (the first multiple of 8 from its start is within 8 of it, and 8 on is within the
     * stretch): where there are none (a tail, every output another), none, without the
     * scan. */
    int some = 0;
    for (size_t p = 0; p + 8 < k && !some; p += 8)
        some = y[p] == y[p + 8];
    if (!some) {
        memset(tk, 0, k);
        return 0;
    }
    for (size_t s = 0, e; s < k && budget >= 2; s = e + 1) {
        for (e = s; e + 1 < k && y[e + 1] == y[s]; e++)
            ;
        struct gs_fused_meas fs, fe;
        if (e - s + 1 < FLAT_MIN)
            continue;
        budget -= 2;
        if (flat_probe(f, xd[s], y[s], &fs) && flat_probe(f, xd[e], y[e], &fe))
            flat_split(f, xd, y, s, e, &fs, &fe, sg, nsg, &budget);
    }
    memset(tk, 0, k);
    uint64_t n = 0;
    for (size_t i = 0; i < *nsg; i++) {
        memset(tk + sg[i].s, 1, sg[i].e - sg[i].s + 1);
        n += sg[i].e - sg[i].s + 1;
    }
    return n;
}

/* flat_take's pieces where they hold three quarters of the block or more (where V changes
 * every few inputs, the span and quick lanes, which then take whole blocks, cost less than
 * the probes and the lanes over what is left): their count; else 0, and where they held
 * fewer than half, *skip = FUSED_LANE_SKIP (the blocks fused_block then leaves them out
 * for). */
static uint64_t flat_try(enum geluref_func f, const double *xd, const uint64_t *y, size_t k,
                         unsigned char *tk, struct flat_seg *sg, size_t *nsg, unsigned *skip)
{
    uint64_t n = flat_take(f, xd, y, k, tk, sg, nsg);
    if (4 * n >= 3 * k)
        return n;
    if (2 * n < k)
        *skip = FUSED_LANE_SKIP;
    return 0;
}

/* The kernel's own measurements of flat_take's pieces sg[0 .. nsg): each piece's first input
 * the template (tmpl_account), the others counted as own_rule counts them.  Returns -1 where
 * account() stopped the run. */
static int flat_own(struct ulp_run *u, struct ulp_acc *a, unsigned t, const uint64_t *x,
                    const uint64_t *y, enum gs_region rg, const struct flat_seg *sg, size_t nsg,
                    struct ulp_prev *p)
{
    for (size_t i = 0; i < nsg; i++) {
        size_t s = sg[i].s;
        struct gs_meas m;
        fused_meas_of(&sg[i].fm, x[s], y[s], &m);
        if (tmpl_account(u, a, t, rg, &m, x, y, y[s], NULL, s + 1, sg[i].e + 1, sg[i].e - s,
                         p) != 0)
            return -1;
    }
    return 0;
}

/* The exact function's measurements of flat_take's pieces: each piece's first input added to
 * its statistics, the others counted. */
static void flat_ex(struct ulp_acc *a, const uint64_t *x, const uint64_t *y, enum gs_region rg,
                    const struct flat_seg *sg, size_t nsg)
{
    for (size_t i = 0; i < nsg; i++) {
        size_t s = sg[i].s;
        struct gs_meas m;
        fused_meas_of(&sg[i].fm, x[s], y[s], &m);
        gs_errstat_add(&a->ex_loc[rg], &m);
        if (sg[i].e > s)
            gs_errstat_add_repeat_n(&a->ex_loc[rg], &m, sg[i].e - s);
    }
}

/* f's enclosures of the first m inputs of a block that tk leaves (0), side by side, into e
 * and ok; ok[q] = 0 where tk[q] is set (not enclosed: the lanes mask them off, no pass reads
 * them). */
static void enclose_left(enum geluref_func f, const double *xd, const unsigned char *tk,
                         size_t m, struct geluref_encl *e, unsigned char *ok)
{
    double xl[ULP_MEAS_BLOCK];
    unsigned char il[ULP_MEAS_BLOCK], okl[ULP_MEAS_BLOCK];
    struct geluref_encl el[ULP_MEAS_BLOCK];
    memset(ok, 0, m);
    size_t nl = gs_left_n(xd, tk, m, xl, il);
    if (nl > 0) {
        geluref_enclose_n(f, xl, nl, el, okl);
        for (size_t j = 0; j < nl; j++) {
            e[il[j]] = el[j];
            ok[il[j]] = okl[j];
        }
    }
}

/* The span lane's enclosures (ulp_lane.h): f at the ends of each GS_SPAN inputs of the block
 * (k inputs, x their patterns, xd their values), the spans of the runs between them into sp,
 * and the last input's enclosure into e[k - 1], ok[k - 1] (an end itself); m: a bound of
 * |f''| over the block (geluref_curvature), -1 for none (no chords). */
static void span_ends(enum geluref_func f, const uint64_t *x, const double *xd, size_t k,
                      double m, struct gs_fused_span *sp, struct geluref_encl *e,
                      unsigned char *ok)
{
    size_t nsb = (k - 1) / GS_SPAN + 1; /* runs: j covers inputs GS_SPAN j .. (ends) */
    double xe[ULP_MEAS_BLOCK / GS_SPAN + 2];
    size_t ie[ULP_MEAS_BLOCK / GS_SPAN + 2];
    struct geluref_encl ee[ULP_MEAS_BLOCK / GS_SPAN + 2];
    unsigned char oke[ULP_MEAS_BLOCK / GS_SPAN + 2];
    for (size_t j = 0; j <= nsb; j++) {
        ie[j] = GS_SPAN * j < k - 1 ? GS_SPAN * j : k - 1;
        xe[j] = xd[ie[j]];
    }
    geluref_enclose_n(f, xe, nsb + 1, ee, oke);
    /* the chords (ulp_lane.h): |f''| bounded once over the block (so over each run), each
     * run's inputs equally spaced where they are consecutive patterns of one binade (the
     * patterns increase: their ends n apart hold every pattern between) */
    for (size_t j = 0; j < nsb; j++) {
        uint64_t a = x[ie[j]], b = x[ie[j + 1]];
        size_t n = ie[j + 1] - ie[j];
        double h = fabs(xe[j + 1] - xe[j]); /* exact: one binade */
        double curv = m >= 0 && b - a == n && (a >> 23) == (b >> 23) ? m * h * h * 0.125 : -1;
        gs_fused_span_of(&ee[j], oke[j], &ee[j + 1], oke[j + 1], curv, (double)n, &sp[j]);
    }
    e[k - 1] = ee[nsb];
    ok[k - 1] = oke[nsb];
}

/* The span lane over the block's first m inputs that oks marks, against bounds b: what it
 * takes is counted into st at once (one point each, its bucket, correctly rounded and
 * faithful as the lane says) and done (tk[q] = 1); those the policy fails (b->v: the
 * kernel's own measurement) added to *failed, for the caller to count as ulp_exceeded
 * findings (not kept, as the bound lane's).  Returns how many it took. */
static uint64_t span_count(const struct gs_fused_span *sp, const unsigned char *oks,
                           const uint64_t *x, const uint64_t *y, size_t m,
                           const struct gs_quick_bounds *b, struct gs_errstat *st,
                           unsigned char *tk, uint64_t *failed)
{
    struct gs_quick_counts cs;
    memset(&cs, 0, sizeof cs);
    gs_fused_span_lane_n(sp, oks, x, y, m, b, tk, &cs);
    st->points += cs.n;
    st->cr += cs.cr;
    st->faithful += cs.faithful;
    for (int i = 0; i < GS_HIST_N; i++)
        st->hist[i] += cs.hist[i];
    *failed += cs.failed;
    return cs.n;
}

/* span_count over the block's first m inputs (m = k, or k - 1 where the last one is
 * accounted already), the failed ones into *failed; then f's enclosures of the inputs it
 * left, side by side, into e and ok; those it took are not enclosed (ok 0: the lanes mask
 * them off, no pass reads them).  Returns how many it took. */
static uint64_t span_take(enum geluref_func f, const struct gs_fused_span *sp, const double *xd,
                          const uint64_t *x, const uint64_t *y, size_t m,
                          const struct gs_quick_bounds *b, struct gs_errstat *st,
                          unsigned char *tk, struct geluref_encl *e, unsigned char *ok,
                          uint64_t *failed)
{
    unsigned char oks[ULP_MEAS_BLOCK];
    memset(oks, 1, m);
    uint64_t n = span_count(sp, oks, x, y, m, b, st, tk, failed);
    if (n == m) /* (nothing left to enclose) */
        memset(ok, 0, m);
    else
        enclose_left(f, xd, tk, m, e, ok);
    return n;
}

/* The inputs of a block of k that the exact function's span lane left (its first k - 1 but
 * those tk marks; ex and okx their enclosures), after span_take took n of them into st (the
 * exact function's statistics of region rg).  A few left (those next to the block's end,
 * whose errors are within the outputs' rounding of the maxima the last input set, where the
 * chords hold the run's f to a hair): each accounted in full where its enclosure gives V
 * itself (lane_account), as the lanes' retries account the largest errors they leave, instead
 * of leaving the lanes below a block where they take almost nothing (which would keep them
 * out for FUSED_LANE_SKIP blocks) and the passes below to pick and measure them.  More left
 * (a kernel whose outputs' rounding moves its errors by more than they grow over a block: the
 * block's largest error anywhere in it): first the one of the largest error from the chord
 * (|y 2^-k - m_i|; the largest ulp error's is mostly the largest absolute and relative one's
 * too) accounted in full, then the lane again over those left, against the maxima it set (as
 * block_lanes' retry).  The same result: any input may be accounted in full at any time;
 * those accounted or taken are done (tk) and masked off (okx).  Returns how many it took. */
static uint64_t span_rest(const struct gs_fused_span *sp, const double *xd, const uint64_t *x,
                          const uint64_t *y, size_t k, const struct geluref_encl *ex,
                          unsigned char *okx, unsigned char *tk, struct gs_errstat *st,
                          enum gs_region rg, uint64_t n)
{
    struct lane_full lf = { NULL, NULL, 0, NULL, rg, 0, 0 }; /* (the exact function's) */
    double xl[ULP_MEAS_BLOCK];
    unsigned char il[ULP_MEAS_BLOCK];
    uint64_t n0 = n;
    if (k - 1 - n > SPAN_LEFT_FULL) {
        size_t j = k, nl = gs_left_n(xd, tk, k - 1, xl, il);
        double dj = -1;
        for (size_t i = 0; i < nl; i++) {
            size_t q = il[i];
            const struct gs_fused_span *s = &sp[q / GS_SPAN];
            uint32_t yb = (uint32_t)(y[q] & 0x7fffffff);
            double d = okx[q] && s->ok && yb < 0x7f800000u ? gs_fused_span_dist(s, q % GS_SPAN, yb)
                                                           : -1;
            if (d > dj) {
                dj = d;
                j = q;
            }
        }
        if (j == k || lane_account(ex, x, y, j, st, &lf) <= 0)
            return 0;
        tk[j] = 1;
        okx[j] = 0;
        n++;
        unsigned char left[ULP_MEAS_BLOCK], tk2[ULP_MEAS_BLOCK];
        for (size_t q = 0; q + 1 < k; q++)
            left[q] = (unsigned char)!tk[q];
        struct gs_quick_bounds b = quick_bounds(st, NULL, NULL, rg);
        uint64_t nf = 0; /* (none: not judged) */
        n += span_count(sp, left, x, y, k - 1, &b, st, tk2, &nf);
        for (size_t q = 0; q + 1 < k; q++)
            if (tk2[q]) {
                tk[q] = 1;
                okx[q] = 0;
            }
    }
    if (k - 1 - n <= SPAN_LEFT_FULL && n < k - 1) {
        size_t nl = gs_left_n(xd, tk, k - 1, xl, il);
        for (size_t i = 0; i < nl; i++)
            if (okx[il[i]] && lane_account(ex, x, y, il[i], st, &lf) > 0) {
                tk[il[i]] = 1;
                okx[il[i]] = 0;
                n++;
            }
    }
    return n - n0;
}

/* Inputs i0 .. i0 + k - 1 of a local binary32 item.  Pass 1: the measurements the
 * enclosures decide, and the policy's verdict where certain.  Pass 2: the few that could raise
 * a maximum (fused_pick_max), and the failing ones of the largest errors that could enter a
 * worst list (at most GS_WORST_K), picked.  Pass 3: the picked ones measured in full.
 * Pass 4: the decided rest accounted where still certain (the maxima only grew), and those
 * still above a maximum whose V is known accounted as pass 3 accounts them.  Pass 5:
 * everything else measured in full.  Returns 0, or 1 when the reference failed (recorded). */
static int fused_block(struct ulp_run *u, struct ulp_acc *a, unsigned t, size_t i0, size_t k,
                       struct ulp_prev *p)
{
    struct gs_ctx *c = u->c;
    const struct gs_policy_values *v = &c->pv;
    static _Thread_local struct fused_state fs;
    double xd[ULP_MEAS_BLOCK];
    struct geluref_encl en[ULP_MEAS_BLOCK];
    /* the exact function's (kept between blocks: where the span lane takes an input, its
     * entry keeps an earlier block's enclosure, which the lanes read and mask off) */
    static _Thread_local struct geluref_encl ex[ULP_MEAS_BLOCK];
    unsigned char ok[ULP_MEAS_BLOCK], okx[ULP_MEAS_BLOCK];
    const uint64_t *x = a->x + i0, *y = a->y + i0;
    gs_f32_values_n(x, k, xd);
    /* pass 1.  Where the block's inputs (a local item's share a binade) lie between two
     * patterns of one sign and one region (their binade's ends, else the block's in an
     * exhaustive sweep, else their least and greatest), that is every input's region (a
     * region is an interval, and |x| grows with the pattern), and the bound lane
     * (gs_fused_bound_lane) counts the outputs whose measurement it decides with errors below
     * the region's maxima and a verdict of pass (gs_fused_bound_limits; the maxima only grow,
     * so what holds at the start of the block holds for each input). */
    int need_max = 0, need_worst = 0;
    uint64_t decided = 0;
    size_t rest = 0; /* measurements left to passes 2 to 5 */
    const uint64_t mant = ((uint64_t)1 << 23) - 1;
    uint64_t xlo = x[0] & ~mant, xhi = x[0] | mant; /* x[0]'s binade, the block's */
    enum gs_region rg0 = region_of(GELUREF_F32, xlo);
    if (rg0 != region_of(GELUREF_F32, xhi) && u->exhaustive) {
        /* a binade across regions: the block's ends (an exhaustive item's patterns increase,
         * item_inputs, and a block is a slice of them) */
        xlo = x[0];
        xhi = x[k - 1];
        rg0 = region_of(GELUREF_F32, xlo);
    } else if (rg0 != region_of(GELUREF_F32, xhi)) { /* the least and greatest patterns */
        /* four minima and maxima side by side (one chain of comparisons would take a cycle
         * or two an input), then theirs */
        uint64_t lo[4] = { x[0], x[0], x[0], x[0] }, hi[4] = { x[0], x[0], x[0], x[0] };
        size_t q = 0;
        for (; q + 4 <= k; q += 4)
            for (int j = 0; j < 4; j++) {
                lo[j] = x[q + j] < lo[j] ? x[q + j] : lo[j];
                hi[j] = x[q + j] > hi[j] ? x[q + j] : hi[j];
            }
        for (; q < k; q++) {
            lo[0] = x[q] < lo[0] ? x[q] : lo[0];
            hi[0] = x[q] > hi[0] ? x[q] : hi[0];
        }
        xlo = lo[0];
        xhi = hi[0];
        for (int j = 1; j < 4; j++) {
            xlo = lo[j] < xlo ? lo[j] : xlo;
            xhi = hi[j] > xhi ? hi[j] : xhi;
        }
        rg0 = region_of(GELUREF_F32, xlo);
    }
    int one_rg = rg0 < GS_N_REGIONS && ((xlo ^ xhi) >> 31) == 0 &&
                 rg0 == region_of(GELUREF_F32, xhi);
    /* statistics empty at the block's start (an item's first block in the region): a lane
     * that takes few of it does not say that it would take few of the next */
    int fresh_own = one_rg && a->loc[rg0].points == 0;
    int fresh_ex = one_rg && u->exact && a->ex_loc[rg0].points == 0;
    /* The kernel's own function's enclosures: of every input, or, for the span lane, first of
     * the ends of each GS_SPAN inputs only, as the exact function's below (where its function
     * is monotone over the block, geluref_curvature bounds its f'' there, and the statistics
     * have maxima to test against): near 0, where an output's value holds for many inputs, a
     * run's RN(f(x)) is often one; elsewhere its chords (ulp_lane.h) give most inputs one
     * RN(f(x)) and RD(f(x)) of their own; so the lane takes most outputs, correctly rounded
     * or not, whose verdict is certain.  Those it leaves are enclosed after it.  Where no
     * run's span holds for it (f below the normal range, where a span is the exact
     * function's measurement's alone, ulp_lane.h), the path below serves, for
     * FUSED_LANE_SKIP blocks. */
    unsigned char tk_spo[ULP_MEAS_BLOCK], tk_rule[ULP_MEAS_BLOCK], tk_flo[ULP_MEAS_BLOCK];
    uint64_t n_spo = 0, n_rule = 0, n_flo = 0; /* (tk_rule: own_rule's; tk_flo: flat runs') */
    size_t pre_o = k; /* the input whose own measurement is done first (below), or k */
    struct lane_full lfo = { u, a, t, p, rg0, 1, 0 };
    /* the flat runs first (their inputs are not enclosed) */
    int mono_own = u->exhaustive && one_rg && x[0] < x[k - 1] &&
                   geluref_monotone(c->func, fmin(xd[0], xd[k - 1]), fmax(xd[0], xd[k - 1])) != 0;
    if (mono_own && k >= FLAT_MIN && fs.skip_flo == 0) {
        struct flat_seg sg[FLAT_PROBES];
        size_t nsg;
        n_flo = flat_try(c->func, xd, y, k, tk_flo, sg, &nsg, &fs.skip_flo);
        if (n_flo > 0 && flat_own(u, a, t, x, y, rg0, sg, nsg, p) < 0)
            return 1;
    } else {
        fs.skip_flo -= fs.skip_flo > 0;
    }
    struct gs_fused_span spo[ULP_MEAS_BLOCK / GS_SPAN + 1];
    double curv_own = -1; /* a bound of |f''| over the block */
    if (n_flo == 0 && mono_own && fs.skip_spo == 0 && k > GS_SPAN && a->loc[rg0].max_ulp >= 0)
        curv_own = fused_curv(c->func, &fs.cv_own, xd[0], xd[k - 1]);
    int own_span = 0;
    if (curv_own >= 0) {
        span_ends(c->func, x, xd, k, curv_own, spo, en, ok);
        for (size_t j = 0; j * GS_SPAN < k; j++) /* (one below the normal range: unjudged) */
            own_span |= spo[j].ok && !spo[j].sub;
        if (!own_span)
            fs.skip_spo = FUSED_LANE_SKIP;
    }
    if (own_span) {
        if (pre_own(en, ok, x, y, k, &a->loc[rg0], &lfo, &pre_o, &fs.skip_pre) < 0)
            return 1;
        struct gs_quick_bounds b = quick_bounds(&a->loc[rg0], v, &a->f, rg0);
        uint64_t nf = 0;
        n_spo = span_take(c->func, spo, xd, x, y, pre_o < k ? k - 1 : k, &b, &a->loc[rg0],
                          tk_spo, en, ok, &nf);
        if (nf > 0)
            gs_findings_count_more(&a->f, GS_K_ULP_EXCEEDED, rg0, nf);
        if (pre_o < k)
            tk_spo[k - 1] = 0; /* (not the lane's: accounted above) */
        if (2 * n_spo < k && !fresh_own)
            fs.skip_spo = FUSED_LANE_SKIP;
    } else {
        fs.skip_spo -= fs.skip_spo > 0;
        if (n_flo == k)
            memset(ok, 0, k);
        else if (n_flo > 0)
            enclose_left(c->func, xd, tk_flo, k, en, ok);
        else
            geluref_enclose_n(c->func, xd, k, en, ok);
        if (u->exhaustive && one_rg &&
            pre_own(en, ok, x, y, k, &a->loc[rg0], &lfo, &pre_o, &fs.skip_pre) < 0)
            return 1;
        if (u->exhaustive && u->exact && one_rg &&
            own_rule(u, a, t, xd, x, y, k, rg0, en, ok, n_flo > 0 ? tk_flo : NULL, pre_o,
                     tk_rule, &n_rule, p) < 0)
            return 1;
    }
    struct gs_bound_limits lim_own = gs_fused_bound_limits(-1, -1, -1, 0, 0, NULL, -INFINITY);
    struct gs_bound_limits lim_ex = lim_own;
    int lane_own = 0, lane_ex = 0; /* try the lanes in this block */
    /* The exact function's enclosures: of every input, or, for the span lane (ulp_lane.h),
     * first of the ends of each GS_SPAN inputs only, in an exhaustive sweep (whose items hold
     * their binade's inputs in increasing patterns, item_inputs, of one sign where one_rg: so
     * in increasing or decreasing value, each run's between its ends) where the exact
     * function is monotone over the block (geluref_monotone).  The inputs the span lane
     * leaves get theirs after it. */
    struct gs_fused_span sp[ULP_MEAS_BLOCK / GS_SPAN + 1];
    unsigned char tk_flx[ULP_MEAS_BLOCK];
    uint64_t n_flx = 0; /* the exact function's flat runs first, as the kernel's own */
    int mono_ex = u->exhaustive && u->exact && one_rg && x[0] < x[k - 1] &&
                  geluref_monotone(u->exact, fmin(xd[0], xd[k - 1]), fmax(xd[0], xd[k - 1])) != 0;
    if (mono_ex && k >= FLAT_MIN && fs.skip_flx == 0) {
        struct flat_seg sg[FLAT_PROBES];
        size_t nsg;
        n_flx = flat_try(u->exact, xd, y, k, tk_flx, sg, &nsg, &fs.skip_flx);
        if (n_flx > 0)
            flat_ex(a, x, y, rg0, sg, nsg);
    } else {
        fs.skip_flx -= fs.skip_flx > 0;
    }
    int span = mono_ex && fs.skip_span == 0 && k > GS_SPAN && n_flx == 0;
    if (span) { /* (ex[k - 1]: the last input's, below) */
        span_ends(u->exact, x, xd, k,
                  fused_curv(u->exact, &fs.cv_ex, xd[0], xd[k - 1]),
                  sp, ex, okx);
    } else if (u->exact && n_flx == k) {
        memset(okx, 0, k);
    } else if (u->exact && n_flx > 0) {
        enclose_left(u->exact, xd, tk_flx, k, ex, okx);
    } else if (u->exact) {
        geluref_enclose_n(u->exact, xd, k, ex, okx);
    }
    /* The exact function's measurement of the block's last input first, where the enclosure
     * decides it with V itself known (exact_errs: fused_meas_of is then its measurement, as in
     * pass 3), or accounts it at once: an approximation's errors against the exact function
     * grow along a tail (the ulp and relative ones, as |x| and the inputs of a binade grow), so
     * that every input of the block would be a new maximum when pass 1 tests it and be left to
     * passes 2 to 4; with the block's last one in the statistics first most are below its
     * errors.  The same result: any input may be accounted in full at any time (the maxima and
     * counts merge order-independently, see above), and this one is accounted once (pass 1
     * skips it).  Where the enclosure does not pin that input's V (f(x) next to a 40-bit
     * number: rare, but then the lanes would take nearly nothing and be left out for
     * FUSED_LANE_SKIP blocks), the one before it is tried, up to PRE_X_TRIES inputs (the span
     * lane's blocks have the last one's enclosure only); where none is pinned, the last input
     * (enclosed: not a flat run's, which accounted it) is measured in full (exact_full: one
     * reference call where a block would otherwise lose its lanes; over [-16, -8] a sigmoid
     * form's last input is left so in about one block of 500, and each such block cost the
     * next 16 blocks their exact function's lanes).  (The kernel's own measurement taken
     * first likewise gained nothing: its errors grow along fewer tails, and its accounting is
     * dearer.) */
    size_t pre_x = k; /* the input whose exact function's measurement is done */
    int last_open = 0; /* the last input enclosed, its measurement decided, V not pinned */
    for (size_t q = k - 1;
         u->exact && k > 1 && pre_x == k && q + (span ? 1 : PRE_X_TRIES) >= k && q > 0; q--) {
        enum gs_region rg = one_rg ? rg0 : region_of(GELUREF_F32, x[q]);
        int dx = fused_quick(&ex[q], okx[q], y[q], x[q], &a->ex_loc[rg], NULL, NULL, rg,
                             &fs.fx[q]);
        if (dx == 1 && fs.fx[q].exact_errs) {
            struct gs_meas m;
            fused_meas_of(&fs.fx[q], x[q], y[q], &m);
            gs_errstat_add(&a->ex_loc[rg], &m);
        }
        if (dx == 2 || (dx == 1 && fs.fx[q].exact_errs))
            pre_x = q;
        else if (q == k - 1)
            last_open = dx == 1;
    }
    if (pre_x == k && last_open) {
        if (exact_full(u, a, t, x[k - 1], y[k - 1],
                       one_rg ? rg0 : region_of(GELUREF_F32, x[k - 1])) != 0)
            return 1;
        pre_x = k - 1;
    }
    if (one_rg) {
        const struct gs_errstat *s0 = &a->loc[rg0], *sx = &a->ex_loc[rg0];
        lim_own = bound_limits_of(s0, v, gs_findings_unkept_below(&a->f, GS_K_ULP_EXCEEDED, rg0));
        lim_ex = bound_limits_of(sx, NULL, -INFINITY);
        lane_own = lim_own.dmax >= 0 && fs.skip_own == 0;
        lane_ex = u->exact && lim_ex.dmax >= 0 && fs.skip_ex == 0;
    }
    /* The quick lanes take nothing from statistics without a maximum yet (an item's first
     * block: nothing is below max_ulp = -1), so they are not run there, and such a block does
     * not count as one where they took too few (which would leave them out for the next
     * FUSED_LANE_SKIP blocks, where they would take most). */
    int quick_own = one_rg && fs.skip_qown == 0 && a->loc[rg0].max_ulp >= 0;
    int quick_ex = one_rg && u->exact && fs.skip_qex == 0 && a->ex_loc[rg0].max_ulp >= 0;
    if (n_flo == k) /* nothing left to the own lanes */
        lane_own = quick_own = 0;
    if (n_flx == k)
        lane_ex = quick_ex = 0;
    fs.skip_own -= fs.skip_own > 0;
    fs.skip_ex -= fs.skip_ex > 0;
    fs.skip_qown -= fs.skip_qown > 0;
    fs.skip_qex -= fs.skip_qex > 0;
    fs.skip_span -= fs.skip_span > 0;
    /* the lanes' decisions for the whole block at once (four at a time where the CPU allows:
     * ulp_lane.h), on the maxima and worst lists of its start: pass 1 changes neither (it
     * only counts; the exact function's last input was accounted above), so a decision made
     * at the start holds for each input.  Their outputs are counted together after the loop
     * (the lanes run only where the block has one region, and counts add up in any order). */
    unsigned char tk_own[ULP_MEAS_BLOCK], tk_ex[ULP_MEAS_BLOCK];
    int any_own = quick_own || lane_own, any_ex = quick_ex || lane_ex;
    uint64_t crn_own = 0, crn_ex = 0, n_own = 0, n_ex = 0, failed[4] = { 0, 0, 0, 0 };
    if (any_own) {
        static const enum gs_kind failed_kinds[4] = { GS_K_ULP_EXCEEDED, GS_K_PREMATURE_FLUSH,
                                                      GS_K_FTZ, GS_K_SIGNED_ZERO };
        struct gs_quick_bounds b = quick_bounds(&a->loc[rg0], v, &a->f, rg0);
        struct lane_full lf = { u, a, t, p, rg0, 1, 0 };
        n_own = block_lanes(en, ok, x, y, k, lane_own, &lim_own, quick_own, &b, tk_own,
                            &a->loc[rg0], failed, &crn_own, &lf);
        if (lf.err)
            return 1;
        for (int i = 0; i < 4; i++)
            if (failed[i])
                gs_findings_count_more(&a->f, failed_kinds[i], rg0, failed[i]);
    }
    /* The span lane over the block but its last input (whose enclosure is known: its
     * measurement was accounted above or is left to the lanes and passes below), on the
     * maxima after that measurement: what it takes is counted into the statistics at once
     * (one point each, its bucket, neither correctly rounded nor faithful) and done.  Then
     * the enclosures of the inputs it left, side by side; those it took are not enclosed (ok
     * 0: the lanes mask them off, no pass reads them).  The same result: each input is either
     * certain (as the quick lane's) or measured as before. */
    unsigned char tk_span[ULP_MEAS_BLOCK];
    uint64_t n_span = 0;
    if (span) {
        struct gs_quick_bounds b = quick_bounds(&a->ex_loc[rg0], NULL, NULL, rg0);
        uint64_t nf = 0; /* (none: not judged) */
        n_span = span_take(u->exact, sp, xd, x, y, k - 1, &b, &a->ex_loc[rg0], tk_span, ex,
                           okx, &nf);
        tk_span[k - 1] = 0;
        n_span += span_rest(sp, xd, x, y, k, ex, okx, tk_span, &a->ex_loc[rg0], rg0,
                            n_span);
        if (2 * n_span < k && !fresh_ex)
            fs.skip_span = FUSED_LANE_SKIP;
    }
    /* the exact function's inputs under a rule of its own alone (ex_rule) */
    unsigned char tk_xr[ULP_MEAS_BLOCK];
    uint64_t n_xr = 0;
    if (u->exhaustive && u->exact && one_rg)
        ex_rule(u, a, t, xd, x, y, k, rg0, ex, okx,
                span ? tk_span : n_flx > 0 ? tk_flx : NULL, pre_x, tk_xr, &n_xr);
    if (any_ex) {
        struct gs_quick_bounds b = quick_bounds(&a->ex_loc[rg0], NULL, NULL, rg0);
        if (pre_x < k)
            okx[pre_x] = 0; /* accounted above */
        struct lane_full lf = { u, a, t, p, rg0, 0, 0 };
        n_ex = block_lanes(ex, okx, x, y, k, lane_ex, &lim_ex, quick_ex, &b, tk_ex,
                           &a->ex_loc[rg0], failed, &crn_ex, &lf);
    }
    if (n_spo > 0) /* the own span lane's inputs are done, as the other lanes' */
        take_or(tk_own, &any_own, tk_spo, k);
    if (pre_o < k) { /* accounted above */
        if (!any_own)
            memset(tk_own, 0, k);
        tk_own[pre_o] = 1;
        any_own = 1;
    }
    if (n_rule > 0) /* own_rule's inputs are done too */
        take_or(tk_own, &any_own, tk_rule, k);
    if (n_flo > 0) /* and the flat runs' */
        take_or(tk_own, &any_own, tk_flo, k);
    /* (the own lanes against the inputs the own span lane, own_rule and the flat runs left
     * them) */
    if (quick_own && 4 * n_own < k - n_spo - n_rule - n_flo && !fresh_own)
        fs.skip_qown = FUSED_LANE_SKIP;
    if (n_span > 0) /* the span lane's inputs are done, as the other lanes' */
        take_or(tk_ex, &any_ex, tk_span, k);
    if (n_xr > 0) /* ex_rule's inputs are done too */
        take_or(tk_ex, &any_ex, tk_xr, k);
    if (n_flx > 0) /* and the flat runs' */
        take_or(tk_ex, &any_ex, tk_flx, k);
    /* (the exact function's lanes against the inputs the span lane, ex_rule and the flat runs
     * left them) */
    if (quick_ex && 4 * n_ex < k - n_span - n_xr - n_flx && !fresh_ex)
        fs.skip_qex = FUSED_LANE_SKIP;
    if (lane_own && 2 * crn_own < k - n_spo - n_rule - n_flo && !fresh_own)
        fs.skip_own = FUSED_LANE_SKIP;
    if (lane_ex && 2 * crn_ex < k - n_span - n_xr - n_flx && !fresh_ex)
        fs.skip_ex = FUSED_LANE_SKIP;
    /* The inputs both lanes took (the exact function's, where there is one, or its last
     * input accounted above) are done: the loop below gives them their states without the
     * region or the quick case's branches, eight at a time where it can (block_lanes
     * counted their outputs), and a block they all took returns at once.  The same states
     * and counts as the loop's own branches give them (d == 2, and dx == 2 or q == pre_x),
     * so the same result. */
    unsigned char both[ULP_MEAS_BLOCK];
    size_t n_both = 0;
    if (!(one_rg && any_own && (!u->exact || any_ex))) {
        memset(both, 0, k); /* no lane, or one of the two without its own: none */
    } else {
        size_t q = 0;
        for (; q + 8 <= k; q += 8) {
            uint64_t w = flags8(tk_own + q) & (u->exact ? flags8(tk_ex + q) : ~(uint64_t)0);
            memcpy(both + q, &w, sizeof w);
            n_both += flags8_count(w);
        }
        for (; q < k; q++) {
            both[q] = (unsigned char)(tk_own[q] & (!u->exact || tk_ex[q]));
            n_both += both[q];
        }
        if (u->exact && pre_x < k && tk_own[pre_x] && !both[pre_x]) { /* okx[pre_x] = 0 */
            both[pre_x] = 1;
            n_both++;
        }
    }
    if (n_both == k) { /* every input: nothing left to the passes below */
        gs_ref_add_fused(c->ref[t], k);
        return 0;
    }
    for (size_t q = 0; q < k; q++) {
        if ((q & 7) == 0 && q + 8 <= k && flags8(both + q) == FLAGS8_ALL) { /* eight at once */
            memset(fs.rg + q, (int)rg0, 8);
            memset(fs.own + q, FS_DONE, 8);
            memset(fs.ex + q, FS_DONE, 8);
            decided += 8;
            q += 7;
            continue;
        }
        if (both[q]) {
            fs.rg[q] = (unsigned char)rg0;
            fs.own[q] = FS_DONE;
            fs.ex[q] = FS_DONE;
            decided++;
            continue;
        }
        enum gs_region rg = one_rg ? rg0 : region_of(GELUREF_F32, x[q]);
        fs.rg[q] = (unsigned char)rg;
        fs.own[q] = FS_FULL;
        int d = any_own && tk_own[q]
                    ? 2
                    : fused_quick(&en[q], ok[q], y[q], x[q], &a->loc[rg], v, &a->f, rg,
                                  &fs.fm[q]);
        if (d == 2) {
            fs.own[q] = FS_DONE;
            decided++;
        } else if (d == 1) {
            int j = gs_fused_judge(v, &fs.fm[q]);
            if (j >= 0) {
                fs.own[q] = FS_DECIDED;
                if (!need_max && !fused_below_max(&a->loc[rg], &fs.fm[q], x[q]))
                    need_max = 1;
                if (!need_worst && j == 0 &&
                    gs_findings_may_keep(&a->f, fs.fm[q].defect, rg, gs_fused_ulp_hi(&fs.fm[q])))
                    need_worst = 1;
            }
            fs.failed[q] = (unsigned char)(j == 0);
        }
        fs.ex[q] = FS_DONE;
        if (u->exact && q != pre_x) {
            int dx = any_ex && tk_ex[q] ? 2
                                        : fused_quick(&ex[q], okx[q], y[q], x[q], &a->ex_loc[rg],
                                                      NULL, NULL, rg, &fs.fx[q]);
            fs.ex[q] = dx == 2 ? FS_DONE : FS_FULL;
            if (dx == 1) {
                fs.ex[q] = FS_DECIDED;
                if (!need_max && !fused_below_max(&a->ex_loc[rg], &fs.fx[q], x[q]))
                    need_max = 1;
            }
        }
        rest += fs.own[q] != FS_DONE || fs.ex[q] != FS_DONE;
    }
    if (rest == 0) { /* pass 1 accounted every measurement: no pick, nothing left */
        gs_ref_add_fused(c->ref[t], decided);
        return 0;
    }
    /* pass 2 */
    if (need_max) {
        fused_pick_max(a, fs.fm, fs.own, fs.rg, k, 0, x);
        if (u->exact)
            fused_pick_max(a, fs.fx, fs.ex, fs.rg, k, 1, x);
    }
    if (need_worst)
        fused_pick_worst(a, &fs, k);
    /* pass 3 (nothing picked when neither flag is set: pass 2 alone picks) */
    int picked = need_max || need_worst;
    if (picked && fused_full(u, a, t, &fs, x, y, k, FS_PICKED, p) != 0)
        return 1;
    /* pass 4.  When nothing was picked, pass 1 found every decided measurement below the
     * maxima (need_max stayed 0 only if each test passed) and nothing has touched the maxima
     * since (pass 4 itself only counts, as pass 1's quick case did), so the test is not taken
     * again. */
    int full = 0; /* any measurement left to pass 5 */
    int known = 0; /* any left whose V the enclosure knows: picked again (below) */
    for (size_t q = 0; q < k; q++) {
        enum gs_region rg = (enum gs_region)fs.rg[q];
        if (fs.ex[q] == FS_DECIDED) {
            struct gs_errstat *st = &a->ex_loc[rg];
            if (!picked || fused_below_max(st, &fs.fx[q], x[q])) {
                fused_count(st, &fs.fx[q]);
                fs.ex[q] = FS_DONE;
            } else {
                fs.ex[q] = fs.fx[q].exact_errs ? FS_PICKED : FS_FULL;
                known |= fs.fx[q].exact_errs;
            }
        }
        if (fs.own[q] == FS_DECIDED) {
            struct gs_errstat *st = &a->loc[rg];
            const struct gs_fused_meas *fm = &fs.fm[q];
            if ((!picked || fused_below_max(st, fm, x[q])) &&
                (!fs.failed[q] ||
                 gs_findings_count_unkept(&a->f, fm->defect, rg, gs_fused_ulp_hi(fm),
                                          fm->exact_errs, x[q]))) {
                fused_count(st, fm);
                fs.own[q] = FS_DONE;
                decided++;
            } else {
                fs.own[q] = fm->exact_errs ? FS_PICKED : FS_FULL;
                known |= fm->exact_errs;
            }
        }
        full |= fs.own[q] == FS_FULL || fs.ex[q] == FS_FULL;
    }
    gs_ref_add_fused(c->ref[t], decided);
    /* Those still above a maximum (a tie with a larger x kept, an error grown past the picked
     * one's) whose V is known are accounted as pass 3 accounts the picked ones, from
     * fused_meas_of, not evaluated again (fused_full: the same measurement, see there); the
     * exact function's of an input picked so is taken in full with it where left. */
    if (known && fused_full(u, a, t, &fs, x, y, k, FS_PICKED, p) != 0)
        return 1;
    /* pass 5 (fused_full finds nothing to do where no state is FS_FULL) */
    return full ? fused_full(u, a, t, &fs, x, y, k, FS_FULL, p) : 0;
}

/* Blocks measured in full after a block whose last input starts no run, before the next try
 * (each try evaluates that input once more). */
#define ULP_RUN_RETRY 8

/* Item j of this shard (gs_shard_item: the global item, whose inputs and seed do not depend
 * on the sharding). */
static int work(void *arg, unsigned t, uint64_t j)
{
    struct ulp_run *u = arg;
    struct ulp_acc *a = &u->acc[t];
    struct gs_ctx *c = u->c;
    if (atomic_load(&u->stop))
        return 1;
    if (ulp_item_done(u, j)) /* --resume: measured before the interruption, read back */
        return 0;
    if (gs_interrupted(c->cfg)) { /* SIGINT/SIGTERM: this item and the rest stay unmeasured */
        atomic_store(&u->interrupted, 1);
        return 1;
    }
    size_t n = item_inputs(u, gs_shard_item(c->cfg, j), a);
    if (gs_ut_eval_bufs(c, t, &a->kb, a->x, a->y, n, &a->f, &a->nomem) != 0) {
        if (!a->nomem)
            atomic_store(&u->failed, 1);
        atomic_store(&u->stop, 1);
        return 1;
    }
    /* Inputs of one binade (every stratified item but the targets; an exhaustive chunk
     * within one binade, its inputs being in order) go into per-region statistics of the
     * item, merged into the thread's region, overall and binade statistics at the end: one
     * gs_errstat_add per input instead of three.  Merging is order-independent (errstat.c),
     * so the result is the same either way. */
    uint64_t item = gs_shard_item(c->cfg, j);
    int local = n > 0 && (u->exhaustive || item != 0) &&
                ulp_binade_index(&u->sh, a->x[0]) == ulp_binade_index(&u->sh, a->x[n - 1]);
    if (local)
        for (int r = 0; r < GS_N_REGIONS; r++) {
            gs_errstat_init(&a->loc[r]);
            gs_errstat_init(&a->ex_loc[r]);
        }
    size_t reported = 0;
    struct gs_meas mb[ULP_MEAS_BLOCK];
    unsigned char rep[ULP_MEAS_BLOCK];
    struct ulp_prev prev = { 0, GS_R_NONE, 0, 0 };
    unsigned retry = 0;
    int fused = local && c->dt == GELUREF_F32 && gs_ref_is_fast(c->ref[t]);
    for (size_t i0 = 0; i0 < n;) {
        size_t k = n - i0 < ULP_MEAS_BLOCK ? n - i0 : ULP_MEAS_BLOCK, bad = 0;
        if (fused) {
            if (i0 - reported >= 1024) { /* a batch takes a second or more: report within it */
                gs_ut_progress_add(&u->prog, t, i0 - reported);
                reported = i0;
            }
            if (fused_block(u, a, t, i0, k, &prev) != 0) {
                atomic_store(&u->stop, 1);
                return 1;
            }
            goto next_block;
        }
        enum geluref_status rs =
            gs_measure_n(c->ref[t], c->func, c->dt, a->x + i0, a->y + i0, k, mb, rep, &bad);
        size_t good = rs == GELUREF_OK ? k : bad;
        for (size_t q = 0; q < good; q++) {
            size_t i = i0 + q;
            if (i - reported >= 1024) { /* a batch takes a second or more: report within it */
                gs_ut_progress_add(&u->prog, t, i - reported);
                reported = i;
            }
            if (account(u, a, t, local, a->x[i], a->y[i], &mb[q], rep[q], 1, &prev) != 0) {
                atomic_store(&u->stop, 1);
                return 1;
            }
        }
        if (rs != GELUREF_OK) { /* the reference failed at input i0 + bad */
            gs_ut_internal(c, "ulp", a->x[i0 + bad], rs);
            atomic_store(&u->stop, 1);
            return 1;
        }
    next_block:
        i0 += k;
        /* a rule's run after this block (local items only: their inputs share a binade) */
        struct ulp_tmpl tp;
        if (!local || i0 >= n)
            continue;
        if (retry > 0) {
            retry--;
        } else if (tmpl_at(u, t, a->x[i0 - 1], a->y[i0 - 1], &tp)) {
            size_t e = run_count(u, a, t, &tp, i0, n, &prev);
            if (e == (size_t)-1) {
                atomic_store(&u->stop, 1);
                return 1;
            }
            i0 = e;
        } else {
            retry = ULP_RUN_RETRY;
        }
    }
    if (local) {
        struct gs_errstat *bin = &a->bin[ulp_binade_index(&u->sh, a->x[0])];
        for (int r = 0; r < GS_N_REGIONS; r++) {
            if (a->loc[r].points) {
                gs_errstat_merge(&a->reg[r], &a->loc[r]);
                gs_errstat_merge(&a->all, &a->loc[r]);
                gs_errstat_merge(bin, &a->loc[r]);
            }
            if (a->ex_loc[r].points) {
                gs_errstat_merge(&a->ex_reg[r], &a->ex_loc[r]);
                gs_errstat_merge(&a->ex_all, &a->ex_loc[r]);
            }
        }
    }
    a->points += n;
    gs_ut_progress_add(&u->prog, t, n - reported);
    ulp_item_set_done(u, j);
    return 0;
}

/* The stratified plan: the finite non-zero targets in range, then binades with their
 * counts. */
_Static_assert(GS_TARGETS_MAX <= GS_UT_BATCH, "the targets are one work item (item 0)");
static int plan_stratified(struct ulp_run *u, uint64_t samples)
{
    const struct gs_ut_shape *s = &u->sh;
    struct gs_ctx *c = u->c;
    u->targets = malloc((c->targets.n + 2) * sizeof *u->targets);
    u->bins = malloc(2 * (size_t)s->n_fields * sizeof *u->bins);
    if (!u->targets || !u->bins)
        return -1;
    for (size_t i = 0; i < c->targets.n; i++) {
        uint64_t x = c->targets.x[i];
        if (!gs_is_nan(c->dt, x) && !gs_is_inf(c->dt, x) && !gs_is_zero(c->dt, x) &&
            gs_ut_in_range(c, x))
            u->targets[u->n_targets++] = x;
    }
    /* binades of both signs (sign x exponent field) that meet the range */
    size_t nb = 0;
    for (int neg = 1; neg >= 0; neg--)
        for (unsigned e = 0; e < s->n_fields; e++) {
            /* field 0 without +-0 (the special suite's) */
            uint64_t lo = e == 0 ? 1 : (uint64_t)e << s->mant;
            uint64_t hi = ((uint64_t)(e + 1) << s->mant) - 1;
            if (!u->rok[neg] || hi < u->mlo[neg] || lo > u->mhi[neg])
                continue;
            struct ulp_binade *b = &u->bins[nb++];
            b->neg = neg;
            b->field = e;
            b->lo = lo > u->mlo[neg] ? lo : u->mlo[neg];
            b->hi = hi < u->mhi[neg] ? hi : u->mhi[neg];
        }
    u->n_items = 1;
    size_t kept = 0;
    for (size_t j = 0; j < nb; j++) {
        struct ulp_binade b = u->bins[j];
        b.count = samples / nb + (j < samples % nb);
        if (b.count == 0)
            continue;
        b.first_item = u->n_items;
        u->n_items += (b.count + GS_UT_BATCH - 1) / GS_UT_BATCH;
        u->bins[kept++] = b;
    }
    u->n_bins = kept;
    return 0;
}

/* The grid of the vs_exact "curve" (a plot of the deviation from the exact function,
 * reports/): VS_CURVE_POINTS evenly spaced x on [-VS_CURVE_X, VS_CURVE_X], where the
 * approximations differ most from the exact function in absolute terms (beyond |x| = 6 both
 * are 0 or x to within far less than an ulp of x). */
#define VS_CURVE_POINTS 241
#define VS_CURVE_X 6.0

/* "curve": [[x, got, exact]...] (numbers, or "nan", "inf", "-inf"), exact = RN of the exact
 * function, on the grid rounded into the dtype (duplicates and inputs outside --range left
 * out); evaluated on thread 0 after the sweep, so it does not depend on --threads.  Plot data
 * only, judged nowhere.  Returns NULL when the kernel or the reference fails (recorded) or
 * memory runs out (*nomem set). */
static json_t *vs_exact_curve(struct ulp_run *u, int *nomem)
{
    struct gs_ctx *c = u->c;
    enum geluref_dtype dt = c->dt;
    uint64_t x[VS_CURVE_POINTS];
    size_t n = 0;
    for (int i = 0; i < VS_CURVE_POINTS; i++) {
        double v = -VS_CURVE_X + 2 * VS_CURVE_X * i / (VS_CURVE_POINTS - 1);
        uint64_t b = gs_from_double(dt, v);
        if ((n == 0 || x[n - 1] != b) && gs_ut_in_range(c, b))
            x[n++] = b;
    }
    return gs_ut_curve_json(c, u->exact, x, n, &u->acc[0].f, nomem, &u->failed,
                            "ulp vs_exact curve");
}

void gs_suite_ulp(struct gs_ctx *c, struct gs_suite_result *r)
{
    struct ulp_run u;
    memset(&u, 0, sizeof u);
    u.c = c;
    gs_ut_shape_of(c->dt, &u.sh);
    u.exact = ulp_exact_of(c->func);
    for (int neg = 0; neg < 2; neg++)
        u.rok[neg] = gs_ut_mag_range(c, &u.sh, neg, &u.mlo[neg], &u.mhi[neg]);
    u.exhaustive = c->dt == GELUREF_F16 || c->dt == GELUREF_BF16 ||
                   (c->dt == GELUREF_F32 && c->cfg->exhaustive);
    u.samples = c->cfg->samples ? c->cfg->samples
                : c->dt == GELUREF_F64 ? GS_ULP_SAMPLES_F64 : GS_ULP_SAMPLES_F32;
    u.prog.c = c;
    u.prog.suite = "ulp";
    unsigned nt = c->t->n_threads < c->cfg->threads ? c->t->n_threads : c->cfg->threads;
    nt = nt ? nt : 1;
    u.acc = calloc(nt, sizeof *u.acc);
    u.prog.last = calloc(nt, sizeof *u.prog.last);
    int nomem = !u.acc || !u.prog.last;
    size_t n_bins = 2 * (size_t)u.sh.n_fields;
    for (unsigned t = 0; !nomem && t < nt; t++)
        nomem = ulp_acc_init(&u.acc[t], n_bins, 1) != 0;
    if (!nomem) {
        if (u.exhaustive) {
            uint64_t space = u.sh.bits >= 64 ? 0 : (uint64_t)1 << u.sh.bits;
            u.chunk = space > GS_UT_BATCH ? GS_UT_BATCH : space / ULP_ITEMS_16;
            u.n_items = space / u.chunk;
            u.samples = 0;
        } else {
            nomem = plan_stratified(&u, u.samples) != 0;
        }
    }
    uint64_t n_mine = gs_shard_items(c->cfg, u.n_items);
    char why[256] = "";
    u.n_mine = n_mine;
    if (!nomem && ulp_resume_start(&u, why, sizeof why)) {
        /* a --resume entry that does not fit this run (checked before: cannot happen but for
         * a hand-edited file); run the whole sweep rather than merge something else */
        nomem = !u.done;
        if (u.done) {
            ulp_acc_release(&u.acc[0]);
            nomem = ulp_acc_init(&u.acc[0], n_bins, 1) != 0;
            memset(u.done, 0, (size_t)(n_mine / 64 + 1) * sizeof *u.done);
            snprintf(r->note, sizeof r->note, "--resume: %.200s: measured again", why);
        }
    }
    for (uint64_t j = 0; !nomem && j < n_mine; j++)
        if (!ulp_item_done(&u, j))
            u.prog.total += ulp_item_count(&u, gs_shard_item(c->cfg, j));
    if (!nomem) {
        gs_parallel_for(nt, n_mine, work, &u);
        gs_ut_progress_end(&u.prog);
        for (unsigned t = 0; t < nt; t++)
            nomem |= u.acc[t].nomem;
    }
    json_t *curve = NULL;
    if (!nomem) {
        for (unsigned t = 1; t < nt; t++)
            ulp_acc_merge(&u.acc[0], &u.acc[t], n_bins);
        /* plot data of the whole run, made once: in shard 0 (gelucheck merge takes it) */
        /* an interrupted sweep leaves it to the run that completes it (--resume) */
        if (u.exact && c->cfg->shard_k == 0 && !atomic_load(&u.stop) &&
            !atomic_load(&u.failed) && !atomic_load(&u.interrupted))
            curve = vs_exact_curve(&u, &nomem);
    }
    int interrupted = atomic_load(&u.interrupted) && !atomic_load(&u.failed);
    if (!nomem) {
        gs_findings_merge(&r->findings, &u.acc[0].f);
        r->points = u.acc[0].points;
        r->metrics = ulp_metrics_json(&u);
        r->inputs = ulp_inputs_json(&u);
        if (interrupted) { /* what --resume continues from */
            json_object_set_new(r->inputs, "covered", ulp_covered_json(&u));
            c->interrupted = 1;
        }
        json_t *vx = json_object_get(r->metrics, "vs_exact");
        if (curve && vx)
            json_object_set(vx, "curve", curve);
    }
    json_decref(curve);
    gs_ut_verdict(c, r, "ulp", nomem, atomic_load(&u.failed));
    for (unsigned t = 0; u.acc && t < nt; t++)
        ulp_acc_release(&u.acc[t]);
    free(u.acc);
    free((void *)u.done);
    free(u.prog.last);
    free(u.targets);
    free(u.bins);
}
