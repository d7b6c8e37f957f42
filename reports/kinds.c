/* kinds.c: the finding kinds of a kernel in the order of severity (findings.h). */
#include <stdlib.h>
#include <string.h>

#include "findings.h"

static struct rp_kind *slot(struct rp_kind *out, size_t *n, enum gs_kind kind)
{
    for (size_t i = 0; i < *n; i++)
        if (out[i].kind == kind)
            return &out[i];
    if (*n == GS_N_KINDS)
        return NULL;
    memset(&out[*n], 0, sizeof out[*n]);
    out[*n].kind = kind;
    out[*n].severity = GS_SEV_IGNORE;
    return &out[(*n)++];
}

/* < 0 when a comes first */
static int kind_cmp(const void *pa, const void *pb)
{
    const struct rp_kind *a = pa, *b = pb;
    if (a->severity != b->severity)
        return a->severity < b->severity ? -1 : 1;
    if (a->worst && b->worst) {
        int c = gs_finding_json_cmp(a->worst, b->worst);
        if (c)
            return c;
    } else if (!a->worst != !b->worst) {
        return a->worst ? -1 : 1;
    }
    int ra = gs_kind_rank(a->kind), rb = gs_kind_rank(b->kind);
    return ra < rb ? -1 : ra > rb;
}

size_t rp_kernel_kinds(const json_t *k, struct rp_kind out[GS_N_KINDS])
{
    size_t n = 0, i, j;
    const json_t *s, *e;

    json_array_foreach(json_object_get(k, "suites"), i, s) {
        json_array_foreach(json_object_get(s, "finding_counts"), j, e) {
            enum gs_kind kind;
            enum gs_severity sev;
            json_int_t c = json_integer_value(json_object_get(e, "count"));
            if (gs_kind_from_name(json_string_value(json_object_get(e, "kind")), &kind) ||
                gs_severity_from_name(json_string_value(json_object_get(e, "severity")), &sev) ||
                c <= 0)
                continue;
            struct rp_kind *r = slot(out, &n, kind);
            if (!r)
                continue;
            r->count += (uint64_t)c;
            if (sev < r->severity)
                r->severity = sev;
            if (!r->suite)
                r->suite = s;
        }
        json_array_foreach(json_object_get(s, "findings"), j, e) {
            enum gs_kind kind;
            if (gs_kind_from_name(json_string_value(json_object_get(e, "kind")), &kind))
                continue;
            struct rp_kind *r = slot(out, &n, kind);
            if (r && (!r->worst || gs_finding_json_cmp(e, r->worst) < 0)) {
                r->worst = e;
                r->suite = s;
            }
        }
    }
    /* the worst finding's severity is its kind's when the rows say less (no rows) */
    for (i = 0; i < n; i++) {
        enum gs_severity sev;
        if (out[i].worst &&
            gs_severity_from_name(json_string_value(json_object_get(out[i].worst, "severity")),
                                  &sev) == 0 && sev < out[i].severity)
            out[i].severity = sev;
    }
    qsort(out, n, sizeof *out, kind_cmp);
    return n;
}

int rp_kernel_has(const json_t *k, enum gs_kind kind)
{
    size_t i, j;
    const json_t *s, *e;
    const char *name = gs_kind_name(kind);
    json_array_foreach(json_object_get(k, "suites"), i, s) {
        json_array_foreach(json_object_get(s, "finding_counts"), j, e) {
            const char *kn = json_string_value(json_object_get(e, "kind"));
            if (name && kn && strcmp(kn, name) == 0 &&
                json_integer_value(json_object_get(e, "count")) > 0)
                return 1;
        }
    }
    return 0;
}
