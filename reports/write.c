/* Writing a result (or any text) atomically: a temporary file in the target's folder, flushed
 * to disk, then rename(2) over the target, so a reader sees the old file or the whole new one,
 * never half, and a SIGINT or SIGTERM that ends the process meanwhile removes the temporary
 * file; and creating a report's folders (mkdir -p). */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC, fsync */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reports.h"

int rp_write_json(const json_t *doc, const char *path, char *msg, size_t size)
{
    /* JSON_INDENT(1): readable, diffable line by line; members keep insertion order */
    char *text = json_dumps(doc, JSON_INDENT(1));
    size_t n = text ? strlen(text) : 0;
    char *t = text ? realloc(text, n + 2) : NULL;
    if (t == NULL) {
        free(text);
        snprintf(msg, size, "cannot write '%s': out of memory", path);
        return -1;
    }
    t[n] = '\n';
    t[n + 1] = '\0';
    int rc = rp_write_text(path, t, msg, size);
    free(t);
    return rc;
}

/* The temporary file being written, for the signal handler below (one write at a time: the
 * CLI writes its outputs one after another). */
static char live_tmp[4096];
static volatile sig_atomic_t live;
static struct sigaction saved_int, saved_term;
static int guarded_int, guarded_term;

/* A SIGINT or SIGTERM whose action is to end the process (gelucheck run resets its handler
 * after the first signal, so the second one during the writes is such): the temporary file
 * goes first, then the signal takes its default action.  unlink, signal and raise are
 * async-signal-safe. */
static void on_fatal(int sig)
{
    if (live)
        unlink(live_tmp);
    signal(sig, SIG_DFL);
    raise(sig); /* pending until this handler returns (the signal is blocked in it) */
}

/* Installs on_fatal for the signals whose current action is the default (ending the
 * process); a handler or SIG_IGN is left alone. */
static void guard_signals(void)
{
    struct sigaction sa, cur;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sigemptyset(&sa.sa_mask);
    guarded_int = sigaction(SIGINT, NULL, &cur) == 0 && cur.sa_handler == SIG_DFL &&
                  sigaction(SIGINT, &sa, &saved_int) == 0;
    guarded_term = sigaction(SIGTERM, NULL, &cur) == 0 && cur.sa_handler == SIG_DFL &&
                   sigaction(SIGTERM, &sa, &saved_term) == 0;
}

static void unguard_signals(void)
{
    live = 0;
    if (guarded_int)
        sigaction(SIGINT, &saved_int, NULL);
    if (guarded_term)
        sigaction(SIGTERM, &saved_term, NULL);
    guarded_int = guarded_term = 0;
}

int rp_write_text(const char *path, const char *text, char *msg, size_t size)
{
    char tmp[4096];
    int n = snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());

    if (n < 0 || (size_t)n >= sizeof tmp) {
        snprintf(msg, size, "cannot write '%s': path too long", path);
        return -1;
    }
    /* a SIGINT or SIGTERM that ends the process while the temporary file exists removes it
     * (the target keeps its old content, or stays absent) */
    memcpy(live_tmp, tmp, (size_t)n + 1);
    live = 1; /* before open: a signal in between finds nothing to remove, harmlessly */
    guard_signals();
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
        int e = errno;
        unguard_signals();
        snprintf(msg, size, "cannot write '%s': %s", path, strerror(e));
        return -1;
    }
    size_t len = strlen(text), done = 0;
    int err = 0;
    while (done < len && !err) {
        ssize_t w = write(fd, text + done, len - done);
        if (w < 0 && errno != EINTR)
            err = errno;
        else if (w > 0)
            done += (size_t)w;
    }
    if (!err && fsync(fd) != 0)
        err = errno;
    if (close(fd) != 0 && !err)
        err = errno;
    if (!err && rename(tmp, path) != 0)
        err = errno;
    if (err)
        unlink(tmp);
    unguard_signals();
    if (err) {
        snprintf(msg, size, "cannot write '%s': %s", path, strerror(err));
        return -1;
    }
    return 0;
}

int rp_mkdirs(const char *path, char *msg, size_t size)
{
    char buf[4096];
    size_t len = strlen(path);
    struct stat st;

    if (len == 0 || len >= sizeof buf) {
        snprintf(msg, size, "cannot create folder '%s': %s", path,
                 len ? "path too long" : "empty name");
        return -1;
    }
    memcpy(buf, path, len + 1);
    /* each prefix ending before a '/' (the root and repeated slashes skipped), then the whole */
    for (size_t i = 1; i <= len; i++) {
        if (i < len && (buf[i] != '/' || buf[i - 1] == '/'))
            continue;
        buf[i] = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
            snprintf(msg, size, "cannot create folder '%s': %s", buf, strerror(errno));
            return -1;
        }
        if (i < len)
            buf[i] = '/';
    }
    /* EEXIST also for a file of that name: the whole path must be a folder */
    if (stat(path, &st) != 0) {
        snprintf(msg, size, "cannot create folder '%s': %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(msg, size, "cannot create folder '%s': a file of that name exists", path);
        return -1;
    }
    return 0;
}
