/* Fuzz target: the client of the subprocess protocol (adapters/exec, docs/design.md section 5.2).
 *
 * The input is everything the adapter writes to its stdout: the banner, then the replies.  It
 * goes into a pipe whose write end is closed, so the reader sees exactly those bytes and then
 * the end of output, as from an adapter that wrote them and exited; the host's requests go to
 * /dev/null.  No process is started: the state says the (absent) child is reaped already.
 * After a good banner, up to 16 requests of 0 to 16 elements go to its kernels in turn, until
 * the client gives the adapter up.  Checked: no crash, leak or undefined behaviour, and every
 * message is one line. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec_internal.h"
#include "fuzz.h"

#define T "fuzz_exec"
#define FUZZ_EXEC_MAX 65536 /* what an empty pipe takes without a reader */

/* The pipe's read end holding data, its write end closed; -1 on failure. */
static int output_of(const uint8_t *data, size_t size)
{
    int fds[2];

    if (pipe(fds) != 0)
        return -1;
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(fds[1], data + done, size - done);
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    close(fds[1]);
    if (done < size) {
        close(fds[0]);
        return -1;
    }
    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    return fds[0];
}

/* Requests to the kernels of banner b until the adapter is given up. */
static void requests(struct exec_state *s, struct exec_banner *b)
{
    static const size_t sizes[] = { 1, 0, 2, 16, 3, 5 };
    unsigned char x[16 * 8] = { 0 }, y[16 * 8];
    struct gc_kernel *k = calloc(b->n, sizeof *k);
    struct gc_adapter a;
    char msg[1024];

    if (k == NULL)
        return;
    memset(&a, 0, sizeof a);
    a.kind = GC_ADAPTER_EXEC;
    a.n_kernels = b->n;
    a.kernels = k;
    a.ops = &exec_ops;
    a.state = s;
    for (size_t i = 0; i < b->n; i++) {
        k[i].name = b->k[i].name;
        k[i].description = b->k[i].desc;
        k[i].func = b->k[i].func;
        k[i].dtype = b->k[i].dtype;
        k[i].elem_size = gc_dtype_size(k[i].dtype);
        k[i].adapter = &a;
        k[i].index = i;
    }
    for (size_t i = 0; i < 16 && !s->dead; i++) {
        const struct gc_kernel *ki = &k[i % b->n];
        msg[0] = '\0';
        if (exec_ops.eval(&a, ki, x, y, sizes[i % 6], NULL, msg, sizeof msg) != GC_OK)
            fuzz_check_line(T, "eval", msg);
    }
    if (s->dead) { /* every later eval fails at once, with a message */
        msg[0] = '\0';
        if (exec_ops.eval(&a, &k[0], x, y, 1, NULL, msg, sizeof msg) == GC_OK)
            fuzz_fail(T, "eval on a stopped adapter succeeded");
        fuzz_check_line(T, "eval after stop", msg);
    }
    free(k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char command[] = "fuzz adapter";
    struct exec_banner b = { NULL, NULL, NULL, 0, 0 };
    char msg[1024];

    if (size > FUZZ_EXEC_MAX)
        return 0;
    struct exec_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        return 0;
    s->command = command;
    s->startup_s = s->batch_s = 30.0; /* never reached: the output has ended */
    s->grace_s = 0.0;
    s->p.reaped = 1; /* no child: exec_end does not wait or signal */
    s->p.err_fd = -1;
    s->p.out_fd = output_of(data, size);
    s->p.in_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (s->p.out_fd >= 0 && s->p.in_fd >= 0) {
        msg[0] = '\0';
        if (exec_read_banner(s, &b, msg, sizeof msg) == GC_OK)
            requests(s, &b);
        else
            fuzz_check_line(T, "banner", msg);
    }
    exec_banner_free(&b);
    exec_close_fds(&s->p);
    free(s);
    return 0;
}
