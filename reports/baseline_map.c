/* --baseline through --site-map (baseline.c's head has the rules): which kernels of the
 * baseline the map puts at a kernel's sites, and the kernel compared with each of them. */
#include <stdio.h>
#include <string.h>

#include "baseline_internal.h"
#include "resread.h"

/* The index of the kernel of identity id in the compact baseline ob, or -1. */
long bl_index_of(const json_t *ob, const char *id)
{
    size_t i;
    json_t *o;
    json_array_foreach(json_object_get(ob, "kernels"), i, o) {
        if (strcmp(rr_str(o, "id"), id) == 0)
            return (long)i;
    }
    return -1;
}

/* Through the site map: the kernels of ob that map puts at the sites of kernel id, as
 * [[site, index in ob]...] in the map's order, each kernel once: at each site those of id's
 * own kernel name if any, else all of them.  The sites of id in the map are appended to
 * sites. */
json_t *bl_candidates(const json_t *map, const json_t *ob, const char *id, json_t *sites)
{
    json_t *out = json_array(), *ids, *e;
    const char *site, *slash = strchr(id, '/'), *name = slash ? slash + 1 : id;
    size_t i, j;
    json_object_foreach((json_t *)map, site, ids) {
        int here = 0;
        json_array_foreach(ids, i, e) here |= strcmp(json_string_value(e), id) == 0;
        if (!here)
            continue;
        json_array_append_new(sites, json_string(site));
        for (int pass = 0; pass < 2; pass++) {
            size_t before = json_array_size(out);
            json_array_foreach(ids, i, e) {
                const char *oid = json_string_value(e), *on = strchr(oid, '/');
                long o = strcmp(oid, id) == 0 ? -1 : bl_index_of(ob, oid);
                int dup = 0;
                json_t *c;
                if (o < 0 || (pass == 0 && strcmp(on ? on + 1 : oid, name) != 0))
                    continue;
                json_array_foreach(out, j, c)
                    dup |= json_integer_value(json_array_get(c, 1)) == o;
                if (!dup)
                    json_array_append_new(out, json_pack("[s, I]", site, (json_int_t)o));
            }
            if (json_array_size(out) > before)
                break;
        }
    }
    return out;
}

/* "S1, S2" of the strings of a (at most 8, then "and N more") into buf. */
const char *bl_joined(const json_t *a, char *buf, size_t size)
{
    size_t i, n = 0;
    json_t *e;
    buf[0] = 0;
    json_array_foreach(a, i, e) {
        if (i == 8) {
            n += (size_t)snprintf(buf + n, n < size ? size - n : 0, " and %zu more",
                                  json_array_size(a) - 8);
            break;
        }
        n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s'%s'", i ? ", " : "",
                              json_string_value(e));
        if (n >= size)
            break;
    }
    return buf;
}

/* Kernel k (nk its compact form) through the site map: compared with each candidate, the
 * comparison with the most regressions kept as its "baseline" (the others under "also");
 * used[] marks the baseline's kernels compared.  Returns 0 when it had no candidate (k's
 * "baseline" then says why), else 1 with *worse and *better. */
int bl_through_map(const struct cmp *c, json_t *k, const json_t *nk, const json_t *ob,
                   unsigned char *used, long long *worse, long long *better)
{
    const char *id = rr_str(nk, "id");
    json_t *sites = json_array(), *cand = bl_candidates(c->o->site_map, ob, id, sites), *e;
    json_t *best = NULL, *also = json_array();
    long long bw = -1, bg = 0;
    size_t i;
    char list[1024], why[1400];
    if (!json_array_size(cand)) {
        if (!json_array_size(sites))
            snprintf(why, sizeof why, "not in the site map '%s'", c->o->site_map_file);
        else
            snprintf(why, sizeof why, "the site map '%s' puts no kernel of the baseline at "
                     "its site%s %s", c->o->site_map_file, json_array_size(sites) == 1 ? ""
                     : "s", bl_joined(sites, list, sizeof list));
        json_object_set_new(k, "baseline", json_pack("{s:b, s:i, s:s}", "found", 0,
                                                     "regressions", 0, "why", why));
        json_decref(sites);
        json_decref(cand);
        json_decref(also);
        return 0;
    }
    json_array_foreach(cand, i, e) {
        long o = (long)json_integer_value(json_array_get(e, 1));
        const json_t *ok = json_array_get(json_object_get(ob, "kernels"), (size_t)o);
        json_t *tmp = json_object();
        long long w = 0, g = 0;
        bl_compare_kernel(c, tmp, nk, ok, &w, &g);
        json_t *b = json_incref(json_object_get(tmp, "baseline"));
        json_decref(tmp);
        json_object_set(b, "site", json_array_get(e, 0));
        json_object_set_new(b, "kernel", json_string(rr_str(ok, "id")));
        json_object_set_new(b, "matched_by", json_string("site map"));
        used[o] = 1;
        json_t *loser = b;
        if (w > bw) {
            loser = best;
            best = b;
            bw = w;
            bg = g;
        }
        if (loser) {
            json_array_append_new(also, json_pack("{s:O, s:O, s:O, s:O}", "site",
                                                  json_object_get(loser, "site"), "kernel",
                                                  json_object_get(loser, "kernel"),
                                                  "regressions", json_object_get(
                                                      loser, "regressions"), "improvements",
                                                  json_object_get(loser, "improvements")));
            json_decref(loser);
        }
    }
    if (json_array_size(also))
        json_object_set(best, "also", also);
    json_object_set_new(k, "baseline", best);
    json_decref(also);
    json_decref(sites);
    json_decref(cand);
    *worse = bw;
    *better = bg;
    return 1;
}
