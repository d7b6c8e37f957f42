/* compare.md of `gelucheck compare` (docs/design.md section 8): the kernels of several results in
 * one table per (func, dtype), in the manner of "Accuracy of Mathematical Functions" (Gladman,
 * Innocente, Mather, Zimmermann), which tabulates the largest known error of each libm
 * function per library.  Here a row is a kernel; columns: adapter, kernel, max ulp outside
 * the tail, max ulp, fraction correctly rounded, flush point, last non-zero, NaN at -inf, zero
 * signs, detected formula, verdict.  Groups come in the order of geluref's enums (gelu first;
 * f64, f32, f16, bf16), rows in the order of the results and of their kernels. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <geluref.h>

#include "reports.h"
#include "resread.h"

/* Markdown text safe in a table cell: punctuation that Markdown reads backslash-escaped, '|'
 * included, '&' as an entity, control bytes as spaces. */
static void md_escape(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            fputc(' ', f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (strchr("\\`*_[]<>|#!~", *s))
            fprintf(f, "\\%c", *s);
        else
            fputc(*s, f);
    }
}

/* The sort key of a (func, dtype) group: geluref's enum values, unknown names last. */
static int group_key(const json_t *k)
{
    enum geluref_func fn;
    enum geluref_dtype dt;
    int f = geluref_func_from_name(rr_str(k, "func"), &fn) == 0 ? (int)fn : 99;
    int d = geluref_dtype_from_name(rr_str(k, "dtype"), &dt) == 0 ? (int)dt : 9;
    return f * 10 + d;
}

static int same_group(const json_t *a, const json_t *b)
{
    return strcmp(rr_str(a, "func"), rr_str(b, "func")) == 0 &&
           strcmp(rr_str(a, "dtype"), rr_str(b, "dtype")) == 0;
}

/* Whether ulp region r is outside the tail of func: the tail is the underflow side beyond
 * |x| = 1 (x < -1 for every func but erf, which has none, and erfc, whose side is x > 1), and
 * both sides beyond |x| = 1 for normpdf, which underflows on both. */
static int outside_tail(const char *func, const char *r)
{
    int near = strcmp(r, "[-1,0)") == 0 || strcmp(r, "[0,1)") == 0;
    if (strcmp(func, "erf") == 0)
        return 1;
    if (strcmp(func, "normpdf") == 0)
        return near;
    if (strcmp(func, "erfc") == 0)
        return strcmp(r, "x>=1") != 0;
    return near || strcmp(r, "x>=1") == 0;
}

/* A real as 3 significant digits ("inf" for an infinite one), "—" when absent. */
static void num_cell(FILE *f, const json_t *v)
{
    double d;
    if (rr_real(v, &d) != 0)
        fputs(" — |", f);
    else
        fprintf(f, " %.3g |", d);
}

static void max_ulp_outside_tail(FILE *f, const json_t *k, const json_t *ulp)
{
    const char *r;
    json_t *st;
    double m = -1, u;
    json_object_foreach((json_t *)json_object_get(json_object_get(ulp, "metrics"), "regions"),
                        r, st) {
        if (outside_tail(rr_str(k, "func"), r) && rr_real(json_object_get(st, "max_ulp"), &u) == 0 &&
            !(u <= m))
            m = u;
    }
    if (m < 0)
        fputs(" — |", f);
    else
        fprintf(f, " %.3g |", m);
}

/* A fraction as a percentage with two decimals, never 100.00% or 0.00% unless exact. */
static void pct_cell(FILE *f, const json_t *v)
{
    double d;
    if (rr_real(v, &d) != 0 || d != d) {
        fputs(" — |", f);
        return;
    }
    double p = 100 * d;
    if (d < 1 && p > 99.99)
        p = 99.99;
    if (d > 0 && p < 0.01)
        p = 0.01;
    fprintf(f, " %.2f%% |", p);
}

/* A value object's decimal; null as none_text; absent (the suite did not run) as "—". */
static void value_cell(FILE *f, const json_t *metrics, const char *key, const char *none_text)
{
    const json_t *v = json_object_get(metrics, key);
    if (!v)
        fputs(" — |", f);
    else if (json_is_null(v))
        fprintf(f, " %s |", none_text);
    else {
        fputc(' ', f);
        md_escape(f, rr_str(v, "dec"));
        fputs(" |", f);
    }
}

/* "yes" when the special table's "-inf" row got a NaN, "no" when not, "—" without it. */
static void nan_neginf_cell(FILE *f, const json_t *special)
{
    size_t i;
    json_t *row;
    json_array_foreach(json_object_get(json_object_get(special, "metrics"), "table"), i, row) {
        if (strcmp(rr_str(row, "input"), "-inf") == 0) {
            double g;
            int nan = rr_value(json_object_get(row, "got"), &g) == 0 && g != g;
            fprintf(f, " %s |", nan ? "yes" : "no");
            return;
        }
    }
    fputs(" — |", f);
}

static void row(FILE *f, const json_t *doc, const json_t *k, size_t doc_index, size_t n_docs)
{
    char id[400];
    const json_t *ulp = rr_suite(k, "ulp"), *special = rr_suite(k, "special"),
                 *tail = rr_suite(k, "tail");
    const json_t *overall = json_object_get(json_object_get(ulp, "metrics"), "overall");
    const json_t *tm = json_object_get(tail, "metrics");
    const json_t *fp = json_object_get(k, "fingerprint");
    double scale;

    /* the adapter's name (of the identity ADAPTER/KERNEL), however its spec was spelled */
    rp_kernel_id(doc, k, id, sizeof id);
    char *slash = strchr(id, '/');
    if (slash)
        *slash = '\0';
    fputs("| ", f);
    md_escape(f, id);
    if (n_docs > 1)
        fprintf(f, " [%zu]", doc_index + 1);
    fputs(" | ", f);
    md_escape(f, rr_str(k, "kernel"));
    fputs(" |", f);
    max_ulp_outside_tail(f, k, ulp);
    num_cell(f, json_object_get(overall, "max_ulp"));
    pct_cell(f, json_object_get(overall, "fraction_correctly_rounded"));
    value_cell(f, tm, "flush_point", "none");
    if (tail)
        value_cell(f, tm, "last_nonzero", "none");
    else
        value_cell(f, json_object_get(k, "targets"), "last_nonzero", "none");
    nan_neginf_cell(f, special);
    if (!special && !tail && !ulp)
        fputs(" — |", f);
    else if (rr_kind_count(k, "signed_zero") == 0)
        fputs(" ok |", f);
    else
        fprintf(f, " %lld wrong |", rr_kind_count(k, "signed_zero"));
    fputc(' ', f);
    md_escape(f, rr_str(fp, "detected")[0] ? rr_str(fp, "detected") : "—");
    if (rr_real(json_object_get(fp, "scale"), &scale) == 0)
        fprintf(f, " (s = %.4g)", scale);
    fputs(" | ", f);
    md_escape(f, rr_str(k, "verdict"));
    fputs(" |\n", f);
}

static void sources(FILE *f, json_t *const *docs, const char *const *names, size_t n)
{
    size_t i, j;
    const json_t *a;
    fputs("Results compared:\n\n", f);
    for (i = 0; i < n; i++) {
        const json_t *env = json_object_get(docs[i], "environment");
        fprintf(f, "%zu. ", i + 1);
        md_escape(f, names && names[i] ? names[i] : "result");
        fputs(": gelucheck ", f);
        md_escape(f, rr_str(json_object_get(docs[i], "tool"), "version"));
        fputs(", policy ", f);
        md_escape(f, rr_str(json_object_get(docs[i], "policy"), "name"));
        fprintf(f, ", %zu kernels, seed %lld", json_array_size(json_object_get(docs[i], "kernels")),
                (long long)json_integer_value(json_object_get(docs[i], "seed")));
        if (env) {
            fputs("; ", f);
            md_escape(f, rr_str(env, "cpu"));
            fputs(", ", f);
            md_escape(f, rr_str(env, "libc"));
            fputs(", ", f);
            md_escape(f, rr_str(env, "compiler"));
        }
        fputc('\n', f);
        json_array_foreach(json_object_get(docs[i], "adapters"), j, a) {
            if (!json_is_null(json_object_get(a, "name")))
                continue;
            fputs("   - adapter ", f);
            md_escape(f, rr_str(a, "spec"));
            fputs(" not loaded: ", f);
            md_escape(f, rr_str(a, "error"));
            fputc('\n', f);
        }
    }
}

static const char notes[] =
    "Columns:\n"
    "- *max ulp outside the tail*: the largest ulp error of the ulp suite over its regions "
    "outside the tail. The tail is the underflow side beyond |x| = 1: for the gelu family, "
    "the grads and normcdf the regions [-1,0), [0,1) and x>=1 count (x >= -1); for erfc, whose "
    "underflow side is x > 0, the regions below 1 (x < 1); for normpdf, which underflows on "
    "both sides, [-1,0) and [0,1) (|x| < 1); for erf, which has no underflow side, every "
    "region.\n"
    "- *max ulp*, *correctly rounded*: the ulp suite over all its inputs (sampled for f32 "
    "without --exhaustive and for f64: a lower bound of the true maximum).\n"
    "- *flush point*: the input nearest 0 on the underflow side where the output is +-0 while "
    "the correctly rounded result is not (tail suite); none: no such input. *last non-zero*: "
    "the input farthest from 0 whose correctly rounded result is not zero, where an exact "
    "kernel would flush.\n"
    "- *NaN at -inf*: the output for x = -inf is NaN (special suite).\n"
    "- *zero signs*: ok when no suite found a zero of the wrong sign (signed_zero findings), "
    "else their count.\n"
    "- *detected*: the formula the fingerprint suite found (n/a outside the gelu family).\n"
    "- —: the suite that measures it did not run.\n";

char *rp_compare_markdown(json_t *const *docs, const char *const *names, size_t n)
{
    char *buf = NULL;
    size_t len = 0, i, j, d, e, total = 0;
    const json_t *k, *k2;
    FILE *f = open_memstream(&buf, &len);

    if (!f)
        return NULL;
    fputs("# gelucheck compare\n\n", f);
    sources(f, docs, names, n);
    for (d = 0; d < n; d++)
        total += json_array_size(json_object_get(docs[d], "kernels"));
    /* groups by ascending key; a group is written when its first kernel (in doc order) is
     * met at the key being written */
    for (int key = 0; key < 1000 && total; key++) {
        for (d = 0; d < n; d++) {
            json_array_foreach(json_object_get(docs[d], "kernels"), i, k) {
                int first = group_key(k) == key;
                for (e = 0; first && e <= d; e++)
                    json_array_foreach(json_object_get(docs[e], "kernels"), j, k2) {
                        if ((e < d || j < i) && same_group(k, k2))
                            first = 0;
                    }
                if (!first)
                    continue;
                fputs("\n## ", f);
                md_escape(f, rr_str(k, "func"));
                fputc(' ', f);
                md_escape(f, rr_str(k, "dtype"));
                fputs("\n\n| adapter | kernel | max ulp outside the tail | max ulp | correctly "
                      "rounded | flush point | last non-zero | NaN at -inf | zero signs | "
                      "detected | verdict |\n"
                      "|---|---|--:|--:|--:|--:|--:|:-:|:-:|---|---|\n", f);
                for (e = 0; e < n; e++)
                    json_array_foreach(json_object_get(docs[e], "kernels"), j, k2) {
                        if (same_group(k, k2))
                            row(f, docs[e], k2, e, n);
                    }
            }
        }
    }
    if (total == 0)
        fputs("\nNo kernels.\n", f);
    fprintf(f, "\n%s", notes);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}
