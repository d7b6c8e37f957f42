/* Writing a result atomically: a temporary file in the target's folder, flushed to disk, then
 * rename(2) over the target, so a reader sees the old file or the whole new one, never half. */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC, fsync */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "reports.h"

int rp_write_json(const json_t *doc, const char *path, char *msg, size_t size)
{
    char tmp[4096];
    int n = snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());

    if (n < 0 || (size_t)n >= sizeof tmp) {
        snprintf(msg, size, "cannot write '%s': path too long", path);
        return -1;
    }
    /* O_EXCL: never follow or reuse a stale file; 0666 less the umask, as any new file */
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
        snprintf(msg, size, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    /* JSON_INDENT(1): readable, diffable line by line; members keep insertion order */
    int bad = json_dumpfd(doc, fd, JSON_INDENT(1)) != 0 || write(fd, "\n", 1) != 1;
    int err = errno;
    if (!bad && fsync(fd) != 0) {
        bad = 1;
        err = errno;
    }
    if (close(fd) != 0 && !bad) {
        bad = 1;
        err = errno;
    }
    if (!bad && rename(tmp, path) != 0) {
        bad = 1;
        err = errno;
    }
    if (bad) {
        unlink(tmp);
        snprintf(msg, size, "cannot write '%s': %s", path, err ? strerror(err) : "write failed");
        return -1;
    }
    return 0;
}
