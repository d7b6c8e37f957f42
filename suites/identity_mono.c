/* identity_mono.c: monotone pieces of the identity suite.
 *
 * Pieces (positions of x, both ends included): the gelu family falls up to its own minimum
 * min_x and rises after; the grads fall up to min_x (gelu_grad: -sqrt2), rise up to -min_x and
 * fall after; normcdf and erf rise, erfc falls; normpdf rises on x <= 0 and falls on x >= 0.
 * min_x is only the input nearest the minimum, so the pieces stop one input short of it on
 * either side (those inputs lie on the right side of the true turning point).  On a piece
 * where f is monotone, RN(f) is monotone too, equal neighbours allowed.
 *
 * Checked: each pair of neighbours in the sorted set S that lies in one piece, and each pair
 * of neighbours in runs of run_len consecutive inputs starting at random points of every
 * binade of both signs (seeded by gs_seed_mix(seed, GS_SUITE_IDENTITY, 2^32 + binade)): a
 * polynomial that wiggles shows between nearby inputs.  A finding names the pair; its x is
 * the second input; score: how many positions the output moves the wrong way. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "identity_priv.h"

#define ID_BATCH 65536      /* the largest batch (docs/design.md 5.2) */
#define ID_FAR INT64_MAX /* beyond +-inf of every dtype (f64: +-(2^63 - 2^52)) */

static void set_pieces(struct id_state *s)
{
    enum geluref_func f = s->c->func;
    int64_t bp = s->c->targets.has_min ? gs_pos(s->dt, s->c->targets.min_x) : 0;
    struct id_piece *p = s->piece;
    s->n_pieces = 0;
    switch (f) {
    case GELUREF_NORMCDF:
    case GELUREF_ERF:
    case GELUREF_ERFC:
        p[0] = (struct id_piece){ -ID_FAR, ID_FAR, f == GELUREF_ERFC ? -1 : 1 };
        s->n_pieces = 1;
        return;
    case GELUREF_NORMPDF:
        p[0] = (struct id_piece){ -ID_FAR, 0, 1 };
        p[1] = (struct id_piece){ 0, ID_FAR, -1 };
        s->n_pieces = 2;
        return;
    default:
        break;
    }
    if (bp >= -1) /* no minimum found on x < 0: the pieces are unknown */
        return;
    p[0] = (struct id_piece){ -ID_FAR, bp - 1, -1 };
    if (id_gelu_family(f)) {
        p[1] = (struct id_piece){ bp + 1, ID_FAR, 1 };
        s->n_pieces = 2;
    } else {
        p[1] = (struct id_piece){ bp + 1, -bp - 1, 1 };
        p[2] = (struct id_piece){ -bp + 1, ID_FAR, -1 };
        s->n_pieces = 3;
    }
}

json_t *id_pieces_json(const struct id_state *s)
{
    json_t *a = json_array();
    for (int i = 0; i < s->n_pieces; i++)
        json_array_append_new(a, json_pack("{s:o, s:o, s:s}",
            "from", gs_value_json(s->dt, gs_from_pos(s->dt, s->piece[i].lo)),
            "to", gs_value_json(s->dt, gs_from_pos(s->dt, s->piece[i].hi)),
            "direction", s->piece[i].dir > 0 ? "increasing" : "decreasing"));
    return a;
}

/* a < b neighbours with outputs ya, yb */
static void pair(struct id_state *s, uint64_t a, uint64_t ya, uint64_t b, uint64_t yb)
{
    int64_t pa = gs_pos(s->dt, a), pb = gs_pos(s->dt, b);
    const struct id_piece *p = NULL;
    for (int i = 0; i < s->n_pieces && p == NULL; i++)
        if (s->piece[i].lo <= pa && pb <= s->piece[i].hi)
            p = &s->piece[i];
    if (p == NULL)
        return;
    s->pairs++;
    double fa = gs_to_double(s->dt, ya), fb = gs_to_double(s->dt, yb);
    if (!(p->dir > 0 ? fb < fa : fb > fa)) /* NaN: not judged here (a bound violation) */
        return;
    /* two outputs each within q ulps of a monotone function can step ceil(2q) - 1 positions
     * the wrong way (q = 1/2, correctly rounded: none): the policy's consistency_ulps */
    double q = s->c->pv.consistency_ulps, back = (double)llabs(gs_pos(s->dt, yb) - gs_pos(s->dt, ya));
    if (isinf(q) || back <= ceil(2 * q) - 1)
        return;
    struct gs_finding fd = { .kind = GS_K_NON_MONOTONIC, .region = gs_region_of(s->dt, b),
                             .has_x = 1, .has_got = 1, .x = b, .got = yb, .ulp = NAN,
                             .abs_err = NAN,
                             .score = back };
    if (gs_findings_may_keep(&s->r->findings, fd.kind, fd.region, fd.score)) {
        char as[40], bs[40], yas[40], ybs[40];
        geluref_format_dec(as, sizeof as, s->dt, a);
        geluref_format_dec(bs, sizeof bs, s->dt, b);
        geluref_format_dec(yas, sizeof yas, s->dt, ya);
        geluref_format_dec(ybs, sizeof ybs, s->dt, yb);
        snprintf(fd.detail, sizeof fd.detail, "%s on a %s piece: f(%s) = %s %s f(%s) = %s",
                 p->dir > 0 ? "falls" : "rises", p->dir > 0 ? "rising" : "falling", as, yas,
                 p->dir > 0 ? ">" : "<", bs, ybs);
    }
    gs_findings_add(&s->r->findings, &fd);
    s->mono_viol++;
}

/* evaluates n inputs of runs of s->run_len and checks the neighbours inside each run */
static int flush(struct id_state *s, const uint64_t *x, uint64_t *y, size_t n)
{
    if (n == 0)
        return 0;
    if (id_eval(s, x, y, n) != 0)
        return -1;
    s->run_points += n;
    for (size_t i = 0; i + 1 < n; i++)
        if ((i + 1) % s->run_len != 0)
            pair(s, x[i], y[i], x[i + 1], y[i + 1]);
    return 0;
}

static int runs(struct id_state *s)
{
    uint64_t len = s->run_len;
    if (s->exhaustive || s->runs == 0 || len < 2 || len > ID_BATCH / 2 || s->n_pieces == 0)
        return 0;
    int mb = s->di->prec - 1;
    uint64_t mant = ((uint64_t)1 << mb) - 1;
    int64_t maxpos = (int64_t)((s->n_binades << mb) - 1); /* the largest finite input */
    size_t cap = (size_t)(ID_BATCH / len * len), n = 0;
    uint64_t *x = malloc(cap * sizeof *x), *y = malloc(cap * sizeof *y);
    int rc = x == NULL || y == NULL ? -1 : 0;
    if (rc != 0) {
        snprintf(s->r->note, sizeof s->r->note, "out of memory");
        s->failed = 1;
    }
    for (uint64_t e = 0; rc == 0 && e < s->n_binades; e++) {
        struct gs_rng g;
        gs_rng_seed(&g, gs_seed_mix(s->c->cfg->seed, GS_SUITE_IDENTITY, ((uint64_t)1 << 32) + e));
        for (uint64_t j = 0; rc == 0 && j < s->runs; j++) {
            int64_t p0 = (int64_t)((e << mb) | gs_rng_below(&g, mant + 1));
            if (p0 + (int64_t)len - 1 > maxpos)
                p0 = maxpos - (int64_t)len + 1;
            if (n + 2 * len > cap) {
                rc = flush(s, x, y, n);
                n = 0;
            }
            for (uint64_t i = 0; i < len; i++) /* the run and its mirror on x < 0 */
                x[n + i] = gs_from_pos(s->dt, p0 + (int64_t)i);
            for (uint64_t i = 0; i < len; i++)
                x[n + len + i] = gs_from_pos(s->dt, -(p0 + (int64_t)len - 1) + (int64_t)i);
            n += 2 * len;
        }
    }
    if (rc == 0)
        rc = flush(s, x, y, n);
    free(x);
    free(y);
    return rc;
}

int id_monotone(struct id_state *s)
{
    set_pieces(s);
    if (s->n_pieces == 0 && s->r->note[0] == '\0')
        snprintf(s->r->note, sizeof s->r->note,
                 "no minimum found: bounds and monotone pieces not checked");
    for (size_t i = 0; i + 1 < s->n; i++)
        pair(s, s->x[i], s->y[i], s->x[i + 1], s->y[i + 1]);
    return runs(s);
}
