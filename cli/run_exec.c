/* gelucheck run, once the options are checked: open every adapter once per thread, check the
 * --kernel names, run each selected kernel (gs_run_kernel) in order, build and write the
 * result (reports/), print the summary.  An adapter that cannot be opened is an error entry
 * of the result (exit 3) and the others still run. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <reports.h>

#include "cli.h"
#include "run_args.h"

struct run_adapter {
    const char *spec;
    struct gc_adapter **a; /* one per thread; a[0] NULL when it could not be opened */
    char error[1024];
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void close_adapter(struct run_adapter *ad, unsigned threads)
{
    for (unsigned t = 0; ad->a && t < threads; t++)
        gc_adapter_close(ad->a[t]);
    free(ad->a);
    ad->a = NULL;
}

/* Opens ad->spec once per thread; every instance must offer the same kernels.  Returns the
 * gc_status; on failure ad->a is NULL and ad->error says why. */
static enum gc_status open_adapter(struct run_adapter *ad, unsigned threads,
                                   const struct gc_open_options *opt)
{
    enum gc_status st = GC_OK;

    if (!(ad->a = calloc(threads, sizeof *ad->a))) {
        snprintf(ad->error, sizeof ad->error, "out of memory");
        return GC_E_NOMEM;
    }
    for (unsigned t = 0; t < threads && st == GC_OK; t++) {
        st = gc_adapter_open(ad->spec, opt, &ad->a[t], ad->error, sizeof ad->error);
        if (st != GC_OK || t == 0)
            continue;
        const struct gc_adapter *a0 = ad->a[0], *a = ad->a[t];
        int same = a->n_kernels == a0->n_kernels;
        for (size_t i = 0; same && i < a->n_kernels; i++)
            same = strcmp(a->kernels[i].name, a0->kernels[i].name) == 0 &&
                   a->kernels[i].func == a0->kernels[i].func &&
                   a->kernels[i].dtype == a0->kernels[i].dtype;
        if (!same) {
            snprintf(ad->error, sizeof ad->error,
                     "opened again (for thread %u) it offered other kernels", t + 1);
            st = GC_E_INVALID;
        }
    }
    if (st != GC_OK)
        close_adapter(ad, threads);
    return st;
}

static int selected(const struct run_args *r, const struct gc_kernel *k)
{
    int named = r->n_kernels == 0;
    for (size_t i = 0; !named && i < r->n_kernels; i++)
        named = strcmp(r->kernels[i], k->name) == 0;
    return named && (!r->has_dtype || k->dtype == r->dtype);
}

/* With every adapter open: each --kernel must name a kernel, and something must be left to
 * run.  Returns 0, or -1 after a message (a usage error). */
static int check_selection(const struct run_args *r, const struct run_adapter *ad, size_t n_sel)
{
    for (size_t i = 0; i < r->n_kernels; i++) {
        int found = 0;
        for (size_t s = 0; !found && s < r->n_specs; s++)
            for (size_t k = 0; !found && k < ad[s].a[0]->n_kernels; k++)
                found = strcmp(ad[s].a[0]->kernels[k].name, r->kernels[i]) == 0;
        if (found)
            continue;
        if (r->n_specs == 1)
            cli_error("adapter '%s' has no kernel '%s' ('gelucheck list --adapter %s' lists "
                      "them)", r->specs[0], r->kernels[i], r->specs[0]);
        else
            cli_error("no adapter has a kernel '%s' ('gelucheck list --adapter SPEC' lists "
                      "them)", r->kernels[i]);
        return -1;
    }
    if (n_sel == 0) {
        cli_error("no kernel left to run: --kernel and --dtype select none");
        return -1;
    }
    return 0;
}

/* Before anything runs: the output paths can be written (the --report folder is created
 * now), and the --baseline result loads (*old).  Returns 0, or -1 after a message. */
static int check_outputs(const struct run_args *r, json_t **old)
{
    char msg[4200];
    if ((r->json && cli_check_output("--json", r->json)) ||
        (r->junit && cli_check_output("--junit", r->junit)))
        return -1;
    if (r->report && rp_mkdirs(r->report, msg, sizeof msg)) {
        cli_error("--report: %s", msg);
        return -1;
    }
    if (r->baseline && !(*old = rp_result_load(r->baseline, msg, sizeof msg))) {
        cli_error("%s", msg);
        return -1;
    }
    return 0;
}

/* Runs the selected kernels into doc; returns whether the reference failed (exit 4). */
static int run_kernels(const struct run_args *r, struct run_adapter *ad, size_t n_sel,
                       json_t *doc, struct run_progress *pg)
{
    unsigned threads = r->cfg.threads, index = 0;
    const struct gc_kernel **kp = calloc(threads, sizeof *kp);
    int internal = 0;

    if (!kp) {
        cli_error("out of memory");
        return 1;
    }
    for (size_t s = 0; s < r->n_specs; s++) {
        for (size_t i = 0; ad[s].a && i < ad[s].a[0]->n_kernels; i++) {
            if (!selected(r, &ad[s].a[0]->kernels[i]))
                continue;
            for (unsigned t = 0; t < threads; t++)
                kp[t] = &ad[s].a[t]->kernels[i];
            struct gs_target tg = { kp, threads, ad[s].spec };
            double wall = 0;
            int in = 0;
            run_progress_kernel(pg, ++index, (unsigned)n_sel, ad[s].spec);
            json_t *k = gs_run_kernel(&r->cfg, &tg, &in, &wall);
            internal |= in;
            if (rp_result_add_kernel(doc, k, wall)) {
                cli_error("out of memory recording kernel '%s'", kp[0]->name);
                internal = 1;
            }
        }
    }
    free(kp);
    return internal;
}

int run_execute(struct run_args *r)
{
    struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;
    struct run_adapter *ad = calloc(r->n_specs, sizeof *ad);
    unsigned threads = r->cfg.threads;
    size_t n_sel = 0;
    int all_open = 1, rc = CLI_EXIT_INTERNAL;
    double t0 = now_s();

    if (!ad) {
        cli_error("out of memory");
        return CLI_EXIT_INTERNAL;
    }
    json_t *old = NULL;
    if (check_outputs(r, &old)) {
        json_decref(old);
        free(ad);
        return CLI_EXIT_USAGE;
    }
    opt.options = r->options;
    opt.func = r->func;
    opt.startup_timeout_s = r->startup_timeout_s;
    opt.batch_timeout_s = r->timeout_s;
    for (size_t s = 0; s < r->n_specs; s++) {
        ad[s].spec = r->specs[s];
        if (open_adapter(&ad[s], threads, &opt) != GC_OK) {
            cli_error("cannot load adapter '%s': %s", ad[s].spec, ad[s].error);
            all_open = 0;
            continue;
        }
        for (size_t i = 0; i < ad[s].a[0]->n_kernels; i++)
            n_sel += (size_t)selected(r, &ad[s].a[0]->kernels[i]);
    }
    if (all_open && check_selection(r, ad, n_sel)) {
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    struct rp_meta meta = { GELUCHECK_VERSION, r->command, r->n_command, &r->cfg };
    json_t *doc = rp_result_new(&meta);
    struct run_progress *pg = run_progress_new(r->progress);
    if (!doc) {
        cli_error("out of memory");
        run_progress_free(pg);
        goto out;
    }
    r->cfg.progress = pg ? run_progress_fn : NULL;
    r->cfg.progress_arg = pg;
    for (size_t s = 0; s < r->n_specs; s++)
        rp_result_add_adapter(doc, ad[s].spec, ad[s].a ? ad[s].a[0] : NULL, ad[s].error);
    int internal = run_kernels(r, ad, n_sel, doc, pg);
    run_progress_free(pg);
    rc = rp_result_finish(doc, r->cfg.policy, internal, now_s() - t0);
    if (old)
        rc = rp_baseline_apply(doc, old);
    if (cli_write_outputs(doc, r->json, r->report, r->junit))
        rc = CLI_EXIT_INTERNAL;
    run_summary_print(stdout, doc);
    if (r->report)
        printf("report: %s/report.md\n", r->report);
    json_decref(doc);
out:
    json_decref(old);
    for (size_t s = 0; s < r->n_specs; s++)
        close_adapter(&ad[s], threads);
    free(ad);
    return rc;
}
