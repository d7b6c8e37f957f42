/* report.md, per kernel (markdown.h): its findings by kind in the order of severity
 * (findings.h), each with its count, worst finding, likely cause and usual fix; and the
 * worst kind for the summary table. */
#include <string.h>

#include "findings.h"
#include "markdown.h"

/* "x = -5.54 `-0x1.62b9dcp+2`": the hex float where it says more than the decimal */
static void x_text(struct md *m, const json_t *x)
{
    md_puts(m, "x = ");
    md_dec(m, x);
    if (strcmp(md_str(x, "hex"), md_str(x, "dec")) != 0) {
        md_puts(m, " ");
        md_code(m, md_str(x, "hex"));
    }
}

/* "x = -5.54 `...`: got -0, want -8.26e-08 (1.68e+07 ulp)", or the detail for a finding that
 * is not about one output ("killed by SIGSEGV; ..., at x = 2 `0x1p+1`") */
static void worst_text(struct md *m, const json_t *fd)
{
    const json_t *x = json_object_get(fd, "x"), *got = json_object_get(fd, "got");
    const json_t *want = json_object_get(fd, "want");
    if (!want) {
        md_text(m, md_str(fd, "detail"));
        if (x) {
            md_puts(m, ", at ");
            x_text(m, x);
        }
        return;
    }
    x_text(m, x);
    md_puts(m, ": got ");
    md_dec(m, got);
    md_puts(m, ", want ");
    md_dec(m, want);
    if (json_object_get(fd, "ulp")) {
        md_puts(m, " (");
        md_num(m, json_object_get(fd, "ulp"));
        md_puts(m, " ulp)");
    }
}

void md_findings(struct md *m, const json_t *k)
{
    struct rp_kind kinds[GS_N_KINDS];
    size_t n = rp_kernel_kinds(k, kinds);

    if (!n)
        return;
    md_puts(m, "\n### Findings\n\nEach kind once, the most severe first (what fails before "
               "what warns, then by kind and size), with its worst finding, its likely cause "
               "and the usual fix.\n\n");
    for (size_t i = 0; i < n; i++) {
        const struct rp_kind *r = &kinds[i];
        md_puts(m, "- **");
        md_code(m, gs_kind_name(r->kind));
        md_printf(m, "** (%s, %llu finding%s): worst in suite ", gs_severity_name(r->severity),
                  (unsigned long long)r->count, r->count == 1 ? "" : "s");
        md_text(m, md_str(r->suite, "name"));
        if (!r->worst) {
            md_puts(m, "\n");
            continue;
        }
        md_puts(m, ", region ");
        md_text(m, md_str(r->worst, "region"));
        md_puts(m, ": ");
        worst_text(m, r->worst);
        md_puts(m, "\n");
        const struct rp_hint *h = rp_hint(k, r->worst);
        if (h) {
            md_puts(m, "  - Likely cause: ");
            md_text(m, h->cause);
            md_puts(m, ".\n  - Fix: ");
            md_text(m, h->fix);
            md_puts(m, ".\n");
        }
    }
}

void md_worst_kind(struct md *m, const json_t *k)
{
    struct rp_kind kinds[GS_N_KINDS];
    size_t n = rp_kernel_kinds(k, kinds);
    if (!n || kinds[0].severity == GS_SEV_IGNORE) {
        md_puts(m, "-");
        return;
    }
    md_code(m, gs_kind_name(kinds[0].kind));
    if (kinds[0].severity != GS_SEV_FAIL)
        md_printf(m, " (%s)", gs_severity_name(kinds[0].severity));
}
