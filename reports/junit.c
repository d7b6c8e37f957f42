/* junit.xml of a result (docs/design.md section 8): one <testsuite> per kernel, named "ADAPTER
 * KERNEL", with one <testcase classname="gelucheck.ADAPTER.KERNEL" name="SUITE"> per suite; a
 * failing suite has a <failure> whose message is its worst finding on one line (by the order
 * of severity, findings.h) and whose text lists the worst finding of each kind with the
 * commands that reproduce it, its likely cause and fix; an error suite has <error>,
 * a skipped one <skipped>.  A kernel with a "baseline" member (rp_baseline_apply) gets one more
 * testcase, "baseline", failing on a regression; an adapter that could not be loaded is a
 * testsuite of its own with one error testcase "load".
 *
 * The shape is the one Jenkins, GitLab and GitHub test reporters read (the Ant/Jenkins JUnit
 * schema): <testsuites name tests failures errors skipped time> around <testsuite name tests
 * failures errors skipped time>, each with <properties>.  Deterministic: no timestamps, no host
 * name, every time="0" (the result's timing is kept apart so that results compare byte for
 * byte).  Text is XML-escaped; control bytes XML 1.0 cannot hold become '?'. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings.h"
#include "reports.h"
#include "resread.h"

/* The worst findings listed in a failure's text: the worst finding of each kind, in the order
 * of severity (findings.h), at most this many, so that the CI log shows the variety of what
 * went wrong, each with its likely cause and usual fix. */
#define JU_WORST 5

static void ju_escape(FILE *f, const char *s, int attr)
{
    for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs(attr ? "&quot;" : "\"", f); break;
        case '\'': fputs(attr ? "&apos;" : "'", f); break;
        case '\t': fputs(attr ? "&#9;" : "\t", f); break;
        case '\n': fputs(attr ? "&#10;" : "\n", f); break;
        case '\r': fputs("&#13;", f); break;
        default: fputc(*p < 0x20 ? '?' : *p, f); break;
        }
    }
}

/* The worst finding of severity fail in suite s by the order of severity, the one the
 * terminal summary of `gelucheck run` shows for its kind. */
static const json_t *ju_worst_failing(const json_t *s)
{
    size_t i;
    json_t *fd;
    const json_t *worst = NULL;
    json_array_foreach(json_object_get(s, "findings"), i, fd) {
        if (strcmp(rr_str(fd, "severity"), "fail") == 0 &&
            (!worst || gs_finding_json_cmp(fd, worst) < 0))
            worst = fd;
    }
    return worst;
}

/* snprintf appended at buf + *len, never past size. */
static void app(char *buf, size_t size, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void app(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
    va_list ap;
    if (*len + 1 >= size)
        return;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *len, size - *len, fmt, ap);
    va_end(ap);
    if (n > 0)
        *len = *len + (size_t)n < size ? *len + (size_t)n : size - 1;
}

/* One finding on one line: "ftz [-10,-5) x = -5.543 got -0 want -6e-08 (1.38 ulp)"; for a
 * finding without an output, the detail's first clause after it ("crash x>=1 x = 2: killed by
 * SIGSEGV"), or the detail for a finding without an input. */
static void ju_finding_line(char *buf, size_t size, const json_t *fd)
{
    size_t len = 0;
    double u;
    const json_t *x = json_object_get(fd, "x");
    buf[0] = '\0';
    app(buf, size, &len, "%s %s", rr_str(fd, "kind"), rr_str(fd, "region"));
    if (!x) {
        app(buf, size, &len, ": %s", rr_str(fd, "detail"));
        return;
    }
    app(buf, size, &len, " x = %s", rr_str(x, "dec"));
    if (json_object_get(fd, "got"))
        app(buf, size, &len, " got %s", rr_str(json_object_get(fd, "got"), "dec"));
    if (json_object_get(fd, "want"))
        app(buf, size, &len, " want %s", rr_str(json_object_get(fd, "want"), "dec"));
    if (rr_real(json_object_get(fd, "ulp"), &u) == 0)
        app(buf, size, &len, " (%.3g ulp)", u);
    if (!json_object_get(fd, "got")) {
        const char *d = rr_str(fd, "detail");
        app(buf, size, &len, ": %.*s", (int)strcspn(d, ";"), d);
    }
}

/* A value as "dec (hex, bits)". */
static void value_text(FILE *f, const char *label, const json_t *v)
{
    if (v)
        fprintf(f, " %s %s (%s, %s)", label, rr_str(v, "dec"), rr_str(v, "hex"),
                rr_str(v, "bits"));
}

/* A word for a shell: as is when it holds only safe bytes, else in single quotes. */
static void shell_word(FILE *f, const char *s)
{
    if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                        "_-+=./:,@%") == strlen(s)) {
        fputs(s, f);
        return;
    }
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", f); /* end the quote, an escaped quote, quote again */
        else
            fputc(*s, f);
    }
    fputc('\'', f);
}

/* The run command that reproduces suite s of kernel k: its adapter, kernel and suite with the
 * options of doc that change what is measured (policy, seed, samples, exhaustive, range). */
static void run_command(FILE *f, const json_t *doc, const json_t *k, const json_t *s)
{
    const json_t *range = json_object_get(doc, "range");
    json_int_t samples = json_integer_value(json_object_get(doc, "samples"));
    double lo, hi;

    fputs("gelucheck run --adapter ", f);
    shell_word(f, rr_str(k, "adapter"));
    fputs(" --kernel ", f);
    shell_word(f, rr_str(k, "kernel"));
    fprintf(f, " --suite %s --policy ", rr_str(s, "name"));
    shell_word(f, rr_str(json_object_get(doc, "policy"), "name"));
    fprintf(f, " --seed %lld", (long long)json_integer_value(json_object_get(doc, "seed")));
    if (samples > 0)
        fprintf(f, " --samples %lld", (long long)samples);
    if (json_is_true(json_object_get(doc, "exhaustive")))
        fputs(" --exhaustive", f);
    if (rr_real(json_array_get(range, 0), &lo) == 0 && rr_real(json_array_get(range, 1), &hi) == 0)
        fprintf(f, " --range %.17g:%.17g", lo, hi);
}

/* The text of a failure or error: counts per kind and region, the worst finding of up to
 * `worst` kinds (the order of severity) with their values, `gelucheck ref` commands, likely
 * causes and fixes, and the run command.  malloc'ed, NULL on no memory. */
static char *ju_details(const json_t *doc, const json_t *k, const json_t *s, size_t worst)
{
    char *buf = NULL, line[1024];
    size_t len = 0, i, n;
    const json_t *c;
    struct rp_kind kinds[GS_N_KINDS];
    json_t *one = json_pack("{s:[O]}", "suites", s); /* this suite's kinds alone */
    FILE *f = one ? open_memstream(&buf, &len) : NULL;

    if (!f) {
        json_decref(one);
        return NULL;
    }
    fprintf(f, "\n%s %s (%s %s), suite %s: %s\n", rr_str(k, "adapter"), rr_str(k, "kernel"),
            rr_str(k, "func"), rr_str(k, "dtype"), rr_str(s, "name"), rr_str(s, "verdict"));
    if (rr_str(s, "note")[0])
        fprintf(f, "note: %s\n", rr_str(s, "note"));
    if (json_array_size(json_object_get(s, "finding_counts")))
        fputs("findings (kind, region, severity: count):\n", f);
    json_array_foreach(json_object_get(s, "finding_counts"), i, c)
        fprintf(f, "  %s %s %s: %lld\n", rr_str(c, "kind"), rr_str(c, "region"),
                rr_str(c, "severity"), (long long)json_integer_value(json_object_get(c, "count")));
    n = rp_kernel_kinds(one, kinds);
    for (i = 0; i < n && i < worst; i++) {
        const json_t *fd = kinds[i].worst;
        if (!fd || kinds[i].severity == GS_SEV_IGNORE)
            break;
        if (i == 0)
            fputs("worst findings:\n", f);
        ju_finding_line(line, sizeof line, fd);
        fprintf(f, "  %s%s\n", line, kinds[i].severity == GS_SEV_FAIL ? "" : " (warn)");
        if (json_object_get(fd, "x")) {
            fputs("   ", f);
            value_text(f, "x", json_object_get(fd, "x"));
            value_text(f, "got", json_object_get(fd, "got"));
            value_text(f, "want", json_object_get(fd, "want"));
            fputc('\n', f);
        }
        if (json_object_get(fd, "x") && rr_str(fd, "detail")[0])
            fprintf(f, "    %s\n", rr_str(fd, "detail"));
        if (rr_str(fd, "command")[0])
            fprintf(f, "    %s\n", rr_str(fd, "command"));
        const struct rp_hint *h = rp_hint(k, fd);
        if (h)
            fprintf(f, "    likely cause: %s\n    fix: %s\n", h->cause, h->fix);
    }
    json_decref(one);
    fputs("reproduce:\n  ", f);
    run_command(f, doc, k, s);
    fputc('\n', f);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* A metric's value of a "baseline" entry as text: a number, a value object's decimal, or
 * "none" for null. */
static void metric_value(char *buf, size_t size, const json_t *v)
{
    double d;
    if (json_is_object(v))
        snprintf(buf, size, "%s", rr_str(v, "dec"));
    else if (rr_real(v, &d) == 0)
        snprintf(buf, size, "%.6g", d);
    else
        snprintf(buf, size, "none");
}

/* The message (one line: every regression, "max_ulp 0 -> 1.38; new kind ftz") and the text
 * (every metric compared) of a kernel's "baseline" member.  The text is malloc'ed. */
static char *ju_baseline_text(const json_t *b, char *msg, size_t size)
{
    char *buf = NULL, o[64], n[64];
    size_t len = 0, mlen = 0, i;
    const json_t *m, *kind;
    FILE *f = open_memstream(&buf, &len);

    msg[0] = '\0';
    if (f)
        fputs("\nmetric: baseline -> this run\n", f);
    json_array_foreach(json_object_get(b, "metrics"), i, m) {
        int worse = json_is_true(json_object_get(m, "worse"));
        metric_value(o, sizeof o, json_object_get(m, "old"));
        metric_value(n, sizeof n, json_object_get(m, "new"));
        if (f)
            fprintf(f, "  %s: %s -> %s%s\n", rr_str(m, "name"), o, n, worse ? " (worse)" : "");
        if (worse)
            app(msg, size, &mlen, "%s%s %s -> %s", mlen ? "; " : "", rr_str(m, "name"), o, n);
    }
    json_array_foreach(json_object_get(b, "new_kinds"), i, kind) {
        if (f)
            fprintf(f, "  new finding kind: %s\n", json_string_value(kind));
        app(msg, size, &mlen, "%snew kind %s", mlen ? "; " : "", json_string_value(kind));
    }
    if (!f || fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The outcome of one testcase. */
enum ju_outcome { JU_PASS, JU_FAIL, JU_ERROR, JU_SKIP };

static enum ju_outcome outcome_of(const char *verdict)
{
    return strcmp(verdict, "pass") == 0   ? JU_PASS
           : strcmp(verdict, "skip") == 0 ? JU_SKIP
           : strcmp(verdict, "fail") == 0 ? JU_FAIL
                                          : JU_ERROR;
}

static enum ju_outcome baseline_outcome(const json_t *b)
{
    if (!json_is_true(json_object_get(b, "found")))
        return JU_SKIP;
    return json_integer_value(json_object_get(b, "regressions")) > 0 ? JU_FAIL : JU_PASS;
}

/* The testcases of kernel k, counted by outcome into n[4]; returns how many. */
static size_t count_cases(const json_t *k, size_t n[4])
{
    size_t i, total = 0;
    json_t *s;
    json_array_foreach(json_object_get(k, "suites"), i, s) {
        n[outcome_of(rr_str(s, "verdict"))]++;
        total++;
    }
    if (total == 0) { /* nothing ran: the kernel itself is the testcase */
        n[outcome_of(rr_str(k, "verdict"))]++;
        total++;
    }
    if (json_object_get(k, "baseline")) {
        n[baseline_outcome(json_object_get(k, "baseline"))]++;
        total++;
    }
    return total;
}

static void open_suite(FILE *f, const char *name, size_t tests, const size_t n[4])
{
    fputs("  <testsuite name=\"", f);
    ju_escape(f, name, 1);
    fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"0\">\n",
            tests, n[JU_FAIL], n[JU_ERROR], n[JU_SKIP]);
}

static void property(FILE *f, const char *name, const char *value)
{
    fprintf(f, "      <property name=\"%s\" value=\"", name);
    ju_escape(f, value, 1);
    fputs("\"/>\n", f);
}

static void open_case(FILE *f, const char *classname, const char *name)
{
    fputs("    <testcase classname=\"", f);
    ju_escape(f, classname, 1);
    fputs("\" name=\"", f);
    ju_escape(f, name, 1);
    fputs("\" time=\"0\"", f);
}

/* <TAG message="MESSAGE" type="TYPE">TEXT</TAG> (no text: an empty element) and the end of
 * the testcase. */
static void close_case(FILE *f, const char *tag, const char *message, const char *type,
                       const char *text)
{
    if (!tag) {
        fputs("/>\n", f);
        return;
    }
    fprintf(f, ">\n      <%s message=\"", tag);
    ju_escape(f, message, 1);
    fputc('"', f);
    if (type) {
        fputs(" type=\"", f);
        ju_escape(f, type, 1);
        fputc('"', f);
    }
    if (text && *text) {
        fputc('>', f);
        ju_escape(f, text, 0);
        fprintf(f, "</%s>\n", tag);
    } else {
        fputs("/>\n", f);
    }
    fputs("    </testcase>\n", f);
}

static void suite_case(FILE *f, const json_t *doc, const json_t *k, const json_t *s,
                       const char *classname)
{
    enum ju_outcome o = outcome_of(rr_str(s, "verdict"));
    const json_t *worst = ju_worst_failing(s);
    char msg[1024];
    char *text = NULL;

    open_case(f, classname, rr_str(s, "name"));
    if (o == JU_PASS) {
        close_case(f, NULL, NULL, NULL, NULL);
        return;
    }
    if (o == JU_SKIP) {
        const char *note = rr_str(s, "note");
        close_case(f, "skipped", note[0] ? note : "not applicable to this kernel", NULL, NULL);
        return;
    }
    if (worst)
        ju_finding_line(msg, sizeof msg, worst);
    else
        snprintf(msg, sizeof msg, "%s", rr_str(s, "note")[0] ? rr_str(s, "note")
                                                              : "the suite did not pass");
    text = ju_details(doc, k, s, JU_WORST);
    close_case(f, o == JU_FAIL ? "failure" : "error", msg,
               worst ? rr_str(worst, "kind") : o == JU_FAIL ? "fail" : "error", text);
    free(text);
}

static void kernel_suite(FILE *f, const json_t *doc, const json_t *k)
{
    char classname[1100];
    size_t n[4] = { 0 }, i;
    size_t tests = count_cases(k, n);
    const json_t *s, *b = json_object_get(k, "baseline");
    const char *detected = rr_str(json_object_get(k, "fingerprint"), "detected");

    /* the kernel's identity ADAPTER/KERNEL names both, however the spec was spelled */
    rp_kernel_id(doc, k, classname, sizeof classname);
    open_suite(f, classname, tests, n);
    fputs("    <properties>\n", f);
    property(f, "func", rr_str(k, "func"));
    property(f, "dtype", rr_str(k, "dtype"));
    property(f, "verdict", rr_str(k, "verdict"));
    if (detected[0])
        property(f, "detected", detected);
    property(f, "description", rr_str(k, "description"));
    fputs("    </properties>\n", f);
    json_array_foreach(json_object_get(k, "suites"), i, s)
        suite_case(f, doc, k, s, classname);
    if (json_array_size(json_object_get(k, "suites")) == 0) {
        enum ju_outcome o = outcome_of(rr_str(k, "verdict"));
        const char *err = rr_str(k, "error");
        open_case(f, classname, "kernel");
        close_case(f, o == JU_PASS ? NULL : o == JU_SKIP ? "skipped" : o == JU_FAIL ? "failure"
                                                                                   : "error",
                   err[0] ? err : "no suite ran", o == JU_ERROR ? "error" : NULL, NULL);
    }
    if (b) {
        enum ju_outcome o = baseline_outcome(b);
        char *text = NULL;
        open_case(f, classname, "baseline");
        if (o == JU_PASS) {
            close_case(f, NULL, NULL, NULL, NULL);
        } else if (o == JU_SKIP) {
            char msg[1024]; /* with the reason when the baseline gives one (--site-map) */
            const char *why = json_string_value(json_object_get(b, "why"));
            snprintf(msg, sizeof msg, "new: not in the baseline%s%.900s", why ? ": " : "",
                     why ? why : "");
            close_case(f, "skipped", msg, NULL, NULL);
        } else {
            char msg[1024];
            text = ju_baseline_text(b, msg, sizeof msg);
            close_case(f, "failure", msg, "regression", text);
        }
        free(text);
    }
    fputs("  </testsuite>\n", f);
}

/* A kernel of the baseline that the run selected and did not produce: a testsuite of its
 * own with one testcase "baseline", failing (skipped under --baseline-allow-missing), so that
 * the CI page says what the exit code says. */
static void missing_suite(FILE *f, const char *id, int allowed)
{
    size_t n[4] = { 0 };
    n[allowed ? JU_SKIP : JU_FAIL] = 1;
    open_suite(f, id, 1, n);
    open_case(f, id, "baseline");
    close_case(f, allowed ? "skipped" : "failure",
               "in the baseline, selected by this run, not produced",
               allowed ? NULL : "missing", NULL);
    fputs("  </testsuite>\n", f);
}

/* An adapter that could not be loaded: a testsuite with one error testcase "load". */
static void adapter_suite(FILE *f, const json_t *a)
{
    size_t n[4] = { 0, 0, 1, 0 };
    char classname[1100];
    snprintf(classname, sizeof classname, "gelucheck.%s", rr_str(a, "spec"));
    open_suite(f, rr_str(a, "spec"), 1, n);
    open_case(f, classname, "load");
    close_case(f, "error", rr_str(a, "error")[0] ? rr_str(a, "error") : "cannot load",
               "adapter_error", NULL);
    fputs("  </testsuite>\n", f);
}

char *rp_junit(const json_t *doc)
{
    char *buf = NULL;
    size_t len = 0, n[4] = { 0 }, tests = 0, i;
    const json_t *k, *a;
    FILE *f = open_memstream(&buf, &len);

    if (!f)
        return NULL;
    const json_t *bs = json_object_get(doc, "baseline");
    const json_t *mk = json_object_get(bs, "missing_kernels");
    int allowed = json_is_true(json_object_get(bs, "allow_missing"));
    json_array_foreach(json_object_get(doc, "kernels"), i, k)
        tests += count_cases(k, n);
    tests += json_array_size(mk);
    n[allowed ? JU_SKIP : JU_FAIL] += json_array_size(mk);
    json_array_foreach(json_object_get(doc, "adapters"), i, a) {
        if (json_is_null(json_object_get(a, "name"))) {
            tests++;
            n[JU_ERROR]++;
        }
    }
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
    fprintf(f, "<testsuites name=\"gelucheck\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
               "skipped=\"%zu\" time=\"0\">\n",
            tests, n[JU_FAIL], n[JU_ERROR], n[JU_SKIP]);
    json_array_foreach(json_object_get(doc, "adapters"), i, a) {
        if (json_is_null(json_object_get(a, "name")))
            adapter_suite(f, a);
    }
    json_array_foreach(json_object_get(doc, "kernels"), i, k)
        kernel_suite(f, doc, k);
    json_array_foreach(mk, i, k)
        if (json_is_string(k))
            missing_suite(f, json_string_value(k), allowed);
    fputs("</testsuites>\n", f);
    if (ferror(f)) {
        fclose(f);
        free(buf);
        return NULL;
    }
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}
