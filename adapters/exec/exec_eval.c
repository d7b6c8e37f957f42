/* Requests: "eval NAME N" and N little-endian elements out, "ok N" and N elements back, or
 * "error MESSAGE" (the adapter stays usable).  Batches above EXEC_BATCH_MAX go as several
 * requests.  Any other reply, a count that differs, a short or long payload, silence past the
 * batch timeout or an exit stops the process: its output can no longer be trusted to line up
 * with our requests, so its group is killed.  Then:
 *   - it died or stalled (GC_E_DIED with gc_eval_extra.signal or .exit_status, GC_E_TIMEOUT):
 *     every eval fails at once until the host calls ops->restart (exec_restart), so that the
 *     host decides when to start it again (suites/ctx.c bisects the batch, restarting after
 *     each failure);
 *   - its reply broke the protocol (GC_E_EVAL, an adapter_error): the process is unusable
 *     but nothing is gained by asking the host, so the next eval restarts it first.
 *
 * The verdict never depends on which the host notices first, the adapter's output or its
 * exit.  What it wrote is read and judged before its end is: a write that finds its stdin
 * closed (EPIPE) goes on to read the reply, and only an output that ends with nothing more
 * to judge makes the message "exited ... before replying to 'eval K N'", which is true
 * whether it exited before the request, while it was being written, or after reading it.
 * Once its output has ended, it gets until the request's deadline (at least the grace
 * period) to exit, so that a slow exit on a loaded machine is still reported as an exit. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>

#include "exec_internal.h"

struct req {
    struct exec_state *s;
    const struct gc_kernel *k;
    struct gc_eval_extra *ex; /* where GC_E_DIED says how the process ended */
    char text[160]; /* "eval NAME N", for messages */
    double deadline; /* of the request now in flight */
    char *msg;
    size_t size;
};

static int host_is_le(void)
{
    const uint16_t one = 1;
    unsigned char b;

    memcpy(&b, &one, 1);
    return b == 1;
}

/* Reverses the bytes of each w-byte element (d == s allowed). */
static void swap_elems(unsigned char *d, const unsigned char *s, size_t n, size_t w)
{
    for (size_t i = 0; i < n; i++, d += w, s += w) {
        unsigned char t[8];
        memcpy(t, s, w);
        for (size_t j = 0; j < w; j++)
            d[j] = t[w - 1 - j];
    }
}

/* Fails the request with "kernel 'K': DETAIL".  Unless keep, the adapter is killed first (its
 * stderr then quoted) and marked dead. */
static enum gc_status fail(struct req *r, enum gc_status st, int keep, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static enum gc_status fail(struct req *r, enum gc_status st, int keep, const char *fmt, ...)
{
    struct exec_state *s = r->s;
    char detail[700];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    if (!keep) {
        exec_end(&s->p, 0.0);
        exec_close_fds(&s->p);
        s->dead = st;
        snprintf(s->dead_msg, sizeof s->dead_msg, "kernel '%s': %s", r->k->name, detail);
    }
    exec_msg(s, !keep, r->msg, r->size, "kernel '%s': %s", r->k->name, detail);
    return st;
}

/* Its output ended: give it until the request's deadline (at least the grace period) to
 * exit, then say how it ended, after what (if anything); with nothing, before replying. */
static enum gc_status died(struct req *r, const char *what)
{
    char how[120], mem[120] = "";
    struct exec_state *s = r->s;
    double grace = exec_now() + s->grace_s;

    if (exec_end(&s->p, r->deadline > grace ? r->deadline : grace)) {
        exec_exit_text(&s->p, how, sizeof how);
        if (WIFSIGNALED(s->p.status))
            r->ex->signal = WTERMSIG(s->p.status);
        else if (WIFEXITED(s->p.status))
            r->ex->exit_status = WEXITSTATUS(s->p.status);
    } else {
        snprintf(how, sizeof how, "closed its output, then was killed"); /* by us: SIGKILL */
        r->ex->signal = SIGKILL;
    }
    if (gc_mem_cage_oom(&s->cage)) { /* only with a cgroup (--memory-limit) */
        gc_mem_describe(s->mem->bytes, GC_MEM_CGROUP, "the adapter's", r->ex->oom,
                        sizeof r->ex->oom);
        snprintf(mem, sizeof mem, "; it ran out of memory, %s", r->ex->oom);
    }
    if (what[0])
        return fail(r, GC_E_DIED, 0, "%s, then %s%s", what, how, mem);
    return fail(r, GC_E_DIED, 0, "%s before replying to '%s'%s", how, r->text, mem);
}

static enum gc_status read_failed(struct req *r, enum exec_read e, const struct exec_line *l)
{
    char q[300];

    exec_quote(q, sizeof q, l->text, l->len, 60);
    switch (e) {
    case EXEC_R_TIMEOUT:
        return fail(r, GC_E_TIMEOUT, 0, "no reply to '%s' within %g s", r->text, r->s->batch_s);
    case EXEC_R_LONG:
        return fail(r, GC_E_EVAL, 0, "reply to '%s' longer than %d bytes: '%s'", r->text,
                    EXEC_LINE_MAX, q);
    case EXEC_R_NUL:
        return fail(r, GC_E_EVAL, 0, "NUL byte in the reply to '%s': '%s'", r->text, q);
    case EXEC_R_EOF:
        if (l->len) {
            char what[600];
            snprintf(what, sizeof what, "reply '%s' to '%s' without a line end", q, r->text);
            return died(r, what);
        }
        return died(r, "");
    default:
        return fail(r, GC_E_DIED, 0, "cannot read its output: %s", strerror(errno));
    }
}

/* "ok N": N decimal digits only, no sign, at most 7 of them. */
static int parse_ok(const char *t, size_t *n)
{
    size_t d = strspn(t + 3, "0123456789");

    if (strncmp(t, "ok ", 3) != 0 || d == 0 || d > 7 || t[3 + d] != '\0')
        return 0;
    *n = (size_t)strtoul(t + 3, NULL, 10);
    return 1;
}

static enum gc_status payload(struct req *r, unsigned char *y, size_t n, double deadline)
{
    struct exec_state *s = r->s;
    size_t bytes = n * r->k->elem_size, got = 0;
    struct exec_line l;
    char q[300], what[300];

    enum exec_read e = bytes ? exec_read_bytes(&s->p, y, bytes, &got, deadline) : EXEC_R_OK;
    if (e == EXEC_R_EOF) {
        snprintf(what, sizeof what, "short reply to '%s': %zu of %zu payload bytes", r->text,
                 got, bytes);
        return died(r, what);
    }
    if (e == EXEC_R_TIMEOUT)
        return fail(r, GC_E_TIMEOUT, 0, "short reply to '%s': %zu of %zu payload bytes within %g s",
                    r->text, got, bytes, s->batch_s);
    if (e != EXEC_R_OK)
        return fail(r, GC_E_DIED, 0, "cannot read its output: %s", strerror(errno));
    /* more bytes already there: a long reply (ones written later show up as unasked output
       before the next request) */
    if (exec_unasked(&s->p, &l) > 0) {
        exec_quote(q, sizeof q, l.text, l.len, 24);
        return fail(r, GC_E_EVAL, 0, "long reply to '%s': more than its %zu payload bytes ('%s')",
                    r->text, bytes, q);
    }
    if (!host_is_le())
        swap_elems(y, y, n, r->k->elem_size);
    return GC_OK;
}

static enum gc_status reply(struct req *r, const struct exec_line *l, unsigned char *y, size_t n,
                            double deadline)
{
    char q[300];
    size_t m = 0;

    if (strncmp(l->text, "error", 5) == 0 && (l->text[5] == ' ' || l->text[5] == '\0')) {
        const char *t = l->text[5] ? l->text + 6 : "(no message)";
        exec_quote(q, sizeof q, t, strlen(t), 200);
        return fail(r, GC_E_EVAL, 1, "error: %s", q);
    }
    exec_quote(q, sizeof q, l->text, l->len, 60);
    if (!parse_ok(l->text, &m))
        return fail(r, GC_E_EVAL, 0, "unexpected reply '%s' to '%s'", q, r->text);
    if (m != n)
        return fail(r, GC_E_EVAL, 0, "reply '%s' to '%s': count differs", q, r->text);
    return payload(r, y, n, deadline);
}

/* Writes the request.  GC_OK also when the adapter closed its stdin (EPIPE): what it wrote is
 * judged first, then its end (a reply, a reply cut short, or nothing when the caller's read
 * meets the end of its output). */
static enum gc_status send_request(struct req *r, const unsigned char *x, size_t n,
                                   double deadline)
{
    struct exec_state *s = r->s;
    size_t w = r->k->elem_size;
    char head[200];

    int hn = snprintf(head, sizeof head, "%s\n", r->text);
    if (!host_is_le()) {
        if (!s->scratch && !(s->scratch = malloc(EXEC_BATCH_MAX * 8)))
            return fail(r, GC_E_NOMEM, 1, "out of memory");
        swap_elems(s->scratch, x, n, w);
        x = s->scratch;
    }
    enum exec_read e = exec_write(&s->p, head, (size_t)hn, deadline);
    if (e == EXEC_R_OK && n > 0)
        e = exec_write(&s->p, x, n * w, deadline);
    if (e == EXEC_R_TIMEOUT)
        return fail(r, GC_E_TIMEOUT, 0, "did not read '%s' within %g s", r->text, s->batch_s);
    if (e != EXEC_R_OK && e != EXEC_R_EOF)
        return fail(r, GC_E_DIED, 0, "cannot write to it: %s", strerror(errno));
    return GC_OK;
}

static enum gc_status eval_chunk(struct req *r, const unsigned char *x, unsigned char *y, size_t n)
{
    struct exec_line l;
    char q[300];
    double deadline = exec_now() + r->s->batch_s;

    r->deadline = deadline;
    snprintf(r->text, sizeof r->text, "eval %s %zu", r->k->name, n);
    int u = exec_unasked(&r->s->p, &l);
    if (u < 0) /* its output ended after the last reply: nothing more to judge */
        return died(r, "");
    if (u > 0) {
        exec_quote(q, sizeof q, l.text, l.len, 60);
        return fail(r, GC_E_EVAL, 0, "sent '%s' unasked, before '%s'", q, r->text);
    }
    enum gc_status st = send_request(r, x, n, deadline);
    if (st != GC_OK)
        return st;
    enum exec_read e = exec_read_line(&r->s->p, &l, deadline);
    if (e != EXEC_R_OK)
        return read_failed(r, e, &l);
    return reply(r, &l, y, n, deadline);
}

static enum gc_status exec_eval(struct gc_adapter *a, const struct gc_kernel *k, const void *x,
                                void *y, size_t n, struct gc_eval_extra *ex, char *msg,
                                size_t size)
{
    struct gc_eval_extra none = { 0 };
    struct req r = { a->state, k, ex ? ex : &none, "", 0.0, msg, size };
    size_t done = 0;

    if (!r.s || k->index >= a->n_kernels || k != &a->kernels[k->index]) {
        if (msg && size)
            snprintf(msg, size, "exec adapter: eval on a closed adapter or a foreign kernel");
        return GC_E_INVALID;
    }
    if (r.s->dead == GC_E_EVAL) { /* killed after a protocol break: start it again */
        enum gc_status st = exec_restart(a, msg, size);
        if (st != GC_OK)
            return GC_E_LOAD;
    }
    if (r.s->dead) {
        /* GC_E_LOAD: a restart failed (the adapter cannot be served, an adapter_error);
           else it died or stalled and nobody restarted it */
        exec_msg(r.s, 0, msg, size, "stopped after an earlier failure (%s)", r.s->dead_msg);
        return r.s->dead == GC_E_LOAD ? GC_E_LOAD : GC_E_DIED;
    }
    do { /* n == 0 still makes one request: the adapter must answer "ok 0" */
        size_t c = n - done < EXEC_BATCH_MAX ? n - done : EXEC_BATCH_MAX;
        size_t off = done * k->elem_size;
        enum gc_status st = eval_chunk(&r, x ? (const unsigned char *)x + off : NULL,
                                       y ? (unsigned char *)y + off : NULL, c);
        if (st != GC_OK)
            return st;
        done += c;
    } while (done < n);
    return GC_OK;
}

static void exec_close(struct gc_adapter *a)
{
    exec_state_free(a->state, 1);
    a->state = NULL;
}

void exec_state_free(struct exec_state *s, int graceful)
{
    if (!s)
        return;
    exec_end(&s->p, graceful ? exec_now() + s->grace_s : 0.0);
    exec_close_fds(&s->p);
    gc_mem_cage_close(&s->cage);
    free(s->scratch);
    free(s->command);
    free(s->label);
    free(s);
}

const struct gc_adapter_ops exec_ops = { exec_eval, exec_close, exec_restart };
