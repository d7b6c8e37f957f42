/* --memory-limit: a limit on the memory of each process that runs kernels (docs/isolation.md).
 * Part of the adapter helpers (gc_adapter_util), prefix gc_mem_.
 *
 * gc_mem_init decides once per run how the limit is put in place:
 *  - GC_MEM_CGROUP, where the machine lets gelucheck make cgroups: /sys/fs/cgroup is cgroup v2
 *    and the cgroup gelucheck runs in is delegated to it (writable, the memory controller
 *    available, gelucheck the only process in it, no child cgroups).  gelucheck moves itself
 *    into a leaf of its own (gelucheck.PID), enables the memory controller for the children,
 *    and each worker and each exec adapter gets a child cgroup (gelucheck.PID.N, a "cage")
 *    with memory.max = the limit and memory.swap.max = 0, which it joins before it runs
 *    anything.  Past the limit the kernel's OOM killer ends it (SIGKILL), and the cage's
 *    memory.events counts an oom_kill.  gc_mem_release undoes all of it.
 *  - GC_MEM_RLIMIT_AS otherwise: each worker sets RLIMIT_AS on itself before it opens its
 *    adapter.  A kernel past it sees malloc return NULL (and usually dies of it: SIGSEGV,
 *    SIGABRT); the worker reports such a death as out of memory when less than
 *    gc_mem_headroom() of address space was left (adapters/worker/worker_limit.c).  Exec
 *    adapters are not limited this way: Node, V8, Python and PyTorch reserve far more address
 *    space than they use.
 *  - GC_MEM_NONE: a limit of 0, or a sanitizer build (AddressSanitizer reserves terabytes of
 *    address space).
 * Nothing here prints; every failure is a status and a message. */
#ifndef GC_MEMLIMIT_H
#define GC_MEMLIMIT_H

#include <stdatomic.h>
#include <stddef.h>

/* The default --memory-limit, 4 GiB per process (docs/isolation.md argues it). */
#define GC_MEM_DEFAULT (4ull << 30)

enum gc_mem_via { GC_MEM_NONE = 0, GC_MEM_RLIMIT_AS = 1, GC_MEM_CGROUP = 2 };

struct gc_memlimit {
    unsigned long long bytes; /* per process; 0 with GC_MEM_NONE */
    enum gc_mem_via via;
    char why[200];            /* why not a cgroup, or why no limit at all */
    char dir[512];            /* GC_MEM_CGROUP: the delegated cgroup's directory */
    char leaf[560];           /* GC_MEM_CGROUP: dir/gelucheck.PID, where gelucheck moved */
    atomic_uint next;         /* numbers the cages */
};

/* 1 when this build has a sanitizer that reserves address space without end (the limit is
 * then off). */
int gc_mem_sanitized(void);
/* The limit as put in place: bytes, or 0 in a sanitizer build. */
unsigned long long gc_mem_effective(unsigned long long bytes);

/* Decides how bytes (0: none) is put in place (above).  cgroup_root is "/sys/fs/cgroup";
 * NULL, or the environment variable GELUCHECK_NO_CGROUP set to 1, never tries a cgroup. */
void gc_mem_init(struct gc_memlimit *m, unsigned long long bytes, const char *cgroup_root);
/* Undoes what gc_mem_init did (every cage closed first).  Idempotent. */
void gc_mem_release(struct gc_memlimit *m);

/* "4 GiB", "256 MiB", "64 KiB", "1000 bytes": the largest unit that divides it exactly. */
void gc_mem_format(unsigned long long bytes, char *buf, size_t size);
/* "the worker's --memory-limit of 256 MiB (RLIMIT_AS)": whose is "the worker's" or "the
 * adapter's"; via as named in messages. */
void gc_mem_describe(unsigned long long bytes, enum gc_mem_via via, const char *whose,
                     char *buf, size_t size);
/* Under RLIMIT_AS: the address space a process must have left for its death not to count as
 * running out of memory, and free when it starts: a quarter of the limit, at most 256 MiB
 * (more than glibc's malloc asks the system for at once, 1 MiB for its heap and 64 MiB for a
 * thread's arena, unless one allocation is bigger), at least 4 KiB. */
unsigned long long gc_mem_headroom(unsigned long long bytes);

/* ---- memlimit_cgroup.c ---- */

/* This process's cgroup v2 path from the text of /proc/self/cgroup (its "0::PATH" line) into
 * path.  0, or -1 when there is none. */
int gc_mem_cgroup_path(const char *text, char *path, size_t size);
/* GC_MEM_CGROUP's set-up (gc_mem_init) and its undoing (gc_mem_release).  0, or -1 with why. */
int gc_mem_cgroup_setup(struct gc_memlimit *m, const char *root, char *why, size_t size);
void gc_mem_cgroup_teardown(struct gc_memlimit *m);

/* One process's cgroup under GC_MEM_CGROUP. */
struct gc_mem_cage {
    char dir[600];                /* "" when there is none */
    char procs[620];              /* dir/cgroup.procs: what the process writes "0" to */
    unsigned long long oom_kills; /* memory.events oom_kill as last read */
};
/* Makes c's cgroup when m is GC_MEM_CGROUP and c has none yet (else nothing: c->dir stays
 * "").  0, or -1 with msg. */
int gc_mem_cage_open(struct gc_memlimit *m, struct gc_mem_cage *c, char *msg, size_t size);
/* 1 when the cage's oom_kill count rose since the last call (or the open); 0 otherwise and
 * without a cage. */
int gc_mem_cage_oom(struct gc_mem_cage *c);
/* Removes the cgroup (its processes must be gone: they are killed if not).  Idempotent. */
void gc_mem_cage_close(struct gc_mem_cage *c);

#endif
