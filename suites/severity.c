/* severity.c: the order of severity of findings (docs/findings.md), the one order in which the
 * terminal summary, report.md and JUnit show them: first the severity the policy gives the
 * finding (fail, then warn, then ignore), then its kind by the table below, then the size of
 * its error (the score, larger first), ties to the smaller x bits. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"

/* Every kind once, the most severe first (docs/findings.md gives the reasons).  The process
 * and the contract first (nothing else the kernel did is worth much after them), then wrong
 * classes of value (NaN, inf, a sign), damage to the caller's memory and state, zeros that
 * lose the whole result, special inputs, vector defects (one call differs from another),
 * then accuracy, consistency, and last the subnormal and zero-sign details. */
static const enum gs_kind order[] = {
    GS_K_CRASH,               /* the process died */
    GS_K_TIMEOUT,             /* no answer */
    GS_K_ADAPTER_ERROR,       /* no usable answer */
    GS_K_DECLARED_MISMATCH,   /* another formula: every output is off */
    GS_K_NAN_OUTPUT,          /* NaN for a finite result */
    GS_K_INF_OUTPUT,
    GS_K_WRONG_SIGN,
    GS_K_OUT_OF_BOUNDS_WRITE, /* corrupts the caller's memory */
    GS_K_INPUT_MODIFIED,
    GS_K_FPENV_MODIFIED,      /* changes the caller's arithmetic */
    GS_K_PREMATURE_FLUSH,     /* 0 for a normal result: every bit lost */
    GS_K_SPECIAL_VALUE,       /* NaN, +-inf, +-0 in */
    GS_K_LANE_CONTAMINATION,
    GS_K_NONDETERMINISTIC,
    GS_K_POSITION_DEPENDENT,
    GS_K_ALIGNMENT_DEPENDENT,
    GS_K_INPLACE_MISMATCH,
    GS_K_ULP_EXCEEDED,        /* inaccurate, by how much is the score */
    GS_K_BOUND_VIOLATION,     /* consequences of inaccuracy, seen as shape */
    GS_K_NON_MONOTONIC,
    GS_K_IDENTITY_VIOLATION,
    GS_K_FTZ,                 /* a subnormal result flushed */
    GS_K_SIGNED_ZERO,         /* the sign of a zero */
};
_Static_assert(sizeof order / sizeof order[0] == GS_N_KINDS, "every finding kind is ranked");

int gs_kind_rank(enum gs_kind k)
{
    for (int i = 0; i < GS_N_KINDS; i++)
        if (order[i] == k)
            return i;
    return GS_N_KINDS;
}

enum gs_kind gs_kind_at_rank(int rank)
{
    return rank >= 0 && rank < GS_N_KINDS ? order[rank] : GS_K_NONE;
}

static const char *const severity_names[] = { "fail", "warn", "ignore" };

const char *gs_severity_name(enum gs_severity s)
{
    return (unsigned)s <= GS_SEV_IGNORE ? severity_names[s] : NULL;
}

int gs_severity_from_name(const char *name, enum gs_severity *s)
{
    for (int i = 0; name != NULL && i <= GS_SEV_IGNORE; i++)
        if (strcmp(name, severity_names[i]) == 0) {
            *s = (enum gs_severity)i;
            return 0;
        }
    return -1;
}

enum gs_severity gs_kind_severity(const struct gs_policy_values *v, enum gs_kind k)
{
    if (v == NULL || k == GS_K_CRASH || k == GS_K_TIMEOUT || k == GS_K_ADAPTER_ERROR ||
        (unsigned)k >= GS_N_KINDS || (unsigned)v->severity[k] > GS_SEV_IGNORE)
        return GS_SEV_FAIL;
    return v->severity[k];
}

enum gs_severity gs_finding_severity(const struct gs_policy_values *v,
                                     const struct gs_finding *f)
{
    enum gs_severity s = gs_kind_severity(v, f->kind);
    return f->tolerated && s == GS_SEV_FAIL ? GS_SEV_WARN : s;
}

static double score_key(double s) { return isnan(s) ? INFINITY : s; }

int gs_rank_cmp(const struct gs_rank_key *a, const struct gs_rank_key *b)
{
    if (a->severity != b->severity)
        return a->severity < b->severity ? -1 : 1;
    int ra = gs_kind_rank(a->kind), rb = gs_kind_rank(b->kind);
    if (ra != rb)
        return ra < rb ? -1 : 1;
    double sa = score_key(a->score), sb = score_key(b->score);
    if (sa != sb)
        return sa > sb ? -1 : 1;
    if (a->has_x != b->has_x)
        return a->has_x ? -1 : 1;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    return 0;
}

void gs_rank_key_of(struct gs_rank_key *key, const struct gs_policy_values *v,
                    const struct gs_finding *f)
{
    key->severity = (int)gs_finding_severity(v, f);
    key->kind = f->kind;
    key->score = f->score;
    key->has_x = f->has_x;
    key->x = f->x;
}

/* A finding of the result: unknown severities after ignore, unknown kinds after every kind,
 * no score (results written before it was recorded) the ulp error or 0. */
void gs_rank_key_of_json(struct gs_rank_key *key, const json_t *f)
{
    const json_t *x = json_object_get(f, "x");
    enum gs_severity s;
    enum gs_kind k;
    key->severity = gs_severity_from_name(json_string_value(json_object_get(f, "severity")),
                                          &s) == 0 ? (int)s : GS_SEV_IGNORE + 1;
    key->kind = gs_kind_from_name(json_string_value(json_object_get(f, "kind")), &k) == 0
                    ? k : GS_K_NONE;
    if (gs_real_from_json(json_object_get(f, "score"), &key->score) != 0 &&
        gs_real_from_json(json_object_get(f, "ulp"), &key->score) != 0)
        key->score = 0;
    key->has_x = x != NULL && gs_bits_from_json(x, &key->x) == 0;
    if (!key->has_x)
        key->x = 0;
}

int gs_finding_json_cmp(const json_t *a, const json_t *b)
{
    struct gs_rank_key ka, kb;
    gs_rank_key_of_json(&ka, a);
    gs_rank_key_of_json(&kb, b);
    return gs_rank_cmp(&ka, &kb);
}
