/* The built-in `onednn` adapter: the table offers exactly the kernels this CPU can run and says
 * which implementation oneDNN chose; contexts, errors and the primitive cache; every batch
 * length gives the bits of one-element calls (tails are not padded, so a tail defect would
 * show).  Known values: test_onednn_values.c.
 *
 * How the expected kernel list is chosen: f32 is always offered.  oneDNN 2.x offers bf16 on
 * x86-64 exactly when it may use avx512_core (cpu/platform.cpp, has_data_type_support), that
 * is when dnnl_get_effective_cpu_isa() includes avx512_core: the CPU has AVX-512 F, BW, VL
 * and DQ and DNNL_MAX_CPU_ISA does not cap it lower (then checked against
 * __builtin_cpu_supports).  f16 never (2.x).  The test runs twice: as the CPU is, and with
 * DNNL_MAX_CPU_ISA=AVX2 (no bf16, the AVX2 code). */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dnnl.h>
#include <dnnl_debug.h>

#include "adapt_util.h"
#include "gc_onednn.h"
#include "test_onednn.h"

const struct gelucheck_plugin *onednn(void)
{
    return gc_onednn_entry(GELUCHECK_PLUGIN_ABI);
}

void onednn_eval(const struct gelucheck_kernel *k, const void *x, void *y, size_t n)
{
    const struct gelucheck_plugin *p = onednn();
    void *ctx = NULL;
    assert_int_equal(p->open(&ctx, NULL), 0);
    if (k->eval(ctx, x, y, n) != 0)
        fail_msg("%s: eval n = %zu failed: %s", k->name, n, p->last_error(ctx));
    p->close(ctx);
}

static int expect_bf16(void)
{
    dnnl_cpu_isa_t isa = dnnl_get_effective_cpu_isa();
    int core = (isa & dnnl_cpu_isa_avx512_core) == dnnl_cpu_isa_avx512_core;
    if (getenv("DNNL_MAX_CPU_ISA") == NULL) {
        __builtin_cpu_init();
        int cpu = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                  __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
        if (cpu != core)
            fail_msg("oneDNN's ISA %s disagrees with the CPU's AVX-512 flags (%d)",
                     dnnl_cpu_isa2str(isa), cpu);
    }
    return core;
}

/* The impl oneDNN picks for kernel k at length n, asked here through the C API directly. */
static void impl_at(const struct gelucheck_kernel *k, int64_t n, char *out, size_t size)
{
    int bwd = strstr(k->name, ".bwd.") != NULL;
    dnnl_alg_kind_t alg = strncmp(k->name, "gelu_erf", 8) == 0 ? dnnl_eltwise_gelu_erf
                                                               : dnnl_eltwise_gelu_tanh;
    dnnl_data_type_t dt = k->dtype == GELUCHECK_F32 ? dnnl_f32 : dnnl_bf16;
    dnnl_engine_t e;
    dnnl_memory_desc_t md;
    dnnl_eltwise_desc_t fd, bd;
    dnnl_primitive_desc_t fpd, bpd;
    dnnl_dims_t dims = { n };
    const char *info = NULL;

    assert_int_equal(dnnl_engine_create(&e, dnnl_cpu, 0), dnnl_success);
    assert_int_equal(dnnl_memory_desc_init_by_tag(&md, 1, dims, dt, dnnl_a), dnnl_success);
    assert_int_equal(dnnl_eltwise_forward_desc_init(&fd, dnnl_forward_training, alg, &md, 0, 0),
                     dnnl_success);
    assert_int_equal(dnnl_primitive_desc_create(&fpd, &fd, NULL, e, NULL), dnnl_success);
    if (bwd) {
        assert_int_equal(dnnl_eltwise_backward_desc_init(&bd, alg, &md, &md, 0, 0),
                         dnnl_success);
        assert_int_equal(dnnl_primitive_desc_create(&bpd, &bd, NULL, e, fpd), dnnl_success);
    }
    assert_int_equal(dnnl_primitive_desc_query(bwd ? bpd : fpd, dnnl_query_impl_info_str, 0,
                                               &info), dnnl_success);
    snprintf(out, size, "impl %s on CPU ISA ", info);
    if (bwd)
        dnnl_primitive_desc_destroy(bpd);
    dnnl_primitive_desc_destroy(fpd);
    dnnl_engine_destroy(e);
}

static void test_table(void **state)
{
    static const char *const base[] = { "gelu_erf.fwd", "gelu_erf.bwd", "gelu_tanh.fwd",
                                        "gelu_tanh.bwd" };
    static const uint32_t funcs[] = { GELUCHECK_GELU, GELUCHECK_GELU_GRAD, GELUCHECK_GELU_TANH,
                                      GELUCHECK_GELU_TANH_GRAD };
    const struct gelucheck_plugin *p = onednn();
    const dnnl_version_t *v = dnnl_version();
    int bf16 = expect_bf16();
    char want[160];
    (void)state;

    au_check_table(p, "onednn");
    assert_null(gc_onednn_entry(0));
    assert_ptr_equal(gc_onednn_entry(GELUCHECK_PLUGIN_ABI + 1), p);
    snprintf(want, sizeof want, "oneDNN %d.%d.%d", v->major, v->minor, v->patch);
    assert_int_equal(strncmp(p->version, want, strlen(want)), 0);
    assert_int_equal(v->major, 2); /* the 2.x API; 2.x offers no f16 on x86-64 */
    size_t n_elt = bf16 ? 8 : 4; /* the eltwise kernels, then the matmul epilogues */
    assert_int_equal(p->n_kernels, n_elt + (bf16 ? 4 : 2));
    for (size_t i = n_elt; i < p->n_kernels; i++) {
        const struct gelucheck_kernel *k = &p->kernels[i];
        size_t j = i - n_elt;
        snprintf(want, sizeof want, "matmul_%s.%s", j % 2 ? "gelu_tanh" : "gelu_erf",
                 j < 2 ? "f32" : "bf16");
        assert_string_equal(k->name, want);
        assert_int_equal(k->func, j % 2 ? GELUCHECK_GELU_TANH : GELUCHECK_GELU);
        assert_int_equal(k->dtype, j < 2 ? GELUCHECK_F32 : GELUCHECK_BF16);
        /* the impl at M = 64 and at a transformer's M = 4096 */
        assert_non_null(strstr(k->description, "4096"));
        print_message("%-21s %s\n", k->name, strstr(k->description, "; oneDNN") + 2);
    }
    for (size_t i = 0; i < n_elt; i++) {
        const struct gelucheck_kernel *k = &p->kernels[i];
        snprintf(want, sizeof want, "%s.%s", base[i % 4], i < 4 ? "f32" : "bf16");
        assert_string_equal(k->name, want);
        assert_int_equal(k->func, funcs[i % 4]);
        assert_int_equal(k->dtype, i < 4 ? GELUCHECK_F32 : GELUCHECK_BF16);
        /* the description names the impl oneDNN picks at every length, and the ISA */
        static const int64_t ns[] = { 1, 17, 64, 131, 4096 };
        for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++) {
            impl_at(k, ns[j], want, sizeof want);
            if (strstr(k->description, want) == NULL)
                fail_msg("%s at n = %lld: description lacks '%s': %s", k->name,
                         (long long)ns[j], want, k->description);
        }
        snprintf(want, sizeof want, "oneDNN %d.%d.%d", v->major, v->minor, v->patch);
        assert_non_null(strstr(k->description, want));
        assert_non_null(strstr(k->description, dnnl_cpu_isa2str(dnnl_get_effective_cpu_isa()) +
                                                   8)); /* after "cpu_isa_" */
        print_message("%-19s %s\n", k->name, strstr(k->description, "; ") + 2);
    }
}

/* Threads in this process (Linux /proc), -1 where unknown. */
static int task_count(void)
{
    DIR *d = opendir("/proc/self/task");
    int n = 0;
    if (d == NULL)
        return -1;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* Run first, before any eval: libgomp starts its team on the first parallel region run with
 * more than one thread, so a thread that appears here means oneDNN was not held to one. */
static void test_threads(void **state)
{
    enum { N = 1 << 20 };
    const struct gelucheck_plugin *p = onednn();
    float *x = calloc(N, sizeof *x);
    int before = task_count();
    (void)state;

    assert_non_null(x);
    if (before < 0)
        skip();
    onednn_eval(&p->kernels[0], x, x, N);
    int after = task_count();
    if (after != before)
        fail_msg("an eval of %d elements took the process from %d to %d threads: oneDNN was "
                 "not held to one", N, before, after);
    free(x);
}

static void test_eval_all(void **state)
{
    (void)state;
    au_eval_all(onednn());
}

static void test_contexts(void **state)
{
    const struct gelucheck_plugin *p = onednn();
    const struct gelucheck_kernel *k = &p->kernels[0];
    float x = 1.0f, y = 0.0f;
    void *ctx = NULL;
    (void)state;

    assert_int_not_equal(p->open(&ctx, "threads=4"), 0);
    assert_non_null(ctx);
    assert_non_null(strstr(p->last_error(ctx), "unknown options 'threads=4'"));
    p->close(ctx);
    assert_non_null(p->last_error(NULL));
    assert_int_not_equal(k->eval(NULL, &x, &y, 1), 0); /* no context: an error, no crash */
    p->close(NULL);
    ctx = NULL;
    assert_int_equal(p->open(&ctx, ""), 0);
    assert_null(p->last_error(ctx)); /* nothing went wrong yet */
    p->close(ctx);
}

/* One primitive per length and kernel, kept: a repeat costs none, 32 others evict it. */
static void test_cache(void **state)
{
    const struct gelucheck_plugin *p = onednn();
    float x[200], y[200];
    void *ctx = NULL;
    (void)state;

    for (size_t i = 0; i < 200; i++)
        x[i] = (float)i / 16.0f - 6.0f;
    assert_int_equal(p->open(&ctx, NULL), 0);
    const struct gelucheck_kernel *k = &p->kernels[1]; /* gelu_erf.bwd.f32 */
    assert_int_equal(gc_onednn_ctx_created(ctx), 0);
    assert_int_equal(k->eval(ctx, x, y, 0), 0);
    assert_int_equal(gc_onednn_ctx_created(ctx), 0); /* n = 0 touches nothing */
    assert_int_equal(k->eval(ctx, x, y, 17), 0);
    assert_int_equal(k->eval(ctx, x, y, 17), 0);
    assert_int_equal(gc_onednn_ctx_created(ctx), 1);
    assert_int_equal(p->kernels[0].eval(ctx, x, y, 17), 0); /* per kernel */
    assert_int_equal(gc_onednn_ctx_created(ctx), 2);
    for (size_t n = 100; n < 132; n++)
        assert_int_equal(k->eval(ctx, x, y, n), 0);
    assert_int_equal(gc_onednn_ctx_created(ctx), 34);
    assert_int_equal(k->eval(ctx, x, y, 131), 0); /* kept */
    assert_int_equal(k->eval(ctx, x, y, 17), 0);  /* evicted, made again */
    assert_int_equal(gc_onednn_ctx_created(ctx), 35);
    assert_int_equal(k->eval(ctx, x, y, 200), 0); /* bigger than the diff_dst buffer so far */
    p->close(ctx);
}

/* Every length 1..131 and some longer, out of place at an odd element offset (never 16-byte
 * aligned for f32) and in place: each y[i] has the bits of a one-element call on x[i]. */
static void test_lengths(void **state)
{
    enum { N = 4097 + 1 };
    static const size_t longer[] = { 255, 1000, 4097 };
    const struct gelucheck_plugin *p = onednn();
    (void)state;

    for (size_t kk = 0; kk < p->n_kernels; kk++) {
        const struct gelucheck_kernel *k = &p->kernels[kk];
        size_t es = au_dtype_size(k->dtype);
        unsigned char *x = malloc(N * es), *y = malloc(N * es), *one = malloc(N * es);
        unsigned char *z = malloc(N * es);
        uint64_t seed = 42;
        void *ctx = NULL;
        assert_true(x && y && one && z);
        for (size_t i = 0; i < N; i++) {
            float f = (float)au_uniform(&seed, -12.0, 12.0);
            f = i == 3 ? -0.0f : i == 5 ? NAN : i == 77 ? -INFINITY : i == 130 ? INFINITY : f;
            uint32_t b = (uint32_t)au_bits_f32(f);
            uint16_t h = (uint16_t)(b >> 16); /* bf16: the top half of the float */
            if (es == 4)
                memcpy(x + i * es, &b, 4);
            else
                memcpy(x + i * es, &h, 2);
        }
        assert_int_equal(p->open(&ctx, NULL), 0);
        for (size_t i = 0; i < N; i++)
            assert_int_equal(k->eval(ctx, x + i * es, one + i * es, 1), 0);
        for (size_t t = 0; t < 131 + 3; t++) {
            size_t n = t < 131 ? t + 1 : longer[t - 131];
            assert_int_equal(k->eval(ctx, x + es, y + es, n), 0);
            if (memcmp(y + es, one + es, n * es) != 0)
                fail_msg("%s: n = %zu at an odd offset differs from one-element calls",
                         k->name, n);
            memcpy(z, x, N * es);
            assert_int_equal(k->eval(ctx, z, z, n), 0);
            if (memcmp(z, one, n * es) != 0 || memcmp(z + n * es, x + n * es, es) != 0)
                fail_msg("%s: n = %zu in place differs from one-element calls", k->name, n);
        }
        p->close(ctx);
        free(x);
        free(y);
        free(one);
        free(z);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads),      cmocka_unit_test(test_table),
        cmocka_unit_test(test_eval_all),
        cmocka_unit_test(test_contexts),     cmocka_unit_test(test_cache),
        cmocka_unit_test(test_lengths),      cmocka_unit_test(test_known_values),
        cmocka_unit_test(test_exact_values), cmocka_unit_test(test_epilogues),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
