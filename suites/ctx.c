/* What every suite gets (struct gs_ctx) and the one way suites call a kernel. */
#include <stdio.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crash.h"
#include "memlimit.h"
#include "suites.h"

void gs_config_init(struct gs_config *c)
{
    memset(c, 0, sizeof *c);
    c->suites = GS_SUITES_ALL;
    c->seed = 1;
    c->threads = 1;
    c->memory_limit = GC_MEM_DEFAULT;
    geluref_config_init(&c->ref);
}

int gs_ctx_init(struct gs_ctx *c, const struct gs_config *cfg, const struct gs_target *t,
                char *msg, size_t size)
{
    memset(c, 0, sizeof *c);
    c->cfg = cfg;
    c->t = t;
    if (t->n_threads == 0 || t->k == NULL || t->k[0] == NULL || cfg->policy == NULL) {
        snprintf(msg, size, "internal: gs_ctx_init needs a kernel and a policy");
        return -1;
    }
    const struct gc_kernel *k = t->k[0];
    c->func = k->func;
    c->dt = k->dtype;
    c->elem = k->elem_size;
    /* the kernel's identity ADAPTER/KERNEL, as kernel_head (run.c) records it */
    const char *aid = t->adapter_id ? t->adapter_id : k->adapter ? k->adapter->ident : NULL;
    char id[400];
    snprintf(id, sizeof id, "%s/%s", aid ? aid : "", k->name);
    gs_policy_resolve_kernel(cfg->policy, aid ? id : NULL, c->func, c->dt, &c->pv);
    c->ref = calloc(t->n_threads, sizeof *c->ref);
    if (c->ref == NULL)
        goto nomem;
    for (unsigned i = 0; i < t->n_threads; i++) {
        if ((c->ref[i] = gs_ref_new(&cfg->ref)) == NULL)
            goto nomem;
        gs_ref_use_mpfr(c->ref[i], cfg->reference == GS_REF_MPFR);
    }
    enum geluref_status st = gs_targets_build(c->ref[0], c->func, c->dt, &c->targets);
    if (st != GELUREF_OK) {
        c->internal_error = 1;
        snprintf(c->internal_msg, sizeof c->internal_msg,
                 "reference failed while finding the thresholds of %s %s: %s",
                 geluref_func_name(c->func), geluref_dtype_name(c->dt), geluref_strerror(st));
        snprintf(msg, size, "%s", c->internal_msg);
        return -1;
    }
    return 0;
nomem:
    snprintf(msg, size, "out of memory preparing kernel '%s'", k->name);
    return -1;
}

void gs_ctx_release(struct gs_ctx *c)
{
    if (c->ref) {
        for (unsigned i = 0; i < c->t->n_threads; i++)
            gs_ref_free(c->ref[i]);
        free(c->ref);
        c->ref = NULL;
    }
    gs_targets_release(&c->targets);
}

void *gs_buf_alloc(size_t bytes)
{
    /* GS_BUF_SLACK is a multiple of 64, so the user pointer keeps aligned_alloc's alignment */
    _Static_assert(GS_BUF_SLACK % 64 == 0, "slack keeps the 64-byte alignment");
    if (bytes > SIZE_MAX - 2 * GS_BUF_SLACK - 63)
        return NULL;
    size_t total = (bytes + 2 * GS_BUF_SLACK + 63) / 64 * 64;
    unsigned char *p = aligned_alloc(64, total);
    if (p == NULL)
        return NULL;
    memset(p, 0, total);
    return p + GS_BUF_SLACK;
}

void gs_buf_free(void *p)
{
    if (p)
        free((unsigned char *)p - GS_BUF_SLACK);
}

enum gc_status gs_kernel_eval(const struct gs_ctx *c, unsigned t, const void *x, void *y,
                              size_t n, struct gs_findings *f)
{
    return gs_kernel_eval_ex(c, t, x, y, n, 0, f);
}

/* GC_E_FAULT (docs/design.md section 10): the worker's guard page or read-only x caught a stray
 * write.  An out_of_bounds_write or input_modified finding with the offset and the batch (and
 * the x of the element written, for x), then gc_adapter_restart, which brings back a worker
 * that did not survive (the worker lets the kernel finish on a scratch page and stays, so
 * that is rare).  The outputs are the kernel's: the caller goes on with GC_OK. */
static void record_fault(const struct gs_ctx *c, const struct gc_kernel *k, const void *x,
                         size_t n, const struct gc_eval_extra *ex, struct gs_findings *f)
{
    struct gs_finding fd = { .kind = ex->fault == GC_FAULT_INPUT ? GS_K_INPUT_MODIFIED
                                                                 : GS_K_OUT_OF_BOUNDS_WRITE,
                             .region = GS_R_NONE, .ulp = NAN, .abs_err = NAN };
    char rmsg[256];

    if (ex->fault == GC_FAULT_INPUT && ex->offset >= 0 && (unsigned long long)ex->offset < n) {
        fd.has_x = 1;
        fd.x = gs_load(c->dt, x, (size_t)ex->offset);
    }
    /* score: how far from the buffer the write went, in elements */
    fd.score = ex->fault == GC_FAULT_AFTER_Y ? (double)ex->offset - (double)n + 1
               : ex->fault == GC_FAULT_BEFORE_Y ? -(double)ex->offset : 1;
    snprintf(fd.detail, sizeof fd.detail, "%s[%lld] written (%s), batch of %zu; caught in the "
             "worker by %s", ex->fault == GC_FAULT_INPUT ? "x" : "y", ex->offset,
             ex->fault == GC_FAULT_INPUT ? "the input, not in place"
             : ex->fault == GC_FAULT_AFTER_Y ? "past y[n-1]" : "before y[0]", n,
             ex->fault == GC_FAULT_INPUT ? "the read-only mapping of x" : "a guard page");
    gs_findings_add(f, &fd);
    if (gc_adapter_restart(k->adapter, rmsg, sizeof rmsg) != GC_OK) {
        struct gs_finding er = { .kind = GS_K_ADAPTER_ERROR, .region = GS_R_NONE, .ulp = NAN,
                                 .abs_err = NAN };
        snprintf(er.detail, sizeof er.detail, "%.199s", rmsg);
        gs_findings_add(f, &er);
    }
}

enum gc_status gs_kernel_eval_ex(const struct gs_ctx *c, unsigned t, const void *x, void *y,
                                 size_t n, size_t y_slack, struct gs_findings *f)
{
    const struct gc_kernel *k = c->t->k[t];
    uint64_t before = k->adapter->fpenv_modified;
    struct gc_eval_extra ex = { .y_slack = y_slack };
    char msg[512];

    msg[0] = '\0';
    enum gc_status st = gc_kernel_eval_ex(k, x, y, n, &ex, msg, sizeof msg);
    if (f == NULL) {
        if (st == GC_E_DIED || st == GC_E_TIMEOUT) /* nothing to record: make it usable */
            gc_adapter_restart(k->adapter, NULL, 0);
        return st;
    }
    if (k->adapter->fpenv_modified != before) {
        struct gs_finding fd = { .kind = GS_K_FPENV_MODIFIED, .region = GS_R_NONE,
                                 .ulp = NAN, .abs_err = NAN };
        snprintf(fd.detail, sizeof fd.detail,
                 "the kernel returned with the floating-point environment changed (%.95s; "
                 "batch of %zu)", k->adapter->fpenv_what, n);
        gs_findings_add(f, &fd);
    }
    if (st == GC_E_FAULT) {
        record_fault(c, k, x, n, &ex, f);
        return GC_OK;
    }
    /* docs/design.md section 10: a death or a stall becomes a crash or timeout finding with the
       smallest batch that reproduces it (crash.c: restart, bisect, restart) */
    if (st == GC_E_DIED || st == GC_E_TIMEOUT)
        return gs_crash_record(c, t, x, n, st, &ex, msg[0] ? msg : gc_strerror(st), f);
    if (st != GC_OK) {
        struct gs_finding fd = { .kind = GS_K_ADAPTER_ERROR,
                                 .region = GS_R_NONE, .ulp = NAN, .abs_err = NAN };
        if (n > 0) { /* the batch's first input, to start reproducing from */
            fd.has_x = 1;
            fd.x = gs_load(c->dt, x, 0);
            fd.region = gs_region_of(c->dt, fd.x);
        }
        /* the detail holds 199 characters: a longer message is cut, marked by "..." */
        const char *m = msg[0] ? msg : gc_strerror(st);
        size_t len = strlen(m);
        if (len < sizeof fd.detail)
            memcpy(fd.detail, m, len + 1);
        else {
            memcpy(fd.detail, m, sizeof fd.detail - 4);
            memcpy(fd.detail + sizeof fd.detail - 4, "...", 4);
        }
        gs_findings_add(f, &fd);
    }
    return st;
}

int gs_fpenv_load_finding(const struct gs_ctx *c, struct gs_findings *f)
{
    for (unsigned t = 0; t < c->t->n_threads; t++) {
        const char *what = c->t->k[t]->adapter->fpenv_load;
        if (!what[0])
            continue;
        struct gs_finding fd = { .kind = GS_K_FPENV_MODIFIED, .region = GS_R_NONE,
                                 .ulp = NAN, .abs_err = NAN };
        snprintf(fd.detail, sizeof fd.detail, "at load: %.160s; restored at once", what);
        gs_findings_add(f, &fd);
        return 1;
    }
    return 0;
}
