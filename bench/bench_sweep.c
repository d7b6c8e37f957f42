/* bench_sweep: the figures of the performance goals (issue 7), measured side by side in one
 * run, each configuration in a child process of its own (so that its peak memory is its own):
 *   exhaustive  the ulp suite over every binary32 input of the kernel, 1 and 2 threads; the
 *               kernel alone over the same inputs in the same chunks, 1 and 2 threads
 *               (gs_ut_eval, the suites' own batch call); the ratios; the share of reference
 *               values the fast path left to MPFR and of inputs counted in a rule's run
 *               (suites/ulp.c); peak memory.
 *   default32   all six suites on the kernel with the ulp sweep raised to 2^24 inputs.
 *   small       all six suites on an f16 and a bf16 kernel (every input).
 *   f64         the ulp suite's default f64 sample set of an f64 gelu kernel: reference values
 *               per second over the threads (the suite's wall time, kernel calls included).
 * Usage: bench_sweep [--adapter SPEC] [--kernel NAME] [--kernel16 NAME] [--kernelbf16 NAME]
 *                    [--kernel64 NAME] [--threads N] [--only exhaustive|default32|small|f64]
 *                    [--range LO:HI]
 * Defaults: the libm adapter's erfc.f32, erfc.f16, erfc.bf16 and erfc.f64 (0.5 x erfc(-x/sqrt2)
 * in float, widened for the 16-bit types, and in double); 2 threads.  --range restricts the
 * exhaustive sweep (a quick look; the goal is the whole range). */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "adapter.h"
#include "measure_hp.h" /* gs_ref_run_inputs */
#include "suites.h"
#include "ulp_util.h"
#include "bench_clock.h"

struct opts {
    const char *adapter, *kernel, *k16, *kbf16, *k64, *only;
    unsigned threads;
    int has_range;
    double lo, hi;
    const char *func, *region; /* --only table: one function, one region (NULL: all) */
    int kernel_set;            /* --kernel given: the table's kernel for --func */
    unsigned repeat;           /* --only table: each cell's pair measured this many times */
};

/* User + system CPU seconds of this process so far. */
static double cpu_now(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec
           + (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

/* One measured configuration, reported by the child through a pipe. */
struct figure {
    double wall_s;
    double cpu_s;    /* user + system CPU seconds over the same span as wall_s, all threads:
                        the machine's other jobs change the wall time much more than this */
    double rss_mib;
    /* the kernel's worker processes (gelucheck-worker, docs/design.md section 10), reaped when the
     * adapters close: their CPU seconds (start-up included) and the largest one's peak RSS,
     * which cpu_s and rss_mib, this process's own, leave out */
    double worker_cpu_s, worker_rss_mib;
    uint64_t points, fast, fast_miss, ref_calls;
    uint64_t run_inputs; /* inputs the ulp suite counted in a rule's run (no reference call) */
    uint64_t fused;      /* measurements decided by the fused pass (suites/ulp_fused.h) */
    int ok;
};

/* The kernel named name of spec, opened once per thread into t (k has n entries). */
static int open_kernel(const char *spec, const char *name, unsigned n, struct gc_adapter **a,
                       const struct gc_kernel **k)
{
    struct gc_open_options o = GC_OPEN_OPTIONS_INIT;
    char msg[512];
    for (unsigned i = 0; i < n; i++) {
        if (gc_adapter_open(spec, &o, &a[i], msg, sizeof msg) != GC_OK) {
            fprintf(stderr, "bench_sweep: %s: %s\n", spec, msg);
            return -1;
        }
        k[i] = NULL;
        for (size_t j = 0; j < a[i]->n_kernels; j++)
            if (strcmp(a[i]->kernels[j].name, name) == 0)
                k[i] = &a[i]->kernels[j];
        if (!k[i]) {
            fprintf(stderr, "bench_sweep: %s has no kernel %s\n", spec, name);
            return -1;
        }
    }
    return 0;
}

/* The kernel alone over the exhaustive sweep's chunks: what gs_suite_ulp's work() does
 * before measuring (the same inputs: finite, non-zero, inside --range). */
struct konly {
    struct gs_ctx *c;
    struct gs_ut_shape sh;
    uint64_t *x[2], *y[2];
    struct gs_ut_bufs kb[2]; /* as the ulp suite keeps them */
    int rok[2];              /* per sign: the magnitudes in --range (gs_ut_mag_range) */
    uint64_t mlo[2], mhi[2];
    uint64_t done[2];
};

static int konly_item(void *arg, unsigned t, uint64_t item)
{
    struct konly *k = arg;
    /* the chunk's inputs as ulp.c's chunk_span makes them: one interval of magnitudes */
    uint64_t p0 = item * GS_UT_BATCH, sign = p0 & k->sh.sign;
    int neg = sign != 0;
    uint64_t lo = p0 & ~k->sh.sign, hi = lo + GS_UT_BATCH - 1;
    uint64_t a = k->mlo[neg] > 1 ? k->mlo[neg] : 1;
    uint64_t b = k->mhi[neg] < k->sh.inf_mag - 1 ? k->mhi[neg] : k->sh.inf_mag - 1;
    lo = lo > a ? lo : a;
    hi = hi < b ? hi : b;
    size_t n = 0;
    for (uint64_t m = lo; k->rok[neg] && m <= hi; m++)
        k->x[t][n++] = sign | m;
    int nomem = 0;
    if (gs_ut_eval_bufs(k->c, t, &k->kb[t], k->x[t], k->y[t], n, NULL, &nomem) != 0)
        return 1;
    k->done[t] += n;
    return 0;
}

static void run_child(const struct opts *o, const char *what, const char *kernel, unsigned nt,
                      struct figure *f)
{
    struct gc_adapter *a[2] = { 0 };
    const struct gc_kernel *k[2] = { 0 };
    if (nt > 2 || open_kernel(o->adapter, kernel, nt, a, k) != 0)
        return;
    struct gs_config cfg;
    gs_config_init(&cfg);
    cfg.policy = gs_policy_builtin("default");
    cfg.threads = nt;
    cfg.has_range = o->has_range;
    cfg.range_lo = o->lo;
    cfg.range_hi = o->hi;
    struct gs_target tg = { k, nt, o->adapter, NULL };
    struct gs_ctx c;
    char msg[256];
    int konly = strcmp(what, "kernel") == 0;
    if (strcmp(what, "exhaustive") == 0 || konly) {
        cfg.exhaustive = 1;
        cfg.suites = 1u << GS_SUITE_ULP;
    } else if (strcmp(what, "default32") == 0) {
        cfg.samples = (uint64_t)1 << 24;
    } else if (strcmp(what, "f64") == 0) {
        cfg.suites = 1u << GS_SUITE_ULP;
    }
    double t0 = bench_now();
    f->cpu_s = cpu_now();
    if (gs_ctx_init(&c, &cfg, &tg, msg, sizeof msg) != 0) {
        fprintf(stderr, "bench_sweep: %s\n", msg);
        return;
    }
    if (konly) {
        struct konly ko = { .c = &c };
        gs_ut_shape_of(c.dt, &ko.sh);
        for (int neg = 0; neg < 2; neg++)
            ko.rok[neg] = gs_ut_mag_range(&c, &ko.sh, neg, &ko.mlo[neg], &ko.mhi[neg]);
        for (unsigned t = 0; t < nt; t++) {
            ko.x[t] = malloc(GS_UT_BATCH * sizeof(uint64_t));
            ko.y[t] = malloc(GS_UT_BATCH * sizeof(uint64_t));
        }
        t0 = bench_now(); /* the kernel alone: without the context's set-up */
        f->cpu_s = cpu_now();
        gs_parallel_for(nt, ((uint64_t)1 << 32) / GS_UT_BATCH, konly_item, &ko);
        f->points = ko.done[0] + ko.done[1];
        for (unsigned t = 0; t < nt; t++) {
            free(ko.x[t]);
            free(ko.y[t]);
            gs_ut_bufs_release(&ko.kb[t]);
        }
    } else if (strcmp(what, "exhaustive") == 0 || strcmp(what, "f64") == 0) {
        t0 = bench_now(); /* the suite alone, without the context's set-up (the thresholds) */
        f->cpu_s = cpu_now();
        for (unsigned t = 0; t < nt; t++) { /* and count its reference values only */
            const struct geluref_stats *s = gs_ref_stats(c.ref[t]);
            f->fast -= s->fast;
            f->fast_miss -= s->fast_miss;
            f->ref_calls -= s->calls;
        }
        struct gs_suite_result r;
        memset(&r, 0, sizeof r);
        r.suite = GS_SUITE_ULP;
        gs_findings_init(&r.findings);
        gs_suite_ulp(&c, &r);
        f->points = r.points;
        gs_findings_release(&r.findings);
        json_decref(r.metrics);
        json_decref(r.inputs);
    } else {
        int internal = 0;
        double ts;
        json_t *j = gs_run_kernel(&cfg, &tg, &internal, &ts);
        json_decref(j);
    }
    f->wall_s = bench_now() - t0;
    f->cpu_s = cpu_now() - f->cpu_s; /* over the same span as wall_s */
    for (unsigned t = 0; t < nt; t++) {
        const struct geluref_stats *s = gs_ref_stats(c.ref[t]);
        f->fast += s->fast;
        f->fast_miss += s->fast_miss;
        f->ref_calls += s->calls;
        f->run_inputs += gs_ref_run_inputs(c.ref[t]);
        f->fused += gs_ref_fused(c.ref[t]);
    }
    gs_ctx_release(&c);
    for (unsigned t = 0; t < nt; t++)
        gc_adapter_close(a[t]);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    f->rss_mib = (double)ru.ru_maxrss / 1024.0;
    getrusage(RUSAGE_CHILDREN, &ru); /* this child's children: the workers, now reaped */
    f->worker_cpu_s = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec
                      + (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
    f->worker_rss_mib = (double)ru.ru_maxrss / 1024.0;

    f->ok = 1;
}

/* Runs one configuration in a child process and returns its figures. */
static struct figure measure(const struct opts *o, const char *what, const char *kernel,
                             unsigned nt)
{
    struct figure f;
    memset(&f, 0, sizeof f);
    int fd[2];
    if (pipe(fd) != 0)
        return f;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        run_child(o, what, kernel, nt, &f);
        ssize_t w = write(fd[1], &f, sizeof f);
        _exit(w == (ssize_t)sizeof f ? 0 : 1);
    }
    close(fd[1]);
    if (pid < 0 || read(fd[0], &f, sizeof f) != (ssize_t)sizeof f)
        f.ok = 0;
    close(fd[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
    return f;
}

static void print(const char *label, const struct figure *f)
{
    if (!f->ok) {
        printf("%-34s failed (see stderr)\n", label);
        return;
    }
    printf("%-34s %9.2f s %12" PRIu64 " inputs %8.1f Mi/s %8.1f MiB  cpu %8.2f s %6.1f ns/input",
           label, f->wall_s, f->points, (double)f->points / f->wall_s / 1e6, f->rss_mib,
           f->cpu_s, f->points ? 1e9 * f->cpu_s / (double)f->points : 0.0);
    if (f->ref_calls)
        printf("  fallback %.2e", (double)f->fast_miss / (double)(f->fast + f->fast_miss + 1e-300));
    if (f->run_inputs)
        printf("  in runs %.1f%%", 100.0 * (double)f->run_inputs / (double)f->points);
    if (f->fused)
        printf("  fused %.1f%%", 100.0 * (double)f->fused / (double)f->points);
    if (f->worker_cpu_s > 0 || f->worker_rss_mib > 0)
        printf("  worker cpu %.2f s, %.1f MiB", f->worker_cpu_s, f->worker_rss_mib);
    printf("\n");
}

/* ---- the table of the sweep-cost issue: every function, every region ----
 * For each function, the libm adapter's kernel of glibc's float formula for it, and each
 * region: the kernel alone over the region's binary32 inputs (the same chunks, threads and
 * worker as the sweep), then the ulp suite's exhaustive sweep over them, each in a child
 * process, one after the other in this run.  ns per input per core = wall seconds x threads
 * / inputs (the CPU seconds of this process and its workers per input beside it, which the
 * machine's other jobs change less); the measurement's cost is the sweep's minus the
 * kernel's; the goals: a ratio of at most 3 everywhere, a cost of at most 50 ns per input
 * per core over [-16, -1], and at most 40 s (wall) for the whole range on two threads (the
 * last column: the sweep's wall seconds; judged only with --threads 2).  With --repeat N the
 * pair is measured N times, alternating, and each side's shortest wall time kept (the
 * machine's other jobs only ever add time). */
static const struct {
    const char *func, *kernel;
} table_kernels[] = {
    { "gelu", "erfc.f32" },           { "gelu_tanh", "tanh.f32" },
    { "gelu_sigmoid", "sigmoid.f32" }, { "gelu_grad", "grad_erfc.f32" },
    { "gelu_tanh_grad", "tanh_grad.f32" }, { "normcdf", "normcdf.f32" },
    { "normpdf", "normpdf.f32" },     { "erf", "erf_c99.f32" },
    { "erfc", "erfc_c99.f32" },
};
static const struct {
    const char *name;
    int has_range;
    double lo, hi; /* --range: closed; the zeros are never swept */
} table_regions[] = {
    { "[-16,-1]", 1, -16.0, -1.0 },
    { "[-1,0)", 1, -1.0, 0.0 },
    { "[0,8)", 1, 0.0, 0x1.fffffep+2 },
    { "all", 0, 0, 0 },
};

static double per_input_ns(const struct figure *f, unsigned nt)
{
    return f->points ? 1e9 * f->wall_s * nt / (double)f->points : 0.0;
}

static double cpu_per_input_ns(const struct figure *f)
{
    return f->points ? 1e9 * (f->cpu_s + f->worker_cpu_s) / (double)f->points : 0.0;
}

static void table(const struct opts *o0)
{
    printf("== the exhaustive binary32 ulp sweep against the kernel alone, %u thread%s%s\n"
           "   ns/in/core: wall seconds x threads / inputs; cpu: this process's and its "
           "workers' CPU seconds / inputs\n"
           "   cost = sweep - kernel; goal: ratio <= 3, cost <= 50 ns over [-16,-1], and the "
           "whole range within 40 s (wall) on 2 threads\n",
           o0->threads, o0->threads == 1 ? "" : "s",
           o0->repeat > 1 ? ", each side the best of --repeat runs" : "");
    printf("%-15s %-15s %-9s %11s %9s %9s %9s %7s %10s %9s %7s %5s %8s\n", "function",
           "kernel", "region", "inputs", "kernel", "sweep", "cost", "ratio", "cpu kernel",
           "cpu sweep", "fused", "goal", "sweep s");
    int all_met = 1;
    for (size_t i = 0; i < sizeof table_kernels / sizeof table_kernels[0]; i++) {
        if (o0->func && strcmp(o0->func, table_kernels[i].func) != 0)
            continue;
        for (size_t r = 0; r < sizeof table_regions / sizeof table_regions[0]; r++) {
            if (o0->region && strcmp(o0->region, table_regions[r].name) != 0)
                continue;
            struct opts o = *o0;
            o.has_range = table_regions[r].has_range;
            o.lo = table_regions[r].lo;
            o.hi = table_regions[r].hi;
            const char *kernel = o0->kernel_set && o0->func ? o0->kernel : table_kernels[i].kernel;
            struct figure k = measure(&o, "kernel", kernel, o.threads);
            struct figure s = measure(&o, "exhaustive", kernel, o.threads);
            for (unsigned n = 1; n < o0->repeat && k.ok && s.ok; n++) {
                struct figure k2 = measure(&o, "kernel", kernel, o.threads);
                struct figure s2 = measure(&o, "exhaustive", kernel, o.threads);
                if (!k2.ok || !s2.ok) {
                    k.ok = k2.ok;
                    s.ok = s2.ok;
                } else {
                    k = k2.wall_s < k.wall_s ? k2 : k;
                    s = s2.wall_s < s.wall_s ? s2 : s;
                }
            }
            if (!k.ok || !s.ok) {
                printf("%-15s %-15s %-9s failed (see stderr)\n", table_kernels[i].func, kernel,
                       table_regions[r].name);
                all_met = 0;
                continue;
            }
            double kn = per_input_ns(&k, o.threads), sn = per_input_ns(&s, o.threads);
            double ratio = kn > 0 ? sn / kn : 0, cost = sn - kn;
            int whole = !table_regions[r].has_range;
            int met = ratio <= 3 && (r != 0 || cost <= 50) &&
                      (!whole || o.threads != 2 || s.wall_s <= 40);
            all_met &= met;
            printf("%-15s %-15s %-9s %11" PRIu64 " %9.2f %9.2f %9.2f %7.2f %10.2f %9.2f %6.1f%% "
                   "%5s %8.1f\n", table_kernels[i].func, kernel, table_regions[r].name, s.points,
                   kn, sn, cost, ratio, cpu_per_input_ns(&k), cpu_per_input_ns(&s),
                   s.points ? 100.0 * (double)s.fused / (double)s.points : 0.0,
                   met ? "met" : "NOT", s.wall_s);
            fflush(stdout);
        }
    }
    printf("every goal of the table met: %s\n", all_met ? "yes" : "no");
}

static int want(const struct opts *o, const char *what)
{
    return o->only == NULL || strcmp(o->only, what) == 0;
}

int main(int argc, char **argv)
{
    struct opts o = { "libm", "erfc.f32", "erfc.f16", "erfc.bf16", "erfc.f64", NULL, 2, 0, 0, 0,
                      NULL, NULL, 0, 1 };
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: bench_sweep [--adapter SPEC] [--kernel NAME] [--kernel16 NAME]\n"
                   "                   [--kernelbf16 NAME] [--kernel64 NAME] [--threads 1|2]\n"
                   "                   [--only table|exhaustive|default32|small|f64] [--range LO:HI]\n"
                   "                   [--func F] [--region '[-16,-1]'|'[-1,0)'|'[0,8)'|all]\n"
                   "                   [--repeat N]\n"
                   "The figures of the performance goals, each configuration in a child\n"
                   "process: the exhaustive binary32 ulp sweep and the kernel alone (1 and 2\n"
                   "threads, their ratio), six suites at 2^24 inputs, every f16/bf16 input,\n"
                   "the f64 sample set.  'fallback' is the share of reference values left to\n"
                   "MPFR, 'in runs' the share of inputs counted in a rule's run (no reference\n"
                   "value).  Defaults: libm's erfc.f32, erfc.f16, erfc.bf16, erfc.f64; 2\n"
                   "threads; every configuration.\n"
                   "table: for every function (--func: one; --kernel: its kernel instead of\n"
                   "the libm float formula) and region (--region: one), the kernel alone and\n"
                   "the exhaustive ulp sweep over the region, ns per input per core, the\n"
                   "measurement's cost (their difference), the ratio and the goals (ratio <= 3;\n"
                   "cost <= 50 ns over [-16,-1]; the whole range within 40 s on 2 threads),\n"
                   "the sweep's wall seconds; 'fused' is the share of inputs the sweep\n"
                   "decided from the reference's double tier; --repeat N (1 to 9, default 1)\n"
                   "measures each cell's pair N times, alternating, and keeps each side's\n"
                   "shortest wall time.  Not in the default set: once over, it takes about ten\n"
                   "minutes on two cores.\n");
            return 0;
        }
    if (argc % 2 == 0) {
        fprintf(stderr, "bench_sweep: option '%s' needs a value (bench_sweep --help)\n",
                argv[argc - 1]);
        return 2;
    }
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--adapter") == 0)
            o.adapter = argv[i + 1];
        else if (strcmp(argv[i], "--kernel") == 0)
            o.kernel = argv[i + 1], o.kernel_set = 1;
        else if (strcmp(argv[i], "--kernel16") == 0)
            o.k16 = argv[i + 1];
        else if (strcmp(argv[i], "--kernelbf16") == 0)
            o.kbf16 = argv[i + 1];
        else if (strcmp(argv[i], "--kernel64") == 0)
            o.k64 = argv[i + 1];
        else if (strcmp(argv[i], "--threads") == 0)
            o.threads = (unsigned)strtoul(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--only") == 0)
            o.only = argv[i + 1];
        else if (strcmp(argv[i], "--func") == 0)
            o.func = argv[i + 1];
        else if (strcmp(argv[i], "--region") == 0)
            o.region = argv[i + 1];
        else if (strcmp(argv[i], "--repeat") == 0) {
            char *end;
            unsigned long r = strtoul(argv[i + 1], &end, 10);
            if (*end != '\0' || r < 1 || r > 9) {
                fprintf(stderr, "bench_sweep: --repeat must be 1 to 9, not '%s'\n", argv[i + 1]);
                return 2;
            }
            o.repeat = (unsigned)r;
        }
        else if (strcmp(argv[i], "--range") == 0
                 && sscanf(argv[i + 1], "%lf:%lf", &o.lo, &o.hi) == 2)
            o.has_range = 1;
        else {
            fprintf(stderr, "bench_sweep: bad option '%s' (bench_sweep --help)\n", argv[i]);
            return 2;
        }
    }
    if (o.threads < 1 || o.threads > 2) {
        fprintf(stderr, "bench_sweep: --threads must be 1 or 2\n");
        return 2;
    }
    if (o.repeat > 1 && !(o.only && strcmp(o.only, "table") == 0)) {
        fprintf(stderr, "bench_sweep: --repeat applies to --only table only\n");
        return 2;
    }
    printf("bench_sweep: adapter %s, geluref %s, %ld CPUs online\n", o.adapter,
           geluref_version(), sysconf(_SC_NPROCESSORS_ONLN));
    if (o.only && strcmp(o.only, "table") == 0) {
        int fok = o.func == NULL, rok = o.region == NULL;
        for (size_t i = 0; i < sizeof table_kernels / sizeof table_kernels[0]; i++)
            fok |= o.func && strcmp(o.func, table_kernels[i].func) == 0;
        for (size_t r = 0; r < sizeof table_regions / sizeof table_regions[0]; r++)
            rok |= o.region && strcmp(o.region, table_regions[r].name) == 0;
        if (!fok || !rok) {
            fprintf(stderr, "bench_sweep: unknown %s '%s' (bench_sweep --help)\n",
                    fok ? "--region" : "--func", fok ? o.region : o.func);
            return 2;
        }
        double la[3] = { 0, 0, 0 };
        FILE *fp = fopen("/proc/loadavg", "r");
        if (fp) {
            if (fscanf(fp, "%lf %lf %lf", &la[0], &la[1], &la[2]) != 3)
                la[0] = la[1] = la[2] = -1;
            fclose(fp);
        }
        printf("load average at the start: %.2f %.2f %.2f\n", la[0], la[1], la[2]);
        table(&o);
        fp = fopen("/proc/loadavg", "r");
        if (fp) {
            if (fscanf(fp, "%lf %lf %lf", &la[0], &la[1], &la[2]) != 3)
                la[0] = la[1] = la[2] = -1;
            fclose(fp);
        }
        printf("load average at the end: %.2f %.2f %.2f\n", la[0], la[1], la[2]);
        return 0;
    }
    if (want(&o, "exhaustive")) {
        struct figure s1 = measure(&o, "exhaustive", o.kernel, 1);
        struct figure s2 = measure(&o, "exhaustive", o.kernel, o.threads);
        struct figure k1 = measure(&o, "kernel", o.kernel, 1);
        struct figure k2 = measure(&o, "kernel", o.kernel, o.threads);
        printf("== every binary32 input of %s (ulp suite)%s\n", o.kernel,
               o.has_range ? ", restricted by --range" : "");
        print("ulp suite, 1 thread", &s1);
        print("ulp suite, 2 threads", &s2);
        print("kernel alone, 1 thread", &k1);
        print("kernel alone, 2 threads", &k2);
        if (s1.ok && s2.ok && k1.ok && k2.ok)
            printf("overhead ratio (suite / kernel alone, 2 threads): %.2f   speed-up 2 vs 1 "
                   "thread: suite %.2f, kernel alone %.2f\n", s2.wall_s / k2.wall_s,
                   s1.wall_s / s2.wall_s, k1.wall_s / k2.wall_s);
    }
    if (want(&o, "default32")) {
        struct figure d = measure(&o, "default32", o.kernel, o.threads);
        printf("== all six suites on %s, ulp sweep 2^24 inputs, %u threads\n", o.kernel, o.threads);
        print("six suites", &d);
    }
    if (want(&o, "small")) {
        printf("== all six suites, every input, %u threads\n", o.threads);
        struct figure a = measure(&o, "small", o.k16, o.threads);
        print(o.k16, &a);
        struct figure b = measure(&o, "small", o.kbf16, o.threads);
        print(o.kbf16, &b);
    }
    if (want(&o, "f64")) {
        struct figure f = measure(&o, "f64", o.k64, o.threads);
        printf("== ulp suite, default f64 sample set of %s, %u threads\n", o.k64, o.threads);
        print("ulp suite", &f);
        if (f.ok)
            printf("reference values per second over the threads (kernel included): %.2f M\n",
                   (double)f.ref_calls / f.wall_s / 1e6);
    }
    return 0;
}
