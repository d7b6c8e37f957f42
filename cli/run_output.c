/* The terminal side of `gelucheck run`: the summary (stdout), read back from the result
 * document so that it always says what the JSON says, and the progress line (stderr). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, isatty, fileno */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run_output.h"

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

/* The decimal text of a value member: {"dec": ...} as gs_value_json makes it, or a string. */
static const char *dec(const json_t *v)
{
    if (json_is_string(v))
        return json_string_value(v);
    return json_is_object(v) ? str(v, "dec") : NULL;
}

static void upper(char *out, const char *s, size_t size)
{
    size_t i = 0;
    for (; s[i] && i + 1 < size; i++)
        out[i] = (char)(s[i] >= 'a' && s[i] <= 'z' ? s[i] - 'a' + 'A' : s[i]);
    out[i] = '\0';
}

/* Outside text (descriptions, messages) on one line: control characters as spaces. */
static void put_text(FILE *f, const char *s)
{
    for (; *s; s++)
        fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
}

/* "    tail        flush point x = -5.5425944, last non-zero x = -14.356068": the tail's
 * headline numbers (docs/design.md section 6), where the output flushes to zero against where the
 * correctly rounded result does */
static void print_flush_point(FILE *f, const json_t *k)
{
    size_t i;
    json_t *s;
    json_array_foreach(json_object_get(k, "suites"), i, s) {
        const json_t *m = json_object_get(s, "metrics");
        const char *fp = dec(json_object_get(m, "flush_point"));
        const char *ln = dec(json_object_get(m, "last_nonzero"));
        if (strcmp(str(s, "name"), "tail") == 0 && fp)
            fprintf(f, "    %-12sflush point x = %s, last non-zero x = %s\n", "tail", fp,
                    ln ? ln : "none");
    }
}

/* A metric value of a "baseline" entry: a number, a value object's decimal, or "none". */
static void put_metric(FILE *f, const json_t *v)
{
    if (json_is_object(v))
        fputs(str(v, "dec"), f);
    else if (json_is_number(v))
        fprintf(f, "%.6g", json_number_value(v));
    else if (json_is_string(v))
        fputs(json_string_value(v), f);
    else
        fputs("none", f);
}

/* Under --baseline (rp_baseline_apply): each metric that got worse, "    baseline    max_ulp
 * 1.2 -> 3.4 (worse)", and each new finding kind; or that the baseline lacks the kernel. */
static void print_baseline(FILE *f, const json_t *k)
{
    const json_t *b = json_object_get(k, "baseline"), *m;
    size_t i;
    if (!b)
        return;
    if (!json_is_true(json_object_get(b, "found"))) {
        fprintf(f, "    %-12snew: not in the baseline%s%s\n", "baseline",
                str(b, "why")[0] ? ": " : "", str(b, "why"));
        return;
    }
    if (str(b, "site")[0])
        fprintf(f, "    %-12sagainst %s at the site %s of the site map%s\n", "baseline",
                str(b, "kernel"), str(b, "site"), json_array_size(json_object_get(b, "also"))
                ? " (the comparison with the most regressions)" : "");
    json_array_foreach(json_object_get(b, "metrics"), i, m) {
        int worse = json_is_true(json_object_get(m, "worse"));
        if (!worse && !json_is_true(json_object_get(m, "better")))
            continue;
        fprintf(f, "    %-12s%s ", "baseline", str(m, "name"));
        put_metric(f, json_object_get(m, "old"));
        fputs(" -> ", f);
        put_metric(f, json_object_get(m, "new"));
        fputs(worse ? " (worse)\n" : " (better)\n", f);
    }
    json_array_foreach(json_object_get(b, "new_kinds"), i, m)
        fprintf(f, "    %-12snew finding kind %s\n", "baseline", json_string_value(m));
    json_array_foreach(json_object_get(b, "gone_kinds"), i, m)
        fprintf(f, "    %-12sno more %s (better)\n", "baseline", json_string_value(m));
}

static void print_kernel(FILE *f, const json_t *k)
{
    char v[8];
    const char *detected = str(json_object_get(k, "fingerprint"), "detected");

    upper(v, str(k, "verdict"), sizeof v);
    fprintf(f, "%-5s  %s  %s  %s %s", v, str(k, "adapter"), str(k, "kernel"), str(k, "func"),
            str(k, "dtype"));
    if (detected[0] && strcmp(detected, "n/a") != 0 && strcmp(detected, str(k, "func")) != 0)
        fprintf(f, "  (behaves like %s)", detected);
    if (json_is_false(json_object_get(k, "complete")))
        fputs("  (incomplete: the run was interrupted)", f);
    run_worst_print(f, k);
    fputc('\n', f);
    /* an approximation: how far it is from the exact function, whatever the verdict */
    const json_t *vx = json_object_get(k, "vs_exact"), *vo = json_object_get(vx, "overall");
    if (vo && json_is_number(json_object_get(vo, "max_ulp"))) {
        /* over x >= -1 too: the tails, where the exact function underflows first, dominate */
        static const char *const near[] = { "[-1,0)", "[0,1)", "x>=1" };
        double m1 = -1;
        for (size_t r = 0; r < 3; r++) {
            const json_t *ru = json_object_get(json_object_get(json_object_get(vx, "regions"),
                                                               near[r]), "max_ulp");
            if (json_is_number(ru) && json_number_value(ru) > m1)
                m1 = json_number_value(ru);
        }
        fprintf(f, "    %-12s%s: max %.3g ulp", "vs exact", str(vx, "func"),
                json_number_value(json_object_get(vo, "max_ulp")));
        if (m1 >= 0)
            fprintf(f, " (x >= -1: %.3g ulp)", m1);
        fprintf(f, ", %.1f%% of the outputs are RN(%s)\n",
                100 * json_number_value(json_object_get(vo, "fraction_correctly_rounded")),
                str(vx, "func"));
    }
    if (json_object_get(k, "error")) {
        fputs("    error: ", f);
        put_text(f, str(k, "error"));
        fputc('\n', f);
    }
    print_baseline(f, k);
    run_kinds_print(f, k);
    if (strcmp(str(k, "verdict"), "fail") == 0 || strcmp(str(k, "verdict"), "error") == 0)
        print_flush_point(f, k);
}

void run_summary_print(FILE *f, const json_t *doc)
{
    const json_t *t = json_object_get(doc, "totals"), *fc = json_object_get(t, "findings");
    size_t i;
    json_t *a, *k;
    const char *key;
    char v[8];

    size_t not_loaded = 0;
    json_array_foreach(json_object_get(doc, "adapters"), i, a) {
        if (!json_is_null(json_object_get(a, "error"))) {
            not_loaded++;
            fprintf(f, "ERROR  %s  adapter not loaded: ", str(a, "spec"));
            put_text(f, str(a, "error"));
            fputc('\n', f);
        }
    }
    json_array_foreach(json_object_get(doc, "kernels"), i, k)
        print_kernel(f, k);
    upper(v, str(doc, "verdict"), sizeof v);
    fprintf(f, "\n%s: %lld kernel%s, %lld pass, %lld fail, %lld error, %lld skip; policy %s",
            v, json_integer_value(json_object_get(t, "kernels")),
            json_integer_value(json_object_get(t, "kernels")) == 1 ? "" : "s",
            json_integer_value(json_object_get(t, "pass")),
            json_integer_value(json_object_get(t, "fail")),
            json_integer_value(json_object_get(t, "error")),
            json_integer_value(json_object_get(t, "skip")),
            str(json_object_get(doc, "policy"), "name"));
    if (not_loaded)
        fprintf(f, "; %zu adapter%s not loaded", not_loaded, not_loaded == 1 ? "" : "s");
    const json_t *sh = json_object_get(doc, "shard");
    json_int_t n_shards = json_integer_value(json_object_get(sh, "count"));
    if (n_shards > 1)
        fprintf(f, "; shard %lld of %lld (gelucheck merge joins the shards)",
                (long long)json_integer_value(json_object_get(sh, "index")),
                (long long)n_shards);
    if (json_object_get(sh, "merged"))
        fprintf(f, "; merged from %lld shards",
                (long long)json_integer_value(json_object_get(sh, "merged")));
    fprintf(f, "; %.1f s\n", json_number_value(json_object_get(json_object_get(doc, "timing"),
                                                                "wall_s")));
    if (json_object_size(fc)) {
        const char *sep = "findings: ";
        json_object_foreach((json_t *)fc, key, a) {
            fprintf(f, "%s%s %lld", sep, key, json_integer_value(a));
            sep = ", ";
        }
        fputc('\n', f);
    }
}

/* ---------------------------------------------------------------- progress ------------- */

struct run_progress {
    enum run_progress_mode mode;
    int tty;
    pthread_mutex_t lock;
    double t0, last;          /* run start, last line written */
    double s0;                /* when the current (kernel, suite) started */
    uint64_t d0;              /* its done count then */
    char key[160];            /* kernel/suite of the current line */
    unsigned index, n;
    char adapter[96];
    int width;                /* characters of the line on screen; 0 = none */
};

/* At most 5 lines a second: a progress line is for people (200 ms between updates). */
#define RUN_PROGRESS_PERIOD_S 0.2
/* auto mode stays silent for runs shorter than this (seconds): nothing flickers */
#define RUN_PROGRESS_DELAY_S 1.0

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

struct run_progress *run_progress_new(enum run_progress_mode mode)
{
    struct run_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->mode = mode;
    p->tty = isatty(fileno(stderr));
    pthread_mutex_init(&p->lock, NULL);
    p->t0 = p->last = now_s();
    if (mode == RUN_PROGRESS_ALWAYS)
        p->last -= RUN_PROGRESS_PERIOD_S; /* always: the first report shows at once */
    return p;
}

void run_progress_kernel(struct run_progress *p, unsigned index, unsigned n, const char *adapter)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->index = index;
    p->n = n;
    snprintf(p->adapter, sizeof p->adapter, "%s", adapter);
    pthread_mutex_unlock(&p->lock);
}

static void rate_text(char *buf, size_t size, double r)
{
    if (r >= 1e6)
        snprintf(buf, size, "%.1fM/s", r / 1e6);
    else if (r >= 1e3)
        snprintf(buf, size, "%.1fk/s", r / 1e3);
    else
        snprintf(buf, size, "%.0f/s", r);
}

void run_progress_fn(void *arg, const char *kernel, const char *suite, uint64_t done,
                     uint64_t total)
{
    struct run_progress *p = arg;
    char key[160], line[320], rate[32] = "", eta[32] = "";

    if (!p || p->mode == RUN_PROGRESS_NEVER || (p->mode == RUN_PROGRESS_AUTO && !p->tty))
        return;
    pthread_mutex_lock(&p->lock);
    double t = now_s();
    snprintf(key, sizeof key, "%s/%s", kernel, suite);
    if (strcmp(key, p->key) != 0) {
        snprintf(p->key, sizeof p->key, "%s", key);
        p->s0 = t;
        p->d0 = done;
    }
    if ((p->mode == RUN_PROGRESS_AUTO && t - p->t0 < RUN_PROGRESS_DELAY_S) ||
        t - p->last < RUN_PROGRESS_PERIOD_S) {
        pthread_mutex_unlock(&p->lock);
        return;
    }
    p->last = t;
    if (t > p->s0 && done > p->d0) {
        double r = (double)(done - p->d0) / (t - p->s0);
        rate_text(rate, sizeof rate, r);
        if (total >= done)
            snprintf(eta, sizeof eta, "ETA %.0fs", (double)(total - done) / r);
    }
    int w = snprintf(line, sizeof line, "[%u/%u] %s %s  %s  %llu/%llu  %s  %s", p->index, p->n,
                     p->adapter, kernel, suite, (unsigned long long)done,
                     (unsigned long long)total, rate, eta);
    w = w < (int)sizeof line ? w : (int)sizeof line - 1;
    fprintf(stderr, "\r%s%*s", line, p->width > w ? p->width - w : 0, "");
    fflush(stderr);
    p->width = w;
    pthread_mutex_unlock(&p->lock);
}

void run_progress_free(struct run_progress *p)
{
    if (!p)
        return;
    if (p->width) {
        fprintf(stderr, "\r%*s\r", p->width, "");
        fflush(stderr);
    }
    pthread_mutex_destroy(&p->lock);
    free(p);
}
