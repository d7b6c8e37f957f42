/* report.md, per kernel that names a companion (docs/adapters.md, "Companion kernels"): a
 * kernel's description may say "companion kernel NAME": NAME, of the same adapter, computes
 * the same function without what this kernel adds (oneDNN's matmul epilogue names the plain
 * eltwise kernel of its algorithm and dtype).  When the companion ran in the same result, the
 * kernel's findings split by kind: those the companion has as often, those it has fewer of
 * (with up to 3 inputs listed here and not there), those only this kernel has (what it adds
 * is the likely cause), and those only the companion has. */
#include <stdio.h>
#include <string.h>

#include "findings.h"
#include "markdown.h"

#define COMPANION_TAG "companion kernel "

/* the kernel object NAME of k's adapter in doc, where k's description names one; else NULL */
static const json_t *companion(const json_t *doc, const json_t *k, char *name, size_t size)
{
    const char *d = strstr(md_str(k, "description"), COMPANION_TAG);
    size_t n = 0, i;
    const json_t *c;

    if (!d)
        return NULL;
    d += strlen(COMPANION_TAG);
    while (n + 1 < size && (d[n] == '_' || d[n] == '.' || d[n] == '-' ||
                            (d[n] >= '0' && d[n] <= '9') || (d[n] >= 'A' && d[n] <= 'Z') ||
                            (d[n] >= 'a' && d[n] <= 'z')))
        n++;
    while (n && d[n - 1] == '.') /* a sentence's full stop is not part of the name */
        n--;
    memcpy(name, d, n);
    name[n] = '\0';
    if (!n || !strcmp(name, md_str(k, "kernel")))
        return NULL;
    json_array_foreach(json_object_get(doc, "kernels"), i, c)
        if (!strcmp(md_str(c, "kernel"), name) && !strcmp(md_str(c, "adapter"), md_str(k, "adapter")))
            return c;
    return NULL;
}

static const struct rp_kind *find_kind(const struct rp_kind *r, size_t n, enum gs_kind kind)
{
    for (size_t i = 0; i < n; i++)
        if (r[i].kind == kind)
            return &r[i];
    return NULL;
}

/* whether kernel c lists a finding of kind at the input bits x */
static int lists(const json_t *c, const char *kind, const char *x)
{
    size_t i, j;
    const json_t *s, *f;
    json_array_foreach(json_object_get(c, "suites"), i, s)
        json_array_foreach(json_object_get(s, "findings"), j, f)
            if (!strcmp(md_str(f, "kind"), kind) &&
                !strcmp(md_str(json_object_get(f, "x"), "bits"), x))
                return 1;
    return 0;
}

/* up to 3 inputs k lists under kind that companion c does not: " (not in the companion: x = ...)" */
static void own_inputs(struct md *m, const json_t *k, const json_t *c, enum gs_kind kind)
{
    size_t i, j, n = 0;
    const json_t *s, *f;
    const char *seen[3];
    json_array_foreach(json_object_get(k, "suites"), i, s)
        json_array_foreach(json_object_get(s, "findings"), j, f) {
            const json_t *x = json_object_get(f, "x");
            int dup = 0;
            for (size_t d = 0; d < n; d++)
                dup |= x && !strcmp(seen[d], md_str(x, "bits"));
            if (n == 3 || dup || strcmp(md_str(f, "kind"), gs_kind_name(kind)) || !x ||
                lists(c, gs_kind_name(kind), md_str(x, "bits")))
                continue;
            seen[n] = md_str(x, "bits");
            md_puts(m, n++ ? ", " : "; listed here only: x = ");
            md_dec(m, x);
            md_puts(m, " got ");
            md_dec(m, json_object_get(f, "got"));
        }
}

/* "- LABEL: `kind` (N here, M there), ..." over the kinds of a that b has (shared: with the
 * same count, or more here) or lacks */
enum which { SAME, MORE, ONLY };
static void kind_line(struct md *m, const char *label, const struct rp_kind *a, size_t na,
                      const struct rp_kind *b, size_t nb, enum which w, const json_t *ka,
                      const json_t *kb)
{
    int any = 0;
    md_puts(m, "- ");
    md_puts(m, label);
    md_puts(m, ": ");
    for (size_t i = 0; i < na; i++) {
        const struct rp_kind *o = find_kind(b, nb, a[i].kind);
        int shared = w != ONLY;
        if (o && ((w == SAME) != (o->count >= a[i].count)))
            continue;
        if (!o == !shared) {
            md_puts(m, any ? ", " : "");
            md_code(m, gs_kind_name(a[i].kind));
            if (shared)
                md_printf(m, " (%llu here, %llu there)", (unsigned long long)a[i].count,
                          (unsigned long long)o->count);
            else
                md_printf(m, " (%llu)", (unsigned long long)a[i].count);
            if (w == MORE && ka)
                own_inputs(m, ka, kb, a[i].kind);
            any = 1;
        }
    }
    md_puts(m, any ? "\n" : "none\n");
}

void md_companion(struct md *m, const json_t *doc, const json_t *k)
{
    struct rp_kind mine[GS_N_KINDS], theirs[GS_N_KINDS];
    char name[128], label[200];
    const json_t *c = companion(doc, k, name, sizeof name);
    size_t n, nc;

    if (!c)
        return;
    n = rp_kernel_kinds(k, mine);
    nc = rp_kernel_kinds(c, theirs);
    md_puts(m, "\n### Beside its companion ");
    md_code(m, name);
    md_puts(m, "\n\nThe description names ");
    md_code(m, name);
    md_puts(m, " as this kernel's companion: the same function without what this kernel adds. "
               "Finding kinds by where they occur (counts of failing inputs here and there):"
               "\n\n");
    snprintf(label, sizeof label, "shared with `%s`", name);
    kind_line(m, label, mine, n, theirs, nc, SAME, NULL, NULL);
    kind_line(m, "more here than in the companion", mine, n, theirs, nc, MORE, k, c);
    kind_line(m, "only in this kernel", mine, n, theirs, nc, ONLY, NULL, NULL);
    kind_line(m, "only in the companion", theirs, nc, mine, n, ONLY, NULL, NULL);
}
