/* Group eval: requests against exec_fixtures/misbehave.py, which serves good.f64 (y = 2x),
 * fails.f64 (always 'error ...') and bad.f64, broken in the way its argument says. */
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_exec.h"

struct bad_eval {
    const char *mode;
    int timed; /* tests a time limit: that batch's timeout EXEC_FAST, else EXEC_SLOW */
    size_t n;
    enum gc_status st;
    const char *needle;
    const char *why;
    int signal, exit_status; /* GC_E_DIED: what gc_eval_extra says */
};

static const struct bad_eval bad_evals[] = {
    { "short", 0, 4, GC_E_DIED,
      "kernel 'bad.f64': short reply to 'eval bad.f64 4': 28 of 32 payload bytes, then exited "
      "with status 0", "short reply", 0, 0 },
    { "long", 0, 4, GC_E_EVAL, "long reply to 'eval bad.f64 4': more than its 32 payload bytes",
      "long reply", 0, 0 },
    { "count", 0, 4, GC_E_EVAL, "reply 'ok 5' to 'eval bad.f64 4': count differs",
      "wrong count", 0, 0 },
    { "garbage", 0, 4, GC_E_EVAL, "unexpected reply 'hello there' to 'eval bad.f64 4'",
      "garbage", 0, 0 },
    { "sign", 0, 4, GC_E_EVAL, "unexpected reply 'ok +4' to 'eval bad.f64 4'",
      "a signed count", 0, 0 },
    { "exit", 0, 4, GC_E_DIED,
      "exited with status 3 before replying to 'eval bad.f64 4'; stderr: 'fixture: giving up'",
      "exits mid-request", 0, 3 },
    { "segv", 0, 4, GC_E_DIED,
      "was killed by SIGSEGV (Segmentation fault) before replying to 'eval bad.f64 4'",
      "kills itself with SIGSEGV", SIGSEGV, 0 },
    { "abort", 0, 4, GC_E_DIED, "was killed by SIGABRT (Aborted) before replying to 'eval bad.f64 4'",
      "aborts", SIGABRT, 0 },
    { "hang", 1, 4, GC_E_TIMEOUT, "no reply to 'eval bad.f64 4' within 0.3 s",
      "never answers", 0, 0 },
    { "escape", 1, 4, GC_E_TIMEOUT, "no reply to 'eval bad.f64 4' within 0.3 s",
      "leaves its process group, then never answers: the leader is killed all the same", 0, 0 },
    { "noread", 1, 65536, GC_E_TIMEOUT, "did not read 'eval bad.f64 65536' within 0.3 s",
      "never reads its input: the host's write times out", 0, 0 },
    { "closein", 0, 65536, GC_E_DIED, "exited with status 5 before replying to 'eval bad.f64 65536'",
      "exits unread: EPIPE, and no SIGPIPE kills the host", 0, 5 },
    { "longline", 0, 4, GC_E_EVAL, "reply to 'eval bad.f64 4' longer than 4096 bytes: 'aaaa",
      "a reply line of 10000 bytes", 0, 0 },
    { "nul", 0, 4, GC_E_EVAL, "NUL byte in the reply to 'eval bad.f64 4': 'ok\\x00 4'",
      "a NUL byte", 0, 0 },
};

static double xs[65536], ys[65536];

static struct gc_adapter *open_fixture(const char *mode, double batch)
{
    char cmd[1024], msg[1024];
    struct gc_adapter *a = NULL;

    /* exec: the fixture is the group leader itself, as a compiled adapter would be */
    snprintf(cmd, sizeof cmd, "exec %s '%s/misbehave.py' %s", exec_python(), EXEC_FIXTURES,
             mode);
    /* start-up may be slow on a loaded machine: only a batch timeout is ever tested */
    if (exec_open(cmd, EXEC_SLOW, batch, &a, msg, sizeof msg) != GC_OK)
        fail_msg("%s", msg);
    return a;
}

/* good.f64 on n elements: works and doubles them exactly. */
static void expect_good(struct gc_adapter *a, size_t n)
{
    char msg[1024];

    for (size_t i = 0; i < n; i++) {
        xs[i] = (double)i - 1.5;
        ys[i] = -1;
    }
    enum gc_status st = gc_kernel_eval(exec_kernel(a, "good.f64"), xs, ys, n, msg, sizeof msg);
    if (st != GC_OK)
        fail_msg("good.f64 on %zu elements: %s", n, msg);
    for (size_t i = 0; i < n; i++)
        assert_true(ys[i] == 2 * xs[i]);
}

/* Each misbehaviour fails its batch with the status and message of its row; GC_E_DIED says
 * how the process ended in gc_eval_extra.  Afterwards: a process that died or stalled stays
 * stopped (every eval fails at once, saying why) until gc_adapter_restart brings it back
 * with the same kernels; one whose reply broke the protocol is restarted by the next eval. */
static void bad_eval(void **state)
{
    (void)state;
    if (!exec_python())
        skip();
    for (size_t i = 0; i < N(bad_evals); i++) {
        const struct bad_eval *b = &bad_evals[i];
        struct gc_adapter *a = open_fixture(b->mode, EXEC_SLOW);
        const struct gc_kernel *good = exec_kernel(a, "good.f64");
        struct gc_eval_extra ex = { 0 };
        char msg[1024];
        expect_good(a, 3);
        /* the short limit only for the batch that tests it: a loaded machine must not turn
           the good batches into timeouts */
        exec_set_batch_timeout(a, b->timed ? EXEC_FAST : EXEC_SLOW);
        double t0 = exec_clock();
        enum gc_status st =
            gc_kernel_eval_ex(exec_kernel(a, "bad.f64"), xs, ys, b->n, &ex, msg, sizeof msg);
        exec_expect(st, msg, b->st, b->needle, b->why);
        if (b->timed && exec_clock() - t0 > EXEC_FAST + EXEC_EVENT_MAX) /* then a kill */
            fail_msg("%s: took %.2f s", b->why, exec_clock() - t0);
        if (b->st == GC_E_DIED && (ex.signal != b->signal || ex.exit_status != b->exit_status))
            fail_msg("%s: signal %d, exit status %d; want %d, %d", b->why, ex.signal,
                     ex.exit_status, b->signal, b->exit_status);
        if (b->st == GC_E_EVAL) { /* restarted by the next request */
            expect_good(a, 5);
            gc_adapter_close(a);
            continue;
        }
        /* stopped: the next request fails at once, saying why (the message says it was not
           sent: a request would have met the dead process and said how it died) */
        st = gc_kernel_eval(good, xs, ys, 1, msg, sizeof msg);
        exec_expect(st, msg, GC_E_DIED, "stopped after an earlier failure (kernel 'bad.f64': ",
                    b->why);
        /* restarted: the same kernels (the same pointers) work again */
        if (gc_adapter_restart(a, msg, sizeof msg) != GC_OK)
            fail_msg("%s: restart: %s", b->why, msg);
        exec_set_batch_timeout(a, EXEC_SLOW);
        assert_ptr_equal(exec_kernel(a, "good.f64"), good);
        expect_good(a, 5);
        gc_adapter_close(a);
    }
}

/* A restart that brings up other kernels, or nothing, fails; the adapter then stays stopped
 * (GC_E_LOAD: it cannot be served) and says why. */
static void restart_fails(void **state)
{
    (void)state;
    if (!exec_python())
        skip();
    char dir[] = "/tmp/gc_restart_XXXXXX", path[64], cmd[512], msg[1024];
    if (!mkdtemp(dir))
        fail_msg("mkdtemp failed");
    snprintf(path, sizeof path, "%s/first", dir);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fclose(fp);
    /* the first start (the marker file is there) offers k.f64, every later one other.f64 */
    snprintf(cmd, sizeof cmd,
             "if rm '%s' 2>/dev/null; then k=k.f64; else k=other.f64; fi; "
             "printf 'gelucheck-exec 1\\nkernel %%s gelu f64\\nready\\n' $k; exec sleep 30",
             path);
    struct gc_adapter *a = NULL;
    if (exec_open(cmd, EXEC_SLOW, EXEC_FAST, &a, msg, sizeof msg) != GC_OK)
        fail_msg("%s", msg);
    enum gc_status st = gc_adapter_restart(a, msg, sizeof msg);
    exec_expect(st, msg, GC_E_INVALID, "restarted, it offered kernel 1 as 'other.f64 gelu f64' "
                "instead of 'k.f64 gelu f64'", "a restart that offers other kernels");
    st = gc_kernel_eval(exec_kernel(a, "k.f64"), xs, ys, 1, msg, sizeof msg);
    exec_expect(st, msg, GC_E_LOAD, "stopped after an earlier failure (restart failed: ",
                "evals after a failed restart");
    gc_adapter_close(a);
    rmdir(dir);
}

/* An 'error' reply fails that batch only: the other kernels, and the same one, go on. */
static void error_reply(void **state)
{
    (void)state;
    if (!exec_python())
        skip();
    struct gc_adapter *a = open_fixture("none", EXEC_SLOW);
    char msg[1024];

    for (int round = 0; round < 2; round++) {
        enum gc_status st =
            gc_kernel_eval(exec_kernel(a, "fails.f64"), xs, ys, 4, msg, sizeof msg);
        exec_expect(st, msg, GC_E_EVAL,
                    "kernel 'fails.f64': error: fixture: this kernel always fails", "error reply");
        expect_good(a, 5);
    }
    gc_adapter_close(a);
}

/* n = 0 is a request too; batches above 65536 go as several requests. */
static void batch_sizes(void **state)
{
    (void)state;
    if (!exec_python())
        skip();
    struct gc_adapter *a = open_fixture("none", EXEC_SLOW);

    expect_good(a, 0);
    expect_good(a, 1);
    expect_good(a, 65536);
    gc_adapter_close(a);
}

/* A line sent after a complete reply shows up before the next request: the test waits until
 * it is there (an event), so the next request always finds it first. */
static void unasked_output(void **state)
{
    (void)state;
    if (!exec_python())
        skip();
    struct gc_adapter *a = open_fixture("unasked", EXEC_SLOW);
    char msg[1024];

    assert_int_equal(gc_kernel_eval(exec_kernel(a, "bad.f64"), xs, ys, 4, msg, sizeof msg),
                     GC_OK);
    exec_wait_output(a, POLLIN, "unasked output");
    enum gc_status st = gc_kernel_eval(exec_kernel(a, "good.f64"), xs, ys, 4, msg, sizeof msg);
    exec_expect(st, msg, GC_E_EVAL, "sent 'surprise' unasked, before 'eval good.f64 4'",
                "unasked output");
    gc_adapter_close(a);
}

/* 1 MB on stderr during a request: drained while we wait, so no deadlock. */
static void chatty_stderr(void **state)
{
    (void)state;
    if (!exec_python())
        skip();
    struct gc_adapter *a = open_fixture("chatty", EXEC_SLOW);
    char msg[1024];

    xs[0] = 3;
    if (gc_kernel_eval(exec_kernel(a, "bad.f64"), xs, ys, 1, msg, sizeof msg) != GC_OK)
        fail_msg("%s", msg);
    assert_true(ys[0] == 6);
    gc_adapter_close(a);
}

/* An adapter that exits between requests: the next one says so, in the same words whether
 * the host sees the end of its output before it sends the request (waited for here: its
 * stdout hangs up) or only when it reads the reply ('exit' mode, the row in bad_evals:
 * it reads the request line and exits). */
static void exit_between(void **state)
{
    (void)state;
    if (!exec_python())
        skip();
    struct gc_adapter *a = open_fixture("exitafter", EXEC_SLOW);
    char msg[1024];

    assert_int_equal(gc_kernel_eval(exec_kernel(a, "bad.f64"), xs, ys, 4, msg, sizeof msg),
                     GC_OK);
    exec_wait_output(a, POLLHUP, "exit between requests");
    enum gc_status st = gc_kernel_eval(exec_kernel(a, "good.f64"), xs, ys, 4, msg, sizeof msg);
    exec_expect(st, msg, GC_E_DIED, "exited with status 0 before replying to 'eval good.f64 4'",
                "exit between requests, seen before the request");
    gc_adapter_close(a);
}

int exec_eval_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(bad_eval, exec_setup, exec_teardown),
        cmocka_unit_test_setup_teardown(restart_fails, exec_setup, exec_teardown),
        cmocka_unit_test_setup_teardown(error_reply, exec_setup, exec_teardown),
        cmocka_unit_test_setup_teardown(batch_sizes, exec_setup, exec_teardown),
        cmocka_unit_test_setup_teardown(unasked_output, exec_setup, exec_teardown),
        cmocka_unit_test_setup_teardown(chatty_stderr, exec_setup, exec_teardown),
        cmocka_unit_test_setup_teardown(exit_between, exec_setup, exec_teardown),
    };
    return cmocka_run_group_tests_name("adapters_exec_eval", tests, NULL, NULL);
}
