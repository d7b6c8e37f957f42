/* The `ggml` adapter (issue 21): ggml's CPU GELUs (ggml_gelu, ggml_gelu_quick, ggml_gelu_erf on
 * f32 tensors), as llama.cpp, whisper.cpp and node-llama-cpp run them, from the prebuilt
 * libraries of npm @node-llama-cpp/linux-x64 (pinned in package-lock.json), loaded with
 * dlopen and served over the subprocess protocol (docs/design.md 5.2) with gelucheck_exec.c.
 * One kernel per op and CPU variant: the generic x64 build and the best variant this CPU runs
 * (what llama.cpp loads), or those --variants names.
 *
 * What ggml claims (ggml 0.19.0 source, github.com/ggml-org/ggml at acfb0dde): no accuracy at
 * all, only code.  include/ggml.h: ggml_gelu and ggml_gelu_quick carry no comment; ggml_gelu_erf
 * "some backends may fallback to approximation based on Abramowitz and Stegun formula".
 * src/ggml-cpu/vec.h: ggml_gelu_f32(x) = 0.5f*x*(1.0f + tanhf(SQRT_2_OVER_PI*x*(1.0f +
 * GELU_COEF_A*x*x))), GELU_COEF_A = 0.044715f (the tanh GELU: gelu_tanh); ggml_gelu_quick_f32(x)
 * = x*(1.0f/(1.0f+expf(GELU_QUICK_COEF*x))), GELU_QUICK_COEF = -1.702f (gelu_sigmoid);
 * ggml_vec_gelu_erf_f32: 0.5f*xi*(1.0f + erff(xi*SQRT_2_INV)) (gelu).  And
 * `#define GGML_GELU_FP16` / `#define GGML_GELU_QUICK_FP16`, unconditionally: for f32 input
 * ggml_vec_gelu_f32 returns 0.0f for x <= -10, x for x >= 10, and otherwise rounds x to f16
 * and looks up ggml_table_gelu_f16[65536], which ggml_cpu_init() fills with
 * GGML_CPU_FP32_TO_FP16(ggml_gelu_f32(f)) for every f16 value f; gelu_quick the same with
 * ggml_table_gelu_quick_f16 and no clamp.  So two of the three f32 GELUs have f16 precision
 * (about 2^13 f32 ulps) by design.  The adapter checks at start-up that each variant really
 * answers from its table and says so in the description.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__) || defined(__linux__)
#include <gnu/libc-version.h>
#endif

#include "gelucheck_exec.h"
#include "ggml_internal.h"

#define PROG "gelucheck_ggml"
#define MAX_VARIANTS 16
#define MAX_KERNELS (3 * MAX_VARIANTS)
#define DESC_BYTES 1024
#ifndef GC_GGML_NPM
#define GC_GGML_NPM "npm @node-llama-cpp/linux-x64 (version unknown)"
#endif

static struct gc_ggml_base base;
static struct gc_ggml_cpu cpus[MAX_VARIANTS];
static struct {
    const struct gc_ggml_cpu *cpu;
    int op; /* 0 ggml_gelu, 1 ggml_gelu_quick, 2 ggml_gelu_erf */
} slots[MAX_KERNELS];
static struct gelucheck_exec_kernel kernels[MAX_KERNELS];
static char names[MAX_KERNELS][64], descs[MAX_KERNELS][DESC_BYTES];

static const struct {
    const char *name, *func, *table, *libm, *formula;
} ops[3] = {
    { "gelu", "gelu_tanh", "ggml_table_gelu_f16", "tanhf",
      "ggml_gelu: the tanh GELU 0.5f*x*(1+tanhf(0.7978846f*x*(1+0.044715f*x*x))) "
      "(ggml_gelu_f32)" },
    { "gelu_quick", "gelu_sigmoid", "ggml_table_gelu_quick_f16", "expf",
      "ggml_gelu_quick: x*(1/(1+expf(-1.702f*x))) (ggml_gelu_quick_f32)" },
    { "gelu_erf", "gelu", NULL, "erff",
      "ggml_gelu_erf: 0.5f*x*(1+erff(x*0.70710678f)) (ggml_vec_gelu_erf_f32)" },
};

/* y = op(x) for n floats through one graph: x copied into a 1-D f32 tensor, computed by the
 * variant on 1 thread, the result copied out.  0, or -1 with the reason in err. */
static int run(const struct gc_ggml_cpu *cpu, int op, const float *x, float *y, size_t n,
               char *err, size_t es)
{
    if (n == 0)
        return 0;
    /* two tensors and their data (aligned to GGML_MEM_ALIGN 16), the graph (2048 nodes), and
     * room for a work buffer (none for a unary op) */
    size_t mem = 2 * base.tensor_overhead() + base.graph_overhead() + 2 * (n * 4 + 16) + 65536;
    struct ggml_context *c = base.init((struct gc_ggml_init_params){ mem, NULL, false });
    if (!c) {
        snprintf(err, es, "ggml_init of %zu bytes failed", mem);
        return -1;
    }
    struct ggml_tensor *a = base.new_tensor_1d(c, GC_GGML_TYPE_F32, (int64_t)n);
    memcpy(base.get_data(a), x, n * sizeof *x);
    struct ggml_tensor *r = base.op[op](c, a);
    struct ggml_cgraph *g = base.new_graph(c);
    base.build_forward_expand(g, r);
    int st = cpu->compute_with_ctx(c, g, 1);
    if (st == GC_GGML_STATUS_SUCCESS)
        memcpy(y, base.get_data(r), n * sizeof *y);
    else
        snprintf(err, es, "ggml_graph_compute_with_ctx returned status %d", st);
    base.free(c);
    return st == GC_GGML_STATUS_SUCCESS ? 0 : -1;
}

/* gelucheck_exec's eval has no context: one trampoline per slot */
#define TRAMP(k)                                                                   \
    static int eval_##k(const void *x, void *y, size_t n, char *e, size_t es)     \
    {                                                                              \
        return run(slots[k].cpu, slots[k].op, x, y, n, e, es);                     \
    }
#define TRAMP10(d) TRAMP(d##0) TRAMP(d##1) TRAMP(d##2) TRAMP(d##3) TRAMP(d##4) \
                   TRAMP(d##5) TRAMP(d##6) TRAMP(d##7) TRAMP(d##8) TRAMP(d##9)
#define NAME10(d) eval_##d##0, eval_##d##1, eval_##d##2, eval_##d##3, eval_##d##4, \
                  eval_##d##5, eval_##d##6, eval_##d##7, eval_##d##8, eval_##d##9
TRAMP10() TRAMP10(1) TRAMP10(2) TRAMP10(3)
TRAMP(40) TRAMP(41) TRAMP(42) TRAMP(43) TRAMP(44) TRAMP(45) TRAMP(46) TRAMP(47)
static int (*const evals[MAX_KERNELS])(const void *, void *, size_t, char *, size_t) = {
    NAME10(), NAME10(1), NAME10(2), NAME10(3),
    eval_40, eval_41, eval_42, eval_43, eval_44, eval_45, eval_46, eval_47
};

/* Does the op answer from its f16 table?  1 yes, 0 no (or no table to look at). */
static int uses_table(const struct gc_ggml_cpu *cpu, int op)
{
    static const float probe[] = { -3.3f, -0.7f, 0.3f, 1.7f, 5.123f }; /* none is an f16 */
    const uint16_t *t = ops[op].table ? gc_ggml_cpu_sym(cpu, ops[op].table) : NULL;
    float y[sizeof probe / sizeof probe[0]];
    char err[256];
    if (!t || run(cpu, op, probe, y, sizeof probe / sizeof probe[0], err, sizeof err) != 0)
        return 0;
    for (size_t i = 0; i < sizeof probe / sizeof probe[0]; i++) {
        float want = gc_ggml_f16_to_f32(t[gc_ggml_f32_to_f16(probe[i])]);
        if (memcmp(&want, &y[i], sizeof want) != 0)
            return 0;
    }
    return 1;
}

static const char *how(const struct gc_ggml_cpu *cpu, int op)
{
    if (op == 2)
        return "computed in float";
    if (!uses_table(cpu, op))
        return "computed in float (the start-up check found no f16 table answering)";
    return op == 0 ? "answered from an f16 table (GGML_GELU_FP16, confirmed at start-up): "
                     "x <= -10 gives +0, x >= 10 gives x, otherwise x is rounded to f16 and "
                     "the result is ggml_table_gelu_f16[that f16], the formula in float "
                     "rounded to f16: f16 precision"
                   : "answered from an f16 table (GGML_GELU_QUICK_FP16, confirmed at "
                     "start-up): x is rounded to f16 and the result is "
                     "ggml_table_gelu_quick_f16[that f16], the formula in float rounded to "
                     "f16 (no clamp): f16 precision";
}

/* Is variant i asked for by --variants SPEC: "default" (x64 and the best runnable one), "all"
 * (every runnable one) or NAME,NAME...  1 yes, 0 no. */
static int wanted(const char *spec, const struct gc_ggml_variant *v, size_t i, size_t best)
{
    if (strcmp(spec, "default") == 0)
        return v[i].runnable && (i == best || strcmp(v[i].name, "x64") == 0);
    if (strcmp(spec, "all") == 0)
        return v[i].runnable;
    size_t len = strlen(v[i].name);
    for (const char *p = spec; *p; p += strcspn(p, ","), p += *p == ',')
        if (strncmp(p, v[i].name, len) == 0 && (p[len] == ',' || p[len] == '\0'))
            return 1;
    return 0;
}

/* Every name of SPEC (unless default or all) is a runnable variant; 0, or -1 (stderr says) */
static int check_spec(const char *spec, const struct gc_ggml_variant *v, size_t nv)
{
    if (strcmp(spec, "default") == 0 || strcmp(spec, "all") == 0)
        return 0;
    for (const char *p = spec; *p; p += strcspn(p, ","), p += *p == ',') {
        size_t len = strcspn(p, ","), i;
        for (i = 0; i < nv; i++)
            if (strlen(v[i].name) == len && strncmp(p, v[i].name, len) == 0)
                break;
        if (i == nv || !v[i].runnable) {
            fprintf(stderr, "%s: error: %s variant '%.*s' in --variants%s\n", PROG,
                    i == nv ? "unknown" : "this CPU cannot run the", (int)len, p,
                    i == nv ? " (ggml's x86-64 variants: x64, sse42, sandybridge, ivybridge, "
                              "piledriver, haswell, skylakex, cannonlake, cascadelake, "
                              "icelake, cooperlake, zen4, alderlake, sapphirerapids)" : "");
            return -1;
        }
    }
    return 0;
}

/* the llama.cpp release node-llama-cpp built, from DIR/_nlcBuildMetadata.json, or "" */
static void release_of(const char *dir, char *out, size_t size)
{
    char path[4096], buf[4096];
    snprintf(path, sizeof path, "%s/_nlcBuildMetadata.json", dir);
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *r = strstr(buf, "\"release\":\"");
    if (r) {
        r += strlen("\"release\":\"");
        snprintf(out, size, "llama.cpp %.*s, ", (int)strcspn(r, "\""), r);
    }
}

static const char *libc_version(void)
{
#if defined(__GLIBC__)
    static char v[48];
    snprintf(v, sizeof v, "glibc %s", gnu_get_libc_version());
    return v;
#else
    return "the C library";
#endif
}

int main(int argc, char **argv)
{
    const char *spec = "default";
    char err[1024], version[256], rel[96];

    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: %s LIBDIR [--variants default|all|NAME[,NAME...]]\n"
               "Serves ggml's ggml_gelu, ggml_gelu_quick and ggml_gelu_erf (f32) from "
               "LIBDIR/libggml-base.so and\nLIBDIR/libggml-cpu-VARIANT.so over gelucheck's "
               "subprocess protocol (docs/design.md 5.2).\ndefault: the x64 variant and the "
               "best one this CPU runs; all: every variant it runs.\n", PROG);
        return 0;
    }
    if (!(argc == 2 || (argc == 4 && strcmp(argv[2], "--variants") == 0))) {
        fprintf(stderr, "%s: error: usage: %s LIBDIR [--variants default|all|NAME[,NAME...]]\n",
                PROG, PROG);
        return 2;
    }
    if (argc == 4)
        spec = argv[3];
    struct gc_ggml_variant v[MAX_VARIANTS];
    size_t nv = gc_ggml_variants(v, MAX_VARIANTS), best = 0, k = 0;
    if (nv == 0) {
        fprintf(stderr, "%s: error: ggml's CPU variants are known for x86-64 only\n", PROG);
        return 1;
    }
    for (size_t i = 1; i < nv; i++)
        if (v[i].runnable && v[i].score > v[best].score)
            best = i;
    if (check_spec(spec, v, nv) != 0)
        return 2;
    if (gc_ggml_load_base(argv[1], &base, err, sizeof err) != 0) {
        fprintf(stderr, "%s: error: %s\n", PROG, err);
        return 1;
    }
    release_of(argv[1], rel, sizeof rel);
    snprintf(version, sizeof version, "ggml %s (commit %s; %s%s)", base.version(),
             base.commit(), rel, GC_GGML_NPM);
    for (size_t i = 0; i < nv; i++) {
        if (!wanted(spec, v, i, best))
            continue;
        struct gc_ggml_cpu *cpu = &cpus[i];
        if (gc_ggml_load_cpu(argv[1], v[i].name, cpu, err, sizeof err) != 0) {
            fprintf(stderr, "%s: error: %s\n", PROG, err);
            return 1;
        }
        int s = cpu->score();
        if (s != v[i].score) { /* ggml's own CPUID check disagrees: trust neither */
            fprintf(stderr, "%s: left out variant %s: its ggml_backend_score() is %d where "
                    "this CPU's features give %d\n", PROG, v[i].name, s, v[i].score);
            continue;
        }
        cpu->cpu_init();
        for (int op = 0; op < 3; op++, k++) {
            snprintf(names[k], sizeof names[k], "%s.f32.%s", ops[op].name, v[i].name);
            int len = snprintf(descs[k], DESC_BYTES, "%s on a 1-D f32 tensor, %s; %s of %s; CPU "
                               "variant %s (libggml-cpu-%s.so, ggml_backend_score %d%s), 1 "
                               "thread; %s", ops[op].formula, how(cpu, op),
                               ops[op].libm, libc_version(), v[i].name,
                               v[i].name, s, i == best ? ": the best this CPU runs, what "
                               "llama.cpp loads here" : "", version);
            if (len < 0 || len >= DESC_BYTES) {
                fprintf(stderr, "%s: error: description of %s too long\n", PROG, names[k]);
                return 2;
            }
            slots[k].cpu = cpu;
            slots[k].op = op;
            kernels[k] = (struct gelucheck_exec_kernel){ names[k], ops[op].func, "f32",
                                                         descs[k], evals[k] };
        }
    }
    if (k == 0) {
        fprintf(stderr, "%s: error: no variant to serve\n", PROG);
        return 1;
    }
    return gelucheck_exec_serve(kernels, k, version);
}
