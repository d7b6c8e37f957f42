/* Where the files that come with gelucheck are at run time: found relative to the running
 * program, never at a path fixed when it was built, so that an install works wherever its
 * prefix is (a .deb, `cmake --install --prefix DIR`, a copied folder).
 *
 * An installed program sits in PREFIX/bin (gelucheck) or PREFIX/libexec/gelucheck (the
 * worker), a program of the build tree in BUILD/cli, BUILD/tests/..., BUILD/bench.  The build
 * tree mirrors the installed layout for these files (adapters/CMakeLists.txt): BUILD/libexec/
 * gelucheck holds the worker and the musl adapter, BUILD/lib/gelucheck/adapters links to the
 * script adapters' folders.  So looking for REL in the program's folder and in each of up to
 * GC_HOME_UP folders above it finds the same file in both. */
#define _DEFAULT_SOURCE /* readlink */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"

/* The deepest program of the build tree is BUILD/tests/fuzz/NAME: three folders up. */
#define GC_HOME_UP 4

int gc_home_find(const char *rel, char *path, size_t size)
{
    char self[4096], dir[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);

    if (n <= 0 || (size_t)n >= sizeof self - 1)
        return -1;
    self[n] = '\0';
    snprintf(dir, sizeof dir, "%s", dirname(self));
    for (int up = 0; up <= GC_HOME_UP; up++) {
        size_t len = strlen(dir);
        int w = snprintf(path, size, "%s/%s", dir, rel);
        if (w > 0 && (size_t)w < size && access(path, F_OK) == 0)
            return 0;
        if (len + 3 >= sizeof dir)
            break;
        memcpy(dir + len, "/..", 4);
    }
    return -1;
}

/* Appends s to the growing buffer *buf (length *len); -1 when out of memory. */
static int append(char **buf, size_t *len, const char *s, size_t n)
{
    char *b = realloc(*buf, *len + n + 1);
    if (!b)
        return -1;
    memcpy(b + *len, s, n);
    *len += n;
    b[*len] = '\0';
    *buf = b;
    return 0;
}

/* A built-in's command template: text for /bin/sh in which @REL@ stands for the file REL,
 * found by gc_home_find and put in single quotes (a ' as '\''). */
enum gc_status gc_home_command(const char *tmpl, const char *who, char **out, char *msg,
                               size_t msize)
{
    char *buf = NULL, path[4096];
    size_t len = 0;
    const char *p = tmpl;

    *out = NULL;
    if (append(&buf, &len, "", 0) != 0)
        goto nomem;
    while (*p) {
        const char *at = strchr(p, '@'), *end = at ? strchr(at + 1, '@') : NULL;
        if (!at || !end) {
            if (append(&buf, &len, p, strlen(p)) != 0)
                goto nomem;
            break;
        }
        char rel[1024];
        snprintf(rel, sizeof rel, "%.*s", (int)(end - at - 1), at + 1);
        if (append(&buf, &len, p, (size_t)(at - p)) != 0)
            goto nomem;
        if (gc_home_find(rel, path, sizeof path) != 0) {
            gc_msg(msg, msize, "%s: cannot find %s in the folder of the program or up to %d "
                   "folders above it (is the install complete?)", who, rel, GC_HOME_UP);
            free(buf);
            return GC_E_LOAD;
        }
        if (append(&buf, &len, "'", 1) != 0)
            goto nomem;
        for (const char *q = path; *q; q++)
            if (*q == '\'' ? append(&buf, &len, "'\\''", 4) : append(&buf, &len, q, 1))
                goto nomem;
        if (append(&buf, &len, "'", 1) != 0)
            goto nomem;
        p = end + 1;
    }
    *out = buf;
    return GC_OK;
nomem:
    free(buf);
    gc_msg(msg, msize, "%s: out of memory", who);
    return GC_E_NOMEM;
}

enum gc_status gc_builtin_command(const struct gc_builtin *b, char **out, char *msg, size_t size)
{
    char who[96];

    snprintf(who, sizeof who, "built-in adapter '%s'", b->name);
    return gc_home_command(b->command ? b->command : "", who, out, msg, size);
}
