/* json.c: values, reals and findings as JSON (docs/design.md section 8: never a non-finite JSON
 * number). */
#include <math.h>
#include <stdio.h>

#include "suites.h"

json_t *gs_value_json(enum geluref_dtype dt, uint64_t bits)
{
    char dec[40], hex[40], b[24]; /* f64: at most 25, 24 and 18 characters with the NUL */
    geluref_format_dec(dec, sizeof dec, dt, bits);
    geluref_format_hex(hex, sizeof hex, dt, bits);
    geluref_format_bits(b, sizeof b, dt, bits);
    return json_pack("{s:s, s:s, s:s}", "dec", dec, "hex", hex, "bits", b);
}

json_t *gs_real_json(double v)
{
    if (isnan(v))
        return json_string("nan");
    if (isinf(v))
        return json_string(v > 0 ? "inf" : "-inf");
    return json_real(v);
}

/* For gelu_scaled the scale is not part of the command (the CLI's default scale applies). */
void gs_ref_command(char *buf, size_t size, enum geluref_func f, enum geluref_dtype dt,
                    uint64_t x)
{
    char b[24];
    const char *fn = geluref_func_name(f), *dn = geluref_dtype_name(dt);
    if (buf == NULL || size == 0)
        return;
    geluref_format_bits(b, sizeof b, dt, x);
    snprintf(buf, size, "gelucheck ref %s --dtype %s %s", fn != NULL ? fn : "?",
             dn != NULL ? dn : "?", b);
}

static json_t *finding_json(const struct gs_finding *x, const struct gs_policy_values *v,
                            enum geluref_func func, enum geluref_dtype dt)
{
    const char *sev = gs_severity_name(gs_finding_severity(v, x));
    json_t *o = json_object();
    if (o == NULL)
        return NULL;
    json_object_set_new(o, "kind", json_string(gs_kind_name(x->kind)));
    json_object_set_new(o, "region", json_string(gs_region_name(x->region)));
    json_object_set_new(o, "severity", json_string(sev));
    if (x->has_x)
        json_object_set_new(o, "x", gs_value_json(dt, x->x));
    if (x->has_got)
        json_object_set_new(o, "got", gs_value_json(dt, x->got));
    if (x->has_want)
        json_object_set_new(o, "want", gs_value_json(dt, x->want));
    if (!isnan(x->ulp))
        json_object_set_new(o, "ulp", gs_real_json(x->ulp));
    if (!isnan(x->abs_err))
        json_object_set_new(o, "abs_err", gs_real_json(x->abs_err));
    json_object_set_new(o, "score", gs_real_json(x->score));
    json_object_set_new(o, "detail", json_string(x->detail));
    if (x->has_x) {
        char cmd[128];
        gs_ref_command(cmd, sizeof cmd, func, dt, x->x);
        json_object_set_new(o, "command", json_string(cmd));
    }
    return o;
}

void gs_findings_json(json_t *obj, const struct gs_findings *f, const struct gs_policy_values *v,
                      enum geluref_func func, enum geluref_dtype dt)
{
    json_t *counts = json_array(), *list = json_array();
    for (int k = 0; k < GS_N_KINDS; k++)
        for (int r = 0; r <= GS_N_REGIONS; r++) {
            const struct gs_bucket *b = f->b[k][r];
            if (b == NULL || b->count == 0)
                continue;
            /* a bucket of tolerated findings only is shown as what they are: warnings */
            enum gs_severity ks = gs_kind_severity(v, (enum gs_kind)k);
            const char *sev = gs_severity_name(ks == GS_SEV_FAIL && b->tolerated == b->count
                                                   ? GS_SEV_WARN : ks);
            json_array_append_new(counts, json_pack("{s:s, s:s, s:I, s:s}",
                                                    "kind", gs_kind_name((enum gs_kind)k),
                                                    "region", gs_region_name((enum gs_region)r),
                                                    "count", (json_int_t)b->count,
                                                    "severity", sev));
            for (size_t i = 0; i < b->n_worst; i++)
                json_array_append_new(list, finding_json(&b->worst[i], v, func, dt));
        }
    json_object_set_new(obj, "finding_counts", counts);
    json_object_set_new(obj, "findings", list);
}
