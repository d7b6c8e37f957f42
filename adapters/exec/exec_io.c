/* Reading lines and payloads from the adapter's stdout and writing requests to its stdin,
 * each under a deadline; stderr is drained whenever we wait, so a chatty adapter never
 * blocks on a full stderr pipe.  Every fd is non-blocking; poll() does the waiting. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "exec_internal.h"

double exec_now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Milliseconds to the deadline, rounded up so we never wake just before it; at most an hour
 * per poll (a deadline of +inf waits forever, an hour at a time). */
static int ms_until(double deadline)
{
    double ms = (deadline - exec_now()) * 1e3;

    return ms <= 0 ? 0 : ms >= 3.6e6 ? 3600000 : (int)ms + 1;
}

/* Waits until fd has events (or an error or hang-up, which the read or write then reports).
 * 1 ready, 0 deadline passed, -1 poll failed. */
static int wait_fd(struct exec_proc *p, int fd, short events, double deadline)
{
    for (;;) {
        struct pollfd f[2] = { { fd, events, 0 }, { p->err_fd, POLLIN, 0 } };
        int ms = ms_until(deadline);
        int r = poll(f, p->err_fd >= 0 ? 2 : 1, ms);
        if (r < 0 && errno != EINTR)
            return -1;
        if (r > 0 && f[1].revents)
            exec_drain_stderr(p);
        if (r > 0 && f[0].revents)
            return 1;
        if (ms == 0 && (r == 0 || f[0].revents == 0))
            return 0; /* the deadline passed, whatever stderr keeps doing */
    }
}

/* One read into the read-ahead buffer, which must have room. */
static enum exec_read fill(struct exec_proc *p, double deadline)
{
    if (p->pos > 0) {
        memmove(p->buf, p->buf + p->pos, p->len - p->pos);
        p->len -= p->pos;
        p->pos = 0;
    }
    for (;;) {
        int w = wait_fd(p, p->out_fd, POLLIN, deadline);
        if (w <= 0)
            return w == 0 ? EXEC_R_TIMEOUT : EXEC_R_IO;
        ssize_t n = read(p->out_fd, p->buf + p->len, sizeof p->buf - p->len);
        if (n > 0) {
            p->len += (size_t)n;
            return EXEC_R_OK;
        }
        if (n == 0)
            return EXEC_R_EOF;
        if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)
            return EXEC_R_IO;
    }
}

static void copy_text(struct exec_line *l, const unsigned char *s, size_t n)
{
    n = n < EXEC_LINE_MAX ? n : EXEC_LINE_MAX;
    memcpy(l->text, s, n);
    l->text[n] = '\0';
    l->len = n;
}

/* A whole line is in the buffer at [pos, pos + n), n excluding its "\n". */
static enum exec_read take_line(struct exec_proc *p, struct exec_line *l, size_t n)
{
    const unsigned char *s = p->buf + p->pos;

    p->pos += n + 1;
    if (n > 0 && s[n - 1] == '\r')
        n--;
    copy_text(l, s, n);
    if (n > EXEC_LINE_MAX)
        return EXEC_R_LONG;
    return memchr(s, '\0', n) ? EXEC_R_NUL : EXEC_R_OK;
}

enum exec_read exec_read_line(struct exec_proc *p, struct exec_line *l, double deadline)
{
    size_t scanned = 0;

    l->len = 0;
    l->text[0] = '\0';
    for (;;) {
        const unsigned char *s = p->buf + p->pos;
        size_t avail = p->len - p->pos;
        const unsigned char *nl = memchr(s + scanned, '\n', avail - scanned);
        if (nl)
            return take_line(p, l, (size_t)(nl - s));
        if (avail > EXEC_LINE_MAX + 1) { /* room for the content and a "\r", no "\n" */
            copy_text(l, s, avail);
            return EXEC_R_LONG;
        }
        scanned = avail;
        enum exec_read r = fill(p, deadline); /* moves the unread bytes to buf[0] */
        if (r != EXEC_R_OK) {
            copy_text(l, p->buf + p->pos, p->len - p->pos); /* a partial line, for the message */
            return r;
        }
    }
}

enum exec_read exec_read_bytes(struct exec_proc *p, void *dst, size_t n, size_t *got,
                               double deadline)
{
    unsigned char *d = dst;
    size_t have = p->len - p->pos < n ? p->len - p->pos : n;

    memcpy(d, p->buf + p->pos, have);
    p->pos += have;
    *got = have;
    while (*got < n) { /* straight into dst: never read past the payload */
        int w = wait_fd(p, p->out_fd, POLLIN, deadline);
        if (w <= 0)
            return w == 0 ? EXEC_R_TIMEOUT : EXEC_R_IO;
        size_t want = n - *got < SSIZE_MAX ? n - *got : SSIZE_MAX;
        ssize_t r = read(p->out_fd, d + *got, want);
        if (r > 0)
            *got += (size_t)r;
        else if (r == 0)
            return EXEC_R_EOF;
        else if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)
            return EXEC_R_IO;
    }
    return EXEC_R_OK;
}

static enum exec_read write_loop(struct exec_proc *p, const unsigned char *s, size_t n,
                                 double deadline)
{
    while (n > 0) {
        int w = wait_fd(p, p->in_fd, POLLOUT, deadline);
        if (w <= 0)
            return w == 0 ? EXEC_R_TIMEOUT : EXEC_R_IO;
        ssize_t r = write(p->in_fd, s, n < SSIZE_MAX ? n : SSIZE_MAX);
        if (r > 0) {
            s += r;
            n -= (size_t)r;
        } else if (r < 0 && errno == EPIPE) {
            return EXEC_R_EOF;
        } else if (r < 0 && errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) {
            return EXEC_R_IO;
        }
    }
    return EXEC_R_OK;
}

/* SIGPIPE is blocked in this thread while we write; one we caused is taken back with
 * sigtimedwait, unless one was pending already (then it is not ours). */
enum exec_read exec_write(struct exec_proc *p, const void *src, size_t n, double deadline)
{
    sigset_t pipe_set, old, pending;
    const struct timespec zero = { 0, 0 };

    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    sigpending(&pending);
    int was_pending = sigismember(&pending, SIGPIPE);
    enum exec_read r = write_loop(p, src, n, deadline);
    if (r == EXEC_R_EOF && !was_pending)
        while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR)
            ;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return r;
}

int exec_unasked(struct exec_proc *p, struct exec_line *l)
{
    if (p->pos == p->len) {
        enum exec_read r = fill(p, 0.0); /* a deadline in the past: look, do not wait */
        if (r == EXEC_R_EOF || r == EXEC_R_IO)
            return -1;
    }
    if (p->pos == p->len)
        return 0;
    const unsigned char *s = p->buf + p->pos, *nl = memchr(s, '\n', p->len - p->pos);
    copy_text(l, s, nl ? (size_t)(nl - s) : p->len - p->pos); /* its first line, for messages */
    return 1;
}
