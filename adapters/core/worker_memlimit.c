/* --memory-limit for gelucheck-worker, the host's side (worker.h; memlimit.h says how the limit
 * is put in place, adapters/worker/worker_limit.c how the worker applies it). */
#include <stdio.h>

#include "worker.h"

int gc_worker_argv(struct gc_worker_state *s, char **argv, char *num, size_t nsize, char *msg,
                   size_t size)
{
    int n = 0;
    const struct gc_memlimit *m = s->mem;

    argv[n++] = GC_WORKER_NAME;
    if (m && m->via == GC_MEM_CGROUP) {
        if (gc_mem_cage_open(s->mem, &s->cage, msg, size) != 0)
            return -1;
        gc_mem_cage_oom(&s->cage); /* counts from this start on */
        argv[n++] = "--cgroup";
        argv[n++] = s->cage.procs;
    } else if (m && m->via == GC_MEM_RLIMIT_AS && m->bytes) {
        snprintf(num, nsize, "%llu", m->bytes);
        argv[n++] = "--rlimit-as";
        argv[n++] = num;
    }
    argv[n++] = s->spec;
    argv[n++] = s->options; /* may be NULL: then it ends the list */
    argv[n] = NULL;
    return 0;
}

int gc_worker_oom(struct gc_worker_state *s, int noted, char *buf, size_t size)
{
    const struct gc_memlimit *m = s->mem;
    int oom = m && ((noted && m->via == GC_MEM_RLIMIT_AS) ||
                    (m->via == GC_MEM_CGROUP && gc_mem_cage_oom(&s->cage)));

    buf[0] = '\0';
    if (oom)
        gc_mem_describe(m->bytes, m->via, "the worker's", buf, size);
    return oom;
}
