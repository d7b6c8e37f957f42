/* gelucheck-worker: runs the kernels of one built-in or plug-in adapter for gelucheck, in a
 * process of its own (docs/design.md section 10; the protocol is worker_proto.h).
 *
 *   gelucheck-worker [--rlimit-as BYTES | --cgroup PROCS] SPEC [ADAPTER-OPTIONS]
 *
 * It puts its --memory-limit in place (worker_limit.c), opens SPEC in-process, exactly as
 * gelucheck --isolation none would, sends the table or the open's status and message, then
 * serves one batch per request until the host closes its end.  Not meant to be run by hand: it
 * needs the descriptors the host sets up. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adapter.h"
#include "worker_internal.h"

/* 0, or -1 when the descriptor ended or failed (then the host is gone or broken) */
static int write_full(int fd, const void *p, size_t n)
{
    const unsigned char *s = p;
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

/* 1 read, 0 end of input before the first byte, -1 error or a partial read */
static int read_full(int fd, void *p, size_t n)
{
    unsigned char *d = p;
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, d + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return got == 0 && r == 0 ? 0 : -1;
        got += (size_t)r;
    }
    return 1;
}

static uint32_t str_len(const char *s)
{
    size_t n = s ? strlen(s) : 0;
    return n < WK_STR_MAX ? (uint32_t)n : WK_STR_MAX;
}

static int send_str(const char *s, uint32_t n)
{
    return n ? write_full(WK_FD_REP, s, n) : 0;
}

static int send_hello(const struct gc_adapter *a, enum gc_status st, const char *msg)
{
    struct wk_hello h = { WK_MAGIC_HELLO, (int32_t)st, 0, 0, 0, 0, 0, 0 };

    if (st != GC_OK) {
        h.msg_len = str_len(msg);
        return write_full(WK_FD_REP, &h, sizeof h) || send_str(msg, h.msg_len) ? -1 : 0;
    }
    h.n_kernels = (uint32_t)a->n_kernels;
    h.name_len = str_len(a->name);
    h.version_len = str_len(a->version);
    h.fpenv_load_len = str_len(a->fpenv_load);
    if (write_full(WK_FD_REP, &h, sizeof h) || send_str(a->name, h.name_len) ||
        send_str(a->version, h.version_len) || send_str(a->fpenv_load, h.fpenv_load_len))
        return -1;
    for (size_t i = 0; i < a->n_kernels; i++) {
        const struct gc_kernel *k = &a->kernels[i];
        struct wk_kdef d = { (uint32_t)k->func, (uint32_t)k->dtype, str_len(k->name),
                             str_len(k->description) };
        if (write_full(WK_FD_REP, &d, sizeof d) || send_str(k->name, d.name_len) ||
            send_str(k->description, d.desc_len))
            return -1;
    }
    return 0;
}

static int reply(const struct gc_adapter *a, enum gc_status st, int fault, int64_t offset,
                 const char *msg)
{
    struct wk_rep r;

    memset(&r, 0, sizeof r);
    r.magic = WK_MAGIC_REP;
    r.status = (int32_t)(fault ? GC_E_FAULT : st);
    r.fault = fault;
    r.offset = offset;
    r.fpenv_modified = a->fpenv_modified;
    r.msg_len = str_len(msg);
    r.what_len = a->fpenv_modified ? str_len(a->fpenv_what) : 0;
    return write_full(WK_FD_REP, &r, sizeof r) || send_str(msg, r.msg_len) ||
                   send_str(a->fpenv_what, r.what_len) ? -1 : 0;
}

/* What is wrong with a request, or NULL.  The host is trusted to be gelucheck; this only
 * keeps a mistake in it from becoming a wild pointer here. */
static const char *bad_request(const struct gc_adapter *a, const struct wk_req *q)
{
    if (q->magic != WK_MAGIC_REQ)
        return "bad magic";
    if (q->kernel >= a->n_kernels)
        return "kernel index out of range";
    uint64_t e = a->kernels[q->kernel].elem_size;
    if (q->n > (UINT64_MAX / 4) / e || q->y_slack > UINT64_MAX / 4)
        return "absurd n or slack";
    uint64_t bytes = q->n * e;
    if (q->y_off < q->y_slack || q->y_off + bytes + q->y_slack > q->y_cap)
        return "the y window lies outside its region";
    if (!q->inplace && q->x_off + bytes > q->x_cap)
        return "x lies outside its region";
    return NULL;
}

/* Under AddressSanitizer (the asan preset) the worker's crashes must stay the kernel's: a
 * SIGFPE, SIGSEGV or SIGBUS ends the worker with that signal (or reaches its own handler),
 * instead of becoming the sanitizer's report and exit status 1.  Unused otherwise. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "handle_sigfpe=0:handle_segv=0:handle_sigbus=0:handle_sigill=0";
}

static int serve(struct gc_adapter *a)
{
    struct wk_mem m;
    struct wk_req q;
    char msg[1024];
    int r;

    memset(&m, 0, sizeof m);
    while ((r = read_full(WK_FD_REQ, &q, sizeof q)) == 1) {
        const char *bad = bad_request(a, &q);
        if (bad) {
            snprintf(msg, sizeof msg, "gelucheck-worker: bad request (%s)", bad);
            if (reply(a, GC_E_INVALID, 0, 0, msg))
                break;
            continue;
        }
        if ((q.x_cap != m.x_cap || q.y_cap != m.y_cap || !m.base) &&
            wk_mem_map(&m, q.x_cap, q.y_cap) != 0) {
            int e = errno, oom = wk_limit_exhausted();
            snprintf(msg, sizeof msg, "gelucheck-worker: cannot map %llu bytes of shared "
                     "memory: %s%s%s", (unsigned long long)(q.x_cap + q.y_cap), strerror(e),
                     oom ? ", under " : "", oom ? wk_limit_note() : "");
            if (reply(a, GC_E_NOMEM, 0, 0, msg))
                break;
            continue;
        }
        if (wk_mem_window(&m, q.y_off - q.y_slack) != 0) {
            snprintf(msg, sizeof msg, "gelucheck-worker: mprotect: %s", strerror(errno));
            if (reply(a, GC_E_NOMEM, 0, 0, msg))
                break;
            continue;
        }
        const struct gc_kernel *k = &a->kernels[q.kernel];
        unsigned char *y = m.y + q.y_off, *x = q.inplace ? y : m.x + q.x_off;
        msg[0] = '\0';
        wk_guard_arm(&m, x, y, k->elem_size);
        enum gc_status st = gc_kernel_eval_ex(k, x, y, (size_t)q.n, NULL, msg, sizeof msg);
        int64_t offset;
        int fault = wk_guard_disarm(&offset);
        if (fault)
            wk_mem_unmap(&m); /* the guards it hit are open now */
        if (reply(a, st, fault, offset, msg))
            break;
    }
    wk_mem_unmap(&m);
    return r == 0 ? 0 : 1;
}

/* The opening options: --rlimit-as BYTES (decimal, > 0) or --cgroup PROCS.  Returns the
 * index of SPEC, or -1. */
static int limit_args(int argc, char **argv, unsigned long long *rlimit_as, const char **procs)
{
    int i = 1;
    char *end;

    if (i + 1 < argc && strcmp(argv[i], "--cgroup") == 0) {
        *procs = argv[i + 1];
        i += 2;
    } else if (i + 1 < argc && strcmp(argv[i], "--rlimit-as") == 0) {
        errno = 0;
        *rlimit_as = strtoull(argv[i + 1], &end, 10);
        if (errno || *end || *rlimit_as == 0 || argv[i + 1][0] < '0' || argv[i + 1][0] > '9')
            return -1;
        i += 2;
    }
    return i;
}

int main(int argc, char **argv)
{
    struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;
    struct gc_adapter *a = NULL;
    unsigned long long rlimit_as = 0;
    const char *procs = NULL;
    char msg[1024];
    int i = limit_args(argc, argv, &rlimit_as, &procs);

    if (i < 1 || argc - i < 1 || argc - i > 2 || fcntl(WK_FD_REP, F_GETFD) < 0 ||
        fcntl(WK_FD_SHM, F_GETFD) < 0) {
        fprintf(stderr, "gelucheck-worker: run by gelucheck only (usage: gelucheck-worker "
                "[--rlimit-as BYTES | --cgroup PROCS] SPEC [ADAPTER-OPTIONS], with the "
                "descriptors of adapters/worker/worker_proto.h)\n");
        return 2;
    }
    opt.options = argc - i == 2 ? argv[i + 1] : NULL;
    opt.in_process = 1; /* this process is the isolation */
    if (wk_guard_install() != 0) {
        snprintf(msg, sizeof msg, "gelucheck-worker: cannot install its fault handler: %s",
                 strerror(errno));
        return send_hello(NULL, GC_E_LOAD, msg) ? 1 : 0;
    }
    if (wk_limit_apply(rlimit_as, procs, msg, sizeof msg) != 0)
        return send_hello(NULL, GC_E_LOAD, msg) ? 1 : 0;
    enum gc_status st = gc_adapter_open(argv[i], &opt, &a, msg, sizeof msg);
    if (st != GC_OK && wk_limit_exhausted()) { /* no room left: say why it failed */
        char why[1024];
        snprintf(why, sizeof why, "gelucheck-worker ran out of memory while opening the "
                 "adapter, under %s: %.700s", wk_limit_note(), msg);
        memcpy(msg, why, sizeof msg);
    }
    int sent = send_hello(a, st, msg);
    wk_limit_opened();
    if (sent || st != GC_OK) {
        gc_adapter_close(a);
        return st == GC_OK ? 1 : 0;
    }
    int rc = serve(a);
    gc_adapter_close(a);
    return rc;
}
