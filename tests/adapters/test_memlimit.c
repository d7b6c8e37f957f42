/* --memory-limit's helpers (adapters/core/memlimit*.c) and the worker under RLIMIT_AS: sizes as
 * messages write them, the headroom, the cgroup v2 line of /proc/self/cgroup, which way
 * gc_mem_init picks when it may not use a cgroup; a worker whose kernel allocates without end
 * dies with gc_eval_extra.oom naming the limit, one that crashes otherwise without it.  No test
 * here makes or changes a cgroup (GELUCHECK_NO_CGROUP=1, or no cgroup root at all).
 * FX_HOG, FX_HOSTILE: the fixture plug-ins' paths. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "adapter.h"
#include "memlimit.h"

static void test_format(void **state)
{
    static const struct {
        unsigned long long bytes;
        const char *text;
    } rows[] = {
        { 4ull << 30, "4 GiB" },   { 256ull << 20, "256 MiB" }, { 3ull << 10, "3 KiB" },
        { 1536, "1536 bytes" },    { 1, "1 byte" },            { 0, "0 bytes" },
        { (1ull << 30) + (1ull << 20), "1025 MiB" },           { 1ull << 40, "1 TiB" },
    };
    char buf[64];

    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        gc_mem_format(rows[i].bytes, buf, sizeof buf);
        if (strcmp(buf, rows[i].text) != 0)
            fail_msg("row %zu: %llu bytes as '%s', want '%s'", i, rows[i].bytes, buf,
                     rows[i].text);
    }
    gc_mem_describe(256ull << 20, GC_MEM_RLIMIT_AS, "the worker's", buf, sizeof buf);
    assert_string_equal(buf, "the worker's --memory-limit of 256 MiB (RLIMIT_AS)");
    gc_mem_describe(GC_MEM_DEFAULT, GC_MEM_CGROUP, "the adapter's", buf, sizeof buf);
    assert_string_equal(buf, "the adapter's --memory-limit of 4 GiB (cgroup memory.max)");
}

static void test_headroom(void **state)
{
    (void)state;
    assert_int_equal(gc_mem_headroom(GC_MEM_DEFAULT), 256ull << 20); /* capped */
    assert_int_equal(gc_mem_headroom(128ull << 20), 32ull << 20);    /* a quarter */
    assert_int_equal(gc_mem_headroom(1ull << 30), 256ull << 20);
    assert_int_equal(gc_mem_headroom(1), 4096);                       /* at least a page */
}

static void test_cgroup_path(void **state)
{
    static const struct {
        const char *text, *path; /* path NULL: none found */
        const char *why;
    } rows[] = {
        { "0::/user.slice/user-1000.slice/session-2.scope\n",
          "/user.slice/user-1000.slice/session-2.scope", "cgroup v2 only" },
        { "12:memory:/a\n1:name=systemd:/b\n0::/c/d\n", "/c/d", "hybrid: the 0:: line" },
        { "9:name=systemd:/\n8:pids:/\n7:blkio:/\n", NULL, "cgroup v1 only (this machine)" },
        { "0::/\n", "/", "the root" },
        { "0::/x", "/x", "no final newline" },
        { "", NULL, "empty" },
        { "0:/x\n", NULL, "malformed" },
    };
    char path[64];

    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        int rc = gc_mem_cgroup_path(rows[i].text, path, sizeof path);
        if (rows[i].path ? rc != 0 || strcmp(path, rows[i].path) != 0 : rc == 0)
            fail_msg("row %zu (%s): rc %d, path '%s'", i, rows[i].why, rc, rc ? "" : path);
    }
    assert_int_equal(gc_mem_cgroup_path("0::/a/long/path\n", path, 8), -1); /* too long */
}

static void test_init(void **state)
{
    struct gc_memlimit m;
    struct gc_mem_cage c;
    char msg[256];

    (void)state;
    setenv("GELUCHECK_NO_CGROUP", "1", 1);
    gc_mem_init(&m, 256ull << 20, "/sys/fs/cgroup"); /* never tried: GELUCHECK_NO_CGROUP */
    assert_int_equal(m.via, gc_mem_sanitized() ? GC_MEM_NONE : GC_MEM_RLIMIT_AS);
    assert_int_equal(m.bytes, gc_mem_effective(256ull << 20));
    if (!gc_mem_sanitized())
        assert_string_equal(m.why, "GELUCHECK_NO_CGROUP=1");
    memset(&c, 0, sizeof c); /* no cage without a cgroup */
    assert_int_equal(gc_mem_cage_open(&m, &c, msg, sizeof msg), 0);
    assert_string_equal(c.dir, "");
    assert_int_equal(gc_mem_cage_oom(&c), 0);
    gc_mem_cage_close(&c);
    gc_mem_release(&m);
    gc_mem_release(&m); /* idempotent */
    assert_int_equal(m.via, GC_MEM_NONE);
    gc_mem_init(&m, 0, NULL);
    assert_int_equal(m.via, GC_MEM_NONE);
    assert_int_equal(m.bytes, 0);
    assert_int_equal(gc_mem_effective(0), 0);
}

/* the first batch of kernel name of the plug-in at path, under a 128 MiB RLIMIT_AS */
static enum gc_status eval_limited(const char *path, const char *name, struct gc_eval_extra *ex,
                                   char *msg, size_t size)
{
    struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;
    struct gc_memlimit m;
    struct gc_adapter *a = NULL;
    float x[4] = { 1, 2, 3, 4 }, y[4];
    enum gc_status st = GC_E_SPEC;

    gc_mem_init(&m, 128ull << 20, NULL);
    opt.memlimit = &m;
    if (gc_adapter_open(path, &opt, &a, msg, size) != GC_OK)
        fail_msg("open %s: %s", path, msg);
    for (size_t i = 0; i < a->n_kernels; i++)
        if (strcmp(a->kernels[i].name, name) == 0)
            st = gc_kernel_eval_ex(&a->kernels[i], x, y, 4, ex, msg, size);
    gc_adapter_close(a);
    gc_mem_release(&m);
    return st;
}

static void test_worker_oom(void **state)
{
    struct gc_eval_extra ex;
    char msg[1024];
    (void)state;
    if (gc_mem_sanitized())
        skip(); /* --memory-limit is off: the hog would take the machine */
    memset(&ex, 0, sizeof ex);
    assert_int_equal(eval_limited(FX_HOG, "hog.f32", &ex, msg, sizeof msg), GC_E_DIED);
    assert_int_equal(ex.signal, SIGSEGV);
    assert_string_equal(ex.oom, "the worker's --memory-limit of 128 MiB (RLIMIT_AS)");
    if (!strstr(msg, "(SIGSEGV); it ran out of memory, the worker's --memory-limit of 128 MiB "
                     "(RLIMIT_AS)"))
        fail_msg("message: %s", msg);
    memset(&ex, 0, sizeof ex);
    assert_int_equal(eval_limited(FX_HOG, "hog_abort.f32", &ex, msg, sizeof msg), GC_E_DIED);
    assert_int_equal(ex.signal, SIGABRT);
    assert_string_equal(ex.oom, "the worker's --memory-limit of 128 MiB (RLIMIT_AS)");
    /* a crash far from the limit is a crash, not running out of memory */
    memset(&ex, 0, sizeof ex);
    assert_int_equal(eval_limited(FX_HOSTILE, "segv.f32", &ex, msg, sizeof msg), GC_E_DIED);
    assert_int_equal(ex.signal, SIGSEGV);
    assert_string_equal(ex.oom, "");
    assert_null(strstr(msg, "memory"));
    memset(&ex, 0, sizeof ex);
    assert_int_equal(eval_limited(FX_HOSTILE, "abort.f32", &ex, msg, sizeof msg), GC_E_DIED);
    assert_int_equal(ex.signal, SIGABRT);
    assert_string_equal(ex.oom, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format),      cmocka_unit_test(test_headroom),
        cmocka_unit_test(test_cgroup_path), cmocka_unit_test(test_init),
        cmocka_unit_test(test_worker_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
