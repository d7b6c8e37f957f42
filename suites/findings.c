/* findings.c: per (kind, region) the count of findings and the GS_WORST_K worst.
 *
 * The worst list of a bucket is the first GS_WORST_K of all its findings under one total
 * order (score descending, NaN counted as +inf; then x bits, got bits and want bits ascending;
 * then the detail text), so merging buckets in any order or grouping gives the same list. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"

void gs_findings_init(struct gs_findings *f) { memset(f, 0, sizeof *f); }

void gs_findings_release(struct gs_findings *f)
{
    for (int k = 0; k < GS_N_KINDS; k++)
        for (int r = 0; r <= GS_N_REGIONS; r++)
            free(f->b[k][r]);
    memset(f, 0, sizeof *f);
}

static double key(double score) { return isnan(score) ? INFINITY : score; }

/* < 0 when a comes before (is worse than) b */
static int cmp(const struct gs_finding *a, const struct gs_finding *b)
{
    double sa = key(a->score), sb = key(b->score);
    if (sa != sb)
        return sa > sb ? -1 : 1;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    if (a->got != b->got)
        return a->got < b->got ? -1 : 1;
    if (a->want != b->want)
        return a->want < b->want ? -1 : 1;
    return strcmp(a->detail, b->detail);
}

static void insert(struct gs_bucket *b, const struct gs_finding *x)
{
    size_t n = b->n_worst;
    if (n == GS_WORST_K) {
        if (cmp(x, &b->worst[n - 1]) >= 0)
            return; /* not among the worst */
        n--;        /* the last one drops out */
    }
    size_t i = n;
    while (i > 0 && cmp(x, &b->worst[i - 1]) < 0) {
        b->worst[i] = b->worst[i - 1];
        i--;
    }
    b->worst[i] = *x;
    b->worst[i].detail[sizeof b->worst[i].detail - 1] = '\0';
    b->n_worst = n + 1;
}

static struct gs_bucket *bucket(struct gs_findings *f, enum gs_kind k, enum gs_region r)
{
    if ((unsigned)k >= GS_N_KINDS)
        return NULL;
    if ((unsigned)r > GS_N_REGIONS)
        r = GS_R_NONE;
    if (f->b[k][r] == NULL) {
        f->b[k][r] = calloc(1, sizeof *f->b[k][r]);
        if (f->b[k][r] == NULL)
            f->nomem = 1; /* the finding is lost; the flag says so */
    }
    return f->b[k][r];
}

int gs_findings_may_keep(const struct gs_findings *f, enum gs_kind k, enum gs_region r,
                         double score)
{
    if ((unsigned)k >= GS_N_KINDS)
        return 0;
    if ((unsigned)r > GS_N_REGIONS)
        r = GS_R_NONE;
    const struct gs_bucket *b = f->b[k][r];
    if (b == NULL || b->n_worst < GS_WORST_K)
        return 1;
    return key(score) >= key(b->worst[GS_WORST_K - 1].score); /* cmp()'s order */
}

int gs_findings_count_unkept(struct gs_findings *f, enum gs_kind k, enum gs_region r,
                             double score_hi, int exact, uint64_t x)
{
    if ((unsigned)k >= GS_N_KINDS)
        return 0;
    if ((unsigned)r > GS_N_REGIONS)
        r = GS_R_NONE;
    struct gs_bucket *b = f->b[k][r];
    if (b == NULL || b->n_worst < GS_WORST_K || isnan(score_hi))
        return 0;
    /* a full list whose last entry has a larger score keeps none below score_hi: cmp()
     * orders a finding of a smaller score after it whatever its x; an exact score equal to
     * it goes after it when x is larger (and stays after whatever replaces it, a list entry
     * only ever being replaced by one ahead of it) */
    const struct gs_finding *last = &b->worst[GS_WORST_K - 1];
    double ls = key(last->score);
    if (!(score_hi < ls || (exact && score_hi == ls && x > last->x)))
        return 0;
    b->count++;
    return 1;
}

double gs_findings_unkept_below(const struct gs_findings *f, enum gs_kind k, enum gs_region r)
{
    if ((unsigned)k >= GS_N_KINDS)
        return -INFINITY;
    if ((unsigned)r > GS_N_REGIONS)
        r = GS_R_NONE;
    const struct gs_bucket *b = f->b[k][r];
    if (b == NULL || b->n_worst < GS_WORST_K)
        return -INFINITY;
    return key(b->worst[GS_WORST_K - 1].score); /* gs_findings_count_unkept's ls */
}

void gs_findings_count_more(struct gs_findings *f, enum gs_kind k, enum gs_region r, uint64_t n)
{
    struct gs_bucket *b = bucket(f, k, r);
    if (b != NULL)
        b->count += n;
}

void gs_findings_add(struct gs_findings *f, const struct gs_finding *x)
{
    struct gs_bucket *b = bucket(f, x->kind, x->region);
    if (b == NULL)
        return;
    b->count++;
    b->tolerated += x->tolerated != 0;
    insert(b, x);
}

void gs_findings_merge(struct gs_findings *into, const struct gs_findings *from)
{
    if (from->nomem)
        into->nomem = 1;
    for (int k = 0; k < GS_N_KINDS; k++)
        for (int r = 0; r <= GS_N_REGIONS; r++) {
            const struct gs_bucket *s = from->b[k][r];
            if (s == NULL)
                continue;
            struct gs_bucket *d = bucket(into, (enum gs_kind)k, (enum gs_region)r);
            if (d == NULL)
                continue;
            d->count += s->count;
            d->tolerated += s->tolerated;
            for (size_t i = 0; i < s->n_worst; i++)
                insert(d, &s->worst[i]);
        }
}

uint64_t gs_findings_count(const struct gs_findings *f, enum gs_kind k)
{
    uint64_t n = 0;
    if ((unsigned)k >= GS_N_KINDS)
        return 0;
    for (int r = 0; r <= GS_N_REGIONS; r++)
        if (f->b[k][r] != NULL)
            n += f->b[k][r]->count;
    return n;
}

int gs_findings_fail(const struct gs_findings *f, const struct gs_policy_values *v)
{
    for (int k = 0; k < GS_N_KINDS; k++) {
        if (gs_kind_severity(v, (enum gs_kind)k) != GS_SEV_FAIL)
            continue;
        for (int r = 0; r <= GS_N_REGIONS; r++)
            if (f->b[k][r] != NULL && f->b[k][r]->count > f->b[k][r]->tolerated)
                return 1;
    }
    return 0;
}

/* Ignored findings never; the others by the order of severity (gs_rank_cmp). */
const struct gs_finding *gs_findings_worst(const struct gs_findings *f,
                                           const struct gs_policy_values *v)
{
    const struct gs_finding *best = NULL;
    struct gs_rank_key kb = { 0 }, kx;
    for (int k = 0; k < GS_N_KINDS; k++)
        for (int r = 0; r <= GS_N_REGIONS; r++) {
            const struct gs_bucket *b = f->b[k][r];
            for (size_t i = 0; b != NULL && i < b->n_worst; i++) {
                gs_rank_key_of(&kx, v, &b->worst[i]);
                if (kx.severity == GS_SEV_IGNORE || (best != NULL && gs_rank_cmp(&kx, &kb) >= 0))
                    continue;
                best = &b->worst[i];
                kb = kx;
            }
        }
    return best;
}
