/* The private protocol between gelucheck (the host) and gelucheck-worker (docs/design.md section
 * 10).  Both ends are built from the same tree, so messages are native-endian structs; the
 * magic carries the protocol version and a mismatch is refused at start-up.
 *
 * The worker's command line: gelucheck-worker [--rlimit-as BYTES | --cgroup PROCS] SPEC
 * [ADAPTER-OPTIONS].  --rlimit-as: it sets RLIMIT_AS on itself; --cgroup: it writes "0" to
 * PROCS (a cgroup.procs file) to join that cgroup; either before it opens SPEC (--memory-limit,
 * adapters/core/memlimit.h).
 *
 * The worker's descriptors: 0 requests (host -> worker), 3 replies (worker -> host), 1 and 2
 * the stderr pipe the host drains (a kernel that prints to stdout cannot garble a reply),
 * 4 the shared memory (memfd), which the host grows and the worker maps.
 *
 *   worker -> host  struct wk_hello, then msg_len bytes of the open's message (status != 0)
 *                   or name, version, fpenv_load and n_kernels times (struct wk_kdef, name,
 *                   description)
 *   host -> worker  struct wk_req                    one batch (x and y already in memory)
 *   worker -> host  struct wk_rep, msg_len + what_len bytes
 *   host closes fd 0: the worker closes the adapter and exits 0.
 *
 * The memory: [x region: x_cap bytes][y region: y_cap bytes], both whole pages.  x lies at
 * x_off in its region (x_off = the caller's x mod 64); the y window (y_slack bytes, y, y_slack
 * bytes) lies at the end of its region, y at y_off (the caller's y mod 64), so that less than
 * 64 bytes separate the window's end from the guard the worker puts after the region. */
#ifndef GC_WORKER_PROTO_H
#define GC_WORKER_PROTO_H

#include <stdint.h>

#define WK_MAGIC_HELLO 0x67634832u /* "gcH2": protocol version 2 (1 had no fpenv_load_len) */
#define WK_MAGIC_REQ 0x67635131u   /* "gcQ1" */
#define WK_MAGIC_REP 0x67635231u   /* "gcR1" */

#define WK_FD_REQ 0   /* the worker's descriptors, as above */
#define WK_FD_REP 3
#define WK_FD_SHM 4

#define WK_STR_MAX 65536u /* the longest string a hello or reply may carry (a sanity bound) */
#define WK_ALIGN 64u      /* the alignment kept: the caller's address mod 64 */

/* wk_rep.status besides the gc_status values: the worker is about to die of a signal it did
 * not classify; near/where_off say where the fault was (the exit status follows by waitpid) */
#define WK_CRASH_NOTE 100

struct wk_hello {
    uint32_t magic;
    int32_t status;      /* enum gc_status of the in-process open */
    uint32_t n_kernels;  /* status 0 */
    uint32_t msg_len;    /* status != 0: the open's message */
    uint32_t name_len, version_len;
    uint32_t fpenv_load_len; /* status 0: what loading changed (struct gc_adapter fpenv_load) */
    uint32_t pad;
};
struct wk_kdef {
    uint32_t func, dtype; /* enum geluref_func, enum geluref_dtype */
    uint32_t name_len, desc_len;
};

struct wk_req {
    uint32_t magic;
    uint32_t kernel;   /* index in the table */
    uint64_t n;
    uint64_t x_cap, y_cap; /* the region sizes (whole pages): the worker remaps on change */
    uint64_t x_off, y_off; /* byte offsets of x and y in their regions */
    uint64_t y_slack;      /* the window: [y_off - y_slack, y_off + n * elem + y_slack) */
    uint32_t inplace;      /* 1: x == y (the kernel gets the y window for both) */
    uint32_t pad;
};

enum wk_near { WK_NEAR_NONE = 0, WK_NEAR_X = 1, WK_NEAR_Y = 2 };

struct wk_rep {
    uint32_t magic;
    int32_t status;    /* enum gc_status, or WK_CRASH_NOTE */
    int32_t fault;     /* enum gc_fault_kind (status GC_E_FAULT) */
    int32_t signal;    /* the signal of a fault or crash note */
    int64_t offset;    /* GC_E_FAULT: elements from y[0] or x[0] */
    int32_t near;      /* enum wk_near: a crash note's fault address lies near x or y */
    int32_t oom;       /* a crash note: 1 when the worker dies out of memory under its
                          --rlimit-as (worker_limit.c) */
    int64_t near_off;  /* its byte offset from x[0] or y[0] */
    uint64_t fpenv_modified; /* the adapter's count after this eval (docs/design.md 5.1) */
    uint32_t msg_len, what_len; /* then the message and fpenv_what */
};

#endif
