/* The worker's guarded view of the shared memory, and the handler that turns a fault on a
 * guard or on the read-only x into a reply (docs/design.md section 10).
 *
 * A fault is classified by its address: in the read-only x region (not in place) it is a write
 * into the input; from the guard before the y region up to the start of the window's first
 * page, a write before y[0]; in the guard after the y region, a write past the window.  The
 * handler remembers the first such fault of the call, makes the page writable (the write
 * lands on a scratch page or on the worker's own copy of x, never on the caller's memory) and
 * returns, so the kernel finishes and its outputs are whole; the main loop then replies
 * GC_E_FAULT and maps everything afresh.  Any other fault (and, on x86-64, a read of a guard)
 * is a crash: the handler sends a note saying where the address lies relative to x and y
 * and whether the worker ran out of memory under --memory-limit (worker_limit.c), restores the
 * default action and lets the signal kill the worker, so that the host sees the signal.
 * SIGABRT takes the same way (no address, but it may be out of memory: std::bad_alloc).  The
 * handler calls only write, mprotect and mmap/munmap (plain system calls), sigaction and
 * raise. */
#define _GNU_SOURCE /* REG_ERR, MAP_NORESERVE */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "adapter.h"
#include "worker_internal.h"

void wk_mem_unmap(struct wk_mem *m)
{
    if (m->base)
        munmap(m->base, m->total);
    memset(m, 0, sizeof *m);
}

int wk_mem_map(struct wk_mem *m, size_t x_cap, size_t y_cap)
{
    wk_mem_unmap(m);
    size_t total = 3 * WK_GUARD_BYTES + x_cap + y_cap;
    unsigned char *b = mmap(NULL, total, PROT_NONE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (b == MAP_FAILED)
        return -1;
    m->base = b;
    m->total = total;
    m->x = b + WK_GUARD_BYTES;
    m->y = m->x + x_cap + WK_GUARD_BYTES;
    m->x_cap = x_cap;
    m->y_cap = y_cap;
    if ((x_cap && mmap(m->x, x_cap, PROT_READ, MAP_SHARED | MAP_FIXED, WK_FD_SHM, 0) ==
                      MAP_FAILED) ||
        mmap(m->y, y_cap, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, WK_FD_SHM,
             (off_t)x_cap) == MAP_FAILED) {
        int e = errno;
        wk_mem_unmap(m);
        errno = e;
        return -1;
    }
    return 0;
}

int wk_mem_window(struct wk_mem *m, size_t window_start)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), lo = window_start / page * page;

    if (lo > m->y_none && mprotect(m->y + m->y_none, lo - m->y_none, PROT_NONE) != 0)
        return -1;
    if (lo < m->y_none &&
        mprotect(m->y + lo, m->y_none - lo, PROT_READ | PROT_WRITE) != 0)
        return -1;
    m->y_none = lo;
    return 0;
}

/* What the handler reads: set by wk_guard_arm before the kernel runs. */
static struct {
    volatile sig_atomic_t armed;
    uintptr_t x_lo, x_hi;       /* the read-only x region (empty in place) */
    uintptr_t before_lo, before_hi; /* the guard before the y region and its PROT_NONE pages */
    uintptr_t after_lo, after_hi;   /* the guard after the y region */
    uintptr_t x, y;
    size_t elem;
    uintptr_t page;
    volatile sig_atomic_t fault; /* the call's first classified fault (enum gc_fault_kind) */
    volatile int64_t offset;
} g;

static unsigned char alt_stack[1 << 16]; /* the handler's stack: a kernel may have run out */

void wk_guard_arm(const struct wk_mem *m, const void *x, const void *y, size_t elem)
{
    g.x_lo = x == y ? 0 : (uintptr_t)m->x;
    g.x_hi = x == y ? 0 : (uintptr_t)m->x + m->x_cap;
    g.before_lo = (uintptr_t)m->y - WK_GUARD_BYTES;
    g.before_hi = (uintptr_t)m->y + m->y_none;
    g.after_lo = (uintptr_t)m->y + m->y_cap;
    g.after_hi = g.after_lo + WK_GUARD_BYTES;
    g.x = (uintptr_t)x;
    g.y = (uintptr_t)y;
    g.elem = elem;
    g.page = (uintptr_t)sysconf(_SC_PAGESIZE);
    g.fault = GC_FAULT_NONE;
    g.offset = 0;
    g.armed = 1;
}

int wk_guard_disarm(int64_t *offset)
{
    g.armed = 0;
    *offset = g.offset;
    return g.fault;
}

/* Elements from base to a, rounded toward minus infinity (y[-1] for any byte before y[0]). */
static int64_t elements(uintptr_t a, uintptr_t base, size_t elem)
{
    if (a >= base)
        return (int64_t)((a - base) / elem);
    return -(int64_t)((base - a + elem - 1) / elem);
}

/* 1 when the fault was (or may have been) a write: x86-64 says so in the page-fault error
 * code (bit 1); elsewhere every fault on a guard is taken for a write. */
static int was_write(const void *uc)
{
#if defined(__x86_64__) && defined(REG_ERR)
    return (((const ucontext_t *)uc)->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#else
    (void)uc;
    return 1;
#endif
}

/* the distance within which a crash address is reported relative to x or y */
#define WK_NEAR_BYTES ((uintptr_t)1 << 24)

static void note_near(struct wk_rep *r, uintptr_t a)
{
    uintptr_t dy = a > g.y ? a - g.y : g.y - a, dx = a > g.x ? a - g.x : g.x - a;
    if (dy <= dx && dy < WK_NEAR_BYTES) {
        r->near = WK_NEAR_Y;
        r->near_off = a >= g.y ? (int64_t)dy : -(int64_t)dy;
    } else if (dx < WK_NEAR_BYTES) {
        r->near = WK_NEAR_X;
        r->near_off = a >= g.x ? (int64_t)dx : -(int64_t)dx;
    }
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    struct wk_rep r;
    uintptr_t a = (uintptr_t)si->si_addr;
    int kind = GC_FAULT_NONE;
    int64_t off = 0;

    if (g.armed && sig == SIGSEGV && was_write(uc)) {
        if (a >= g.x_lo && a < g.x_hi) {
            kind = GC_FAULT_INPUT;
            off = elements(a, g.x, g.elem);
        } else if (a >= g.before_lo && a < g.before_hi) {
            kind = GC_FAULT_BEFORE_Y;
            off = elements(a, g.y, g.elem);
        } else if (a >= g.after_lo && a < g.after_hi) {
            kind = GC_FAULT_AFTER_Y;
            off = elements(a, g.y, g.elem);
        }
    }
    if (kind != GC_FAULT_NONE &&
        mprotect((void *)(a / g.page * g.page), g.page, PROT_READ | PROT_WRITE) == 0) {
        if (g.fault == GC_FAULT_NONE) {
            g.offset = off;
            g.fault = kind;
        }
        return; /* the write is retried and lands on the page now writable */
    }
    if (g.armed) { /* during an eval; while opening, the host reads a hello, not a reply */
        memset(&r, 0, sizeof r);
        r.magic = WK_MAGIC_REP;
        r.signal = sig;
        r.status = WK_CRASH_NOTE;
        r.oom = wk_limit_exhausted();
        if (sig != SIGABRT) /* abort's si_addr is no address */
            note_near(&r, a);
        (void)!write(WK_FD_REP, &r, sizeof r);
    } else {
        wk_limit_open_death();
    }
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig); /* pending until we return; a real fault also recurs at the instruction */
}

int wk_guard_install(void)
{
    stack_t ss;
    struct sigaction sa;

    memset(&ss, 0, sizeof ss);
    ss.ss_sp = alt_stack;
    ss.ss_size = sizeof alt_stack;
    if (sigaltstack(&ss, NULL) != 0)
        return -1;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, NULL) != 0 || sigaction(SIGBUS, &sa, NULL) != 0 ||
        sigaction(SIGABRT, &sa, NULL) != 0)
        return -1;
    return 0;
}
