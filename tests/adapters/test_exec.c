/* The exec client (adapters/exec) against fixture adapters.  Groups: open (the banner up to
 * 'ready' and close), eval (requests and every way a reply can go wrong), examples (the Python
 * and C examples, values checked against the reference).  Usage: test_adapters_exec [GROUP] */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include <cmocka.h>

#include "exec_internal.h"
#include "test_exec.h"

const char *exec_python(void)
{
    static const char py[] = "'" EXEC_PYTHON3 "'";

    return strlen(EXEC_PYTHON3) > 0 && !strstr(EXEC_PYTHON3, "NOTFOUND") ? py : NULL;
}

double exec_clock(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

enum gc_status exec_open(const char *command, double startup, double batch,
                         struct gc_adapter **a, char *msg, size_t size)
{
    struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;

    opt.startup_timeout_s = startup;
    opt.batch_timeout_s = batch;
    return gc_exec_open(command, NULL, &opt, a, msg, size);
}

void exec_wait_output(const struct gc_adapter *a, short events, const char *why)
{
    const struct exec_state *s = a->state;
    struct pollfd f = { s->p.out_fd, events, 0 };
    int r;

    /* an event, not a sleep: the adapter's output is there (or ended) when poll says so */
    while ((r = poll(&f, 1, (int)(EXEC_EVENT_MAX * 1e3))) < 0 && errno == EINTR)
        ;
    if (r <= 0 || !(f.revents & events))
        fail_msg("%s: the adapter's output did not show %s within %g s", why,
                 events & POLLHUP ? "its end" : "bytes", EXEC_EVENT_MAX);
}

void exec_set_batch_timeout(struct gc_adapter *a, double batch)
{
    struct exec_state *s = a->state;

    s->batch_s = batch;
    s->grace_s = batch < EXEC_GRACE_S ? batch : EXEC_GRACE_S; /* as gc_exec_open sets it */
}

const struct gc_kernel *exec_kernel(const struct gc_adapter *a, const char *name)
{
    for (size_t i = 0; a && i < a->n_kernels; i++)
        if (strcmp(a->kernels[i].name, name) == 0)
            return &a->kernels[i];
    print_error("no kernel '%s'\n", name);
    fail();
    return NULL;
}

void exec_expect(enum gc_status st, const char *msg, enum gc_status want, const char *needle,
                 const char *why)
{
    if (st == want && strncmp(msg, "exec adapter '", 14) == 0 && strstr(msg, needle))
        return;
    print_error("%s: got status %d, message \"%s\"\n  want status %d, a message naming the "
                "adapter with \"%s\"\n", why, (int)st, msg, (int)want, needle);
    fail();
}

static int fd_count(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;

    if (!d)
        return -1;
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

static int fds_before;

int exec_setup(void **state)
{
    (void)state;
    fds_before = fd_count();
    return 0;
}

int exec_teardown(void **state)
{
    (void)state;
    int fds = fd_count();
    errno = 0;
    pid_t child = waitpid(-1, NULL, WNOHANG);
    int none = child == -1 && errno == ECHILD;
    if (fds != fds_before)
        print_error("fd leak: %d open before the test, %d after\n", fds_before, fds);
    if (!none)
        print_error("a child process is left over (waitpid(-1) gave %d)\n", (int)child);
    return fds == fds_before && none ? 0 : -1;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(void);
    } groups[] = { { "open", exec_open_tests }, { "eval", exec_eval_tests },
                   { "examples", exec_example_tests },
                   { "hostile", exec_hostile_tests } };
    int failed = 0, ran = 0;

    for (size_t i = 0; i < N(groups); i++)
        if (argc < 2 || strcmp(argv[1], groups[i].name) == 0) {
            failed |= groups[i].run();
            ran++;
        }
    if (!ran) {
        fprintf(stderr, "test_adapters_exec: unknown group '%s' (open, eval, examples, "
                        "hostile)\n", argv[1]);
        return 2;
    }
    return failed ? 1 : 0;
}
