/* identity_priv.h: what the files of the identity suite share (identity.c: inputs and the
 * run; identity_check.c: the identities, f(0) and the bounds; identity_mono.c: monotone
 * pieces).  Not part of the suites.h contract. */
#ifndef GELUCHECK_IDENTITY_PRIV_H
#define GELUCHECK_IDENTITY_PRIV_H

#include "suites.h"

/* A piece of the x axis where f is monotone: positions lo..hi (gs_pos, both ends included),
 * dir +1 non-decreasing, -1 non-increasing (equal neighbours allowed). */
struct id_piece {
    int64_t lo, hi;
    int dir;
};

struct id_state {
    struct gs_ctx *c;
    struct gs_suite_result *r;
    enum geluref_dtype dt;
    const struct geluref_dtype_info *di;
    /* the plan (id_plan) */
    int exhaustive;          /* f16/bf16: every finite input */
    uint64_t n_binades;      /* positive binades, the subnormals' included */
    uint64_t per_binade;     /* random inputs per binade (f32/f64) */
    uint64_t runs;           /* runs of consecutive inputs per binade and sign */
    uint64_t run_len;
    /* the positive inputs P (+0 included, sorted by value) and S = P and -P, sorted by value
       (id_key order: -0 before +0), with the kernel's outputs y */
    uint64_t *p;
    size_t np;
    uint64_t *x, *y;
    size_t n;
    /* results */
    uint64_t id_checked, id_viol;
    double id_max_ulps;      /* largest |residual| / ulp of the larger output seen */
    uint64_t zero_checked, zero_viol;
    int has_lo, has_hi;      /* the bounds: lo <= f(x) <= hi (and <= max(x, 0): gelu family) */
    uint64_t lo, hi;
    uint64_t b_checked, b_viol;
    struct id_piece piece[3];
    int n_pieces;
    uint64_t pairs, mono_viol, run_points;
    int failed;              /* the kernel failed (error finding recorded) or the reference */
};

/* Functions by shape. */
int id_gelu_family(enum geluref_func f); /* gelu, gelu_tanh, gelu_sigmoid */
int id_grad(enum geluref_func f);        /* gelu_grad, gelu_tanh_grad */

/* A total order of the dtype's values as unsigned keys (-0 just before +0, NaN outside). */
uint64_t id_key(enum geluref_dtype dt, uint64_t b);
/* Index of x in s->x, or (size_t)-1. */
size_t id_find(const struct id_state *s, uint64_t x);
/* y[i] = kernel(x[i]) in batches of at most 65536; 0, or -1 with s->failed set. */
int id_eval(struct id_state *s, const uint64_t *x, uint64_t *y, size_t n);
/* RN(f(x)) from the reference; 0, or -1 with the internal error recorded in s->c. */
int id_ref(struct id_state *s, uint64_t x, uint64_t *rn);

/* The checks; each returns 0, or -1 when the reference or the kernel failed. */
int id_zero(struct id_state *s);
int id_identity(struct id_state *s);
int id_bounds(struct id_state *s);
int id_monotone(struct id_state *s);

/* Metrics parts. */
json_t *id_pieces_json(const struct id_state *s);

#endif
