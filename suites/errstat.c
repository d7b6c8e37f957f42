/* errstat.c: mergeable accuracy statistics (counts, the cr_distance histogram, maxima with
 * their argument).  Maxima are over finite outputs where f(x) is finite; a tie keeps the
 * smaller x bits (then got, then want), so merging in any order gives the same result. */
#include <math.h>
#include <string.h>

#include "ulp_util.h" /* gs_errstat_add_repeat */

static const char *const hist_labels[GS_HIST_N] = {
    "0", "1", "2", "3-4", "5-16", "17-256", ">256", "nan"
};

const char *gs_hist_label(int i) { return i >= 0 && i < GS_HIST_N ? hist_labels[i] : NULL; }

void gs_errstat_init(struct gs_errstat *s)
{
    memset(s, 0, sizeof *s);
    s->max_ulp = s->max_abs = s->max_rel = -1;
}

/* Whether (v, x, g, w) beats the kept maximum (m, mx, mg, mw). */
static int beats(double v, uint64_t x, uint64_t g, uint64_t w, double m, uint64_t mx,
                 uint64_t mg, uint64_t mw)
{
    if (v != m)
        return v > m;
    if (x != mx)
        return x < mx;
    if (g != mg)
        return g < mg;
    return w < mw;
}

static void add_max(struct gs_errstat *s, double ulp, double abs_err, double rel_err,
                    uint64_t x, uint64_t got, uint64_t want)
{
    if (!isnan(ulp) && beats(ulp, x, got, want, s->max_ulp, s->max_ulp_x, s->max_ulp_got,
                             s->max_ulp_want)) {
        s->max_ulp = ulp;
        s->max_ulp_x = x;
        s->max_ulp_got = got;
        s->max_ulp_want = want;
    }
    if (!isnan(abs_err) && beats(abs_err, x, 0, 0, s->max_abs, s->max_abs_x, 0, 0)) {
        s->max_abs = abs_err;
        s->max_abs_x = x;
    }
    if (!isnan(rel_err) && beats(rel_err, x, 0, 0, s->max_rel, s->max_rel_x, 0, 0)) {
        s->max_rel = rel_err;
        s->max_rel_x = x;
    }
}

/* The counts of one measurement; 1 when its errors are for the maxima (f(x) finite, output
 * finite), 0 when not. */
static inline int add_counts(struct gs_errstat *s, const struct gs_meas *m)
{
    int f_finite = m->want_class != GS_WANT_INF && m->want_class != GS_WANT_NAN;
    /* with f(x) finite, a NaN or inf output is always nan_output or inf_output (measure.c) */
    int got_nonfinite = m->defect == GS_K_NAN_OUTPUT || m->defect == GS_K_INF_OUTPUT;
    s->points++;
    s->cr += m->cr != 0;
    s->faithful += m->faithful != 0;
    s->hist[gs_hist_index(m->cr_distance)]++;
    if (!f_finite)
        return 0;
    if (got_nonfinite) {
        s->nonfinite++;
        return 0;
    }
    return 1;
}

void gs_errstat_add(struct gs_errstat *s, const struct gs_meas *m)
{
    /* below all three maxima (the common case once a few inputs are in): add_max would keep
     * them all (beats() is false for a smaller value; a NaN error fails the test and goes
     * the long way) */
    if (add_counts(s, m) &&
        !(m->ulp < s->max_ulp && m->abs_err < s->max_abs && m->rel_err < s->max_rel))
        add_max(s, m->ulp, m->abs_err, m->rel_err, m->x, m->got, m->want);
}

void gs_errstat_add_repeat(struct gs_errstat *s, const struct gs_meas *m)
{
    /* gs_errstat_add without add_max: m's errors equal those of a measurement already added
     * to s at a smaller x, which add_max keeps ahead of m (equal values: the smaller x wins) */
    (void)add_counts(s, m);
}

void gs_errstat_count(struct gs_errstat *s, int cr, int faithful, int64_t cr_distance)
{
    s->points++;
    s->cr += cr != 0;
    s->faithful += faithful != 0;
    s->hist[gs_hist_index(cr_distance)]++;
}

void gs_errstat_add_repeat_n(struct gs_errstat *s, const struct gs_meas *m, uint64_t n)
{
    /* n calls of gs_errstat_add_repeat: add_counts n times */
    int f_finite = m->want_class != GS_WANT_INF && m->want_class != GS_WANT_NAN;
    int got_nonfinite = m->defect == GS_K_NAN_OUTPUT || m->defect == GS_K_INF_OUTPUT;
    s->points += n;
    s->cr += m->cr != 0 ? n : 0;
    s->faithful += m->faithful != 0 ? n : 0;
    s->hist[gs_hist_index(m->cr_distance)] += n;
    if (f_finite && got_nonfinite)
        s->nonfinite += n;
}

void gs_errstat_merge(struct gs_errstat *into, const struct gs_errstat *from)
{
    into->points += from->points;
    into->cr += from->cr;
    into->faithful += from->faithful;
    into->nonfinite += from->nonfinite;
    for (int i = 0; i < GS_HIST_N; i++)
        into->hist[i] += from->hist[i];
    if (from->max_ulp >= 0 && beats(from->max_ulp, from->max_ulp_x, from->max_ulp_got,
                                    from->max_ulp_want, into->max_ulp, into->max_ulp_x,
                                    into->max_ulp_got, into->max_ulp_want)) {
        into->max_ulp = from->max_ulp;
        into->max_ulp_x = from->max_ulp_x;
        into->max_ulp_got = from->max_ulp_got;
        into->max_ulp_want = from->max_ulp_want;
    }
    if (from->max_abs >= 0 && beats(from->max_abs, from->max_abs_x, 0, 0, into->max_abs,
                                    into->max_abs_x, 0, 0)) {
        into->max_abs = from->max_abs;
        into->max_abs_x = from->max_abs_x;
    }
    if (from->max_rel >= 0 && beats(from->max_rel, from->max_rel_x, 0, 0, into->max_rel,
                                    into->max_rel_x, 0, 0)) {
        into->max_rel = from->max_rel;
        into->max_rel_x = from->max_rel_x;
    }
}

/* A maximum as a number; null when there is none (-1) or it is not finite. */
static json_t *num_or_null(double v)
{
    return v >= 0 && isfinite(v) ? json_real(v) : json_null();
}

json_t *gs_errstat_json(const struct gs_errstat *s, enum geluref_dtype dt)
{
    json_t *o = json_object();
    if (o == NULL)
        return NULL;
    json_object_set_new(o, "points", json_integer((json_int_t)s->points));
    json_object_set_new(o, "correctly_rounded", json_integer((json_int_t)s->cr));
    json_object_set_new(o, "fraction_correctly_rounded",
                        s->points > 0 ? json_real((double)s->cr / (double)s->points)
                                      : json_null());
    json_object_set_new(o, "faithful", json_integer((json_int_t)s->faithful));
    json_object_set_new(o, "nonfinite", json_integer((json_int_t)s->nonfinite));
    json_object_set_new(o, "max_ulp", num_or_null(s->max_ulp));
    if (s->max_ulp >= 0) {
        json_t *at = json_object();
        json_object_set_new(at, "x", gs_value_json(dt, s->max_ulp_x));
        json_object_set_new(at, "got", gs_value_json(dt, s->max_ulp_got));
        json_object_set_new(at, "want", gs_value_json(dt, s->max_ulp_want));
        json_object_set_new(o, "max_ulp_at", at);
    } else {
        json_object_set_new(o, "max_ulp_at", json_null());
    }
    json_object_set_new(o, "max_abs_err", num_or_null(s->max_abs));
    json_object_set_new(o, "max_abs_err_x",
                        s->max_abs >= 0 ? gs_value_json(dt, s->max_abs_x) : json_null());
    json_object_set_new(o, "max_rel_err", num_or_null(s->max_rel));
    json_object_set_new(o, "max_rel_err_x",
                        s->max_rel >= 0 ? gs_value_json(dt, s->max_rel_x) : json_null());
    json_t *h = json_object();
    for (int i = 0; i < GS_HIST_N; i++)
        json_object_set_new(h, hist_labels[i], json_integer((json_int_t)s->hist[i]));
    json_object_set_new(o, "cr_distance_histogram", h);
    return o;
}

json_t *gs_errstat_json_brief(const struct gs_errstat *s, enum geluref_dtype dt)
{
    json_t *o = json_object();
    if (o == NULL)
        return NULL;
    char bits[24];
    json_object_set_new(o, "points", json_integer((json_int_t)s->points));
    json_object_set_new(o, "correctly_rounded", json_integer((json_int_t)s->cr));
    json_object_set_new(o, "faithful", json_integer((json_int_t)s->faithful));
    json_object_set_new(o, "nonfinite", json_integer((json_int_t)s->nonfinite));
    json_object_set_new(o, "max_ulp", num_or_null(s->max_ulp));
    if (s->max_ulp >= 0) {
        geluref_format_bits(bits, sizeof bits, dt, s->max_ulp_x);
        json_object_set_new(o, "max_ulp_x", json_string(bits));
    } else {
        json_object_set_new(o, "max_ulp_x", json_null());
    }
    json_object_set_new(o, "max_abs_err", num_or_null(s->max_abs));
    json_object_set_new(o, "max_rel_err", num_or_null(s->max_rel));
    return o;
}
