/* gelucheck run: the suites on the kernels of one or more adapters (docs/design.md sections 7, 8,
 * 11).  This file parses and checks the options (every mistake is one line on stderr and exit
 * 2, before anything runs); run_exec.c does the run. */
#define _POSIX_C_SOURCE 200809L /* access */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "memlimit.h"
#include "run_args.h"

/* --threads at most this: more threads than this are more adapter instances than any
 * machine we know has cores for, and each holds MPFR workspaces */
#define RUN_MAX_THREADS 1024
/* --samples at most 2^40 (1099511627776): beyond it an f32/f64 sample run would take days;
 * use --exhaustive for every input */
#define RUN_MAX_SAMPLES (1ull << 40)
/* --seed at most 2^63 - 1: the result stores it as a JSON integer (signed 64-bit) */
#define RUN_MAX_SEED 0x7fffffffffffffffull
/* --shard K/N: N at most a million, far beyond any job array (Slurm's MaxArraySize is 1001
 * by default, 4000001 at most); the exhaustive f32 sweep has 65536 work items to share */
#define RUN_MAX_SHARDS 1000000ull

static const struct option long_opts[] = {
    { "adapter", required_argument, NULL, 'a' },
    { "adapter-options", required_argument, NULL, 'o' },
    { "adapter-name", required_argument, NULL, 'N' },
    { "baseline-tolerance", required_argument, NULL, 'b' },
    { "baseline-allow-missing", no_argument, NULL, 'W' },
    { "kernel", required_argument, NULL, 'k' },
    { "dtype", required_argument, NULL, 'd' },
    { "suite", required_argument, NULL, 's' },
    { "policy", required_argument, NULL, 'p' },
    { "exhaustive", no_argument, NULL, 'E' },
    { "samples", required_argument, NULL, 'n' },
    { "seed", required_argument, NULL, 'S' },
    { "range", required_argument, NULL, 'r' },
    { "threads", required_argument, NULL, 'j' },
    { "json", required_argument, NULL, 'J' },
    { "report", required_argument, NULL, 'R' },
    { "junit", required_argument, NULL, 'U' },
    { "baseline", required_argument, NULL, 'B' },
    { "site-map", required_argument, NULL, 'G' },
    { "timeout", required_argument, NULL, 't' },
    { "startup-timeout", required_argument, NULL, 'T' },
    { "progress", required_argument, NULL, 'P' },
    { "shard", required_argument, NULL, 'K' },
    { "reference", required_argument, NULL, 'f' },
    { "help", no_argument, NULL, 'h' },
    { "func", required_argument, NULL, 'F' },
    { "runtime", required_argument, NULL, 'x' },
    { "torch-module", required_argument, NULL, 'y' },
    { "resume", required_argument, NULL, 'Z' },
    { "isolation", required_argument, NULL, 'I' },
    { "memory-limit", required_argument, NULL, 'M' },
    { NULL, 0, NULL, 0 },
};
static const char short_opts[] = "+:h";
/* the issue each refused option belongs to, by its getopt value 1..7 (1 was --func, 2 and 3
 * --shard and --reference, 4..6 the reports issue's --report, --junit and --baseline, 7 the
 * reliability issue's --resume, all now implemented) */
static const char *const later_issue[] = { NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL };

#define SUITE_LIST "ulp, special, identity, tail, vector, fingerprint"

static void usage(void)
{
    printf("usage: gelucheck run --adapter SPEC [--adapter SPEC]... [OPTIONS]\n"
           "\n"
           "Runs the conformance suites on every kernel of the adapters (or those chosen with\n"
           "--kernel and --dtype), judges them by a policy, prints a summary and optionally\n"
           "writes the JSON result (schema gelucheck-result/1).\n"
           "\n"
           "      --adapter SPEC        a built-in name (libm, mutants, sleef, onednn,\n"
           "                            onnxruntime, onnxruntime-web, torch, musl, ggml,\n"
           "                            tfjs, gsl, boost, scipy: 'gelucheck list' shows which\n"
           "                            this build has), plugin:PATH or a PATH ending in .so,\n"
           "                            exec:COMMAND, onnx:MODEL.onnx (a model with one float\n"
           "                            input and one output of its shape, run by ONNX\n"
           "                            Runtime), or scan:MODEL.onnx (a kernel per GELU site of\n"
           "                            the model and optimization level) (repeatable;\n"
           "                            required)\n"
           "      --func F              what the onnx: models compute: gelu, gelu_tanh,\n"
           "                            gelu_sigmoid, gelu_grad, gelu_tanh_grad, normcdf,\n"
           "                            normpdf, erf, erfc (default: gelu)\n"
           "      --runtime RT          where the onnx: and scan: models run: onnxruntime (the\n"
           "                            native build) or onnxruntime-web (its WebAssembly\n"
           "                            build; a scan: model's optimizer choices are still the\n"
           "                            native build's; their adapter names end in .web)\n"
           "                            (default: onnxruntime)\n"
           "      --torch-module FILE.pt  the TorchScript module the scan: models were\n"
           "                            exported from: report.md pairs each site with its\n"
           "                            activation (as 'gelucheck scan --torch-module'),\n"
           "                            adds the adapter torch-module:FILE.pt (what PyTorch\n"
           "                            computes at each activation) and diffs each pair's\n"
           "                            outputs on the same inputs\n"
           "      --adapter-name NAME   the name of the --adapter just before it: the ADAPTER\n"
           "                            of its kernels' identities ADAPTER/KERNEL (default:\n"
           "                            its own: a plug-in's table name, an exec adapter's\n"
           "                            'name' line or program name, a built-in's name)\n"
           "      --adapter-options STR passed to each plug-in's open() (default: none)\n"
           "      --kernel NAME         run only this kernel (repeatable; default: all); a name\n"
           "                            no adapter has is a usage error (exit 2)\n"
           "      --dtype DT            only kernels of this dtype: f64, f32, f16, bf16\n"
           "      --suite LIST          comma-separated: " SUITE_LIST ",\n"
           "                            or all (default: all)\n"
           "      --policy NAME|FILE    strict, faithful, default, lenient, or an INI file\n"
           "                            overriding one (default: default)\n"
           "      --exhaustive          f32: every input in the ulp suite (2^32) and the tail\n"
           "                            scan (default: f16/bf16 exhaustive, f32/f64 sampled;\n"
           "                            no effect on f64)\n"
           "      --samples N           random ulp-suite inputs for f32/f64, 1..2^40; also\n"
           "                            sizes the identity suite's (at most 2^20)\n"
           "                            (default: the suite's own)\n"
           "      --seed N              random seed, 0..2^63-1 (default: 1)\n"
           "      --range LO:HI         restrict the sweeps (ulp, tail) to [LO, HI], finite,\n"
           "                            LO <= HI (default: the whole line)\n"
           "      --threads N           worker threads, 1..1024; each opens every adapter once\n"
           "                            (default: the CPUs this process may run on,\n"
           "                            as nproc counts them)\n"
           "      --json FILE           write the result there (atomically; its folder and\n"
           "                            parents are created) (default: none)\n"
           "      --report DIR          write the report folder after the run: DIR/report.md,\n"
           "                            DIR/report.html (the plots inside: open it in a\n"
           "                            browser, send it alone), DIR/result.json,\n"
           "                            DIR/junit.xml, DIR/plots/*.svg (DIR is created)\n"
           "                            (default: none)\n"
           "      --junit FILE          write the JUnit XML there too: one testcase per\n"
           "                            kernel and suite; its folder is created (default:\n"
           "                            none)\n"
           "      --baseline FILE       an earlier result (--json) or a compact baseline\n"
           "                            ('gelucheck baseline'): kernels are matched by their\n"
           "                            identity ADAPTER/KERNEL; a kernel that got worse\n"
           "                            fails, one of the baseline this run selected but did\n"
           "                            not produce fails the run; when the inputs differ\n"
           "                            (seed, samples, range, ...) only what does not depend\n"
           "                            on them is compared (docs/ci.md) (default: none)\n"
           "      --site-map MAP        with --baseline: a kernel whose identity is not in\n"
           "                            the baseline is compared with the baseline's kernel\n"
           "                            that MAP puts at its model site (the PyTorch\n"
           "                            activation's, another runtime's or dtype's; the\n"
           "                            worst when there are several); what matches nothing\n"
           "                            is warned about.  MAP: a gelucheck-sitemap/1 file or\n"
           "                            a result of 'run --torch-module'\n"
           "                            (docs/model-audit.md)\n"
           "      --baseline-tolerance ULPS[,FRACTION]\n"
           "                            max ulp may grow by ULPS and the fraction correctly\n"
           "                            rounded fall by FRACTION before either is a\n"
           "                            regression (default: 0,0)\n"
           "      --baseline-allow-missing  a baseline kernel the run did not produce is\n"
           "                            reported, not failed\n"
           "      --timeout S           seconds per batch, for exec adapters and for kernels\n"
           "                            in the worker process (--isolation process); a batch\n"
           "                            past it is a timeout finding (default: 60)\n"
           "      --startup-timeout S   exec adapters: seconds to 'ready' (default: 60)\n"
           CLI_ISOLATION_HELP
           CLI_MEMORY_LIMIT_HELP
           "      --progress WHEN       auto (stderr is a terminal and the run takes over 1 s),\n"
           "                            always, never (default: auto)\n"
           "      --shard K/N           measure shard K (0-based) of N (1 <= N <= 1000000):\n"
           "                            the ulp suite's inputs are split between the shards,\n"
           "                            the other suites run in shard 0 only; 'gelucheck\n"
           "                            merge' joins the N results into this run's result\n"
           "                            (docs/scale-out.md) (default: the whole run)\n"
           "      --reference WHICH     fast: the fast path, MPFR where its error bound cannot\n"
           "                            decide; mpfr: the proven MPFR path only, to validate\n"
           "                            the fast one (the same results, slower) (default: fast)\n"
           "      --resume FILE         continue the interrupted run whose result is FILE\n"
           "                            (\"complete\": false): give the same options (--threads,\n"
           "                            --progress and the outputs may differ); what FILE\n"
           "                            measured is kept, the rest is run, and the result is\n"
           "                            the uninterrupted run's (refused, exit 2: a complete\n"
           "                            result, another command, not a result) (default: none)\n"
           "  -h, --help                this text\n"
           "\n"
           "The result does not depend on --threads or --progress: they are left out of its\n"
           "\"command\" and kept under \"timing\"; --shard is left out too and kept under\n"
           "\"shard\", and so is --resume.  --baseline cannot be combined with --shard: give it\n"
           "to 'gelucheck merge'.\n"
           "\n"
           "A kernel whose process dies (an exec adapter's, or the worker of an in-process\n"
           "kernel) or that outlasts --timeout gets a crash or timeout finding naming the\n"
           "signal and the smallest batch of inputs that reproduces it (the batch is\n"
           "bisected, the process restarted after each failure: docs/suites.md); its other\n"
           "suites are skipped, it fails, and the run goes on with the next kernel.\n"
           "\n"
           "SIGINT (Ctrl-C) or SIGTERM stops the run after the work items in progress: the\n"
           "outputs are written with what was measured, marked \"complete\": false with the\n"
           "covered inputs, and the exit status is 130 (SIGINT) or 143 (SIGTERM).  It says\n"
           "so at once on stderr; a second signal ends it at once.  Continue it with --resume.\n"
           "\n"
           "Example:\n"
           "  gelucheck run --adapter libm --kernel erf1p.f32 --json erf1p.json\n"
           "  gelucheck run --adapter libm --kernel erf1p.f32 --report out --baseline erf1p.json\n"
           "\n"
           "Exit status (the most severe wins): 0 every kernel passes; 1 a kernel fails;\n"
           "2 usage error, nothing run (bad option or value, unknown --kernel, bad policy\n"
           "file, unreadable --baseline result); 3 an adapter or kernel could not be loaded\n"
           "or served (the others still run); 4 internal error (the reference reached its\n"
           "precision cap, or a result or report file could not be written); 130, 143\n"
           "interrupted by SIGINT, SIGTERM.  With --baseline, a kernel that got worse than in\n"
           "the baseline fails (exit 1); an interrupted run is not compared.\n");
}

/* Whole-string unsigned decimal in [lo, hi]. */
static int parse_u64(const char *s, unsigned long long lo, unsigned long long hi,
                     unsigned long long *v)
{
    char *end;
    if (s[0] < '0' || s[0] > '9')
        return -1;
    errno = 0;
    *v = strtoull(s, &end, 10);
    return errno || *end || *v < lo || *v > hi ? -1 : 0;
}

/* Whole-string finite double. */
static int parse_real(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return end == s || *end || !isfinite(*v) ? -1 : 0;
}

/* One end of --range (which: "LO" or "HI"), the bytes [s, stop) of arg: a number strtod reads
 * whole, without blanks, that neither overflows binary64 nor underflows to zero in it (a
 * subnormal end is kept: it is a value of the format).  0, or -1 after a message. */
static int parse_range_end(const char *arg, const char *which, const char *s,
                           const char *stop, double *v)
{
    int len = (int)(stop - s);
    const char *why = NULL;
    char *end;
    errno = 0;
    *v = s == stop || isspace((unsigned char)s[0]) ? 0 : strtod(s, &end);
    if (s == stop)
        why = "is empty";
    else if (isspace((unsigned char)s[0]) || end != stop)
        why = "is not a number";
    else if (isnan(*v))
        why = "is NaN";
    else if (isinf(*v) && errno != ERANGE)
        why = "is not finite";
    else if (isinf(*v))
        why = "overflows binary64 (beyond +-1.7976931348623157e308)";
    else if (*v == 0 && errno == ERANGE)
        why = "underflows to 0 in binary64 (below the least subnormal, 2^-1074)";
    if (!why)
        return 0;
    cli_error("bad --range '%s': %s '%.*s' %s", arg, which, len > 64 ? 64 : len, s, why);
    return -1;
}

/* --baseline-tolerance ULPS[,FRACTION]: max_ulp may grow by ULPS, the fraction correctly
 * rounded fall by FRACTION (in [0, 1]) before either counts as a regression.  0, or -1 after a
 * message. */
static int parse_tolerance(const char *arg, struct rp_baseline_opts *o)
{
    char ulps[64];
    const char *comma = strchr(arg, ',');
    size_t n = comma ? (size_t)(comma - arg) : strlen(arg);
    double f = 0;

    snprintf(ulps, sizeof ulps, "%.*s", (int)(n < sizeof ulps ? n : sizeof ulps - 1), arg);
    if (n >= sizeof ulps || parse_real(ulps, &o->tol_ulp) || !(o->tol_ulp >= 0) ||
        isinf(o->tol_ulp)) {
        cli_error("bad --baseline-tolerance '%s': ULPS '%s' is not a finite number >= 0", arg,
                  ulps);
        return -1;
    }
    if (comma && (parse_real(comma + 1, &f) || !(f >= 0 && f <= 1))) {
        cli_error("bad --baseline-tolerance '%s': FRACTION '%s' is not a number in [0, 1]", arg,
                  comma + 1);
        return -1;
    }
    o->tol_fraction = f;
    return 0;
}

/* --range LO:HI: two ends (parse_range_end) with LO <= HI.  0, or -1 after a message. */
static int parse_range(const char *s, struct gs_config *c)
{
    const char *colon = strchr(s, ':');
    if (!colon || strchr(colon + 1, ':')) {
        cli_error("bad --range '%s': want LO:HI, finite numbers with LO <= HI", s);
        return -1;
    }
    if (parse_range_end(s, "LO", s, colon, &c->range_lo) ||
        parse_range_end(s, "HI", colon + 1, colon + strlen(colon), &c->range_hi))
        return -1;
    if (c->range_lo > c->range_hi) { /* LO == HI is one point: a crash finding's command */
        cli_error("bad --range '%s': LO must not be above HI (LO = %.17g, HI = %.17g)", s,
                  c->range_lo, c->range_hi);
        return -1;
    }
    c->has_range = 1;
    return 0;
}

/* --shard K/N: decimal digits only (no sign, no blanks), 0 <= K < N <= RUN_MAX_SHARDS.
 * Returns 0, or -1 after a message. */
static int parse_shard(const char *s, struct gs_config *c)
{
    static const char digits[] = "0123456789";
    size_t lk = strspn(s, digits), ln = s[lk] == '/' ? strspn(s + lk + 1, digits) : 0;
    unsigned long long k, n;
    char *end;
    if (lk == 0 || ln == 0 || s[lk + 1 + ln] != '\0') {
        cli_error("bad --shard '%s': want K/N, shard K (counted from 0) of N, e.g. 0/4", s);
        return -1;
    }
    if (parse_u64(s + lk + 1, 1, RUN_MAX_SHARDS, &n)) {
        cli_error("bad --shard '%s': N must be in 1..%llu", s, RUN_MAX_SHARDS);
        return -1;
    }
    errno = 0;
    k = strtoull(s, &end, 10);
    if (errno || k >= n) {
        cli_error("bad --shard '%s': K must be below N (the shards of %llu are 0/%llu .. "
                  "%llu/%llu)", s, n, n, n - 1, n);
        return -1;
    }
    c->shard_k = (unsigned)k;
    c->shard_n = (unsigned)n;
    return 0;
}

static int parse_policy(const char *s, struct gs_config *c)
{
    char msg[512];
    struct gs_policy *p = gs_policy_builtin(s);
    if (!p && access(s, F_OK) != 0 && !strchr(s, '/') && !strchr(s, '.')) {
        cli_error("unknown policy '%s' (built-in: strict, faithful, default, lenient; or an "
                  "INI file)", s);
        return -1;
    }
    if (!p && !(p = gs_policy_load(s, msg, sizeof msg))) {
        cli_error("%s", msg);
        return -1;
    }
    gs_policy_free((struct gs_policy *)c->policy); /* a second --policy replaces the first */
    c->policy = p;
    return 0;
}

/* One option; returns 0, or -1 after a message. */
static int option(struct run_args *r, int c, const char *arg, const char *word)
{
    unsigned long long u;
    char bad[64];

    switch (c) {
    case 'a':
        if (!*arg) {
            cli_error("--adapter needs a spec: a built-in name, plugin:PATH, PATH.so or "
                      "exec:COMMAND");
            return -1;
        }
        r->specs[r->n_specs++] = arg;
        return 0;
    case 'N':
        if (r->n_specs == 0) {
            cli_error("--adapter-name '%s' names the --adapter before it: give that first", arg);
            return -1;
        }
        if (r->names[r->n_specs - 1]) {
            cli_error("a second --adapter-name ('%s') for adapter '%s', named '%s' already", arg,
                      r->specs[r->n_specs - 1], r->names[r->n_specs - 1]);
            return -1;
        }
        if (!gc_valid_kernel_name(arg)) {
            cli_error("bad --adapter-name '%s': a name is 1 to 128 of [A-Za-z0-9_.-]", arg);
            return -1;
        }
        r->names[r->n_specs - 1] = arg;
        return 0;
    case 'b': return parse_tolerance(arg, &r->bopt);
    case 'W': r->bopt.allow_missing = 1; return 0;
    case 'o': r->options = arg; return 0;
    case 'F': {
        enum geluref_func f;
        if (geluref_func_from_name(arg, &f) == 0 && f != GELUREF_GELU_SCALED) {
            r->func = arg;
            return 0;
        }
        cli_error("unknown --func '%s' (expected one of: gelu, gelu_tanh, gelu_sigmoid, "
                  "gelu_grad, gelu_tanh_grad, normcdf, normpdf, erf, erfc)", arg);
        return -1;
    }
    case 'x':
        if (gc_runtime_web(arg) >= 0) {
            r->runtime = arg;
            return 0;
        }
        cli_error("unknown --runtime '%s' (expected onnxruntime or onnxruntime-web)", arg);
        return -1;
    case 'y': r->torch_module = arg; return 0;
    case 'k': r->kernels[r->n_kernels++] = arg; return 0;
    case 'd':
        if (geluref_dtype_from_name(arg, &r->dtype) == 0) {
            r->has_dtype = 1;
            return 0;
        }
        cli_error("unknown dtype '%s' (expected one of: f64, f32, f16, bf16)", arg);
        return -1;
    case 's':
        if (gs_suite_mask_parse(arg, &r->cfg.suites, bad, sizeof bad) == 0)
            return 0;
        if (bad[0])
            cli_error("unknown suite '%s' in --suite (suites: " SUITE_LIST ")", bad);
        else
            cli_error("empty suite name in --suite '%s' (suites: " SUITE_LIST ")", arg);
        return -1;
    case 'p': return parse_policy(arg, &r->cfg);
    case 'E': r->cfg.exhaustive = 1; return 0;
    case 'n':
        if (parse_u64(arg, 1, RUN_MAX_SAMPLES, &u) == 0) {
            r->cfg.samples = u;
            return 0;
        }
        cli_error("bad --samples '%s': not an integer in 1..1099511627776", arg);
        return -1;
    case 'S':
        if (parse_u64(arg, 0, RUN_MAX_SEED, &u) == 0) {
            r->cfg.seed = u;
            return 0;
        }
        cli_error("bad --seed '%s': not an integer in 0..9223372036854775807", arg);
        return -1;
    case 'r': return parse_range(arg, &r->cfg);
    case 'j':
        if (parse_u64(arg, 1, RUN_MAX_THREADS, &u) == 0) {
            r->cfg.threads = (unsigned)u;
            return 0;
        }
        cli_error("bad --threads '%s': not an integer in 1..%d", arg, RUN_MAX_THREADS);
        return -1;
    case 'J': r->json = arg; return 0;
    case 'R': r->report = arg; return 0;
    case 'U': r->junit = arg; return 0;
    case 'B': r->baseline = arg; return 0;
    case 'G': r->site_map = arg; return 0;
    case 'Z': r->resume = arg; return 0;
    case 't':
    case 'T':
        if (parse_real(arg, c == 't' ? &r->timeout_s : &r->startup_timeout_s) == 0 &&
            (c == 't' ? r->timeout_s : r->startup_timeout_s) > 0)
            return 0;
        cli_error("bad %s '%s': not a number of seconds > 0",
                  c == 't' ? "--timeout" : "--startup-timeout", arg);
        return -1;
    case 'P':
        r->progress = strcmp(arg, "auto") == 0     ? RUN_PROGRESS_AUTO
                      : strcmp(arg, "always") == 0 ? RUN_PROGRESS_ALWAYS
                      : strcmp(arg, "never") == 0  ? RUN_PROGRESS_NEVER
                                                   : (enum run_progress_mode)-1;
        if ((int)r->progress >= 0)
            return 0;
        cli_error("bad --progress '%s' (expected one of: auto, always, never)", arg);
        return -1;
    case 'K': return parse_shard(arg, &r->cfg);
    case 'I': return cli_parse_isolation(arg, &r->in_process);
    case 'M':
        if (cli_parse_memory_limit(arg, &r->memory_limit))
            return -1;
        r->cfg.memory_limit = gc_mem_effective(r->memory_limit);
        return 0;
    case 'f':
        r->cfg.reference = strcmp(arg, "fast") == 0 ? GS_REF_FAST
                           : strcmp(arg, "mpfr") == 0 ? GS_REF_MPFR : -1;
        if (r->cfg.reference >= 0)
            return 0;
        cli_error("bad --reference '%s' (expected one of: fast, mpfr)", arg);
        return -1;
    default:
        for (const struct option *o = long_opts; c >= 1 && c <= 7 && later_issue[c] && o->name;
             o++)
            if (o->val == c) {
                cli_error("option '--%s' is not implemented yet (issue: %s)", o->name,
                          later_issue[c]);
                return -1;
            }
        cli_error("unknown option '%s'", word);
        return -1;
    }
}

/* Whether option word w (as reordered: "--threads", "--thr=2") is one the result leaves out
 * of "command": --threads and --progress change nothing measured; --shard is recorded in
 * "shard", so that the shards of one run record one command (gelucheck merge); --resume
 * gives the same result as the run it continues. */
static int unrecorded(const char *w)
{
    static const char *const names[] = { "threads", "progress", "shard", "resume" };
    if (strncmp(w, "--", 2) != 0)
        return 0;
    size_t n = strcspn(w + 2, "=");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (n > 0 && strncmp(names[i], w + 2, n) == 0)
            return 1;
    return 0;
}

static int parse_args(struct run_args *r, int ac, char **av)
{
    int c, help = 0;
    unsigned n_cpus = cli_cpus_usable();

    r->cfg.threads = n_cpus > RUN_MAX_THREADS ? RUN_MAX_THREADS : n_cpus;
    r->timeout_s = r->startup_timeout_s = 60.0; /* GC_OPEN_OPTIONS_INIT's */
    r->memory_limit = GC_MEM_DEFAULT;
    r->cfg.memory_limit = gc_mem_effective(GC_MEM_DEFAULT);
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(ac, av, short_opts, long_opts, NULL)) != -1) {
        if (c == 'h') {
            help = 1;
        } else if (c == ':') {
            cli_bad_option(c, av[optind - 1]);
            return -1;
        } else if (option(r, c, optarg, av[optind - 1])) {
            return -1; /* av[optind - 1]: the unknown word when c is '?' */
        }
    }
    if (help) {
        usage();
        return 1;
    }
    if (optind < ac) {
        cli_error("run takes no operands: '%s' (use --adapter SPEC)", av[optind]);
        return -1;
    }
    if (r->n_specs == 0) {
        cli_error("no adapter given (use --adapter SPEC; 'gelucheck list' shows the built-ins)");
        return -1;
    }
    if (r->torch_module) { /* the activations measured beside the sites: torch-module:FILE */
        int scan = 0, have = 0;
        for (size_t i = 0; i < r->n_specs; i++) {
            scan |= strncmp(r->specs[i], "scan:", 5) == 0;
            have |= strncmp(r->specs[i], "torch-module:", 13) == 0;
        }
        if (scan && !have) {
            r->torch_spec = malloc(strlen(r->torch_module) + 14);
            if (!r->torch_spec) {
                cli_error("out of memory");
                return -1;
            }
            strcpy(r->torch_spec, "torch-module:");
            strcat(r->torch_spec, r->torch_module);
            r->specs[r->n_specs++] = r->torch_spec;
        }
    }
    if (r->site_map && !r->baseline) {
        cli_error("--site-map '%s' needs --baseline: it says which kernel of the baseline "
                  "each kernel is compared with", r->site_map);
        return -1;
    }
    if (r->baseline && gs_sharded(&r->cfg)) {
        cli_error("--baseline cannot be combined with --shard: give it to 'gelucheck merge', "
                  "which joins the shards");
        return -1;
    }
    if (!r->cfg.policy && !(r->cfg.policy = gs_policy_builtin("default"))) {
        cli_error("built-in policy 'default' missing");
        return -1;
    }
    /* the command as recorded: "gelucheck", "run", the options in order but the unrecorded */
    r->command[r->n_command++] = "gelucheck";
    r->command[r->n_command++] = "run";
    for (int i = 1; i < ac && strcmp(av[i], "--") != 0; i++) {
        if (!unrecorded(av[i]))
            r->command[r->n_command++] = av[i];
        else if (!strchr(av[i], '='))
            i++; /* its value */
    }
    return 0;
}

int cmd_run(int argc, char **argv)
{
    struct run_args r;
    char **av = malloc(CLI_REORDER_SLOTS(argc) * sizeof *av);
    int rc = CLI_EXIT_INTERNAL;

    memset(&r, 0, sizeof r);
    gs_config_init(&r.cfg);
    r.specs = malloc(((size_t)argc + 1) * sizeof *r.specs);
    r.names = calloc((size_t)argc + 1, sizeof *r.names);
    r.kernels = malloc((size_t)argc * sizeof *r.kernels);
    r.command = malloc(((size_t)argc + 2) * sizeof *r.command);
    if (!av || !r.specs || !r.names || !r.kernels || !r.command) {
        cli_error("out of memory");
    } else {
        int ac = cli_reorder(argc, argv, short_opts, long_opts, av);
        int p = ac < 0 ? -1 : parse_args(&r, ac, av);
        rc = p < 0 ? CLI_EXIT_USAGE : p > 0 ? CLI_EXIT_PASS : run_execute(&r);
    }
    fflush(stdout);
    gs_policy_free((struct gs_policy *)r.cfg.policy);
    free(r.command);
    free(r.kernels);
    free(r.specs);
    free(r.torch_spec);
    free(r.names);
    free(av);
    return rc;
}
