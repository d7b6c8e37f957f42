/* parallel.c: a work loop over n items on n threads (POSIX threads, C11 atomics).  Items are
 * handed out one at a time in increasing order by an atomic counter; thread 0 is the caller.
 * When a thread cannot be started, the threads already running and the caller share the
 * items left (the caller alone if none started): every item is still done exactly once,
 * only with fewer threads, and the return value says so. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include <mpfr.h>

#include "suites.h"

struct pool {
    int (*fn)(void *arg, unsigned thread, uint64_t item);
    void *arg;
    uint64_t n_items;
    atomic_uint_fast64_t next; /* the next item to hand out */
    atomic_int stop;           /* a fn returned nonzero */
};

struct worker {
    struct pool *p;
    unsigned thread;
};

static void work(struct pool *p, unsigned thread)
{
    while (!atomic_load(&p->stop)) {
        uint64_t i = atomic_fetch_add(&p->next, 1);
        if (i >= p->n_items)
            break;
        if (p->fn(p->arg, thread, i) != 0)
            atomic_store(&p->stop, 1);
    }
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    work(w->p, w->thread);
    /* MPFR keeps per-thread caches of constants (pi, log 2, ...) that the reference fills;
     * a thread that ends must free its own, or every run leaks them */
    mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
    return NULL;
}

int gs_parallel_for(unsigned n_threads, uint64_t n_items,
                    int (*fn)(void *arg, unsigned thread, uint64_t item), void *arg)
{
    struct pool p;
    p.fn = fn;
    p.arg = arg;
    p.n_items = n_items;
    atomic_init(&p.next, 0);
    atomic_init(&p.stop, 0);
    if (n_threads < 1)
        n_threads = 1;
    if (n_items < n_threads) /* no thread without an item to start with */
        n_threads = n_items > 0 ? (unsigned)n_items : 1;
    pthread_t *tid = NULL;
    struct worker *w = NULL;
    unsigned started = 0;
    int failed = 0;
    if (n_threads > 1) {
        tid = malloc(sizeof *tid * n_threads);
        w = malloc(sizeof *w * n_threads);
        if (tid == NULL || w == NULL)
            failed = 1;
        for (unsigned t = 1; !failed && t < n_threads; t++) {
            w[t].p = &p;
            w[t].thread = t;
            if (pthread_create(&tid[t], NULL, worker_main, &w[t]) != 0)
                failed = 1; /* the threads started so far and the caller share the rest */
            else
                started = t;
        }
    }
    work(&p, 0);
    for (unsigned t = 1; t <= started; t++)
        pthread_join(tid[t], NULL);
    free(tid);
    free(w);
    return failed;
}
