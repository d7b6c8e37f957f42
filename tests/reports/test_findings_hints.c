/* The hints on real results (test_findings.h): the expectations of hints_expect.h against
 * what rp_hint chooses for each kind of each kernel, and what report.md and junit.xml show. */
#define _POSIX_C_SOURCE 200809L /* strndup */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings.h"
#include "markdown.h"
#include "reports.h"
#include "test_findings.h"

struct expect {
    const char *kernel, *kind, *id;
};
#include "hints_expect.h"
#define N_EXPECT (sizeof expect / sizeof expect[0])

static json_t *load(const char *path)
{
    char msg[512];
    json_t *doc = rp_result_load(path, msg, sizeof msg);
    if (!doc)
        fprintf(stderr, "test_findings: %s\n", msg);
    return doc;
}

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

int tf_print(const char *const *paths, size_t n)
{
    for (size_t p = 0; p < n; p++) {
        json_t *doc = load(paths[p]), *k;
        size_t i;
        if (!doc)
            return 1;
        json_array_foreach(json_object_get(doc, "kernels"), i, k) {
            struct rp_kind r[GS_N_KINDS];
            size_t nk = rp_kernel_kinds(k, r);
            for (size_t j = 0; j < nk; j++) {
                const struct rp_hint *h = r[j].worst ? rp_hint(k, r[j].worst) : NULL;
                printf("    { \"%s\", \"%s\", \"%s\" },\n", str(k, "kernel"),
                       gs_kind_name(r[j].kind), h ? h->id : "-");
            }
        }
        json_decref(doc);
    }
    return 0;
}

static int expected(const char *kernel, const char *kind, const char *id)
{
    for (size_t e = 0; e < N_EXPECT; e++)
        if (strcmp(expect[e].kernel, kernel) == 0 && strcmp(expect[e].kind, kind) == 0 &&
            strcmp(expect[e].id, id) == 0)
            return 1;
    return 0;
}

/* The part of text from the line starting with head up to the next line starting with
 * stop (or the end); NULL when head is not there. */
static char *section(const char *text, const char *head, const char *stop)
{
    const char *a = strstr(text, head);
    if (!a)
        return NULL;
    const char *b = strstr(a + strlen(head), stop);
    return strndup(a, b ? (size_t)(b - a) : strlen(a));
}

/* XML text back to plain text (the five entities junit.c writes) */
static void unescape(char *s)
{
    static const struct { const char *e; char c; } ent[] = {
        { "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' }, { "&quot;", '"' }, { "&apos;", '\'' } };
    char *w = s;
    for (const char *r = s; *r;) {
        size_t i;
        for (i = 0; i < sizeof ent / sizeof ent[0]; i++)
            if (strncmp(r, ent[i].e, strlen(ent[i].e)) == 0)
                break;
        if (i < sizeof ent / sizeof ent[0]) {
            *w++ = ent[i].c;
            r += strlen(ent[i].e);
        } else {
            *w++ = *r++;
        }
    }
    *w = '\0';
}

/* md_text of s, as report.md writes it */
static char *md_of(const char *s)
{
    struct md m = { 0 };
    md_text(&m, s);
    return m.s;
}

/* The hints of doc's kernels: chosen as expected, and shown in report.md and junit.xml. */
static int check_doc(const json_t *doc, int seen[N_EXPECT])
{
    char *md = rp_markdown(doc, NULL), *ju = rp_junit(doc);
    size_t i;
    json_t *k;
    int bad = 0;

    json_array_foreach(json_object_get(doc, "kernels"), i, k) {
        struct rp_kind r[GS_N_KINDS];
        size_t nk = rp_kernel_kinds(k, r);
        char head[600], *ms, *js, *ma = md_of(str(k, "adapter")), *mk = md_of(str(k, "kernel"));
        snprintf(head, sizeof head, "\n## %s %s: ", ma, mk);
        free(ma);
        free(mk);
        ms = section(md, head, "\n## ");
        /* junit.xml names a kernel's testsuite by its identity ADAPTER/KERNEL */
        snprintf(head, sizeof head, "<testsuite name=\"%s\"", str(k, "id"));
        js = section(ju, head, "</testsuite>");
        if (!ms || !js) {
            fprintf(stderr, "%s: no section in report.md or junit.xml\n", str(k, "kernel"));
            free(ms);
            free(js);
            bad++;
            continue;
        }
        unescape(js);
        for (size_t j = 0; j < nk; j++) {
            const struct rp_hint *h = r[j].worst ? rp_hint(k, r[j].worst) : NULL;
            const char *kind = gs_kind_name(r[j].kind);
            enum gs_kind general;
            if (!h)
                continue;
            for (size_t e = 0; e < N_EXPECT; e++)
                if (strcmp(expect[e].kernel, str(k, "kernel")) == 0 &&
                    strcmp(expect[e].kind, kind) == 0) {
                    seen[e] = 1;
                    if (strcmp(expect[e].id, h->id) != 0) {
                        fprintf(stderr, "%s %s: hint %s, want %s\n", str(k, "kernel"), kind,
                                h->id, expect[e].id);
                        bad++;
                    }
                }
            /* a conditional row only where its defect is */
            if (gs_kind_from_name(h->id, &general) != 0 &&
                !expected(str(k, "kernel"), kind, h->id)) {
                fprintf(stderr, "%s %s: hint %s, not expected for this kernel\n",
                        str(k, "kernel"), kind, h->id);
                bad++;
            }
            char *cause = md_of(h->cause), *fix = md_of(h->fix);
            if (!strstr(ms, cause) || !strstr(ms, fix)) {
                fprintf(stderr, "%s %s: report.md lacks hint %s\n", str(k, "kernel"), kind, h->id);
                bad++;
            }
            free(cause);
            free(fix);
            /* junit.xml: the worst kind of the kernel heads its suite's failure text */
            if (j == 0 && r[j].severity == GS_SEV_FAIL &&
                (!strstr(js, h->cause) || !strstr(js, h->fix))) {
                fprintf(stderr, "%s %s: junit.xml lacks hint %s\n", str(k, "kernel"), kind, h->id);
                bad++;
            }
        }
        free(ms);
        free(js);
    }
    free(md);
    free(ju);
    return bad;
}

int tf_check_hints(const char *const *paths, size_t n)
{
    int seen[N_EXPECT] = { 0 }, bad = 0;
    for (size_t p = 0; p < n; p++) {
        json_t *doc = load(paths[p]);
        if (!doc)
            return 1;
        bad += check_doc(doc, seen);
        json_decref(doc);
    }
    for (size_t e = 0; e < N_EXPECT; e++)
        if (!seen[e]) {
            fprintf(stderr, "%s %s: no such kind in the results (want hint %s)\n",
                    expect[e].kernel, expect[e].kind, expect[e].id);
            bad++;
        }
    for (size_t i = 0; rp_hint_at(i); i++) {
        size_t e = 0;
        while (e < N_EXPECT && strcmp(expect[e].id, rp_hint_at(i)->id) != 0)
            e++;
        if (e == N_EXPECT) {
            fprintf(stderr, "hint %s: tested on no kernel\n", rp_hint_at(i)->id);
            bad++;
        }
    }
    printf("test_findings: %zu expectations, %d problems\n", N_EXPECT, bad);
    return bad != 0;
}
