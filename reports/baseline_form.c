/* The compact baseline, schema gelucheck-baseline/1 (reports/schema/), and kernel identities
 * in results (docs/ci.md).
 *
 * A baseline keeps of a result only what a later run is compared on: the options that decide
 * the input set, the policy, the adapters' names and, per kernel, its identity, func, dtype,
 * verdict, four metrics and its finding counts by suite and kind.  A few kilobytes, reviewed
 * in a pull request like code; `--baseline` takes it or a whole result, which is first made
 * compact the same way, so both compare alike. */
#include <stdio.h>
#include <string.h>

#include "reports.h"
#include "resread.h"

/* The adapter entry of doc whose spec is k's "adapter", or NULL. */
static const json_t *adapter_of(const json_t *doc, const json_t *k)
{
    size_t i;
    json_t *a;
    json_array_foreach(json_object_get(doc, "adapters"), i, a) {
        if (strcmp(rr_str(a, "spec"), rr_str(k, "adapter")) == 0)
            return a;
    }
    return NULL;
}

const char *rp_adapter_id(const json_t *doc, const json_t *a, const char *func, char *buf,
                          size_t size)
{
    const char *id = json_string_value(json_object_get(a, "id"));
    if (id) {
        snprintf(buf, size, "%s", id);
        return buf;
    }
    (void)doc;
    /* a result written before identities were recorded: the same rule from spec and name
       (an exec adapter's recorded name is its command: the rule reads its spec instead) */
    const char *name = json_string_value(json_object_get(a, "name"));
    gc_ident_derive(rr_str(a, "spec"), name ? name : rr_str(a, "spec"), NULL, func, buf, size);
    gc_ident_clean(buf);
    return buf;
}

const char *rp_kernel_id(const json_t *doc, const json_t *k, char *buf, size_t size)
{
    const char *id = json_string_value(json_object_get(k, "id"));
    char a[256];

    if (id) {
        snprintf(buf, size, "%s", id);
        return buf;
    }
    const json_t *ad = adapter_of(doc, k);
    if (ad) {
        rp_adapter_id(doc, ad, rr_str(k, "func"), a, sizeof a);
    } else { /* no adapter entry (a hand-trimmed result): from the spec alone */
        gc_ident_derive(rr_str(k, "adapter"), rr_str(k, "adapter"), NULL, rr_str(k, "func"),
                        a, sizeof a);
        gc_ident_clean(a);
    }
    snprintf(buf, size, "%s/%s", a, rr_str(k, "kernel"));
    return buf;
}

static json_t *copy_or_null(const json_t *v)
{
    return v ? json_deep_copy(v) : json_null();
}

static const json_t *metric(const json_t *k, const char *suite, const char *key)
{
    return json_object_get(json_object_get(rr_suite(k, suite), "metrics"), key);
}

/* {"SUITE": {"KIND": count, ...}, ...}: every suite k ran, with its kinds of count > 0 */
static json_t *kinds_of(const json_t *k)
{
    json_t *all = json_object(), *s, *c;
    size_t i, j;
    json_array_foreach(json_object_get(k, "suites"), i, s) {
        json_t *one = json_object();
        json_array_foreach(json_object_get(s, "finding_counts"), j, c) {
            json_int_t n = json_integer_value(json_object_get(c, "count"));
            const char *kind = rr_str(c, "kind");
            json_int_t had = json_integer_value(json_object_get(one, kind));
            if (n > 0)
                json_object_set_new(one, kind, json_integer(had + n));
        }
        json_object_set_new(all, rr_str(s, "name"), one);
    }
    return all;
}

static json_t *compact_kernel(const json_t *doc, const json_t *k)
{
    char id[400];
    const json_t *ulp = metric(k, "ulp", "overall");
    json_t *o = json_pack("{s:s, s:s, s:s, s:s}", "id", rp_kernel_id(doc, k, id, sizeof id),
                          "func", rr_str(k, "func"), "dtype", rr_str(k, "dtype"), "verdict",
                          rr_str(k, "verdict"));
    if (!o)
        return NULL;
    json_object_set_new(o, "max_ulp", copy_or_null(json_object_get(ulp, "max_ulp")));
    json_object_set_new(o, "fraction_correctly_rounded",
                        copy_or_null(json_object_get(ulp, "fraction_correctly_rounded")));
    /* the tail's flush point: null when no flush was seen, absent without a tail suite */
    if (rr_suite(k, "tail"))
        json_object_set_new(o, "flush_point", copy_or_null(metric(k, "tail", "flush_point")));
    json_object_set_new(o, "special_passed", copy_or_null(metric(k, "special", "passed")));
    json_object_set_new(o, "kinds", kinds_of(k));
    return o;
}

json_t *rp_baseline_compact(const json_t *doc)
{
    static const char *const inputs[] = { "rounding", "seed", "samples", "exhaustive", "range",
                                          "suites" };
    json_t *b = json_pack("{s:s, s:O, s:O}", "schema", RP_BASELINE_SCHEMA, "tool",
                          json_object_get(doc, "tool"), "command",
                          json_object_get(doc, "command"));
    json_t *in = json_object(), *ads = json_array(), *ks = json_array(), *a, *k;
    size_t i;
    char id[256];

    if (!b || !in || !ads || !ks) {
        json_decref(b);
        json_decref(in);
        json_decref(ads);
        json_decref(ks);
        return NULL;
    }
    for (i = 0; i < sizeof inputs / sizeof inputs[0]; i++)
        json_object_set_new(in, inputs[i], copy_or_null(json_object_get(doc, inputs[i])));
    json_object_set_new(b, "inputs", in);
    json_object_set_new(b, "policy", json_string(rr_str(json_object_get(doc, "policy"),
                                                        "name")));
    json_array_foreach(json_object_get(doc, "adapters"), i, a) {
        const json_t *k0 = NULL;
        size_t j;
        json_array_foreach(json_object_get(doc, "kernels"), j, k) {
            if (strcmp(rr_str(k, "adapter"), rr_str(a, "spec")) == 0) {
                k0 = k;
                break;
            }
        }
        json_array_append_new(ads, json_pack("{s:s, s:s}", "id",
                                             rp_adapter_id(doc, a, rr_str(k0, "func"), id,
                                                           sizeof id),
                                             "spec", rr_str(a, "spec")));
    }
    json_object_set_new(b, "adapters", ads);
    json_array_foreach(json_object_get(doc, "kernels"), i, k)
        json_array_append_new(ks, compact_kernel(doc, k));
    json_object_set_new(b, "kernels", ks);
    return b;
}

/* A compact baseline's own checks: what rp_baseline_apply reads.  0, or -1 with msg. */
static int check_compact(const json_t *b, const char *path, char *msg, size_t size)
{
    size_t i;
    json_t *k;
    if (!json_is_array(json_object_get(b, "kernels")) ||
        !json_is_object(json_object_get(b, "inputs")) ||
        !json_is_array(json_object_get(b, "adapters"))) {
        snprintf(msg, size, "%s: a %s needs \"inputs\", \"adapters\" and \"kernels\"", path,
                 RP_BASELINE_SCHEMA);
        return -1;
    }
    json_array_foreach(json_object_get(b, "kernels"), i, k) {
        static const char *const keys[] = { "id", "func", "dtype", "verdict" };
        for (size_t j = 0; j < sizeof keys / sizeof keys[0]; j++)
            if (!json_is_string(json_object_get(k, keys[j]))) {
                snprintf(msg, size, "%s: kernels[%zu]: no '%s'", path, i, keys[j]);
                return -1;
            }
        if (!strchr(rr_str(k, "id"), '/')) {
            snprintf(msg, size, "%s: kernels[%zu]: id '%.200s' is not ADAPTER/KERNEL", path, i,
                     rr_str(k, "id"));
            return -1;
        }
    }
    return 0;
}

json_t *rp_baseline_load(const char *path, char *msg, size_t size)
{
    json_error_t e;
    json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &e);

    if (doc && strcmp(rr_str(doc, "schema"), RP_BASELINE_SCHEMA) == 0) {
        if (check_compact(doc, path, msg, size) == 0)
            return doc;
        json_decref(doc);
        return NULL;
    }
    json_decref(doc);
    /* a result (or nothing readable): its loader's checks and messages */
    if (!(doc = rp_result_load(path, msg, size)))
        return NULL;
    json_t *b = rp_baseline_compact(doc);
    json_decref(doc);
    if (!b)
        snprintf(msg, size, "%s: out of memory", path);
    return b;
}
