/* The adapter's process: spawn in its own process group, stderr capture, kill and reap.
 * Only the pid we spawned is ever waited for (never -1); the group is signalled only while
 * its leader is unreaped, so the pid cannot have been reused. */
#define _GNU_SOURCE /* pipe2: close-on-exec from the start, no window for another thread's fork */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec_internal.h"

extern char **environ;

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* A close-on-exec pipe whose ends are >= 3, so the dup2s onto 0, 1, 2 cannot clobber one
 * another even when the host runs with a standard stream closed. */
static int make_pipe(int fds[2])
{
    if (pipe2(fds, O_CLOEXEC) != 0)
        return errno;
    for (int i = 0; i < 2; i++) {
        if (fds[i] > 2)
            continue;
        int moved = fcntl(fds[i], F_DUPFD_CLOEXEC, 3);
        int e = errno;
        close(fds[i]);
        fds[i] = moved;
        if (moved < 0) {
            close_fd(&fds[1 - i]);
            return e;
        }
    }
    return 0;
}

static void close_pair(int fds[2])
{
    close_fd(&fds[0]);
    close_fd(&fds[1]);
}

/* The child: its own process group, no blocked signals, default dispositions (the host may
 * ignore SIGPIPE or SIGINT; the adapter should not inherit that). */
static int spawn_attrs(posix_spawnattr_t *at)
{
    sigset_t none, all;

    sigemptyset(&none);
    sigfillset(&all);
    sigdelset(&all, SIGKILL);
    sigdelset(&all, SIGSTOP);
    int e = posix_spawnattr_init(at);
    if (e)
        return e;
    e = posix_spawnattr_setflags(at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                         POSIX_SPAWN_SETSIGDEF);
    if (!e)
        e = posix_spawnattr_setpgroup(at, 0);
    if (!e)
        e = posix_spawnattr_setsigmask(at, &none);
    if (!e)
        e = posix_spawnattr_setsigdefault(at, &all);
    if (e)
        posix_spawnattr_destroy(at);
    return e;
}

/* With a cgroup: the shell joins it, then becomes the command's shell ($0 the cgroup.procs
 * file, $1 the command), so that nothing of the command runs outside the cgroup. */
#define JOIN_THEN_RUN \
    "echo 0 >\"$0\" || { echo \"gelucheck: cannot join the cgroup of --memory-limit ($0)\" " \
    ">&2; exit 125; }; exec /bin/sh -c \"$1\""

static int spawn_sh(struct exec_proc *p, const char *command, const char *procs, int in[2],
                    int out[2], int err[2])
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    char *plain[] = { "sh", "-c", (char *)command, NULL };
    char *joined[] = { "sh", "-c", JOIN_THEN_RUN, (char *)procs, (char *)command, NULL };
    char **argv = procs ? joined : plain;

    int e = spawn_attrs(&at);
    if (e)
        return e;
    e = posix_spawn_file_actions_init(&fa);
    if (!e) {
        e = posix_spawn_file_actions_adddup2(&fa, in[0], 0);
        if (!e)
            e = posix_spawn_file_actions_adddup2(&fa, out[1], 1);
        if (!e)
            e = posix_spawn_file_actions_adddup2(&fa, err[1], 2);
        if (!e)
            e = posix_spawn(&p->pid, "/bin/sh", &fa, &at, argv, environ);
        posix_spawn_file_actions_destroy(&fa);
    }
    posix_spawnattr_destroy(&at);
    return e;
}

int exec_spawn(struct exec_proc *p, const char *command, const char *cgroup_procs)
{
    int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 };

    p->pid = 0;
    p->reaped = 1; /* nothing to reap until the spawn succeeds */
    p->in_fd = p->out_fd = p->err_fd = -1;
    int e = make_pipe(in);
    if (!e)
        e = make_pipe(out);
    if (!e)
        e = make_pipe(err);
    if (!e)
        e = spawn_sh(p, command, cgroup_procs, in, out, err);
    if (e) {
        close_pair(in);
        close_pair(out);
        close_pair(err);
        return e;
    }
    p->reaped = 0;
    close(in[0]);
    close(out[1]);
    close(err[1]);
    p->in_fd = in[1];
    p->out_fd = out[0];
    p->err_fd = err[0];
    /* non-blocking: a spurious poll wake-up must never block a read or a write */
    fcntl(p->in_fd, F_SETFL, fcntl(p->in_fd, F_GETFL) | O_NONBLOCK);
    fcntl(p->out_fd, F_SETFL, fcntl(p->out_fd, F_GETFL) | O_NONBLOCK);
    fcntl(p->err_fd, F_SETFL, fcntl(p->err_fd, F_GETFL) | O_NONBLOCK);
    return 0;
}

static void keep_stderr(struct exec_proc *p, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p->err_head_len < EXEC_ERR_KEEP)
            p->err_head[p->err_head_len++] = b[i];
        p->err_tail[p->err_total++ % EXEC_ERR_KEEP] = b[i];
    }
}

void exec_drain_stderr(struct exec_proc *p)
{
    char b[4096];

    /* at most 64 reads a call: a stderr that never runs dry must not hold up the deadline */
    for (int reads = 0; p->err_fd >= 0 && reads < 64; reads++) {
        ssize_t n = read(p->err_fd, b, sizeof b);
        if (n > 0) {
            keep_stderr(p, b, (size_t)n);
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else {
            if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
                close(p->err_fd);
                p->err_fd = -1;
            }
            return;
        }
    }
}

/* 1 when the leader has exited (left a zombie: WNOWAIT, so the pid and the group id cannot
 * be reused yet), 0 while it runs, -1 when it is not ours to wait for (the host ignores
 * SIGCHLD and the kernel reaped it: then its pid may be reused, never signal it). */
static int leader_exited(const struct exec_proc *p)
{
    siginfo_t si;

    memset(&si, 0, sizeof si);
    if (waitid(P_PID, (id_t)p->pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0)
        return errno == ECHILD ? -1 : 0;
    return si.si_pid == p->pid;
}

/* Sleeps up to ms while collecting stderr. */
static void nap(struct exec_proc *p, int ms)
{
    struct pollfd f = { p->err_fd, POLLIN, 0 };

    if (poll(&f, p->err_fd >= 0 ? 1 : 0, ms) > 0)
        exec_drain_stderr(p);
}

int exec_end(struct exec_proc *p, double deadline)
{
    int self = 0, ms = 1;

    if (p->reaped)
        return 1;
    close_fd(&p->in_fd);  /* EOF: the adapter's cue to exit with status 0 */
    close_fd(&p->out_fd); /* whatever it still writes there is of no use */
    while (!(self = leader_exited(p)) && exec_now() < deadline) {
        nap(p, ms);
        ms = ms < 16 ? 2 * ms : ms;
    }
    p->status = 0;
    if (self >= 0) {
        kill(-p->pid, SIGKILL); /* the leader if it lingers, and whatever it left in the group */
        kill(p->pid, SIGKILL);  /* the leader even if it left its group (not reaped yet, so
                                   the pid cannot have been reused) */
        while (waitpid(p->pid, &p->status, 0) < 0 && errno == EINTR)
            ;
    }
    p->reaped = 1;
    /* the group is gone, so stderr ends now, unless something escaped the group with it */
    for (double until = exec_now() + 0.1; p->err_fd >= 0 && exec_now() < until;)
        nap(p, 10);
    return self != 0;
}

void exec_exit_text(const struct exec_proc *p, char *buf, size_t size)
{
    char nb[32];

    if (WIFEXITED(p->status)) {
        int st = WEXITSTATUS(p->status);
        /* /bin/sh -c CMD that runs CMD as its child exits 128 + N when CMD is killed by
           signal N: say which, for the signals a crash raises */
        int sig = st > 128 ? st - 128 : 0;
        const char *name = sig ? gc_signal_name(sig, nb, sizeof nb) : NULL;
        if (name && strncmp(name, "signal ", 7) != 0)
            snprintf(buf, size, "exited with status %d (128 + %s: a shell's report of a "
                     "command killed by %s)", st, name, name);
        else
            snprintf(buf, size, "exited with status %d", st);
    } else if (WIFSIGNALED(p->status)) {
        int sig = WTERMSIG(p->status);
        snprintf(buf, size, "was killed by %s (%s)", gc_signal_name(sig, nb, sizeof nb),
                 strsignal(sig));
    } else {
        snprintf(buf, size, "ended (wait status %d)", p->status);
    }
}

void exec_proc_reset(struct exec_proc *p)
{
    p->pos = p->len = 0;
    p->err_head_len = 0;
    p->err_total = 0;
}

void exec_close_fds(struct exec_proc *p)
{
    close_fd(&p->in_fd);
    close_fd(&p->out_fd);
    close_fd(&p->err_fd);
}
