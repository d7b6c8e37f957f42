/* Finding gelucheck-worker, starting it (posix_spawn: fork and exec in one, safe in a host
 * with threads), and reading its hello (docs/design.md section 10, adapters/worker/worker_proto.h). */
#define _GNU_SOURCE /* pipe2, memfd_create */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "worker.h"
#include "worker_proto.h"

extern char **environ;

static int executable(const char *p)
{
    return access(p, X_OK) == 0;
}

int gc_worker_find(char *path, size_t size, char *msg, size_t msize)
{
    const char *env = getenv("GELUCHECK_WORKER");

    if (env && env[0]) {
        snprintf(path, size, "%s", env);
        if (executable(path))
            return 0;
        gc_msg(msg, msize, "GELUCHECK_WORKER '%s' is not an executable file", env);
        return -1;
    }
    /* next to the program, else GC_WORKER_REL (e.g. libexec/gelucheck/gelucheck-worker) in
     * the program's folder or above it, the installed layout that the build tree mirrors */
    if ((gc_home_find(GC_WORKER_NAME, path, size) == 0 ||
         gc_home_find(GC_WORKER_REL, path, size) == 0) && executable(path))
        return 0;
    gc_msg(msg, msize, "cannot find %s (looked at $GELUCHECK_WORKER, next to the program and "
           "for %s in and above its folder); set GELUCHECK_WORKER or use --isolation none",
           GC_WORKER_NAME, GC_WORKER_REL);
    return -1;
}

/* A close-on-exec descriptor numbered above the worker's 0..4, so that the dup2s of the
 * spawn cannot clobber one another. */
static int high_fd(int fd)
{
    if (fd < 0 || fd > WK_FD_SHM)
        return fd;
    int moved = fcntl(fd, F_DUPFD_CLOEXEC, WK_FD_SHM + 1);
    close(fd);
    return moved;
}

static int make_pipe(int fds[2])
{
    if (pipe2(fds, O_CLOEXEC) != 0)
        return -1;
    fds[0] = high_fd(fds[0]);
    fds[1] = high_fd(fds[1]);
    return fds[0] < 0 || fds[1] < 0 ? -1 : 0;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* Own process group, nothing blocked, default dispositions (the host may ignore SIGPIPE or
 * SIGINT; the worker must not inherit that), descriptors 0..4 as worker_proto.h says. */
static int spawn(pid_t *pid, const char *path, char *const argv[], const int req[2],
                 const int rep[2], const int err[2], int shm)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    sigset_t none, all;

    sigemptyset(&none);
    sigfillset(&all);
    sigdelset(&all, SIGKILL);
    sigdelset(&all, SIGSTOP);
    int e = posix_spawnattr_init(&at);
    if (e)
        return e;
    e = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                          POSIX_SPAWN_SETSIGDEF);
    if (!e)
        e = posix_spawnattr_setpgroup(&at, 0);
    if (!e)
        e = posix_spawnattr_setsigmask(&at, &none);
    if (!e)
        e = posix_spawnattr_setsigdefault(&at, &all);
    if (!e)
        e = posix_spawn_file_actions_init(&fa);
    if (!e) {
        const int from[] = { req[0], err[1], err[1], rep[1], shm };
        for (int fd = 0; fd <= WK_FD_SHM && !e; fd++)
            e = posix_spawn_file_actions_adddup2(&fa, from[fd], fd);
        if (!e)
            e = posix_spawn(pid, path, &fa, &at, argv, environ);
        posix_spawn_file_actions_destroy(&fa);
    }
    posix_spawnattr_destroy(&at);
    return e;
}

/* Starts the worker; 0 or an errno value (msg says what failed). */
static int start(struct gc_worker_state *s, char *msg, size_t size)
{
    int req[2] = { -1, -1 }, rep[2] = { -1, -1 }, err[2] = { -1, -1 }, e = 0;
    char path[4096], num[32];
    char *argv[GC_WORKER_ARGS];

    memset(&s->p, 0, sizeof s->p);
    s->p.reaped = 1;
    s->p.in_fd = s->p.out_fd = s->p.err_fd = -1;
    if (gc_worker_find(path, sizeof path, msg, size) != 0)
        return ENOENT;
    if (gc_worker_argv(s, argv, num, sizeof num, msg, size) != 0)
        return EPERM;
    if (s->shm < 0) {
        s->shm = high_fd(memfd_create("gelucheck-worker", MFD_CLOEXEC));
        if (s->shm < 0) {
            e = errno;
            gc_msg(msg, size, "memfd_create: %s", strerror(e));
            return e;
        }
    }
    if (make_pipe(req) || make_pipe(rep) || make_pipe(err))
        e = errno;
    else
        e = spawn(&s->p.pid, path, argv, req, rep, err, s->shm);
    close_fd(&req[0]);
    close_fd(&rep[1]);
    close_fd(&err[1]);
    if (e) {
        close_fd(&req[1]);
        close_fd(&rep[0]);
        close_fd(&err[0]);
        gc_msg(msg, size, "cannot start %s: %s", path, strerror(e));
        return e;
    }
    s->p.reaped = 0;
    s->p.in_fd = req[1];
    s->p.out_fd = rep[0];
    s->p.err_fd = err[0];
    /* non-blocking: exec_io's poll does the waiting */
    for (int i = 0; i < 3; i++) {
        int fd = i == 0 ? s->p.in_fd : i == 1 ? s->p.out_fd : s->p.err_fd;
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    }
    return 0;
}

void gc_worker_table_free(struct gc_worker_table *t)
{
    for (size_t i = 0; t->k && i < t->n; i++) {
        free(t->k[i].name);
        free(t->k[i].description);
    }
    free(t->k);
    free(t->name);
    free(t->version);
    free(t->fpenv_load);
    memset(t, 0, sizeof *t);
}

/* Reads n bytes of string; NULL (and *r set) on failure or no memory. */
static char *read_str(struct gc_worker_state *s, uint32_t n, double deadline,
                      enum exec_read *r)
{
    size_t got;
    char *p = n <= WK_STR_MAX ? malloc((size_t)n + 1) : NULL;

    *r = EXEC_R_IO;
    if (!p)
        return NULL;
    *r = exec_read_bytes(&s->p, p, n, &got, deadline);
    if (*r != EXEC_R_OK) {
        free(p);
        return NULL;
    }
    p[n] = '\0';
    return p;
}

static enum exec_read read_table(struct gc_worker_state *s, const struct wk_hello *h,
                                 struct gc_worker_table *t, double deadline)
{
    enum exec_read r = EXEC_R_IO;
    size_t got;

    if (h->n_kernels == 0 || h->n_kernels > GC_MAX_KERNELS)
        return EXEC_R_IO;
    t->n = h->n_kernels;
    t->k = calloc(t->n, sizeof *t->k);
    if (!t->k || !(t->name = read_str(s, h->name_len, deadline, &r)) ||
        !(t->version = read_str(s, h->version_len, deadline, &r)) ||
        !(t->fpenv_load = read_str(s, h->fpenv_load_len, deadline, &r)))
        return r;
    for (size_t i = 0; i < t->n; i++) {
        struct wk_kdef d;
        struct gc_kernel *k = &t->k[i];
        if ((r = exec_read_bytes(&s->p, &d, sizeof d, &got, deadline)) != EXEC_R_OK ||
            !(k->name = read_str(s, d.name_len, deadline, &r)) ||
            !(k->description = read_str(s, d.desc_len, deadline, &r)))
            return r;
        k->func = (enum geluref_func)d.func;
        k->dtype = (enum geluref_dtype)d.dtype;
        k->elem_size = gc_dtype_size(k->dtype);
        k->index = i;
        if (!k->elem_size)
            return EXEC_R_IO;
    }
    return EXEC_R_OK;
}

enum gc_status gc_worker_start(struct gc_worker_state *s, struct gc_worker_table *t, char *msg,
                               size_t size)
{
    char why[600], how[160], err[240], oom[96];
    struct wk_hello h;
    size_t got;
    int sig, status;

    memset(t, 0, sizeof *t);
    if (start(s, why, sizeof why) != 0) {
        gc_msg(msg, size, "%s: %s", s->who, why);
        return GC_E_LOAD;
    }
    double deadline = exec_now() + s->startup_s;
    enum exec_read r = exec_read_bytes(&s->p, &h, sizeof h, &got, deadline);
    if (r == EXEC_R_OK && h.magic != WK_MAGIC_HELLO)
        r = EXEC_R_IO;
    if (r == EXEC_R_OK && h.status != GC_OK) { /* the open's own status and message */
        char *text = read_str(s, h.msg_len, deadline, &r);
        if (text) {
            gc_msg(msg, size, "%s", text);
            free(text);
            gc_worker_reap(s, exec_now() + GC_WORKER_GRACE_S, &sig, &status, how, sizeof how);
            return (enum gc_status)h.status;
        }
    } else if (r == EXEC_R_OK) {
        r = read_table(s, &h, t, deadline);
        if (r == EXEC_R_OK)
            return GC_OK;
    }
    gc_worker_table_free(t);
    if (r == EXEC_R_TIMEOUT) {
        gc_worker_reap(s, 0.0, &sig, &status, how, sizeof how);
        gc_worker_stderr(s, err, sizeof err);
        gc_msg(msg, size, "%s: the worker did not finish opening it within %g s and was "
               "killed%s", s->who, s->startup_s, err);
        return GC_E_TIMEOUT;
    }
    /* its end: wait for its own cause; a hello not understood: kill it at once */
    gc_worker_reap(s, r == EXEC_R_EOF ? exec_now() + GC_WORKER_GRACE_S : 0.0, &sig, &status, how,
                   sizeof how);
    gc_worker_stderr(s, err, sizeof err);
    if (r == EXEC_R_EOF && gc_worker_oom(s, 0, oom, sizeof oom))
        gc_msg(msg, size, "%s: the worker %s while opening it: it ran out of memory, %s%s",
               s->who, how, oom, err);
    else if (r == EXEC_R_EOF)
        gc_msg(msg, size, "%s: the worker %s while opening it%s", s->who, how, err);
    else
        gc_msg(msg, size, "%s: the worker's hello was not understood (a stale %s?)%s", s->who,
               GC_WORKER_NAME, err);
    return GC_E_LOAD;
}

void gc_worker_reap(struct gc_worker_state *s, double deadline, int *sig, int *status,
                    char *buf, size_t size)
{
    char name[32];

    exec_end(&s->p, deadline);
    *sig = WIFSIGNALED(s->p.status) ? WTERMSIG(s->p.status) : 0;
    *status = WIFEXITED(s->p.status) ? WEXITSTATUS(s->p.status) : 0;
    if (*sig)
        snprintf(buf, size, "was killed by signal %d (%s)", *sig,
                 gc_signal_name(*sig, name, sizeof name));
    else
        snprintf(buf, size, "exited with status %d", *status);
}

void gc_worker_stderr(const struct gc_worker_state *s, char *buf, size_t size)
{
    const struct exec_proc *p = &s->p;
    unsigned long long total = p->err_total, keep = EXEC_ERR_KEEP;
    unsigned long long start = total > keep ? total - keep : 0, end = total, from;
    char line[160];
    size_t n = 0;

    buf[0] = '\0';
    while (end > start && (p->err_tail[(end - 1) % keep] == '\n' ||
                           p->err_tail[(end - 1) % keep] == '\r'))
        end--;
    for (from = end; from > start && p->err_tail[(from - 1) % keep] != '\n'; from--)
        ;
    for (unsigned long long i = from; i < end && n + 4 < sizeof line; i++) {
        char c = p->err_tail[i % keep];
        line[n++] = c >= 0x20 && c < 0x7f ? c : '?';
    }
    line[n] = '\0';
    if (n)
        snprintf(buf, size, "; stderr: '%s%s'", line, from + n < end ? "..." : "");
}
