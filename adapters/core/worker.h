/* The host side of gelucheck-worker (docs/design.md section 10), internal to adapters/core:
 * worker_spawn.c finds the worker, starts it and reads its hello; worker_host.c is the
 * adapter kind's ops.  The protocol is adapters/worker/worker_proto.h. */
#ifndef GC_WORKER_H
#define GC_WORKER_H

#include "core.h"
#include "exec_internal.h" /* struct exec_proc and its I/O under deadlines */
#include "memlimit.h"

#define GC_WORKER_NAME "gelucheck-worker"
/* How long a worker whose output ended may take to exit before it is killed.  Only a worker
 * that closed its pipes and lives on ever waits it out (never one of ours): one that is dying
 * is reaped as soon as it exits, so a long grace costs nothing and keeps a slow exit on a
 * loaded machine from being reported as our SIGKILL instead of its own cause. */
#define GC_WORKER_GRACE_S 10.0

/* The table a worker sent: the adapter's name, version and kernels, and what loading the
 * adapter did to the floating-point environment there ("" when nothing). */
struct gc_worker_table {
    char *name, *version, *fpenv_load;
    size_t n;
    struct gc_kernel *k; /* name, description, func, dtype, elem_size set */
};
void gc_worker_table_free(struct gc_worker_table *t);

struct gc_worker_state {
    struct exec_proc p;   /* in_fd: requests, out_fd: replies, err_fd: its stderr */
    int shm;              /* the memfd, -1 before the first eval */
    unsigned char *map;   /* the host's read-write view of it */
    size_t x_cap, y_cap;
    char *spec, *options; /* to start it again; options may be NULL */
    double startup_s, batch_s;
    char who[320];        /* "plug-in 'x.so'", "built-in adapter 'libm'" */
    uint64_t fp_seen;     /* the worker's fpenv_modified count as last reported */
    enum gc_status dead;  /* GC_OK while usable */
    char dead_msg[1400]; /* room for every part bury() joins */
    struct gc_memlimit *mem; /* --memory-limit, or NULL */
    struct gc_mem_cage cage; /* the worker's cgroup under GC_MEM_CGROUP */
};

/* Where the worker is: $GELUCHECK_WORKER, next to /proc/self/exe, ../libexec/gelucheck/
 * from there, the build tree, the install prefix.  0, or -1 with msg saying where it looked. */
int gc_worker_find(char *path, size_t size, char *msg, size_t msize);
/* Starts the worker for s->spec and reads its hello within s->startup_s.  On GC_OK *t holds
 * the table; otherwise msg has the open's own message (the worker ran the open and failed:
 * the status it gave) or says how the worker failed (named by s->who). */
enum gc_status gc_worker_start(struct gc_worker_state *s, struct gc_worker_table *t, char *msg,
                               size_t size);
/* Reaps an ended (or ending) worker and says how it ended: "was killed by signal 11
 * (SIGSEGV)", "exited with status 3"; *sig / *status get the numbers. */
void gc_worker_reap(struct gc_worker_state *s, double deadline, int *sig, int *status,
                    char *buf, size_t size);
/* "; stderr: '...'": the last line the worker wrote to stderr, or "" */
void gc_worker_stderr(const struct gc_worker_state *s, char *buf, size_t size);

/* ---- worker_memlimit.c: --memory-limit ---- */
#define GC_WORKER_ARGS 7 /* the most words of its command line, NULL included */
/* The worker's command line (worker_proto.h) into argv, num holding the value of --rlimit-as;
 * under GC_MEM_CGROUP the worker's cgroup is made first.  0, or -1 with msg. */
int gc_worker_argv(struct gc_worker_state *s, char **argv, char *num, size_t nsize, char *msg,
                   size_t size);
/* Whether the worker that just died ran out of memory: noted (its crash note said so, under
 * RLIMIT_AS) or its cgroup counted an oom_kill.  Then buf gets which limit ("the worker's
 * --memory-limit of 256 MiB (RLIMIT_AS)") and 1 is returned; else buf is "" and 0. */
int gc_worker_oom(struct gc_worker_state *s, int noted, char *buf, size_t size);

#endif
