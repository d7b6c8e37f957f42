/* The findings of one kernel in the terminal summary (run_output.h): its worst finding on the
 * kernel's line, then one line per kind in the order of severity (reports/findings.h) with
 * its count and worst input, each followed by the likely cause and the usual fix. */
#include <stdio.h>
#include <string.h>

#include "findings.h"
#include "run_output.h"

/* the hint lines: wrapped at this width, under the kind's name */
#define RF_WIDTH 100
#define RF_INDENT 8

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static const char *dec(const json_t *fd, const char *key)
{
    return str(json_object_get(fd, key), "dec");
}

/* Outside text on one line (control characters as spaces), at most n bytes of it. */
static void put_text(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; s[i] && i < n; i++)
        fputc((unsigned char)s[i] < 0x20 || s[i] == 0x7f ? ' ' : s[i], f);
}

/* The detail's first clause ("killed by SIGSEGV" of "killed by SIGSEGV; reproduced by ..."). */
static void put_clause(FILE *f, const char *detail)
{
    put_text(f, detail, strcspn(detail, ";"));
}

static void put_ulp(FILE *f, const json_t *fd)
{
    const json_t *u = json_object_get(fd, "ulp");
    if (json_is_number(u))
        fprintf(f, " (%.3g ulp)", json_number_value(u));
    else if (json_is_string(u))
        fprintf(f, " (%s ulp)", json_string_value(u));
}

void run_worst_print(FILE *f, const json_t *k)
{
    struct rp_kind kinds[GS_N_KINDS];
    size_t n = rp_kernel_kinds(k, kinds);
    const json_t *fd = n ? kinds[0].worst : NULL;

    if (!n || kinds[0].severity == GS_SEV_IGNORE)
        return;
    fprintf(f, "  worst: %s", gs_kind_name(kinds[0].kind));
    if (!fd)
        return;
    if (json_object_get(fd, "got")) {
        fprintf(f, " at x = %s (got %s", dec(fd, "x"), dec(fd, "got"));
        if (json_object_get(fd, "want"))
            fprintf(f, ", want %s", dec(fd, "want"));
        fputc(')', f);
        put_ulp(f, fd);
    } else {
        fputs(", ", f);
        put_clause(f, str(fd, "detail"));
        if (json_object_get(fd, "x"))
            fprintf(f, " at x = %s", dec(fd, "x"));
    }
    if (kinds[0].severity != GS_SEV_FAIL)
        fprintf(f, " (%s)", gs_severity_name(kinds[0].severity));
}

/* "        why: ..." wrapped at RF_WIDTH, continuation lines under the text */
static void put_wrapped(FILE *f, const char *label, const char *text)
{
    int col = fprintf(f, "%*s%s: ", RF_INDENT, "", label);
    int start = col;
    while (*text) {
        size_t w = strcspn(text, " ");
        if (col > start && col + 1 + (int)w > RF_WIDTH) {
            fprintf(f, "\n%*s", start, "");
            col = start;
        } else if (col > start) {
            fputc(' ', f);
            col++;
        }
        put_text(f, text, w);
        col += (int)w;
        text += w;
        text += strspn(text, " ");
    }
    fputc('\n', f);
}

/* "    ulp_exceeded  1692  tail [-10,-5)  x = -5.54  got ...  want ...  (1.2e+07 ulp)" */
static void put_kind(FILE *f, const json_t *k, const struct rp_kind *r)
{
    const json_t *fd = r->worst;
    fprintf(f, "    %-19s %6llu  ", gs_kind_name(r->kind), (unsigned long long)r->count);
    if (r->severity != GS_SEV_FAIL)
        fprintf(f, "(%s)  ", gs_severity_name(r->severity));
    if (!fd) {
        fprintf(f, "%s\n", str(r->suite, "name"));
        return;
    }
    fprintf(f, "%s %s", str(r->suite, "name"), str(fd, "region"));
    if (json_object_get(fd, "x"))
        fprintf(f, "  x = %s", dec(fd, "x"));
    if (json_object_get(fd, "got"))
        fprintf(f, "  got %s", dec(fd, "got"));
    if (json_object_get(fd, "want"))
        fprintf(f, "  want %s", dec(fd, "want"));
    put_ulp(f, fd);
    if (!json_object_get(fd, "want")) { /* not a value finding: the detail says what */
        fputs("  ", f);
        put_text(f, str(fd, "detail"), (size_t)-1);
    }
    fputc('\n', f);
    const struct rp_hint *h = rp_hint(k, fd);
    if (h) {
        put_wrapped(f, "why", h->cause);
        put_wrapped(f, "fix", h->fix);
    }
}

void run_kinds_print(FILE *f, const json_t *k)
{
    struct rp_kind kinds[GS_N_KINDS];
    size_t n = rp_kernel_kinds(k, kinds), i;
    const json_t *s;

    for (size_t j = 0; j < n; j++)
        put_kind(f, k, &kinds[j]);
    /* a suite that failed or erred without a finding says why in its note */
    json_array_foreach(json_object_get(k, "suites"), i, s) {
        const char *v = str(s, "verdict");
        if ((strcmp(v, "fail") == 0 || strcmp(v, "error") == 0) &&
            json_array_size(json_object_get(s, "finding_counts")) == 0) {
            fprintf(f, "    %-12s%s", str(s, "name"), v);
            if (json_object_get(s, "note")) {
                fputs(": ", f);
                put_text(f, str(s, "note"), (size_t)-1);
            }
            fputc('\n', f);
        }
    }
}
