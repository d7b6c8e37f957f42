/* Group open: the banner up to 'ready', and close.  The fixtures are one-line sh commands
 * (printf interprets \n and \000), so each row shows exactly what the adapter says. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "test_exec.h"

#define BANNER "printf 'gelucheck-exec 1\\n"
#define KERNEL "kernel a gelu f32\\n"

static const struct exec_case bad_opens[] = {
    { "printf 'hello\\n'", 0, GC_E_INVALID, "expected 'gelucheck-exec 1', got 'hello'",
      "wrong banner" },
    { "printf 'ready\\n'", 0, GC_E_INVALID, "got 'ready'", "no banner at all" },
    { "printf 'gelucheck-exec 2\\n" KERNEL "ready\\n'", 0, GC_E_INVALID,
      "unsupported protocol version '2' (this host speaks 1)", "unknown banner version" },
    { BANNER KERNEL "foo\\nready\\n'", 0, GC_E_INVALID, "unexpected line before 'ready': 'foo'",
      "garbage before ready" },
    { BANNER "version a\\nversion b\\n" KERNEL "ready\\n'", 0, GC_E_INVALID,
      "unexpected line before 'ready': 'version b'", "a second version line" },
    { BANNER "kernel a gelu_cubic f32\\nready\\n'", 0, GC_E_INVALID,
      "bad kernel line 'kernel a gelu_cubic f32': unknown function (expected one of: gelu, "
      "gelu_tanh, gelu_sigmoid, gelu_grad, gelu_tanh_grad, normcdf, normpdf, erf, erfc)",
      "unknown func" },
    { BANNER "kernel a gelu_grad2 f32\\nready\\n'", 0, GC_E_INVALID, "unknown function",
      "gelu_grad2 is the reference's, not a protocol func" },
    { BANNER "kernel a gelu_scaled f32\\nready\\n'", 0, GC_E_INVALID, "unknown function",
      "gelu_scaled is the reference's, not a protocol func" },
    { BANNER "kernel a GELU f32\\nready\\n'", 0, GC_E_INVALID, "unknown function",
      "names are lower case" },
    { BANNER "kernel a gelu f8\\nready\\n'", 0, GC_E_INVALID,
      "bad kernel line 'kernel a gelu f8': unknown dtype (expected one of: f64, f32, f16, bf16)",
      "unknown dtype" },
    { BANNER "kernel a/b gelu f32\\nready\\n'", 0, GC_E_INVALID,
      "bad kernel line 'kernel a/b gelu f32': illegal name", "illegal kernel name" },
    { BANNER KERNEL "kernel b gelu f64\\n" KERNEL "ready\\n'", 0, GC_E_INVALID,
      "bad kernel line 'kernel a gelu f32': duplicate kernel name", "duplicate kernel name" },
    { BANNER "kernel a gelu\\nready\\n'", 0, GC_E_INVALID,
      "bad kernel line 'kernel a gelu': expected 'kernel NAME FUNC DTYPE [DESCRIPTION...]'",
      "a field missing" },
    { BANNER "ready\\n'", 0, GC_E_INVALID, "no kernel lines before 'ready'", "no kernels" },
    { BANNER KERNEL "'; echo oops >&2; exit 3", 0, GC_E_DIED,
      "exited with status 3 before 'ready'; stderr: 'oops'", "exits before ready" },
    { "true", 0, GC_E_DIED, "exited with status 0 before 'gelucheck-exec 1'", "says nothing" },
    { "no-such-command-gelucheck", 0, GC_E_DIED,
      "exited with status 127 before 'gelucheck-exec 1'; stderr: '", "command not found" },
    { "for i in $(seq 300); do echo noise $i >&2; done; echo last words >&2; exit 4", 0,
      GC_E_DIED, "noise 300 | last words'", "the end of a long stderr is quoted" },
    { BANNER "kern'", 0, GC_E_DIED, "(last output 'kern' had no line end)", "a partial line" },
    { BANNER "%10000s\\n' x", 0, GC_E_INVALID, "line longer than 4096 bytes: '     ",
      "a line of 10000 bytes" },
    { BANNER "kernel a gelu f32 %4079s\\nready\\n' x", 0, GC_E_INVALID, "line longer than 4096",
      "a line of 4097 bytes" },
    { BANNER "kernel a\\000b gelu f32\\nready\\n'", 0, GC_E_INVALID,
      "NUL byte in line 'kernel a\\x00b gelu f32'", "a NUL byte" },
    { "sleep 30", 1, GC_E_TIMEOUT, "no 'gelucheck-exec 1' within 0.3 s", "never says anything" },
    { BANNER KERNEL "'; sleep 30", 2, GC_E_TIMEOUT, "no 'ready' within 5 s", "never ready" },
    { BANNER "'; exec >&-; sleep 30", 2, GC_E_DIED, "closed its output before 'ready'",
      "closes stdout but lives on" },
};

static void bad_open(void **state)
{
    (void)state;
    for (size_t i = 0; i < N(bad_opens); i++) {
        const struct exec_case *b = &bad_opens[i];
        struct gc_adapter *a = (struct gc_adapter *)&a; /* must come back NULL */
        char msg[1024];
        double t0 = exec_clock();
        /* short limits only where a limit is tested (a timeout, or the grace period before
           the kill): a loaded machine must not turn the other rows into timeouts */
        double t = exec_timeout(b->timed);
        enum gc_status st = exec_open(b->command, t, t, &a, msg, sizeof msg);
        exec_expect(st, msg, b->st, b->needle, b->why);
        if (a != NULL)
            fail_msg("%s: adapter not NULL on failure", b->why);
        if (b->timed && exec_clock() - t0 > t + EXEC_EVENT_MAX) /* the limit, then a kill */
            fail_msg("%s: took %.2f s", b->why, exec_clock() - t0);
    }
}

struct good_open {
    const char *command;
    const char *version;
    const char *description; /* of the first kernel */
    enum geluref_func func;
    enum geluref_dtype dtype;
    const char *why;
};

static const struct good_open good_opens[] = {
    { BANNER "version 2.1 (x)\\nkernel k.1 gelu_tanh_grad bf16 0.5 x (1 + tanh u)\\nready\\n'",
      "2.1 (x)", "0.5 x (1 + tanh u)", GELUREF_GELU_TANH_GRAD, GELUREF_BF16, "version, desc" },
    { "printf 'gelucheck-exec 1\\r\\nkernel k erfc f16 d\\r\\nready\\r\\n'", "", "d",
      GELUREF_ERFC, GELUREF_F16, "CRLF line ends" },
    { BANNER "kernel  k  normpdf  f64\\nready\\n'", "", "", GELUREF_NORMPDF, GELUREF_F64,
      "several spaces, no description" },
    { BANNER "kernel k gelu f32 tab\\there\\nready\\n'", "", "tab here", GELUREF_GELU,
      GELUREF_F32, "a tab in the description becomes a space" },
    { BANNER "kernel k gelu f32 %4078s\\nready\\n' x", "", NULL, GELUREF_GELU, GELUREF_F32,
      "a line of exactly 4096 bytes" },
    { "head -c 1000000 /dev/zero >&2; " BANNER KERNEL "ready\\n'", "", "", GELUREF_GELU,
      GELUREF_F32, "1 MB of stderr first: drained, never a deadlock" },
};

static void good_open(void **state)
{
    (void)state;
    for (size_t i = 0; i < N(good_opens); i++) {
        const struct good_open *g = &good_opens[i];
        struct gc_adapter *a = NULL;
        char msg[1024];
        enum gc_status st = exec_open(g->command, EXEC_SLOW, EXEC_SLOW, &a, msg, sizeof msg);
        if (st != GC_OK)
            fail_msg("%s: %s", g->why, msg);
        assert_int_equal(a->kind, GC_ADAPTER_EXEC);
        assert_string_equal(a->name, g->command);
        assert_string_equal(a->version, g->version);
        assert_int_equal(a->n_kernels, 1);
        assert_int_equal(a->kernels[0].func, g->func);
        assert_int_equal(a->kernels[0].dtype, g->dtype);
        assert_int_equal(a->kernels[0].elem_size,
                         g->dtype == GELUREF_F64 ? 8 : g->dtype == GELUREF_F32 ? 4 : 2);
        assert_ptr_equal(a->kernels[0].adapter, a);
        if (g->description)
            assert_string_equal(a->kernels[0].description, g->description);
        gc_adapter_close(a);
    }
}

/* The process is dead: gone, or a zombie waiting for init. */
static int dead(long pid)
{
    char path[64], stat[256] = "";

    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = '\0';
    const char *paren = strrchr(stat, ')');
    return paren && (paren[2] == 'Z' || paren[2] == 'X');
}

/* Close kills what the adapter left running in its process group. */
static void close_kills_group(void **state)
{
    (void)state;
    struct gc_adapter *a = NULL;
    char msg[1024];
    enum gc_status st = exec_open("sleep 30 & printf 'gelucheck-exec 1\\nversion %s\\n"
                                  KERNEL "ready\\n' $!; exec cat >/dev/null",
                                  EXEC_SLOW, EXEC_SLOW, &a, msg, sizeof msg);
    if (st != GC_OK)
        fail_msg("%s", msg);
    long pid = strtol(a->version, NULL, 10);
    assert_true(pid > 0);
    assert_int_equal(kill((pid_t)pid, 0), 0);
    gc_adapter_close(a);
    for (double t0 = exec_clock(); !dead(pid) && exec_clock() - t0 < 2;)
        nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
    if (!dead(pid))
        fail_msg("the background 'sleep' (pid %ld) survived close", pid);
}

/* An adapter that ignores the end of its stdin is killed after the grace period, which is
 * never longer than the batch timeout. */
static void close_kills_stubborn(void **state)
{
    (void)state;
    struct gc_adapter *a = NULL;
    char msg[1024];
    enum gc_status st = exec_open(BANNER KERNEL "ready\\n'; exec sleep 30", EXEC_SLOW,
                                  EXEC_FAST, &a, msg, sizeof msg);
    if (st != GC_OK)
        fail_msg("%s", msg);
    double t0 = exec_clock();
    gc_adapter_close(a);
    double took = exec_clock() - t0;
    if (took < EXEC_FAST - 0.05 || took > EXEC_FAST + EXEC_EVENT_MAX)
        fail_msg("close took %.2f s (grace %.2f s)", took, EXEC_FAST);
}

/* A well-behaved adapter ends at once when its stdin closes: close does not wait out grace. */
static void close_prompt(void **state)
{
    (void)state;
    struct gc_adapter *a = NULL;
    char msg[1024];
    enum gc_status st = exec_open(BANNER KERNEL "ready\\n'; exec cat >/dev/null", EXEC_SLOW,
                                  EXEC_SLOW, &a, msg, sizeof msg);
    if (st != GC_OK)
        fail_msg("%s", msg);
    double t0 = exec_clock();
    gc_adapter_close(a);
    if (exec_clock() - t0 > 0.5)
        fail_msg("close took %.2f s", exec_clock() - t0);
}

static void bad_arguments(void **state)
{
    (void)state;
    struct gc_adapter *a = NULL;
    char msg[256];

    assert_int_equal(gc_exec_open("", NULL, NULL, &a, msg, sizeof msg), GC_E_SPEC);
    assert_string_equal(msg, "exec adapter: no command given");
    assert_int_equal(gc_exec_open("  ", NULL, NULL, &a, msg, sizeof msg), GC_E_SPEC);
    assert_int_equal(gc_exec_open(NULL, NULL, NULL, &a, msg, sizeof msg), GC_E_SPEC);
    assert_int_equal(gc_exec_open("true", NULL, NULL, NULL, msg, sizeof msg), GC_E_SPEC);
    assert_null(a);
    /* no message buffer at all: still an error, nothing written */
    assert_int_equal(gc_exec_open(BANNER "'", NULL, NULL, &a, NULL, 0), GC_E_DIED);
}

/* The spec is kept as given; the name is the command. */
static void spec_and_name(void **state)
{
    (void)state;
    struct gc_adapter *a = NULL;
    char msg[1024];
    const char *cmd = BANNER KERNEL "ready\\n'";
    char spec[256];

    snprintf(spec, sizeof spec, "exec:%s", cmd);
    assert_int_equal(gc_exec_open(cmd, spec, NULL, &a, msg, sizeof msg), GC_OK);
    assert_string_equal(a->spec, spec);
    assert_string_equal(a->name, cmd);
    gc_adapter_close(a);
}

int exec_open_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(bad_open, exec_setup, exec_teardown),
        cmocka_unit_test_setup_teardown(good_open, exec_setup, exec_teardown),
        cmocka_unit_test_setup_teardown(close_kills_group, exec_setup, exec_teardown),
        cmocka_unit_test_setup_teardown(close_kills_stubborn, exec_setup, exec_teardown),
        cmocka_unit_test_setup_teardown(close_prompt, exec_setup, exec_teardown),
        cmocka_unit_test_setup_teardown(bad_arguments, exec_setup, exec_teardown),
        cmocka_unit_test_setup_teardown(spec_and_name, exec_setup, exec_teardown),
    };
    return cmocka_run_group_tests_name("adapters_exec_open", tests, NULL, NULL);
}
