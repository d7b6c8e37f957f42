/* Helpers of the fuzz targets (fuzz.h). */
#define _GNU_SOURCE /* memfd_create */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"

void fuzz_fail(const char *target, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "fuzz: %s: ", target);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

void fuzz_check_line(const char *target, const char *what, const char *msg)
{
    if (msg == NULL || msg[0] == '\0')
        fuzz_fail(target, "%s: empty message", what);
    if (strpbrk(msg, "\n\r") != NULL)
        fuzz_fail(target, "%s: message is not one line: '%s'", what, msg);
}

static char temp_path[4096];
static int temp_fd = -1;

static void remove_temp(void)
{
    if (temp_path[0] != '\0' && strncmp(temp_path, "/proc/", 6) != 0)
        unlink(temp_path);
}

/* A memory file where there is one: rewriting a file on disk for every input costs more than
 * parsing it (milliseconds on an ext4 /tmp). */
static int temp_open(const char *stem)
{
    int fd = memfd_create(stem, MFD_CLOEXEC);
    if (fd >= 0) {
        snprintf(temp_path, sizeof temp_path, "/proc/self/fd/%d", fd);
        if (access(temp_path, R_OK) == 0)
            return fd;
        close(fd);
    }
    const char *dir = getenv("TMPDIR");
    snprintf(temp_path, sizeof temp_path, "%s/%s.XXXXXX", dir && *dir ? dir : "/tmp", stem);
    fd = mkstemp(temp_path);
    if (fd < 0)
        temp_path[0] = '\0';
    else
        atexit(remove_temp);
    return fd;
}

const char *fuzz_temp_file(const char *stem, const uint8_t *data, size_t size)
{
    if (temp_fd < 0 && (temp_fd = temp_open(stem)) < 0)
        return NULL;
    if (ftruncate(temp_fd, 0) != 0)
        return NULL;
    size_t done = 0;
    while (done < size) {
        ssize_t w = pwrite(temp_fd, data + done, size - done, (off_t)done);
        if (w <= 0)
            return NULL;
        done += (size_t)w;
    }
    return temp_path;
}
