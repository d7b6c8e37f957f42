/* Internals of gelucheck-worker (adapters/worker): the guarded memory and the fault handler
 * (worker_guard.c), used by the main loop (worker_main.c).  Prefix wk_. */
#ifndef GC_WORKER_INTERNAL_H
#define GC_WORKER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "worker_proto.h"

/* PROT_NONE bytes before the x region, between the regions and after the y region: far
 * more than the reach of a stray index such as y[n + 2048] of an f64 kernel (16 KiB), and
 * free (reserved address space, never memory). */
#define WK_GUARD_BYTES ((size_t)1 << 20)

/* The shared memory as the worker sees it: [guard][x: read-only][guard][y][guard], with the
 * y region's pages before the current window PROT_NONE too. */
struct wk_mem {
    unsigned char *base;   /* the reservation, NULL before the first request */
    size_t total;
    unsigned char *x, *y;  /* the regions */
    size_t x_cap, y_cap;
    size_t y_none;         /* bytes at the start of the y region now PROT_NONE */
};

/* (Re)maps the regions for caps x_cap, y_cap of descriptor WK_FD_SHM.  0, or -1 with errno. */
int wk_mem_map(struct wk_mem *m, size_t x_cap, size_t y_cap);
/* Makes the y region's pages before window_start PROT_NONE, the rest read-write.  0 or -1. */
int wk_mem_window(struct wk_mem *m, size_t window_start);
void wk_mem_unmap(struct wk_mem *m);

/* Installs the SIGSEGV/SIGBUS handler on an alternate stack.  0 or -1. */
int wk_guard_install(void);
/* Around one kernel call: what the handler needs to classify a fault.  x == y: in place. */
void wk_guard_arm(const struct wk_mem *m, const void *x, const void *y, size_t elem);
/* After the call: the first classified fault (enum gc_fault_kind, 0 none) and its offset.
 * After a fault the guards are open where it wrote: unmap and map afresh. */
int wk_guard_disarm(int64_t *offset);

/* ---- worker_limit.c: --rlimit-as and --cgroup (--memory-limit) ---- */

/* Joins the cgroup whose cgroup.procs is cgroup_procs (not NULL), or sets RLIMIT_AS to
 * rlimit_as (not 0) and checks that the worker has room left.  0, or -1 with msg (the
 * hello's). */
int wk_limit_apply(unsigned long long rlimit_as, const char *cgroup_procs, char *msg,
                   size_t size);
/* 1 when RLIMIT_AS is set and less than its headroom of address space is free: a death now is
 * one by running out of memory.  Async-signal-safe (it may change errno). */
int wk_limit_exhausted(void);
/* "the worker's --memory-limit of 256 MiB (RLIMIT_AS)", or "" without RLIMIT_AS */
const char *wk_limit_note(void);
/* The hello is sent: from now on a death is told in a reply. */
void wk_limit_opened(void);
/* From the fault handler, before the hello: when the worker is out of memory, sends the hello
 * that says it ran out of memory while opening the adapter.  Async-signal-safe. */
void wk_limit_open_death(void);

#endif
