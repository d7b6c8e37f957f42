/* gelucheck-worker under --memory-limit (adapters/core/memlimit.h): it sets RLIMIT_AS on itself
 * or joins its cgroup before it opens the adapter, and tells a death by running out of memory
 * from any other.
 *
 * Under RLIMIT_AS a kernel past the limit sees an allocation fail: malloc returns NULL, and the
 * kernel then usually writes through it (SIGSEGV) or aborts (C++'s std::bad_alloc: SIGABRT).
 * Which allocation fails and how the kernel dies vary; what does not is that the address space
 * is all but used up at that moment.  So when the fault handler (worker_guard.c) sees SIGSEGV,
 * SIGBUS or SIGABRT, it asks whether gc_mem_headroom(limit) more bytes of address space would
 * still fit (a PROT_NONE, MAP_NORESERVE probe: address space only, unmapped at once).  If not,
 * the death was out of memory.  For a given kernel and input that answer is the same every
 * time: a failed request of at most the headroom always leaves less than the headroom free.
 * A single request larger than the headroom leaves no trace when it fails: that crash is
 * reported as the signal alone.  A kernel that crashes for another reason within the
 * headroom of the limit is reported as out of memory, which it all but was.
 *
 * A worker that has less than the headroom free before it opens the adapter does not start: it
 * says so in its hello (an adapter error in the host), as it does when the open itself fails
 * or crashes without room left. */
#define _GNU_SOURCE /* MAP_NORESERVE */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "adapter.h"
#include "memlimit.h"
#include "worker_internal.h"

static struct {
    size_t headroom;               /* 0: no RLIMIT_AS (else at least a page) */
    volatile sig_atomic_t opened;  /* the hello is sent */
    char note[128];                /* "the worker's --memory-limit of 256 MiB (RLIMIT_AS)" */
    char open_msg[300];            /* the hello of an open that ran out of memory */
    size_t open_len;
} lim;

/* The worker's address space now (VmSize), or 0 when /proc does not say. */
static unsigned long long vm_size(void)
{
    char text[128];
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof text - 1);

    if (fd >= 0)
        close(fd);
    if (n <= 0)
        return 0;
    text[n] = '\0';
    return strtoull(text, NULL, 10) * (unsigned long long)sysconf(_SC_PAGESIZE);
}

static int join_cgroup(const char *procs, char *msg, size_t size)
{
    int fd = open(procs, O_WRONLY | O_CLOEXEC), e = 0;

    if (fd < 0 || write(fd, "0", 1) != 1)
        e = errno ? errno : EIO;
    if (fd >= 0)
        close(fd);
    if (e)
        snprintf(msg, size, "gelucheck-worker: cannot join the cgroup of its --memory-limit "
                 "('%s'): %s", procs, strerror(e));
    return e ? -1 : 0;
}

int wk_limit_apply(unsigned long long rlimit_as, const char *cgroup_procs, char *msg,
                   size_t size)
{
    struct rlimit rl;
    char used[48];

    if (cgroup_procs)
        return join_cgroup(cgroup_procs, msg, size);
    if (rlimit_as == 0)
        return 0;
    if (getrlimit(RLIMIT_AS, &rl) != 0)
        rl.rlim_max = RLIM_INFINITY;
    if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > rlimit_as)
        rl.rlim_max = (rlim_t)rlimit_as; /* a tighter limit already in place stays */
    rl.rlim_cur = rl.rlim_max;
    if (setrlimit(RLIMIT_AS, &rl) != 0) {
        snprintf(msg, size, "gelucheck-worker: cannot set RLIMIT_AS for --memory-limit: %s",
                 strerror(errno));
        return -1;
    }
    lim.headroom = (size_t)gc_mem_headroom(rlimit_as);
    gc_mem_describe(rlimit_as, GC_MEM_RLIMIT_AS, "the worker's", lim.note, sizeof lim.note);
    int n = snprintf(lim.open_msg, sizeof lim.open_msg, "gelucheck-worker ran out of memory "
                     "while opening the adapter, under %s", lim.note);
    lim.open_len = n > 0 && (size_t)n < sizeof lim.open_msg ? (size_t)n : 0;
    if (!wk_limit_exhausted())
        return 0;
    snprintf(used, sizeof used, "%.1f MiB", (double)vm_size() / (1 << 20));
    snprintf(msg, size, "gelucheck-worker cannot start under %s: it takes %s of address space "
             "before it opens the adapter and needs a quarter of the limit (at most 256 MiB) "
             "free besides; give a larger --memory-limit (0: none)", lim.note, used);
    return -1;
}

int wk_limit_exhausted(void)
{
    if (lim.headroom == 0)
        return 0;
    void *p = mmap(NULL, lim.headroom, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED)
        return errno == ENOMEM;
    munmap(p, lim.headroom);
    return 0;
}

const char *wk_limit_note(void)
{
    return lim.note;
}

void wk_limit_opened(void)
{
    lim.opened = 1;
}

void wk_limit_open_death(void)
{
    struct wk_hello h = { WK_MAGIC_HELLO, (int32_t)GC_E_LOAD, 0, (uint32_t)lim.open_len, 0, 0,
                          0, 0 };

    if (lim.opened || lim.open_len == 0 || !wk_limit_exhausted())
        return;
    lim.opened = 1; /* one hello */
    if (write(WK_FD_REP, &h, sizeof h) == (ssize_t)sizeof h)
        (void)!write(WK_FD_REP, lim.open_msg, lim.open_len);
}
