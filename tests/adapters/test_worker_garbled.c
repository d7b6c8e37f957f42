/* The worker host (adapters/core/worker_host.c) against replies no gelucheck-worker sends:
 * GELUCHECK_WORKER points at fixtures/fake_worker.c, which says a right hello and serves
 * twice.f32 right, but for a batch of 5 elements sends the reply its mode names.  Each reply
 * buries the worker like a death (GC_E_DIED, one line naming the plug-in, the kernel and what
 * was wrong with the reply), leaves no child behind, keeps the adapter dead until restarted,
 * and a restart brings back a worker that serves again; closing leaves no descriptor open.
 * Nothing here waits on a clock: whether the buried worker left by itself or was killed
 * (the "how" in the message) is never asserted.  FX_FAKE_WORKER: the fake's path. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "adapter.h"

#define SPEC "plugin:fake.so" /* the host never loads it; the fake ignores it */
#define HEAD "plug-in 'fake.so': kernel 'twice.f32': "
#define GARBLE_N 5            /* the fake's batch size that gets the bad reply */

struct row {
    const char *mode; /* the fake's adapter options */
    const char *text; /* in the message, after HEAD */
    const char *why;
};

static const struct row rows[] = {
    { "garbage", "during an eval of 5 elements: the worker ",
      "no reply magic: taken for the worker's death" },
    { "status", "a reply to an eval of 5 elements was garbled: the worker ",
      "status 42: no gc_status" },
    { "negative", "a reply to an eval of 5 elements was garbled: the worker ",
      "status -1: below GC_OK" },
    { "note", "a reply to an eval of 5 elements was garbled: the worker ",
      "status 101: one past the crash note" },
    { "fault", "a reply to an eval of 5 elements was garbled: the worker ",
      "GC_E_FAULT with fault kind 9: no gc_fault_kind" },
    { "faultnone", "a reply to an eval of 5 elements was garbled: the worker ",
      "GC_E_FAULT with GC_FAULT_NONE: a fault that is none" },
    { "long", "a reply to an eval of 5 elements was garbled: the worker ",
      "msg_len past WK_STR_MAX: no worker sends it" },
    { "short", "a reply to an eval of 5 elements was cut short: the worker ",
      "100 message bytes announced, 10 sent, then the end" },
};

/* descriptors open in this process (the directory's own included, the same each time) */
static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;
    assert_non_null(d);
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

/* no child, running or a zombie */
static int no_child(void)
{
    return waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD;
}

/* twice.f32 on n inputs: the status; on GC_OK, y = 2x checked */
static enum gc_status twice(const struct gc_adapter *a, size_t n, char *msg, size_t size)
{
    float x[GARBLE_N] = { 0 }, y[GARBLE_N] = { 0 };
    assert_true(n <= GARBLE_N);
    for (size_t i = 0; i < n; i++)
        x[i] = (float)i - 1.5f;
    enum gc_status st = gc_kernel_eval(&a->kernels[0], x, y, n, msg, size);
    for (size_t i = 0; st == GC_OK && i < n; i++)
        assert_true(y[i] == 2.0f * x[i]);
    return st;
}

static void test_garbled(void **state)
{
    (void)state;
    struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;
    char msg[2048];
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        const struct row *w = &rows[r];
        struct gc_adapter *a;
        int fds = open_fds();
        opt.options = w->mode;
        if (gc_adapter_open(SPEC, &opt, &a, msg, sizeof msg) != GC_OK)
            fail_msg("%s: open: %s", w->why, msg);
        assert_int_equal(a->n_kernels, 1);
        assert_string_equal(a->kernels[0].name, "twice.f32");
        assert_int_equal(twice(a, 3, msg, sizeof msg), GC_OK); /* a good worker so far */
        enum gc_status st = twice(a, GARBLE_N, msg, sizeof msg);
        if (st != GC_E_DIED || strncmp(msg, HEAD, strlen(HEAD)) ||
            strncmp(msg + strlen(HEAD), w->text, strlen(w->text)) || strchr(msg, '\n'))
            fail_msg("%s (%s): status %d (want %d), message '%s', want '%s%s...'", w->why,
                     w->mode, st, GC_E_DIED, msg, HEAD, w->text);
        if (!no_child())
            fail_msg("%s (%s): the buried worker is still a child", w->why, w->mode);
        /* dead until restarted; then a fresh worker serves */
        assert_int_equal(twice(a, 3, msg, sizeof msg), GC_E_DIED);
        assert_non_null(strstr(msg, "(restart the adapter to go on)"));
        if (gc_adapter_restart(a, msg, sizeof msg) != GC_OK)
            fail_msg("%s (%s): restart: %s", w->why, w->mode, msg);
        assert_int_equal(twice(a, 3, msg, sizeof msg), GC_OK);
        gc_adapter_close(a);
        if (open_fds() != fds || !no_child())
            fail_msg("%s (%s): %d descriptors open after close (%d before), child left: %d",
                     w->why, w->mode, open_fds(), fds, !no_child());
    }
}

static int setup(void **state)
{
    (void)state;
    return setenv("GELUCHECK_WORKER", FX_FAKE_WORKER, 1);
}

static int teardown(void **state)
{
    (void)state;
    return unsetenv("GELUCHECK_WORKER");
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_garbled) };
    return cmocka_run_group_tests(tests, setup, teardown);
}
