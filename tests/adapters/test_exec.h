/* Shared by the exec client tests (test_exec*.c): fixture paths, per-test checks that no fd
 * and no child process is left behind, and message assertions. */
#ifndef TEST_EXEC_H
#define TEST_EXEC_H

#include <stddef.h>

#include "adapter.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define EXEC_SLOW 10.0 /* timeouts of tests that expect none (never reached) */
#define EXEC_FAST 0.3  /* timeouts of tests that expect one (keeps the group fast) */
/* Timeouts of tests that expect one after some output (a banner, a reply line): the message
 * quotes what arrived, so the output must beat the limit even on a loaded machine, which
 * 0.3 s does not promise (a shell's start alone can take longer there). */
#define EXEC_PARTIAL 5.0
/* How long a test waits for an event that must come (an adapter's output, its end), and the
 * most a timed case may take past its own timeout (a kill and a reap): far beyond anything a
 * loaded 2-core machine takes, and still below the 30 s the fixtures sleep, so a limit that
 * is not enforced fails the test. */
#define EXEC_EVENT_MAX 20.0

/* The python3 to run fixtures with ("'/usr/bin/python3'", quoted for sh), or NULL when the
 * build found none: then Python tests skip. */
const char *exec_python(void);

double exec_clock(void); /* monotonic seconds */

/* Opens COMMAND through gc_exec_open with these timeouts (the batch timeout is also the
 * close grace period). */
enum gc_status exec_open(const char *command, double startup, double batch,
                         struct gc_adapter **a, char *msg, size_t size);
/* Waits until the adapter's stdout has events (POLLIN: bytes to read; POLLHUP: its end, the
 * adapter exited): the test synchronises on that, never on a sleep.  Fails the test (naming
 * why) when they do not come within EXEC_EVENT_MAX. */
void exec_wait_output(const struct gc_adapter *a, short events, const char *why);
/* Sets the batch timeout (and the grace period that follows it) of an open adapter, so that
 * a short limit applies to the one batch that tests it, not to the good batches around it. */
void exec_set_batch_timeout(struct gc_adapter *a, double batch);
/* The kernel called name; fails the test when there is none. */
const struct gc_kernel *exec_kernel(const struct gc_adapter *a, const char *name);
/* Fails the test (naming why) unless st == want and msg names the exec adapter and contains
 * needle. */
void exec_expect(enum gc_status st, const char *msg, enum gc_status want, const char *needle,
                 const char *why);

/* cmocka setup and teardown: the teardown fails when an fd or a child process (running or
 * zombie) is left over from the test. */
/* A table row: an adapter command and what opening or evaluating it must give. */
struct exec_case {
    const char *command;
    int timed; /* tests a time limit: 1 timeouts EXEC_FAST, 2 EXEC_PARTIAL, 0 EXEC_SLOW */
    enum gc_status st;
    const char *needle; /* in the message */
    const char *why;
};

/* The timeouts of a row (exec_case.timed). */
static inline double exec_timeout(int timed)
{
    return timed == 1 ? EXEC_FAST : timed == 2 ? EXEC_PARTIAL : EXEC_SLOW;
}

int exec_setup(void **state);
int exec_teardown(void **state);

int exec_open_tests(void);     /* test_exec_open.c */
int exec_eval_tests(void);     /* test_exec_eval.c */
int exec_example_tests(void);  /* test_exec_examples.c */
int exec_hostile_tests(void);  /* test_exec_hostile.c */

#endif
