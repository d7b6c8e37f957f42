/* What baseline.c and baseline_map.c share (reports/, not installed). */
#ifndef GELUCHECK_BASELINE_INTERNAL_H
#define GELUCHECK_BASELINE_INTERNAL_H

#include <jansson.h>

#include "reports.h"

struct cmp {
    const struct rp_baseline_opts *o;
    int sampled_ok, fixed_ok, kinds_ok; /* what may be compared (see the top) */
    int same_inputs, same_policy, same_rounding, same_range, both_exhaustive;
};

/* Sets k's "baseline" to nk compared with ok (compact forms); *regressions and *improvements
 * get the counts of worse and better metrics and kinds. */
void bl_compare_kernel(const struct cmp *c, json_t *k, const json_t *nk, const json_t *ok,
                       long long *regressions, long long *improvements);
/* The index of the kernel of identity id in the compact baseline ob, or -1. */
long bl_index_of(const json_t *ob, const char *id);
/* The kernels of ob that map puts at the sites of kernel id, as [[site, index in ob]...] in
 * the map's order, each once: at each site those of id's own kernel name if any, else all of
 * them.  The sites of id in the map are appended to sites. */
json_t *bl_candidates(const json_t *map, const json_t *ob, const char *id, json_t *sites);
/* "'S1', 'S2'" of the strings of a (at most 8, then "and N more") into buf. */
const char *bl_joined(const json_t *a, char *buf, size_t size);
/* Kernel k (nk its compact form) through the site map: compared with each candidate, the
 * comparison with the most regressions kept as its "baseline" (the others under "also");
 * used[] marks the baseline's kernels compared.  0 when it had none (k's "baseline" then says
 * why), else 1 with *worse and *better. */
int bl_through_map(const struct cmp *c, json_t *k, const json_t *nk, const json_t *ob,
                   unsigned char *used, long long *worse, long long *better);

#endif
