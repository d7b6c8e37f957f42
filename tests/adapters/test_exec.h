/* Shared by the exec client tests (test_exec*.c): fixture paths, per-test checks that no fd
 * and no child process is left behind, and message assertions. */
#ifndef TEST_EXEC_H
#define TEST_EXEC_H

#include <stddef.h>

#include "adapter.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define EXEC_SLOW 10.0 /* timeouts of tests that expect none (never reached) */
#define EXEC_FAST 0.3  /* timeouts of tests that expect one (keeps the group fast) */

/* The python3 to run fixtures with ("'/usr/bin/python3'", quoted for sh), or NULL when the
 * build found none: then Python tests skip. */
const char *exec_python(void);

double exec_clock(void); /* monotonic seconds */

/* Opens COMMAND through gc_exec_open with these timeouts (the batch timeout is also the
 * close grace period). */
enum gc_status exec_open(const char *command, double startup, double batch,
                         struct gc_adapter **a, char *msg, size_t size);
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
    int timed; /* tests a time limit: timeouts EXEC_FAST, else EXEC_SLOW */
    enum gc_status st;
    const char *needle; /* in the message */
    const char *why;
};

int exec_setup(void **state);
int exec_teardown(void **state);

int exec_open_tests(void);     /* test_exec_open.c */
int exec_eval_tests(void);     /* test_exec_eval.c */
int exec_example_tests(void);  /* test_exec_examples.c */
int exec_hostile_tests(void);  /* test_exec_hostile.c */

#endif
