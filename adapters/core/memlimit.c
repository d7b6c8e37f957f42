/* --memory-limit: how it is put in place, and how messages name it (memlimit.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memlimit.h"

/* AddressSanitizer (GCC and clang), ThreadSanitizer and MemorySanitizer map shadow memory of
 * terabytes of address space; under RLIMIT_AS nothing would start. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define GC_MEM_SANITIZER "AddressSanitizer or ThreadSanitizer"
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define GC_MEM_SANITIZER "a sanitizer"
#endif
#endif

int gc_mem_sanitized(void)
{
#ifdef GC_MEM_SANITIZER
    return 1;
#else
    return 0;
#endif
}

unsigned long long gc_mem_effective(unsigned long long bytes)
{
    return gc_mem_sanitized() ? 0 : bytes;
}

void gc_mem_init(struct gc_memlimit *m, unsigned long long bytes, const char *cgroup_root)
{
    const char *no = getenv("GELUCHECK_NO_CGROUP");

    memset(m, 0, sizeof *m);
    atomic_init(&m->next, 0);
    m->bytes = gc_mem_effective(bytes);
    if (bytes == 0) {
        snprintf(m->why, sizeof m->why, "--memory-limit 0: no limit");
        return;
    }
#ifdef GC_MEM_SANITIZER
    snprintf(m->why, sizeof m->why, "off in this build: %s reserves terabytes of address space",
             GC_MEM_SANITIZER);
    return;
#endif
    m->via = GC_MEM_RLIMIT_AS;
    if (!cgroup_root)
        snprintf(m->why, sizeof m->why, "no cgroup asked for");
    else if (no && strcmp(no, "1") == 0)
        snprintf(m->why, sizeof m->why, "GELUCHECK_NO_CGROUP=1");
    else if (gc_mem_cgroup_setup(m, cgroup_root, m->why, sizeof m->why) == 0)
        m->via = GC_MEM_CGROUP;
}

void gc_mem_release(struct gc_memlimit *m)
{
    if (m->via == GC_MEM_CGROUP)
        gc_mem_cgroup_teardown(m);
    m->via = GC_MEM_NONE;
}

void gc_mem_format(unsigned long long bytes, char *buf, size_t size)
{
    static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    int u = -1;

    while (u < 5 && bytes >= 1024 && bytes % 1024 == 0) {
        bytes /= 1024;
        u++;
    }
    if (u < 0)
        snprintf(buf, size, "%llu byte%s", bytes, bytes == 1 ? "" : "s");
    else
        snprintf(buf, size, "%llu %s", bytes, unit[u]);
}

void gc_mem_describe(unsigned long long bytes, enum gc_mem_via via, const char *whose,
                     char *buf, size_t size)
{
    char b[48];

    gc_mem_format(bytes, b, sizeof b);
    snprintf(buf, size, "%s --memory-limit of %s (%s)", whose, b,
             via == GC_MEM_CGROUP ? "cgroup memory.max" : "RLIMIT_AS");
}

unsigned long long gc_mem_headroom(unsigned long long bytes)
{
    unsigned long long q = bytes / 4, cap = 256ull << 20;
    return q < 4096 ? 4096 : q < cap ? q : cap;
}
