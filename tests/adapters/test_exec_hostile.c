/* Group hostile (issue 8): replies no honest adapter sends, each a one-line sh fixture so the
 * row shows exactly the bytes.  Absurd, negative and non-numeric counts, truncated payloads,
 * NUL bytes, a megabyte without a line end, a million kernel lines: each ends in an error
 * naming the adapter, quickly, with no process or fd left (exec_teardown) and bounded memory
 * (the banner stops at EXEC_MAX_KERNELS, a line at 4096 bytes). */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "test_exec.h"

#define BANNER "printf 'gelucheck-exec 1\\nkernel k gelu f64\\nready\\n'; "
/* reads the request line (the payload stays in the pipe), replies REPLY, then waits for the
   host to close its stdin */
#define EVAL(reply) BANNER "read r; " reply "; cat >/dev/null"
#define BIG 65536 /* elements: 512 KiB of f64, more than a pipe holds */
#define MEGABYTE "head -c 1000000 /dev/zero | tr '\\000' a"

static const struct exec_case opens[] = {
    { "awk 'BEGIN { print \"gelucheck-exec 1\"; for (i = 0; i < 1000000; i++) "
      "print \"kernel k\" i \" gelu f32\"; print \"ready\" }'", 0, GC_E_INVALID,
      "bad kernel line 'kernel k4096 gelu f32': too many kernels", "a million kernel lines" },
    { "echo gelucheck-exec 1; " MEGABYTE "; cat >/dev/null", 0, GC_E_INVALID,
      "line longer than 4096 bytes: 'aaaa", "a megabyte without a line end, still running" },
    { "echo gelucheck-exec 1; " MEGABYTE, 0, GC_E_INVALID, "line longer than 4096 bytes: 'aaaa",
      "a megabyte without a line end, then exit" },
    { "printf '\\000gelucheck-exec 1\\n'", 0, GC_E_INVALID,
      "NUL byte in line '\\x00gelucheck-exec 1'", "a NUL byte before the banner" },
    { "printf 'gelucheck-exec 1\\nversion 1\\000\\nkernel k gelu f64\\nready\\n'", 0,
      GC_E_INVALID, "NUL byte in line 'version 1\\x00'", "a NUL byte in the version" },
    { "printf '\\377\\376\\001\\033[2J\\n'", 0, GC_E_INVALID,
      "expected 'gelucheck-exec 1', got '\\xff\\xfe\\x01\\x1b[2J'",
      "binary garbage, quoted escaped (no terminal control reaches the user)" },
    { "printf 'gelucheck-exec 99999999999999999999\\n'", 0, GC_E_INVALID,
      "unsupported protocol version '99999999999999999999'", "an absurd protocol version" },
    { "printf 'gelucheck-exec -1\\n'", 0, GC_E_INVALID, "unsupported protocol version '-1'",
      "a negative protocol version" },
    { "printf 'gelucheck-exec 1\\nkernel k gelu f32 %1000000s\\nready\\n' x", 0, GC_E_INVALID,
      "line longer than 4096 bytes", "a megabyte of description" },
};

static const struct exec_case evals[] = {
    { EVAL("printf 'ok 99999999999999999999\\n'"), 0, GC_E_EVAL,
      "kernel 'k': unexpected reply 'ok 99999999999999999999' to 'eval k 4'", "an absurd count" },
    { EVAL("printf 'ok 18446744073709551620\\n'"), 0, GC_E_EVAL,
      "unexpected reply 'ok 18446744073709551620' to 'eval k 4'", "2^64 + 4: wraps to 4" },
    { EVAL("printf 'ok 9999999\\n'"), 0, GC_E_EVAL,
      "reply 'ok 9999999' to 'eval k 4': count differs", "a large count, within 7 digits" },
    { EVAL("printf 'ok -4\\n'"), 0, GC_E_EVAL, "unexpected reply 'ok -4' to 'eval k 4'",
      "a negative count" },
    { EVAL("printf 'ok four\\n'"), 0, GC_E_EVAL, "unexpected reply 'ok four' to 'eval k 4'",
      "a count in words" },
    { EVAL("printf 'ok 4x\\n'"), 0, GC_E_EVAL, "unexpected reply 'ok 4x' to 'eval k 4'",
      "trailing garbage after the count" },
    { EVAL("printf 'ok 0x4\\n'"), 0, GC_E_EVAL, "unexpected reply 'ok 0x4' to 'eval k 4'",
      "a hex count" },
    { EVAL("printf 'ok 4 \\n'"), 0, GC_E_EVAL, "unexpected reply 'ok 4 ' to 'eval k 4'",
      "a blank after the count" },
    { EVAL("printf 'ok\\n'"), 0, GC_E_EVAL, "unexpected reply 'ok' to 'eval k 4'", "no count" },
    { EVAL("printf 'ok 4\\n0123456789'"), 2, GC_E_TIMEOUT,
      "short reply to 'eval k 4': 10 of 32 payload bytes within 5 s",
      "a truncated payload, then silence" },
    { EVAL("printf 'ok 4\\000\\n'"), 0, GC_E_EVAL,
      "NUL byte in the reply to 'eval k 4': 'ok 4\\x00'", "a NUL byte after the count" },
    { EVAL("printf 'error \\000\\n'"), 0, GC_E_EVAL,
      "NUL byte in the reply to 'eval k 4': 'error \\x00'", "a NUL byte in an error message" },
    { EVAL(MEGABYTE), 0, GC_E_EVAL, "reply to 'eval k 4' longer than 4096 bytes: 'aaaa",
      "a megabyte without a line end, still running" },
    { BANNER "read r; printf 'error '; " MEGABYTE, 0, GC_E_EVAL,
      "reply to 'eval k 4' longer than 4096 bytes: 'error aaaa", "a megabyte of error message" },
};

static double xs[BIG] = { -1, 0, 1, 2 }, ys[BIG];

/* An adapter's output is judged before its end, so each misbehaviour gets one message
 * whichever the host notices first.  Each row comes twice: the adapter reads the whole
 * request (head -c), so the host's write is done before it exits, or it reads only the line
 * of a request of BIG elements (8 * BIG bytes, beyond a pipe's 64 KiB), so the host is still
 * writing when it exits and its write fails with EPIPE: both orders forced, none left to the
 * scheduler. */
static const struct order_case {
    const char *reply; /* what the adapter writes before it exits */
    const char *needle;
    const char *why;
} orders[] = {
    { "printf 'ok #'", "reply 'ok #' to 'eval k #' without a line end, then exited with "
      "status 0", "the reply line cut short, then exit" },
    { "true", "exited with status 0 before replying to 'eval k #'", "exit without a reply" },
    { "printf 'ok #\\n0123456789'", "short reply to 'eval k #': 10 of @ payload bytes, "
      "then exited with status 0", "a truncated payload, then exit" },
    { "echo oops >&2; exit 3", "exited with status 3 before replying to 'eval k #'; stderr: "
      "'oops'", "exit 3 with a word on stderr" },
};

/* t with each '#' replaced by n and each '@' by its bytes, 8n */
static void fill_in(char *buf, size_t size, const char *t, size_t n)
{
    size_t len = 0;

    for (; *t && len + 24 < size; t++)
        if (*t == '#' || *t == '@')
            len += (size_t)snprintf(buf + len, size - len, "%zu", *t == '#' ? n : 8 * n);
        else
            buf[len++] = *t;
    buf[len] = '\0';
}

static void both_orders(void **state)
{
    (void)state;
    for (size_t i = 0; i < N(orders); i++) {
        for (int big = 0; big < 2; big++) {
            const struct order_case *o = &orders[i];
            size_t n = big ? BIG : 4;
            char cmd[512], reply[128], needle[256], why[200], msg[1024];
            struct gc_adapter *a = NULL;
            fill_in(reply, sizeof reply, o->reply, n);
            snprintf(cmd, sizeof cmd, BANNER "read r; %s%s",
                     big ? "" : "head -c 32 >/dev/null; ", reply);
            fill_in(needle, sizeof needle, o->needle, n);
            snprintf(why, sizeof why, "%s (%s)", o->why,
                     big ? "the host still writing: EPIPE" : "the request read whole");
            if (exec_open(cmd, EXEC_SLOW, EXEC_SLOW, &a, msg, sizeof msg) != GC_OK)
                fail_msg("%s: %s", why, msg);
            enum gc_status st = gc_kernel_eval(exec_kernel(a, "k"), xs, ys, n, msg, sizeof msg);
            exec_expect(st, msg, GC_E_DIED, needle, why);
            gc_adapter_close(a);
        }
    }
}

static void check(const struct exec_case *h, enum gc_status st, const char *msg, double t0)
{
    exec_expect(st, msg, h->st, h->needle, h->why);
    if (strchr(msg, '\n'))
        fail_msg("%s: message is not one line: %s", h->why, msg);
    if (h->timed && exec_clock() - t0 > exec_timeout(h->timed) + EXEC_EVENT_MAX) /* then a kill */
        fail_msg("%s: took %.2f s", h->why, exec_clock() - t0);
}

static void hostile_open(void **state)
{
    (void)state;
    for (size_t i = 0; i < N(opens); i++) {
        const struct exec_case *h = &opens[i];
        struct gc_adapter *a = NULL;
        char msg[1024];
        double t0 = exec_clock(), t = exec_timeout(h->timed);
        enum gc_status st = exec_open(h->command, t, t, &a, msg, sizeof msg);
        check(h, st, msg, t0);
        if (a != NULL)
            fail_msg("%s: adapter not NULL on failure", h->why);
    }
}

static void hostile_eval(void **state)
{
    (void)state;
    for (size_t i = 0; i < N(evals); i++) {
        const struct exec_case *h = &evals[i];
        struct gc_adapter *a = NULL;
        char msg[1024];
        double t = exec_timeout(h->timed);
        if (exec_open(h->command, EXEC_SLOW, t, &a, msg, sizeof msg) != GC_OK)
            fail_msg("%s: %s", h->why, msg);
        double t0 = exec_clock();
        enum gc_status st = gc_kernel_eval(exec_kernel(a, "k"), xs, ys, 4, msg, sizeof msg);
        check(h, st, msg, t0);
        gc_adapter_close(a);
    }
}

int exec_hostile_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(hostile_open, exec_setup, exec_teardown),
        cmocka_unit_test_setup_teardown(hostile_eval, exec_setup, exec_teardown),
        cmocka_unit_test_setup_teardown(both_orders, exec_setup, exec_teardown),
    };
    return cmocka_run_group_tests_name("adapters_exec_hostile", tests, NULL, NULL);
}
