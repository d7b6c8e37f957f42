/* targets.c: the thresholds of (f, dt) and the target inputs around them (suites.h, struct
 * gs_targets), found with the reference.
 *
 * A threshold is where a monotone predicate of RN(f(x)) flips along one side of 0 ("RN(f(x))
 * is not zero", "is normal", "equals the limit").  Positions k = |gs_pos(x)| on a side are
 * bisected between an anchor (|x| = 3, 2 or 1: the first where the predicate has the value it
 * has near 0) and the largest finite |x| (where it has the other value); f is monotone on that
 * stretch (beyond each function's own minimum), so RN(f) is too and the predicate flips once.
 * The result is then checked at its neighbours and, should a neighbour disagree, moved by a
 * local scan until the predicate holds up to it and fails past it (at most SCAN steps).
 *
 * The minimum (gelu family, gelu_grad, gelu_tanh_grad) is found on the exact values: near a
 * minimum RN(f) is flat over thousands of floats, so f is evaluated at 2p + 32 bits (enough to
 * tell neighbours apart: f(x) - f(x*) ~ c (x - x*)^2 with c ~ 0.2 and |x - x*| >= 2^-p |x*|),
 * searched by ternary search over positions in a bracket where f is unimodal, then by a scan
 * of +-SCAN floats around the result.
 *
 * The zero (gelu_grad: x* = -0.75179152469356446, gelu_tanh_grad: -0.75246142207101626; no
 * other function of 1..9 changes sign away from x = 0, which tests/suites/test_core_targets.c
 * checks on a grid) is bisected over positions on the sign of f at 2p + 32 bits, in a bracket
 * where f increases; zero_x is whichever of the two floats around it has the smaller |f|.
 * Every float within W = GS_TARGET_ZERO_WINDOW of it is a target, and why W floats:
 *   A kernel computes f there as the difference of two terms of size T = Phi(x*) = 0.226
 *   (1/2 (1 + tanh) for gelu_tanh_grad, the same size) with an absolute error of e ulp(T), e
 *   a few units and noisy from one input to the next; ulp(T) = ulp(x)/4 (T in [1/8, 1/4), x
 *   in [1/2, 1)).  f is simple at the zero, f(x) ~ f'(x0) (x - x0) with f' = 0.43 (both
 *   functions), so the float k positions from the zero has |f| = 0.43 |k + d| ulp(x),
 *   |d| <= 1/2, and ulp(f) between |f| 2^-p and |f| 2^(1-p): its ulp error e ulp(T) / ulp(f)
 *   lies in [e 2^p / (3.5 |k + d|), e 2^p / (1.7 |k + d|)] (binary32: 2.18e7 measured for
 *   glibc's grad_erfc at k = 0, 1.22e8 for oneDNN's gelu_erf backward).
 *   - Zero or the wrong sign needs |f| <= e ulp(T), so |k + d| <= 0.58 e: in the window for
 *     any e below 7000.
 *   - Beyond the window every input has ulp error below 2^p E / (1.7 W), E the largest e
 *     near the zero; inside it, a float within W/4 of the zero with e >= E/4 has at least
 *     2^p E / (3.5 W), about half of that.  So the targets give about half of the exhaustive
 *     maximum unless none of the W/2 = 2048 floats nearest the zero gets a quarter of the
 *     kernel's worst rounding there: a kernel whose bad roundings are rarer than one input
 *     in a thousand may escape, ours do not (the ten worst inputs of glibc's grad_erf,
 *     grad_erfc, tanh_grad and oneDNN's two backward kernels lie within 12 floats).
 *   It costs 8193 inputs per zero: milliseconds in binary32, where the fast path decides; in
 *   binary64 its error bound cannot decide |f| that small and the MPFR path takes them (1.4 s
 *   with --reference fast or mpfr alike, one thread, on the 2-core build machine). */
#include <stdlib.h>
#include <string.h>

#include "measure_hp.h"

#define SCAN GS_TARGET_BAND /* floats scanned around a minimum, and the band around each */
#define ODD_TRAPS 8  /* odd positions taken at each end of the subnormals and lowest binade */
_Static_assert(GS_TARGETS_MAX == 5 * (2 * SCAN + 1) + 2 * GS_TARGET_ZERO_WINDOW + 1
                                     + 2 * (4 * ODD_TRAPS + 7),
               "suites.h: GS_TARGETS_MAX counts what build_list() pushes");

enum pred { NONZERO, NORMAL, AT_LIMIT };

struct side {
    struct gs_ref *r;
    enum geluref_func f;
    enum geluref_dtype dt;
    int neg;             /* the side: x < 0 */
    enum pred p;
    uint64_t limit;      /* AT_LIMIT: the bits RN(f(x)) must equal (0 for the gelu family: x) */
    int limit_is_x;
};

static uint64_t at(const struct side *s, int64_t k) { return gs_from_pos(s->dt, s->neg ? -k : k); }

/* *v = the predicate at position k of the side. */
static enum geluref_status test(const struct side *s, int64_t k, int *v)
{
    struct gs_refval rv;
    uint64_t x = at(s, k);
    enum geluref_status st = gs_ref_eval(s->r, s->f, s->dt, x, &rv);
    if (st != GELUREF_OK)
        return st;
    if (s->p == NONZERO)
        *v = !gs_is_zero(s->dt, rv.rn);
    else if (s->p == NORMAL)
        *v = !gs_is_zero(s->dt, rv.rn) && !gs_is_subnormal(s->dt, rv.rn);
    else
        *v = rv.rn == (s->limit_is_x ? x : s->limit);
    return GELUREF_OK;
}

/* The threshold: for NONZERO and NORMAL the largest k where the predicate holds (it holds at
 * the anchor and fails at the largest finite value), for AT_LIMIT the smallest k where it
 * holds (the opposite).  *found = 0 when the ends do not have the expected values. */
static enum geluref_status bisect(const struct side *s, int64_t *out, int *found)
{
    static const double anchors[] = { 3.0, 2.0, 1.0 };
    int inner = s->p != AT_LIMIT; /* the predicate's value on the side of 0 */
    int64_t max = gs_pos(s->dt, gs_from_pos(s->dt, INT64_MAX)) - 1; /* largest finite */
    int64_t lo = -1, hi = max, k;
    int v;
    enum geluref_status st;
    *found = 0;
    for (size_t i = 0; lo < 0 && i < sizeof anchors / sizeof anchors[0]; i++) {
        k = gs_pos(s->dt, gs_from_double(s->dt, anchors[i]));
        if ((st = test(s, k, &v)) != GELUREF_OK)
            return st;
        if (v == inner)
            lo = k;
    }
    if (lo < 0)
        return GELUREF_OK;
    if ((st = test(s, hi, &v)) != GELUREF_OK)
        return st;
    if (v == inner)
        return GELUREF_OK;
    while (hi - lo > 1) { /* invariant: inner at lo, not at hi */
        int64_t mid = lo + (hi - lo) / 2;
        if ((st = test(s, mid, &v)) != GELUREF_OK)
            return st;
        if (v == inner)
            lo = mid;
        else
            hi = mid;
    }
    /* the neighbours: inner up to lo, not past it; moved by a local scan if not */
    for (int i = 0; i < SCAN; i++) {
        int a, b;
        if ((st = test(s, lo, &a)) != GELUREF_OK || (st = test(s, lo + 1, &b)) != GELUREF_OK)
            return st;
        if (a == inner && b != inner)
            break;
        lo += a == inner ? 1 : -1;
    }
    *out = inner ? lo : lo + 1;
    *found = 1;
    return GELUREF_OK;
}

static enum geluref_status threshold(struct gs_ref *r, enum geluref_func f,
                                     enum geluref_dtype dt, int neg, enum pred p, double limit,
                                     int *has, uint64_t *x)
{
    struct side s = { r, f, dt, neg, p, 0, 0 };
    int64_t k = 0; /* set by bisect when *has */
    if (p == AT_LIMIT) {
        s.limit_is_x = limit == 0;
        s.limit = gs_from_double(dt, limit);
    }
    enum geluref_status st = bisect(&s, &k, has);
    if (st == GELUREF_OK && *has)
        *x = at(&s, k);
    return st;
}

/* The float in [lo, hi] (positions) with the smallest f, f unimodal there. */
static enum geluref_status minimum(struct gs_ref *r, enum geluref_func f, enum geluref_dtype dt,
                                   double lo_x, double hi_x, uint64_t *min_x)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    int64_t lo = gs_pos(dt, gs_from_double(dt, lo_x)), hi = gs_pos(dt, gs_from_double(dt, hi_x));
    enum geluref_status st = GELUREF_OK;
    mpfr_t a, b;
    mpfr_inits2(2 * d->prec + 32, a, b, (mpfr_ptr)0);
    while (st == GELUREF_OK && hi - lo > 2) { /* ternary search: drop a third each time */
        int64_t m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        if ((st = gs_ref_eval_hp(r, f, dt, gs_from_pos(dt, m1), a)) != GELUREF_OK
            || (st = gs_ref_eval_hp(r, f, dt, gs_from_pos(dt, m2), b)) != GELUREF_OK)
            break;
        if (mpfr_lessequal_p(a, b))
            hi = m2;
        else
            lo = m1;
    }
    int64_t best = lo;
    if (st == GELUREF_OK)
        st = gs_ref_eval_hp(r, f, dt, gs_from_pos(dt, best), a);
    for (int64_t k = lo - SCAN; st == GELUREF_OK && k <= lo + SCAN; k++) {
        if ((st = gs_ref_eval_hp(r, f, dt, gs_from_pos(dt, k), b)) != GELUREF_OK)
            break;
        if (mpfr_less_p(b, a)) { /* ties keep the first (the most negative) */
            mpfr_set(a, b, MPFR_RNDN);
            best = k;
        }
    }
    *min_x = gs_from_pos(dt, best);
    mpfr_clears(a, b, (mpfr_ptr)0);
    return st;
}

/* The float nearest the zero of f in [lo_x, hi_x], f increasing there, f(lo_x) < 0 <
 * f(hi_x); *found = 0 when the ends do not have these signs.  f at 2p + 32 bits, as in
 * minimum(): its sign is exact (f has no zero at a float) and it tells the two floats around
 * the zero apart. */
static enum geluref_status zero(struct gs_ref *r, enum geluref_func f, enum geluref_dtype dt,
                                double lo_x, double hi_x, uint64_t *zero_x, int *found)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    int64_t lo = gs_pos(dt, gs_from_double(dt, lo_x)), hi = gs_pos(dt, gs_from_double(dt, hi_x));
    enum geluref_status st;
    mpfr_t a, b;
    *found = 0;
    mpfr_inits2(2 * d->prec + 32, a, b, (mpfr_ptr)0);
    if ((st = gs_ref_eval_hp(r, f, dt, gs_from_pos(dt, lo), a)) != GELUREF_OK
        || (st = gs_ref_eval_hp(r, f, dt, gs_from_pos(dt, hi), b)) != GELUREF_OK
        || mpfr_sgn(a) >= 0 || mpfr_sgn(b) <= 0)
        goto out;
    while (hi - lo > 1) { /* invariant: f < 0 at lo, f > 0 at hi */
        int64_t mid = lo + (hi - lo) / 2;
        if ((st = gs_ref_eval_hp(r, f, dt, gs_from_pos(dt, mid), a)) != GELUREF_OK)
            goto out;
        if (mpfr_sgn(a) < 0)
            lo = mid;
        else
            hi = mid;
    }
    if ((st = gs_ref_eval_hp(r, f, dt, gs_from_pos(dt, lo), a)) != GELUREF_OK
        || (st = gs_ref_eval_hp(r, f, dt, gs_from_pos(dt, hi), b)) != GELUREF_OK)
        goto out;
    *zero_x = gs_from_pos(dt, mpfr_cmpabs(b, a) < 0 ? hi : lo); /* a tie keeps lo */
    *found = 1;
out:
    mpfr_clears(a, b, (mpfr_ptr)0);
    return st;
}

int64_t gs_target_zero_window(enum geluref_dtype dt)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    int64_t binade8 = d != NULL ? INT64_C(1) << (d->prec - 3) : 0;
    return binade8 < GS_TARGET_ZERO_WINDOW ? binade8 : GS_TARGET_ZERO_WINDOW;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

struct list {
    uint64_t *x;
    size_t n, cap;
    int nomem;
};

static void push_bits(struct list *l, uint64_t b)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256;
        uint64_t *p = realloc(l->x, cap * sizeof *p);
        if (p == NULL) {
            l->nomem = 1;
            return;
        }
        l->x = p;
        l->cap = cap;
    }
    l->x[l->n++] = b;
}

static void push(struct list *l, enum geluref_dtype dt, int64_t pos)
{
    uint64_t b = gs_from_pos(dt, pos);
    if (!gs_is_inf(dt, b)) /* finite targets only: the special suite checks the infinities */
        push_bits(l, b);
}

static void push_band(struct list *l, enum geluref_dtype dt, uint64_t centre, int64_t w)
{
    int64_t c = gs_pos(dt, centre);
    for (int64_t k = -w; k <= w; k++)
        push(l, dt, c + k);
}

/* +-SCAN floats around each threshold and the minimum, the zero's window (header); the first
 * and last ODD_TRAPS odd subnormals and odd positions of the lowest normal binade (x/2 is a
 * midpoint there); +-1, +-2, +-3; +-0, the smallest subnormal, the smallest normal and the
 * largest finite value, of both signs. */
static void build_list(struct list *l, const struct gs_targets *t, enum geluref_dtype dt)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    int64_t min_normal = (int64_t)1 << (d->prec - 1); /* position of 2^emin */
    int64_t max_finite = gs_pos(dt, gs_from_pos(dt, INT64_MAX)) - 1;
    if (t->has_last_nonzero)
        push_band(l, dt, t->last_nonzero, SCAN);
    if (t->has_last_normal)
        push_band(l, dt, t->last_normal, SCAN);
    if (t->has_sat)
        push_band(l, dt, t->sat, SCAN);
    if (t->has_sat_neg)
        push_band(l, dt, t->sat_neg, SCAN);
    if (t->has_min)
        push_band(l, dt, t->min_x, SCAN);
    if (t->has_zero)
        push_band(l, dt, t->zero_x, gs_target_zero_window(dt));
    for (int sg = -1; sg <= 1; sg += 2) {
        for (int64_t i = 0; i < ODD_TRAPS; i++) {
            push(l, dt, sg * (1 + 2 * i));                  /* first odd subnormals */
            push(l, dt, sg * (min_normal - 1 - 2 * i));     /* last odd subnormals */
            push(l, dt, sg * (min_normal + 1 + 2 * i));     /* lowest normal binade, first */
            push(l, dt, sg * (2 * min_normal - 1 - 2 * i)); /* and last odd ones */
        }
        for (int v = 1; v <= 3; v++)
            push(l, dt, gs_pos(dt, gs_from_double(dt, sg * (double)v)));
        push_bits(l, sg < 0 ? gs_neg(dt, 0) : 0); /* -0 and +0 */
        push(l, dt, sg * 1);
        push(l, dt, sg * min_normal);
        push(l, dt, sg * max_finite);
    }
    if (l->n == 0)
        return;
    qsort(l->x, l->n, sizeof *l->x, cmp_u64);
    size_t n = 1;
    for (size_t i = 1; i < l->n; i++)
        if (l->x[i] != l->x[n - 1])
            l->x[n++] = l->x[i];
    l->n = n;
}

/* Per func (1..9; the analysis-only funcs 10 and 11 get the generic targets only). */
struct plan {
    int under;          /* underflow side: -1 (x < 0), +1 (x > 0), 0 none */
    int sat;            /* saturation side, 0 none */
    double limit;       /* its limit; 0 = x itself (the gelu family) */
    int sat_neg;        /* erf: also x < 0 towards -1 */
    double min_lo, min_hi; /* a bracket where f is unimodal around its minimum; 0, 0 none */
    double zero_lo, zero_hi; /* a bracket where f increases through its zero; 0, 0 none */
};
/* docs/design.md section 2 (values at +-inf); minima: gelu family near x* = -0.7518 (gelu_tanh
 * -0.75246, gelu_sigmoid -0.75115), gelu_grad at -sqrt2 (gelu_grad' = phi(x) (2 - x^2)),
 * gelu_tanh_grad near -1.5; each bracket contains one minimum and no other extremum.  Zeros:
 * gelu_grad increases on (-sqrt2, sqrt2) and gelu_tanh_grad from its minimum on, through
 * f(-1.25) < 0 (-0.123 both) and f(-0.25) > 0 (0.305 both). */
static const struct plan plans[] = {
    [GELUREF_GELU] = { -1, 1, 0, 0, -1.5, -0.25, 0, 0 },
    [GELUREF_GELU_TANH] = { -1, 1, 0, 0, -1.5, -0.25, 0, 0 },
    [GELUREF_GELU_SIGMOID] = { -1, 1, 0, 0, -1.5, -0.25, 0, 0 },
    [GELUREF_GELU_GRAD] = { -1, 1, 1, 0, -2.5, -0.8, -1.25, -0.25 },
    [GELUREF_GELU_TANH_GRAD] = { -1, 1, 1, 0, -2.5, -0.8, -1.25, -0.25 },
    [GELUREF_NORMCDF] = { -1, 1, 1, 0, 0, 0, 0, 0 },
    [GELUREF_NORMPDF] = { -1, 0, 0, 0, 0, 0, 0, 0 },
    [GELUREF_ERF] = { 0, 1, 1, 1, 0, 0, 0, 0 },
    [GELUREF_ERFC] = { 1, -1, 2, 0, 0, 0, 0, 0 },
};

/* On an allocation failure the thresholds are kept and the list is empty (t->n = 0). */
enum geluref_status gs_targets_build(struct gs_ref *r, enum geluref_func f,
                                     enum geluref_dtype dt, struct gs_targets *t)
{
    static const struct plan none = { 0, 0, 0, 0, 0, 0, 0, 0 };
    const struct plan *p = f >= GELUREF_GELU && f <= GELUREF_ERFC ? &plans[f] : &none;
    enum geluref_status st = GELUREF_OK;
    struct list l = { NULL, 0, 0, 0 };
    memset(t, 0, sizeof *t);
    if (geluref_dtype_info(dt) == NULL)
        return GELUREF_E_INVALID;
    if (p->under != 0) {
        st = threshold(r, f, dt, p->under < 0, NONZERO, 0, &t->has_last_nonzero,
                       &t->last_nonzero);
        if (st == GELUREF_OK)
            st = threshold(r, f, dt, p->under < 0, NORMAL, 0, &t->has_last_normal,
                           &t->last_normal);
    }
    if (st == GELUREF_OK && p->sat != 0)
        st = threshold(r, f, dt, p->sat < 0, AT_LIMIT, p->limit, &t->has_sat, &t->sat);
    if (st == GELUREF_OK && p->sat_neg)
        st = threshold(r, f, dt, 1, AT_LIMIT, -p->limit, &t->has_sat_neg, &t->sat_neg);
    if (st == GELUREF_OK && p->min_lo < p->min_hi) {
        struct gs_refval rv;
        st = minimum(r, f, dt, p->min_lo, p->min_hi, &t->min_x);
        if (st == GELUREF_OK)
            st = gs_ref_eval(r, f, dt, t->min_x, &rv);
        if (st == GELUREF_OK) {
            t->min_value = rv.rn;
            t->has_min = 1;
        }
    }
    if (st == GELUREF_OK && p->zero_lo < p->zero_hi)
        st = zero(r, f, dt, p->zero_lo, p->zero_hi, &t->zero_x, &t->has_zero);
    if (st != GELUREF_OK)
        return st;
    build_list(&l, t, dt);
    if (l.nomem) {
        free(l.x);
        return GELUREF_OK;
    }
    t->x = l.x;
    t->n = l.n;
    return GELUREF_OK;
}

void gs_targets_release(struct gs_targets *t)
{
    free(t->x);
    memset(t, 0, sizeof *t);
}

json_t *gs_targets_json(const struct gs_targets *t, enum geluref_dtype dt)
{
    json_t *o = json_object();
    if (o == NULL)
        return NULL;
    if (t->has_last_nonzero)
        json_object_set_new(o, "last_nonzero", gs_value_json(dt, t->last_nonzero));
    if (t->has_last_normal)
        json_object_set_new(o, "last_normal", gs_value_json(dt, t->last_normal));
    if (t->has_sat)
        json_object_set_new(o, "saturation", gs_value_json(dt, t->sat));
    if (t->has_sat_neg)
        json_object_set_new(o, "saturation_neg", gs_value_json(dt, t->sat_neg));
    if (t->has_min) {
        json_object_set_new(o, "minimum_at", gs_value_json(dt, t->min_x));
        json_object_set_new(o, "minimum", gs_value_json(dt, t->min_value));
    }
    if (t->has_zero)
        json_object_set_new(o, "zero_at", gs_value_json(dt, t->zero_x));
    json_object_set_new(o, "count", json_integer((json_int_t)t->n));
    return o;
}
