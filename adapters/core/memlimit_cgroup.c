/* --memory-limit through cgroup v2 (memlimit.h, GC_MEM_CGROUP): only where this process's own
 * cgroup is delegated to it.  Everything it makes is named gelucheck.PID[.N] and removed again;
 * nothing outside the delegated cgroup is touched, and nothing is touched at all unless every
 * check passes.  The files (Documentation/admin-guide/cgroup-v2.rst): cgroup.controllers (what
 * the parent lets us use), cgroup.subtree_control ("+memory" gives the children memory.max),
 * cgroup.procs (writing "0" moves the writer), cgroup.type, memory.max, memory.swap.max,
 * memory.events ("oom_kill N"), cgroup.kill. */
#define _GNU_SOURCE /* struct dirent's d_type */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "memlimit.h"

#define CGROUP2_SUPER_MAGIC 0x63677270 /* linux/magic.h */

/* The whole (small) file into buf, NUL-terminated; its length, or -1. */
static long read_text(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    size_t n = 0;
    ssize_t r = 1;

    if (fd < 0)
        return -1;
    while (n + 1 < size && (r = read(fd, buf + n, size - 1 - n)) > 0)
        n += (size_t)r;
    close(fd);
    buf[n] = '\0';
    return r < 0 ? -1 : (long)n;
}

/* Writes s into a cgroup file (one write: cgroup files take a value per write).  0 or errno. */
static int write_text(const char *path, const char *s)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC), e = 0;

    if (fd < 0)
        return errno;
    if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
        e = errno ? errno : EIO;
    close(fd);
    return e;
}

static int has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
        if ((p == text || p[-1] == ' ' || p[-1] == '\n') &&
            (p[n] == '\0' || p[n] == ' ' || p[n] == '\n'))
            return 1;
    return 0;
}

int gc_mem_cgroup_path(const char *text, char *path, size_t size)
{
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (strncmp(l, "0::/", 4) != 0)
            continue;
        size_t n = strcspn(l + 3, "\n");
        if (n + 1 > size)
            return -1;
        memcpy(path, l + 3, n);
        path[n] = '\0';
        return 0;
    }
    return -1;
}

/* 1 when dir has a subdirectory (a child cgroup) */
static int has_children(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int found = 0;

    if (!d)
        return 1;
    while (!found && (e = readdir(d)))
        found = e->d_type == DT_DIR && strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return found;
}

/* The checks of memlimit.h: 0 when dir is ours to use, else -1 with why. */
static int delegated(const char *dir, char *why, size_t size)
{
    char path[600], text[4096];
    long me = (long)getpid();

    snprintf(path, sizeof path, "%s/cgroup.controllers", dir);
    if (read_text(path, text, sizeof text) < 0 || !has_word(text, "memory")) {
        snprintf(why, size, "its cgroup cannot have the memory controller");
        return -1;
    }
    snprintf(path, sizeof path, "%s/cgroup.type", dir);
    if (read_text(path, text, sizeof text) < 0 || strcmp(text, "domain\n") != 0) {
        snprintf(why, size, "its cgroup is not of type domain");
        return -1;
    }
    static const char *const files[] = { ".", "cgroup.procs", "cgroup.subtree_control" };
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        if (access(path, W_OK) != 0) {
            snprintf(why, size, "its cgroup is not delegated to it (%s%s not writable)", dir,
                     i ? strchr(path + strlen(dir), '/') : "");
            return -1;
        }
    }
    snprintf(path, sizeof path, "%s/cgroup.procs", dir);
    if (read_text(path, text, sizeof text) < 0 || strtol(text, NULL, 10) != me ||
        strchr(text, '\n') != text + strlen(text) - 1) {
        snprintf(why, size, "other processes share its cgroup");
        return -1;
    }
    if (has_children(dir)) {
        snprintf(why, size, "its cgroup has child cgroups");
        return -1;
    }
    return 0;
}

int gc_mem_cgroup_setup(struct gc_memlimit *m, const char *root, char *why, size_t size)
{
    struct statfs sf;
    char text[4096], own[400], path[600];

    if (statfs(root, &sf) != 0 || sf.f_type != CGROUP2_SUPER_MAGIC) {
        snprintf(why, size, "%s is not cgroup v2", root);
        return -1;
    }
    if (read_text("/proc/self/cgroup", text, sizeof text) < 0 ||
        gc_mem_cgroup_path(text, own, sizeof own) != 0 || strcmp(own, "/") == 0) {
        snprintf(why, size, "no cgroup v2 of its own in /proc/self/cgroup");
        return -1;
    }
    snprintf(m->dir, sizeof m->dir, "%s%s", root, own);
    if (delegated(m->dir, why, size) != 0)
        return -1;
    /* a cgroup with processes cannot enable controllers for its children: move into a leaf */
    snprintf(m->leaf, sizeof m->leaf, "%s/gelucheck.%ld", m->dir, (long)getpid());
    snprintf(path, sizeof path, "%s/cgroup.procs", m->leaf);
    int e = mkdir(m->leaf, 0755) != 0 ? errno : write_text(path, "0");
    if (e) {
        snprintf(why, size, "cannot move into %s: %s", m->leaf, strerror(e));
        rmdir(m->leaf);
        return -1;
    }
    snprintf(path, sizeof path, "%s/cgroup.subtree_control", m->dir);
    if ((e = write_text(path, "+memory")) != 0) {
        snprintf(why, size, "cannot enable the memory controller in %s: %s", m->dir, strerror(e));
        gc_mem_cgroup_teardown(m);
        return -1;
    }
    return 0;
}

void gc_mem_cgroup_teardown(struct gc_memlimit *m)
{
    char path[600];

    if (!m->leaf[0])
        return;
    snprintf(path, sizeof path, "%s/cgroup.subtree_control", m->dir);
    write_text(path, "-memory"); /* fails harmlessly when it was never enabled */
    snprintf(path, sizeof path, "%s/cgroup.procs", m->dir);
    write_text(path, "0");
    rmdir(m->leaf);
    m->leaf[0] = '\0';
}

static unsigned long long oom_kills(const struct gc_mem_cage *c)
{
    char path[640], text[1024];
    const char *p;

    snprintf(path, sizeof path, "%s/memory.events", c->dir);
    if (read_text(path, text, sizeof text) < 0 || !(p = strstr(text, "oom_kill ")))
        return 0;
    return strtoull(p + 9, NULL, 10);
}

int gc_mem_cage_open(struct gc_memlimit *m, struct gc_mem_cage *c, char *msg, size_t size)
{
    char path[640], v[32];
    int e;

    if (m == NULL || m->via != GC_MEM_CGROUP || c->dir[0])
        return 0;
    snprintf(c->dir, sizeof c->dir, "%s.%u", m->leaf, atomic_fetch_add(&m->next, 1u));
    snprintf(c->procs, sizeof c->procs, "%s/cgroup.procs", c->dir);
    snprintf(path, sizeof path, "%s/memory.max", c->dir);
    snprintf(v, sizeof v, "%llu", m->bytes);
    if ((e = mkdir(c->dir, 0755) != 0 ? errno : write_text(path, v)) != 0) {
        snprintf(msg, size, "cannot make the cgroup %s for --memory-limit: %s", c->dir,
                 strerror(e));
        rmdir(c->dir);
        c->dir[0] = c->procs[0] = '\0';
        return -1;
    }
    snprintf(path, sizeof path, "%s/memory.swap.max", c->dir);
    write_text(path, "0"); /* absent without swap accounting: then there is nothing to stop */
    c->oom_kills = oom_kills(c);
    return 0;
}

int gc_mem_cage_oom(struct gc_mem_cage *c)
{
    if (!c->dir[0])
        return 0;
    unsigned long long n = oom_kills(c);
    int rose = n > c->oom_kills;
    c->oom_kills = n;
    return rose;
}

void gc_mem_cage_close(struct gc_mem_cage *c)
{
    char path[640];
    struct timespec ms10 = { 0, 10000000 };

    if (!c->dir[0])
        return;
    /* an exec adapter's children may outlive its leader for a moment: kill what is left,
       then give the kernel up to a second to let the cgroup go */
    snprintf(path, sizeof path, "%s/cgroup.kill", c->dir);
    for (int i = 0; rmdir(c->dir) != 0 && errno == EBUSY && i < 100; i++) {
        if (i == 0)
            write_text(path, "1");
        nanosleep(&ms10, NULL);
    }
    c->dir[0] = c->procs[0] = '\0';
}
