/* Built-ins and plug-ins run in gelucheck-worker (docs/design.md section 10): the host side.
 *
 * The host copies x (and the y window: the caller's slack bytes before and after y, and y
 * itself, when there is slack) into shared memory, sends one fixed-size request down a pipe,
 * and reads one reply; the kernel sees the batch at the same address mod 64 as the caller's,
 * x read-only, PROT_NONE pages around the y window.  Per call that costs two small pipe
 * messages and the copies; the memory is mapped once and grows on demand.  A write caught by a
 * guard is GC_E_FAULT with whole outputs (the worker let the kernel finish on a scratch page
 * and lives on).  A worker that dies or hangs past the batch timeout is GC_E_DIED or
 * GC_E_TIMEOUT and stays dead (every eval says so) until ops->restart starts a fresh one. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "worker.h"
#include "worker_proto.h"

static void unmap(struct gc_worker_state *s)
{
    if (s->map)
        munmap(s->map, s->x_cap + s->y_cap);
    s->map = NULL;
}

/* Room for x_need bytes in the x region and y_need in the y region: grown by doubling (a
 * sweep's batches settle at one size, after which nothing is remapped).  0 or -1. */
static int ensure(struct gc_worker_state *s, size_t x_need, size_t y_need)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);

    if (s->map && x_need <= s->x_cap && y_need <= s->y_cap)
        return 0;
    size_t xc = s->x_cap > x_need ? s->x_cap : x_need, yc = s->y_cap > y_need ? s->y_cap : y_need;
    if (xc > SIZE_MAX / 4 || yc > SIZE_MAX / 4)
        return -1;
    xc = xc > s->x_cap && s->x_cap ? (xc > 2 * s->x_cap ? xc : 2 * s->x_cap) : xc;
    yc = yc > s->y_cap && s->y_cap ? (yc > 2 * s->y_cap ? yc : 2 * s->y_cap) : yc;
    xc = (xc + page - 1) / page * page;
    yc = (yc + page - 1) / page * page;
    unmap(s);
    s->x_cap = s->y_cap = 0;
    if (ftruncate(s->shm, (off_t)(xc + yc)) != 0)
        return -1;
    void *m = mmap(NULL, xc + yc, PROT_READ | PROT_WRITE, MAP_SHARED, s->shm, 0);
    if (m == MAP_FAILED)
        return -1;
    s->map = m;
    s->x_cap = xc;
    s->y_cap = yc;
    return 0;
}

/* The worker is gone (or must go): reaps it, remembers why, and says so in msg.  oom: its
 * crash note said it ran out of memory. */
static enum gc_status bury(struct gc_worker_state *s, enum gc_status st, double deadline,
                           struct gc_eval_extra *ex, char *msg, size_t size, const char *what,
                           const char *after, int oom)
{
    char how[160], err[240], mem[120] = "";
    int sig, status;

    gc_worker_reap(s, deadline, &sig, &status, how, sizeof how);
    gc_worker_stderr(s, err, sizeof err);
    if (st == GC_E_DIED) {
        ex->signal = sig;
        ex->exit_status = status;
        if (gc_worker_oom(s, oom, ex->oom, sizeof ex->oom))
            snprintf(mem, sizeof mem, "; it ran out of memory, %s", ex->oom);
    }
    snprintf(s->dead_msg, sizeof s->dead_msg, "%s: %s: the worker %s%s%s%s", s->who, what, how,
             mem, mem[0] ? "" : after, err);
    gc_msg(msg, size, "%s", s->dead_msg);
    s->dead = st;
    return st;
}

/* "; the fault address is y + 8192 bytes (element 2048)" for a crash note near x or y */
static void near_text(const struct wk_rep *r, size_t elem, char *buf, size_t size)
{
    buf[0] = '\0';
    if (r->near == WK_NEAR_NONE)
        return;
    long long b = (long long)r->near_off, e = b >= 0 ? b / (long long)elem
                                                     : -((-b + (long long)elem - 1) / (long long)elem);
    snprintf(buf, size, "; the fault address is %s %c %lld bytes (element %lld)",
             r->near == WK_NEAR_X ? "x" : "y", b < 0 ? '-' : '+', b < 0 ? -b : b, e);
}

/* A write the guards caught: the kernel finished on a scratch page, the worker lives on. */
static void fault(struct gc_worker_state *s, const struct gc_kernel *k, size_t n,
                  const struct wk_rep *r, struct gc_eval_extra *ex, char *msg, size_t size)
{
    long long o = (long long)r->offset;

    ex->fault = (enum gc_fault_kind)r->fault;
    ex->offset = o;
    if (r->fault == GC_FAULT_INPUT)
        gc_msg(msg, size, "%s: kernel '%s' wrote into its read-only input at x[%lld] (batch "
               "of %zu), caught in the worker", s->who, k->name, o, n);
    else
        gc_msg(msg, size, "%s: kernel '%s' wrote %s at y[%lld] (batch of %zu), caught by a "
               "guard page in the worker", s->who, k->name,
               r->fault == GC_FAULT_AFTER_Y ? "past y[n-1]" : "before y[0]", o, n);
}

static enum gc_status read_reply(struct gc_worker_state *s, struct gc_adapter *a,
                                 const struct gc_kernel *k, size_t n, double deadline,
                                 struct wk_rep *r, struct gc_eval_extra *ex, char *msg,
                                 size_t size)
{
    char what[400], near[120] = "";
    size_t got;
    int oom = 0;

    for (;;) {
        enum exec_read rr = exec_read_bytes(&s->p, r, sizeof *r, &got, deadline);
        if (rr == EXEC_R_TIMEOUT) {
            snprintf(what, sizeof what, "kernel '%s': no reply within %g s (batch of %zu)",
                     k->name, s->batch_s, n);
            return bury(s, GC_E_TIMEOUT, 0.0, ex, msg, size, what, "", 0);
        }
        if (rr != EXEC_R_OK || r->magic != WK_MAGIC_REP) {
            snprintf(what, sizeof what, "kernel '%s': during an eval of %zu elements", k->name,
                     n);
            return bury(s, GC_E_DIED, exec_now() + GC_WORKER_GRACE_S, ex, msg, size, what,
                        near, oom);
        }
        if (r->status != WK_CRASH_NOTE)
            break;
        near_text(r, k->elem_size, near, sizeof near); /* then the death itself */
        oom = r->oom != 0;
    }
    char *text = NULL, *fp = NULL;
    enum gc_status st = (enum gc_status)r->status;
    /* the worker is ours, but the kernel shares its memory: a reply that is not one a worker
     * can send (a status, a fault kind or a length past WK_STR_MAX no worker sends) is a
     * worker the kernel broke, so it is buried like one that died */
    int sane = r->status >= GC_OK && r->status <= GC_E_FAULT &&
               (st != GC_E_FAULT ||
                (r->fault >= GC_FAULT_AFTER_Y && r->fault <= GC_FAULT_INPUT)) &&
               r->msg_len <= WK_STR_MAX && r->what_len <= WK_STR_MAX;
    enum exec_read rr = EXEC_R_OK;
    if (sane && (text = malloc((size_t)r->msg_len + r->what_len + 2)) &&
        (rr = exec_read_bytes(&s->p, text, r->msg_len, &got, deadline)) == EXEC_R_OK)
        rr = exec_read_bytes(&s->p, (fp = text + r->msg_len + 1), r->what_len, &got, deadline);
    if (!sane || !text || rr != EXEC_R_OK) {
        free(text);
        snprintf(what, sizeof what, "kernel '%s': a reply to an eval of %zu elements was %s",
                 k->name, n, sane ? "cut short" : "garbled");
        /* cut short by its end: it is exiting, so its own cause is waited for; garbled or
           stalled: it is killed at once */
        return bury(s, GC_E_DIED, rr == EXEC_R_EOF ? exec_now() + GC_WORKER_GRACE_S : 0.0, ex,
                    msg, size, what, "", 0);
    }
    text[r->msg_len] = fp[r->what_len] = '\0';
    if (r->fpenv_modified > s->fp_seen) { /* the in-process count, carried over */
        a->fpenv_modified += r->fpenv_modified - s->fp_seen;
        snprintf(a->fpenv_what, sizeof a->fpenv_what, "%s", fp);
    }
    s->fp_seen = r->fpenv_modified;
    if (st == GC_E_FAULT)
        fault(s, k, n, r, ex, msg, size);
    else if (st != GC_OK)
        gc_msg(msg, size, "%s", text);
    free(text);
    return st;
}

static enum gc_status worker_eval(struct gc_adapter *a, const struct gc_kernel *k,
                                  const void *x, void *y, size_t n, struct gc_eval_extra *ex,
                                  char *msg, size_t size)
{
    struct gc_worker_state *s = a->state;
    size_t e = k->elem_size, slack = ex->y_slack, ax = (uintptr_t)x % WK_ALIGN,
           ay = (uintptr_t)y % WK_ALIGN;
    int inplace = x == y;

    if (s->dead) {
        gc_msg(msg, size, "%s (restart the adapter to go on)", s->dead_msg);
        return s->dead;
    }
    if (n > SIZE_MAX / 8 / e || slack > SIZE_MAX / 8) {
        gc_msg(msg, size, "%s: kernel '%s': batch of %zu elements is absurd", s->who, k->name,
               n);
        return GC_E_INVALID;
    }
    size_t bytes = n * e;
    if (ensure(s, inplace ? 0 : ax + bytes, bytes + 2 * slack + 2 * WK_ALIGN) != 0) {
        gc_msg(msg, size, "%s: kernel '%s': no shared memory for a batch of %zu elements",
               s->who, k->name, n);
        return GC_E_NOMEM;
    }
    /* the window ends at most 63 bytes before the region's end (and its guard page) */
    size_t end = s->y_cap - slack - bytes, y_off = end - (end - ay) % WK_ALIGN;
    unsigned char *hy = s->map + s->x_cap + y_off;
    if (!inplace)
        memcpy(s->map + ax, x, bytes);
    if (slack || inplace)
        memcpy(hy - slack, (const unsigned char *)y - slack, bytes + 2 * slack);
    struct wk_req q = { WK_MAGIC_REQ, (uint32_t)k->index, n, s->x_cap, s->y_cap, ax, y_off,
                        slack, (uint32_t)inplace, 0 };
    double deadline = exec_now() + s->batch_s;
    struct wk_rep r;
    enum exec_read w = exec_write(&s->p, &q, sizeof q, deadline);
    if (w != EXEC_R_OK) { /* its end is closed: it died since the last reply */
        char what[300];
        snprintf(what, sizeof what, "kernel '%s': before an eval of %zu elements", k->name, n);
        if (w == EXEC_R_TIMEOUT)
            return bury(s, GC_E_TIMEOUT, 0.0, ex, msg, size, what, "", 0);
        /* it is exiting: wait for its own cause rather than report our kill */
        return bury(s, GC_E_DIED, exec_now() + GC_WORKER_GRACE_S, ex, msg, size, what, "", 0);
    }
    enum gc_status st = read_reply(s, a, k, n, deadline, &r, ex, msg, size);
    if (st == GC_OK || st == GC_E_EVAL || st == GC_E_FAULT)
        memcpy((unsigned char *)y - slack, hy - slack, bytes + 2 * slack);
    return st;
}

static void worker_close(struct gc_adapter *a)
{
    struct gc_worker_state *s = a->state;

    if (!s)
        return;
    exec_end(&s->p, exec_now() + EXEC_GRACE_S);
    exec_close_fds(&s->p);
    gc_mem_cage_close(&s->cage);
    unmap(s);
    if (s->shm >= 0)
        close(s->shm);
    free(s->spec);
    free(s->options);
    free(s);
    a->state = NULL;
}

/* 1 when the restarted worker offers what the first one did */
static int same_table(const struct gc_adapter *a, const struct gc_worker_table *t)
{
    if (t->n != a->n_kernels || strcmp(t->name, a->name) || strcmp(t->version, a->version))
        return 0;
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->k[i].name, a->kernels[i].name) || t->k[i].func != a->kernels[i].func ||
            t->k[i].dtype != a->kernels[i].dtype)
            return 0;
    return 1;
}

/* A fresh worker in place of a dead one; a live one (after GC_E_FAULT it lives on) is kept. */
static enum gc_status worker_restart(struct gc_adapter *a, char *msg, size_t size)
{
    struct gc_worker_state *s = a->state;
    struct gc_worker_table t;

    if (!s->dead)
        return GC_OK;
    exec_end(&s->p, 0.0);
    exec_close_fds(&s->p);
    s->dead = GC_E_DIED;
    snprintf(s->dead_msg, sizeof s->dead_msg, "%s: the worker could not be restarted", s->who);
    enum gc_status st = gc_worker_start(s, &t, msg, size);
    if (st != GC_OK)
        return st;
    int same = same_table(a, &t);
    gc_worker_table_free(&t);
    if (!same) {
        exec_end(&s->p, 0.0);
        gc_msg(msg, size, "%s: the restarted worker offers other kernels than the first",
               s->who);
        return GC_E_INVALID;
    }
    s->dead = GC_OK;
    s->dead_msg[0] = '\0';
    s->fp_seen = 0;
    return GC_OK;
}

static const struct gc_adapter_ops worker_ops = { worker_eval, worker_close, worker_restart };

enum gc_status gc_worker_open(const char *spec, enum gc_adapter_kind kind, const char *who,
                              const struct gc_open_options *opt, struct gc_adapter **out,
                              char *msg, size_t size)
{
    struct gc_worker_state *s = calloc(1, sizeof *s);
    struct gc_worker_table t;
    struct gc_adapter *a = NULL;

    *out = NULL;
    if (s) {
        s->shm = -1;
        s->p.reaped = 1;
        s->p.in_fd = s->p.out_fd = s->p.err_fd = -1;
        s->spec = gc_strdup(spec);
        s->options = opt->options ? gc_strdup(opt->options) : NULL;
        s->startup_s = opt->startup_timeout_s;
        s->batch_s = opt->batch_timeout_s;
        s->mem = opt->memlimit;
        gc_safe(s->who, sizeof s->who, who, sizeof s->who - 4);
    }
    if (!s || !s->spec || (opt->options && !s->options)) {
        gc_msg(msg, size, "%s: out of memory", who);
        if (s) {
            free(s->spec);
            free(s->options);
        }
        free(s);
        return GC_E_NOMEM;
    }
    enum gc_status st = gc_worker_start(s, &t, msg, size);
    if (st == GC_OK && !(a = gc_adapter_alloc(kind, spec, 0))) {
        gc_msg(msg, size, "%s: out of memory", who);
        st = GC_E_NOMEM;
    }
    if (st != GC_OK) {
        gc_worker_table_free(&t);
        struct gc_adapter tmp = { .state = s };
        worker_close(&tmp);
        return st;
    }
    /* the table moves into the adapter */
    a->name = t.name;
    a->version = t.version;
    a->n_kernels = t.n;
    a->kernels = t.k;
    snprintf(a->fpenv_load, sizeof a->fpenv_load, "%s", t.fpenv_load);
    free(t.fpenv_load); /* the restarted worker's is not looked at: the same load */
    for (size_t i = 0; i < t.n; i++)
        a->kernels[i].adapter = a;
    a->ops = &worker_ops;
    a->state = s;
    *out = a;
    return GC_OK;
}
