/* readback.c: the JSON writers of json.c and errstat.c read back (suites.h), for gelucheck
 * merge.  Each reader takes exactly what its writer makes; what the writer leaves out for
 * "none" (-1 maxima, NaN errors) comes back as that "none". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"

int gs_real_from_json(const json_t *j, double *v)
{
    const char *s = json_string_value(j);
    if (json_is_number(j)) {
        *v = json_number_value(j);
        return 0;
    }
    if (s && strcmp(s, "inf") == 0)
        *v = INFINITY;
    else if (s && strcmp(s, "-inf") == 0)
        *v = -INFINITY;
    else if (s && strcmp(s, "nan") == 0)
        *v = NAN;
    else
        return -1;
    return 0;
}

int gs_bits_from_json(const json_t *j, uint64_t *bits)
{
    const char *s = json_string_value(json_is_object(j) ? json_object_get(j, "bits") : j);
    char *end;
    if (!s || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !s[2])
        return -1;
    *bits = strtoull(s + 2, &end, 16);
    return *end ? -1 : 0;
}

static int count_of(const json_t *o, const char *key, uint64_t *n)
{
    const json_t *j = json_object_get(o, key);
    if (!json_is_integer(j) || json_integer_value(j) < 0)
        return -1;
    *n = (uint64_t)json_integer_value(j);
    return 0;
}

/* A maximum: a number, or null for "none" (-1) or for a non-finite one, told apart by
 * whether its argument is there (has). */
static int max_of(const json_t *o, const char *key, int has, double *v)
{
    const json_t *j = json_object_get(o, key);
    if (json_is_number(j) && has) {
        *v = json_number_value(j);
        return 0;
    }
    if (!json_is_null(j))
        return -1;
    *v = has ? INFINITY : -1;
    return 0;
}

/* The argument of a maximum: a value object, or null (*has 0). */
static int arg_of(const json_t *j, uint64_t *bits, int *has)
{
    *has = !json_is_null(j);
    *bits = 0;
    return *has ? gs_bits_from_json(j, bits) : 0;
}

static int counts_from_json(struct gs_errstat *s, const json_t *j)
{
    if (count_of(j, "points", &s->points) || count_of(j, "correctly_rounded", &s->cr) ||
        count_of(j, "faithful", &s->faithful) || count_of(j, "nonfinite", &s->nonfinite))
        return -1;
    const json_t *h = json_object_get(j, "cr_distance_histogram");
    for (int i = 0; h && i < GS_HIST_N; i++)
        if (count_of(h, gs_hist_label(i), &s->hist[i]))
            return -1;
    return 0;
}

/* gs_errstat_json: "max_ulp_at" {x, got, want}, "max_abs_err_x", "max_rel_err_x". */
static int full_from_json(struct gs_errstat *s, const json_t *j)
{
    const json_t *at = json_object_get(j, "max_ulp_at");
    int has = 0, has_abs, has_rel;
    if (!json_is_null(at)) {
        has = 1;
        if (gs_bits_from_json(json_object_get(at, "x"), &s->max_ulp_x) ||
            gs_bits_from_json(json_object_get(at, "got"), &s->max_ulp_got) ||
            gs_bits_from_json(json_object_get(at, "want"), &s->max_ulp_want))
            return -1;
    }
    if (arg_of(json_object_get(j, "max_abs_err_x"), &s->max_abs_x, &has_abs) ||
        arg_of(json_object_get(j, "max_rel_err_x"), &s->max_rel_x, &has_rel))
        return -1;
    return max_of(j, "max_ulp", has, &s->max_ulp) || max_of(j, "max_abs_err", has_abs,
                                                            &s->max_abs) ||
                   max_of(j, "max_rel_err", has_rel, &s->max_rel)
               ? -1
               : 0;
}

/* gs_errstat_json_brief: only "max_ulp_x" tells whether there are maxima; a finite output
 * where f(x) is finite sets all three (errstat.c), so it stands for the other two. */
static int brief_from_json(struct gs_errstat *s, const json_t *j)
{
    int has;
    if (arg_of(json_object_get(j, "max_ulp_x"), &s->max_ulp_x, &has))
        return -1;
    return max_of(j, "max_ulp", has, &s->max_ulp) || max_of(j, "max_abs_err", has, &s->max_abs) ||
                   max_of(j, "max_rel_err", has, &s->max_rel)
               ? -1
               : 0;
}

int gs_errstat_from_json(struct gs_errstat *s, const json_t *j)
{
    gs_errstat_init(s);
    if (!json_is_object(j) || counts_from_json(s, j))
        return -1;
    if (json_object_get(j, "max_ulp_at"))
        return full_from_json(s, j);
    if (json_object_get(j, "max_ulp_x"))
        return brief_from_json(s, j);
    return -1;
}

/* One entry of "findings" (json.c's finding_json). */
static int finding_from_json(struct gs_finding *f, const json_t *j)
{
    const json_t *x = json_object_get(j, "x"), *got = json_object_get(j, "got");
    const json_t *want = json_object_get(j, "want"), *u = json_object_get(j, "ulp");
    const json_t *ae = json_object_get(j, "abs_err");
    const char *detail = json_string_value(json_object_get(j, "detail"));
    memset(f, 0, sizeof *f);
    f->has_x = x != NULL;
    f->has_got = got != NULL;
    f->has_want = want != NULL;
    f->ulp = f->abs_err = NAN;
    if (gs_kind_from_name(json_string_value(json_object_get(j, "kind")), &f->kind) ||
        gs_region_from_name(json_string_value(json_object_get(j, "region")), &f->region) ||
        !detail || strlen(detail) >= sizeof f->detail ||
        gs_real_from_json(json_object_get(j, "score"), &f->score) ||
        (x && gs_bits_from_json(x, &f->x)) || (got && gs_bits_from_json(got, &f->got)) ||
        (want && gs_bits_from_json(want, &f->want)) || (u && gs_real_from_json(u, &f->ulp)) ||
        (ae && gs_real_from_json(ae, &f->abs_err)))
        return -1;
    strcpy(f->detail, detail);
    return 0;
}

/* The worst lists are rebuilt by adding the listed findings (which counts them), then each
 * bucket's count is set to the recorded one: the listed ones are among those counted.  A kind
 * is shown with the most severe of its rows' severities; a finding or a row shown as warn
 * where its kind says fail is tolerated (gs_findings_json writes them so). */
int gs_findings_from_json(struct gs_findings *f, enum gs_severity sev[GS_N_KINDS],
                          const json_t *suite)
{
    const json_t *counts = json_object_get(suite, "finding_counts");
    const json_t *list = json_object_get(suite, "findings");
    enum gs_severity ks[GS_N_KINDS];
    size_t i;
    json_t *e;
    if (!json_is_array(counts) || !json_is_array(list))
        return -1;
    for (int k = 0; k < GS_N_KINDS; k++)
        ks[k] = GS_SEV_IGNORE;
    json_array_foreach(counts, i, e) {
        enum gs_kind k;
        enum gs_severity v;
        if (gs_kind_from_name(json_string_value(json_object_get(e, "kind")), &k) ||
            gs_severity_from_name(json_string_value(json_object_get(e, "severity")), &v))
            return -1;
        ks[k] = v < ks[k] ? v : ks[k];
        sev[k] = ks[k];
    }
    json_array_foreach(list, i, e) {
        struct gs_finding fd;
        enum gs_severity v;
        if (finding_from_json(&fd, e) ||
            gs_severity_from_name(json_string_value(json_object_get(e, "severity")), &v))
            return -1;
        fd.tolerated = v == GS_SEV_WARN && ks[fd.kind] == GS_SEV_FAIL;
        gs_findings_add(f, &fd);
    }
    json_array_foreach(counts, i, e) {
        enum gs_kind k;
        enum gs_region r;
        enum gs_severity v;
        uint64_t n;
        if (gs_kind_from_name(json_string_value(json_object_get(e, "kind")), &k) ||
            gs_region_from_name(json_string_value(json_object_get(e, "region")), &r) ||
            count_of(e, "count", &n) ||
            gs_severity_from_name(json_string_value(json_object_get(e, "severity")), &v))
            return -1;
        struct gs_bucket *b = f->b[k][r];
        if (!b || n < b->count || n == 0)
            return -1; /* a count without findings listed, or fewer than listed */
        b->count = n;
        if (v == GS_SEV_WARN && ks[k] == GS_SEV_FAIL)
            b->tolerated = n; /* the whole bucket */
    }
    /* every bucket with findings listed has its count */
    size_t buckets = 0;
    for (int k = 0; k < GS_N_KINDS; k++)
        for (int r = 0; r <= GS_N_REGIONS; r++)
            buckets += f->b[k][r] != NULL;
    return f->nomem || buckets != json_array_size(counts) ? -1 : 0;
}
