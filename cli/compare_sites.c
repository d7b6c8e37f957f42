/* gelucheck compare --site-map MAP RESULT...: the kernels of several results lined up by the
 * site of a model they measure, not by their identity (docs/model-audit.md): the PyTorch
 * activation (torch-module:), the ONNX site natively, on onnxruntime-web, in a float16 export.
 * MAP is either a small file, schema "gelucheck-sitemap/1":
 *     { "schema": "gelucheck-sitemap/1",
 *       "sites": { "act1": ["model.torch/a0.act1", "model/_act1_Erf.all", ...], ... } }
 * (each entry a kernel identity ADAPTER/KERNEL), or a result of 'gelucheck run --torch-module'
 * (gelucheck-result/1), whose scans give the map: each site with the kernel of every level of
 * every scan: adapter and the kernel of its PyTorch activation, those the run measured.  A
 * row of the results that no site names, and an entry of the map found in no result, are
 * listed and warned about.  cli_site_map_load reads MAP for compare and for run and merge
 * --site-map (the --baseline of another adapter, reports/baseline.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <reports.h>

#include "cli.h"
#include "resread.h"

static void add(json_t *sites, const char *site, const char *id)
{
    json_t *a = json_object_get(sites, site), *e;
    size_t i;
    if (!a) {
        a = json_array();
        json_object_set_new(sites, site, a);
    }
    json_array_foreach(a, i, e) {
        if (strcmp(json_string_value(e), id) == 0)
            return;
    }
    json_array_append_new(a, json_string(id));
}

/* The map of a result of run --torch-module: site -> the identities measuring it. */
static json_t *derive(const json_t *doc)
{
    json_t *sites = json_object(), *a, *site, *k;
    const char *tid = NULL, *tspec = NULL;
    size_t i, j, l;
    json_array_foreach(json_object_get(doc, "adapters"), i, a) {
        if (strncmp(rr_str(a, "spec"), "torch-module:", 13) == 0) {
            tid = rr_str(a, "id");
            tspec = rr_str(a, "spec");
        }
    }
    json_array_foreach(json_object_get(doc, "adapters"), i, a) {
        const json_t *scan = json_object_get(a, "scan");
        const char *id = rr_str(a, "id");
        if (!json_is_object(scan) || !id[0])
            continue;
        json_array_foreach(json_object_get(scan, "sites"), j, site) {
            const char *name = rr_str(site, "site");
            const json_t *p = json_object_get(site, "torch");
            if (json_is_object(p) && tid && tid[0]) {
                char pre[64];
                snprintf(pre, sizeof pre, "a%lld.",
                         (long long)json_integer_value(json_object_get(p, "activation")));
                json_array_foreach(json_object_get(doc, "kernels"), l, k) {
                    if (strcmp(rr_str(k, "adapter"), tspec) == 0 &&
                        strncmp(rr_str(k, "kernel"), pre, strlen(pre)) == 0) {
                        char buf[600];
                        snprintf(buf, sizeof buf, "%s/%s", tid, rr_str(k, "kernel"));
                        add(sites, name, buf);
                    }
                }
            }
            const char *lv;
            json_t *t;
            json_object_foreach(json_object_get(site, "levels"), lv, t) {
                const char *kn = json_string_value(json_object_get(t, "kernel"));
                int ran = 0; /* a kernel the run measured (--kernel may have left it out) */
                json_array_foreach(json_object_get(doc, "kernels"), l, k)
                    ran |= kn && strcmp(rr_str(k, "adapter"), rr_str(a, "spec")) == 0 &&
                           strcmp(rr_str(k, "kernel"), kn) == 0;
                if (ran) {
                    char buf[600];
                    snprintf(buf, sizeof buf, "%s/%s", id, kn);
                    add(sites, name, buf);
                }
            }
        }
    }
    return sites;
}

static const char *id_of(const json_t *k, char *buf, size_t size)
{
    if (rr_str(k, "id")[0])
        return rr_str(k, "id");
    snprintf(buf, size, "%s/%s", rr_str(k, "adapter"), rr_str(k, "kernel"));
    return buf;
}

static void cat(char **md, size_t *len, const char *s)
{
    size_t n = strlen(s);
    char *p = *md ? realloc(*md, *len + n + 1) : malloc(n + 1);
    if (!p)
        return;
    memcpy(p + *len, s, n + 1);
    *md = p;
    *len += n;
}

json_t *cli_site_map_load(const char *map, char *msg, size_t size)
{
    json_error_t je;
    json_t *m = json_load_file(map, 0, &je), *sites = NULL;
    if (!m) {
        snprintf(msg, size, "cannot read site map '%s': %s (line %d)", map,
                 rp_json_error_text(&je), je.line);
        return NULL;
    }
    const char *schema = rr_str(m, "schema");
    if (strcmp(schema, "gelucheck-sitemap/1") == 0 && json_is_object(json_object_get(m,
                                                                                    "sites"))) {
        sites = json_incref(json_object_get(m, "sites"));
        const char *key;
        json_t *v, *e;
        size_t i;
        json_object_foreach(sites, key, v) {
            int bad = !json_is_array(v);
            json_array_foreach(v, i, e) bad |= !json_is_string(e) ||
                                                !strchr(json_string_value(e), '/');
            if (bad) {
                snprintf(msg, size, "site map '%s': site '%.100s' is not a list of kernel "
                         "identities ADAPTER/KERNEL", map, key);
                json_decref(sites);
                json_decref(m);
                return NULL;
            }
        }
    } else if (strcmp(schema, "gelucheck-result/1") == 0) {
        sites = derive(m);
    } else {
        snprintf(msg, size, "site map '%s' is neither a gelucheck-sitemap/1 nor a result of "
                 "'gelucheck run --torch-module' (gelucheck-result/1)", map);
        json_decref(m);
        return NULL;
    }
    json_decref(m);
    if (!json_object_size(sites)) {
        snprintf(msg, size, "site map '%s' names no site (a result needs scan: adapters)", map);
        json_decref(sites);
        return NULL;
    }
    return sites;
}

char *cli_site_map_markdown(json_t *const *docs, const char *const *files, size_t n,
                            const char *map, size_t *unmatched, char *msg, size_t size)
{
    json_t *sites = cli_site_map_load(map, msg, size);
    *unmatched = 0;
    if (!sites)
        return NULL;
    /* which rows each entry finds */
    size_t total = 0;
    for (size_t f = 0; f < n; f++)
        total += json_array_size(json_object_get(docs[f], "kernels"));
    unsigned char *used = calloc(total + 1, 1);
    char *md = NULL, line[2048], buf[600];
    size_t len = 0;
    snprintf(line, sizeof line, "\n## By site (site map `%s`)\n\nEach site of the map beside "
             "every kernel that measures it, in the results given: max ulp for x >= -1, the "
             "tail suite's flush point, f(-inf), wrong signs.\n\n| site | kernel | result | "
             "verdict | max ulp, x >= -1 | flush point | f(-inf) | wrong signs |\n"
             "|---|---|---|---|--:|--:|--:|--:|\n", map);
    cat(&md, &len, line);
    const char *key;
    json_t *v, *e;
    json_t *missing = json_array();
    json_object_foreach(sites, key, v) {
        size_t i;
        json_array_foreach(v, i, e) {
            const char *want = json_string_value(e);
            int found = 0;
            size_t at = 0;
            for (size_t f = 0; f < n; f++) {
                size_t j;
                json_t *k;
                json_array_foreach(json_object_get(docs[f], "kernels"), j, k) {
                    if (strcmp(id_of(k, buf, sizeof buf), want) == 0) {
                        used[at + j] = 1;
                        found = 1;
                        json_t *a = cli_kernel_accuracy(k);
                        char ulp[32] = "-", fp[32] = "-", mi[32] = "-";
                        double d;
                        if (json_is_object(a)) {
                            if (rr_real(json_object_get(a, "max_ulp_near"), &d) == 0)
                                snprintf(ulp, sizeof ulp, "%.3g", d);
                            if (rr_real(json_object_get(a, "flush_point"), &d) == 0)
                                snprintf(fp, sizeof fp, "%.8g", d);
                            if (rr_str(a, "f_minus_inf")[0])
                                snprintf(mi, sizeof mi, "%s", rr_str(a, "f_minus_inf"));
                        }
                        snprintf(line, sizeof line, "| `%s` | `%s` | `%s` | %s | %s | %s | %s "
                                 "| %lld |\n", key, want, files[f], rr_str(k, "verdict"), ulp,
                                 fp, mi, json_is_object(a) ? (long long)json_integer_value(
                                     json_object_get(a, "wrong_signs")) : 0LL);
                        cat(&md, &len, line);
                        json_decref(a);
                    }
                }
                at += json_array_size(json_object_get(docs[f], "kernels"));
            }
            if (!found)
                json_array_append_new(missing, json_pack("[s,s]", key, want));
        }
    }
    size_t at = 0, left = 0;
    for (size_t f = 0; f < n; f++) {
        size_t j;
        json_t *k;
        json_array_foreach(json_object_get(docs[f], "kernels"), j, k) {
            if (used[at + j])
                continue;
            snprintf(line, sizeof line, "%s`%s` (%s)", left++ ? ", " : "\n**Rows that match "
                     "no site of the map**: ", id_of(k, buf, sizeof buf), files[f]);
            cat(&md, &len, line);
            fprintf(stderr, "gelucheck: warning: %s: kernel '%s' matches no site of the map "
                    "'%s'\n", files[f], id_of(k, buf, sizeof buf), map);
        }
        at += json_array_size(json_object_get(docs[f], "kernels"));
    }
    if (left)
        cat(&md, &len, ".\n");
    size_t i;
    json_array_foreach(missing, i, e) {
        snprintf(line, sizeof line, "%s`%s` of `%s`", i ? ", " : "\n**Map entries found in no "
                 "result**: ", json_string_value(json_array_get(e, 1)),
                 json_string_value(json_array_get(e, 0)));
        cat(&md, &len, line);
        fprintf(stderr, "gelucheck: warning: site map '%s': '%s' of site '%s' is in no result "
                "given\n", map, json_string_value(json_array_get(e, 1)),
                json_string_value(json_array_get(e, 0)));
    }
    if (json_array_size(missing))
        cat(&md, &len, ".\n");
    *unmatched = left + json_array_size(missing);
    if (!*unmatched)
        cat(&md, &len, "\nEvery row matches a site of the map, and every entry of the map a "
                       "row.\n");
    json_decref(missing);
    json_decref(sites);
    free(used);
    return md;
}
