/* Crashes and hangs as findings (docs/design.md section 10; internal to suites/, prefix gs_crash_).
 *
 * When a batch makes the kernel's process die (GC_E_DIED) or stall (GC_E_TIMEOUT), the
 * adapter is restarted (gc_adapter_restart: an exec adapter's command, the worker of an
 * in-process kernel) and the batch is bisected: halves are evaluated on scratch buffers,
 * restarting after each failure, down to the smallest sub-batch that still fails the same way
 * (the same status; for a death the same signal or exit status), ideally one input.  Only
 * statuses and struct gc_eval_extra are used: nothing here depends on the adapter's kind. */
#ifndef GELUCHECK_CRASH_H
#define GELUCHECK_CRASH_H

#include <stddef.h>

#include "suites.h"

/* The caps of one bisection.  A batch of the largest size a suite evaluates (65536, the exec
 * protocol's limit) reaches one input in 16 halvings, each evaluating at most both halves, so
 * 1 + 2 * 16 = 33 evaluations suffice: GS_CRASH_MAX_EVALS only guards larger batches.  An
 * evaluation that times out costs a whole --timeout, so at most GS_CRASH_MAX_TIMEOUTS of them
 * (the confirmation of the whole batch included) are spent: a kernel that hangs costs at most
 * 1 + 4 batch timeouts (5 minutes at the default 60 s), and a batch of 65536 that hangs on
 * every input is narrowed to 8192 (65536 / 2^3).  What was found when a cap is hit is kept,
 * and the finding says that the bisection was capped. */
#define GS_CRASH_MAX_EVALS 40
#define GS_CRASH_MAX_TIMEOUTS 4

struct gs_crash {
    int restart_failed;   /* a restart failed: msg says why; nothing after it was tried */
    int reproduced;       /* the whole batch failed the same way again after the first restart */
    int capped;           /* stopped by GS_CRASH_MAX_EVALS or GS_CRASH_MAX_TIMEOUTS */
    int nomem;            /* no scratch buffers: not bisected (the adapter is restarted) */
    size_t offset, count; /* the smallest batch found to fail: x[offset, offset + count) (the
                             whole batch unless reproduced) */
    unsigned evals, restarts, timeouts; /* what the bisection spent */
    char msg[512];        /* restart_failed: the restart's message */
};

/* After k failed with st (GC_E_DIED or GC_E_TIMEOUT; ex: what the eval said) on x[0, n):
 * restarts k's adapter and bisects the batch (x is only read; scratch buffers are used).
 * Leaves the adapter restarted unless c->restart_failed. */
void gs_crash_bisect(const struct gc_kernel *k, const void *x, size_t n, enum gc_status st,
                     const struct gc_eval_extra *ex, struct gs_crash *c);

/* The finding of a crash or timeout (kind crash or timeout) on thread t's kernel: x the input
 * at the start of the smallest failing batch, the detail saying how it ended (the signal or
 * exit status), that batch's size and place in the original one, what the bisection spent,
 * and the adapter's message (cut to fit).  Returns st. */
enum gc_status gs_crash_record(const struct gs_ctx *c, unsigned t, const void *x, size_t n,
                               enum gc_status st, const struct gc_eval_extra *ex,
                               const char *msg, struct gs_findings *f);

/* The "command" of the crash and timeout findings of a suite entry (JSON, as gs_findings_json
 * writes it): instead of the `gelucheck ref` command of a value finding, which gives only the
 * correct value, the run that evaluates the kernel on the finding's input alone:
 *   gelucheck run --adapter SPEC [--memory-limit BYTES] --kernel NAME --suite ulp --range X:X
 * (X the input as an exact hex float; the ulp suite restricted to [X, X] evaluates that one
 * input), or --suite special for a NaN or infinite input (its batch holds them);
 * --memory-limit when the run's (gs_config.memory_limit) was not the default.  Called by
 * gs_run_kernel and gs_kernel_merge, so a merged result says the same. */
void gs_crash_commands(json_t *suite, const char *spec, const char *kernel,
                       enum geluref_dtype dt, unsigned long long memory_limit);

#endif
