/* gelucheck run, once the options are checked: open every adapter once per thread, check the
 * --kernel names, run each selected kernel (gs_run_kernel) in order, build and write the
 * result (reports/), print the summary.  An adapter that cannot be opened is an error entry
 * of the result (exit 3) and the others still run. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, isatty */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h> /* isatty */

#include <reports.h>

#include "cli.h"
#include "memlimit.h"
#include "run_args.h"

struct run_adapter {
    const char *spec;
    char id[256];          /* its name: --adapter-name, else its own (gc_adapter.ident) */
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

/* Each adapter's name (the ADAPTER of its kernels' identities ADAPTER/KERNEL): --adapter-name,
 * else its own; one that could not be opened is named from its spec.  Names must be valid and
 * distinct: two adapters with one name would make their kernels indistinguishable to a
 * baseline, a policy section and compare.  0, or -1 after a message (a usage error). */
static int check_names(const struct run_args *r, struct run_adapter *ad)
{
    for (size_t s = 0; s < r->n_specs; s++) {
        const struct gc_adapter *a = ad[s].a ? ad[s].a[0] : NULL;
        int bad = 0;
        if (r->names[s])
            snprintf(ad[s].id, sizeof ad[s].id, "%s", r->names[s]);
        else if (a && a->ident)
            bad = snprintf(ad[s].id, sizeof ad[s].id, "%s", a->ident) < 0 ||
                  !gc_valid_kernel_name(ad[s].id);
        else if (gc_ident_derive(ad[s].spec, ad[s].spec, NULL, r->func, ad[s].id,
                                 sizeof ad[s].id) != 0)
            gc_ident_clean(ad[s].id); /* not loaded: a name for its error entry */
        if (bad) {
            cli_error("adapter '%s' calls itself '%s', which is not a name (1 to 128 of "
                      "[A-Za-z0-9_.-]): give it one with --adapter-name NAME after its "
                      "--adapter", ad[s].spec, ad[s].id);
            return -1;
        }
        for (size_t t = 0; t < s; t++)
            if (strcmp(ad[t].id, ad[s].id) == 0) {
                cli_error("adapters '%s' and '%s' both have the name '%s': tell them apart "
                          "with --adapter-name NAME after one of them", ad[t].spec, ad[s].spec,
                          ad[s].id);
                return -1;
            }
    }
    return 0;
}

/* Each [kernel ADAPTER/KERNEL] section of the policy file names a kernel: one whose ADAPTER
 * is an adapter of this run must name one of its kernels (a misspelt section would leave the
 * kernel judged by the general values unseen: a usage error); one naming no adapter of this
 * run is a warning (a policy file may serve several runs).  0, or -1 after a message. */
static int check_policy_kernels(const struct run_args *r, const struct run_adapter *ad)
{
    const struct gs_policy *p = r->cfg.policy;
    for (size_t i = 0; i < gs_policy_kernel_count(p); i++) {
        int line = 0;
        const char *id = gs_policy_kernel_id(p, i, &line), *slash = strchr(id, '/');
        size_t alen = (size_t)(slash - id);
        const struct run_adapter *match = NULL;
        for (size_t s = 0; !match && s < r->n_specs; s++)
            if (strlen(ad[s].id) == alen && strncmp(ad[s].id, id, alen) == 0)
                match = &ad[s];
        if (!match) {
            fprintf(stderr, "gelucheck: warning: policy '%s' line %d: [kernel %s]: no adapter "
                    "of this run is named '%.*s'; the section applies to nothing\n",
                    gs_policy_name(p), line, id, (int)alen, id);
            continue;
        }
        if (!match->a)
            continue; /* not loaded: its own error */
        int found = 0;
        for (size_t k = 0; !found && k < match->a[0]->n_kernels; k++)
            found = strcmp(match->a[0]->kernels[k].name, slash + 1) == 0;
        if (!found) {
            cli_error("policy '%s' line %d: [kernel %s]: adapter '%s' has no kernel '%s' "
                      "('gelucheck list --adapter %s' lists them)", gs_policy_name(p), line,
                      id, match->spec, slash + 1, match->spec);
            return -1;
        }
    }
    return 0;
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

/* --resume: the result loads and is an interrupted one of this very run (*prev).  0, or -1
 * after a message. */
static int check_resume(const struct run_args *r, json_t **prev)
{
    char msg[4200];
    struct rp_meta meta = { GELUCHECK_VERSION, r->command, r->n_command, &r->cfg };
    if (!(*prev = rp_result_load(r->resume, msg, sizeof msg))) {
        cli_error("--resume: %s", msg);
        return -1;
    }
    json_t *head = rp_result_new(&meta);
    int rc = !head ? -1 : rp_resume_check(*prev, head, r->cfg.policy, r->resume, msg,
                                          sizeof msg);
    json_decref(head);
    if (rc)
        cli_error("%s", head ? msg : "out of memory");
    return rc;
}

/* --resume: the interrupted result's adapters and kernels are this run's (its kernels a
 * prefix of those this run selects, in order).  0, or -1 after a message. */
static int check_resume_kernels(const struct run_args *r, const struct run_adapter *ad,
                                const json_t *doc, const json_t *prev, size_t n_sel)
{
    char msg[4200];
    size_t i = 0, n_prev = json_array_size(json_object_get(prev, "kernels"));
    if (rp_resume_adapters_check(prev, doc, r->resume, msg, sizeof msg)) {
        cli_error("%s", msg);
        return -1;
    }
    for (size_t s = 0; s < r->n_specs; s++)
        for (size_t k = 0; ad[s].a && k < ad[s].a[0]->n_kernels; k++) {
            if (!selected(r, &ad[s].a[0]->kernels[k]))
                continue;
            if (i < n_prev && rp_resume_kernel_check(prev, i, ad[s].spec,
                                                     &ad[s].a[0]->kernels[k], r->resume, msg,
                                                     sizeof msg)) {
                cli_error("%s", msg);
                return -1;
            }
            i++;
        }
    if (n_prev > n_sel) {
        cli_error("--resume '%s': it has %zu kernels, this run selects %zu", r->resume, n_prev,
                  n_sel);
        return -1;
    }
    return 0;
}

/* Before anything runs: the output paths can be written (the --report folder is created
 * now), the --baseline result loads (*old) and the --site-map (r->bopt.site_map).  Returns
 * 0, or -1 after a message. */
static int check_outputs(struct run_args *r, json_t **old)
{
    char msg[4200];
    if ((r->json && cli_check_output("--json", r->json)) ||
        (r->junit && cli_check_output("--junit", r->junit)))
        return -1;
    if (r->report && rp_mkdirs(r->report, msg, sizeof msg)) {
        cli_error("--report: %s", msg);
        return -1;
    }
    if (r->baseline && !(*old = rp_baseline_load(r->baseline, msg, sizeof msg))) {
        cli_error("--baseline: %s", msg);
        return -1;
    }
    if (r->site_map && !(r->bopt.site_map = cli_site_map_load(r->site_map, msg, sizeof msg))) {
        cli_error("--site-map: %s", msg);
        return -1;
    }
    r->bopt.site_map_file = r->site_map;
    return 0;
}

/* The wall time prev recorded for its kernels[i] (0 if none). */
static double prev_wall(const json_t *prev, size_t i)
{
    double w = 0;
    gs_real_from_json(json_object_get(json_array_get(json_object_get(json_object_get(
                                          prev, "timing"), "kernels"), i), "wall_s"), &w);
    return w;
}

/* Runs the selected kernels into doc; returns whether the reference failed (exit 4).  prev:
 * the interrupted result to continue (--resume: its complete kernels are taken as they are,
 * its incomplete one continued), or NULL.  After SIGINT/SIGTERM the kernels not started are
 * appended to not_run as {"adapter", "kernel"}. */
static int run_kernels(const struct run_args *r, struct run_adapter *ad, size_t n_sel,
                       json_t *doc, struct run_progress *pg, const json_t *prev,
                       json_t *not_run)
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
            struct gs_target tg = { kp, threads, ad[s].spec, ad[s].id };
            double wall = 0;
            int in = 0;
            const json_t *pk = json_array_get(json_object_get(prev, "kernels"), index);
            json_t *k;
            run_progress_kernel(pg, ++index, (unsigned)n_sel, ad[s].spec);
            if (pk && !json_is_false(json_object_get(pk, "complete"))) {
                k = json_deep_copy(pk); /* --resume: it finished before the interruption */
                json_object_del(k, "baseline");
                wall = prev_wall(prev, index - 1);
                internal |= json_object_get(k, "error") && !json_is_null(json_object_get(
                                                                 prev, "exit_code")) &&
                            json_integer_value(json_object_get(prev, "exit_code")) == 4;
            } else if (gs_interrupted(&r->cfg)) {
                json_array_append_new(not_run, json_pack("{s:s, s:s}", "adapter", ad[s].spec,
                                                         "kernel", kp[0]->name));
                continue;
            } else {
                k = gs_run_kernel_resume(&r->cfg, &tg, pk, &in, &wall);
                wall += pk ? prev_wall(prev, index - 1) : 0;
            }
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
    struct gc_memlimit mem;
    struct run_adapter *ad = calloc(r->n_specs, sizeof *ad);
    unsigned threads = r->cfg.threads;
    size_t n_sel = 0;
    int all_open = 1, rc = CLI_EXIT_INTERNAL;
    double t0 = now_s();

    if (!ad) {
        cli_error("out of memory");
        return CLI_EXIT_INTERNAL;
    }
    json_t *old = NULL, *prev = NULL, *not_run = NULL;
    if (check_outputs(r, &old) || (r->resume && check_resume(r, &prev))) {
        json_decref(old);
        json_decref(prev);
        json_decref((json_t *)r->bopt.site_map);
        r->bopt.site_map = NULL;
        free(ad);
        return CLI_EXIT_USAGE;
    }
    /* a progress line may be on stderr's last line: the notice of a signal starts a new one */
    r->cfg.interrupt = run_signals_install(r->progress == RUN_PROGRESS_ALWAYS ||
                                           (r->progress == RUN_PROGRESS_AUTO &&
                                            isatty(STDERR_FILENO)));
    opt.options = r->options;
    opt.func = r->func;
    opt.runtime = r->runtime;
    opt.startup_timeout_s = r->startup_timeout_s;
    opt.batch_timeout_s = r->timeout_s;
    opt.in_process = r->in_process;
    gc_mem_init(&mem, r->memory_limit, "/sys/fs/cgroup");
    opt.memlimit = &mem;
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
    if (check_names(r, ad) || check_policy_kernels(r, ad)) {
        rc = CLI_EXIT_USAGE;
        goto out;
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
    for (size_t s = 0; s < r->n_specs; s++) {
        rp_result_add_adapter(doc, ad[s].spec, ad[s].id, ad[s].a ? ad[s].a[0] : NULL,
                              ad[s].error);
        /* a scanned model: its sites, for report.md's table of them */
        if (ad[s].a && strncmp(ad[s].spec, "scan:", 5) == 0)
            cli_scan_attach(json_array_get(json_object_get(doc, "adapters"), s), ad[s].spec,
                            r->runtime, r->torch_module);
    }
    if (prev && check_resume_kernels(r, ad, doc, prev, n_sel)) {
        rc = CLI_EXIT_USAGE;
        run_progress_free(pg);
        json_decref(doc);
        goto out;
    }
    not_run = json_array();
    int internal = run_kernels(r, ad, n_sel, doc, pg, prev, not_run);
    run_progress_free(pg);
    int sig = *r->cfg.interrupt, write_failed;
    int incode = 0;
    if (sig)
        incode = run_interrupted(doc, sig, not_run); /* takes not_run */
    else
        json_decref(not_run);
    not_run = NULL;
    if (!sig && r->torch_module) { /* each pair's two kernels, on the same inputs */
        struct gc_adapter **ads = calloc(r->n_specs ? r->n_specs : 1, sizeof *ads);
        for (size_t s = 0; ads && s < r->n_specs; s++)
            ads[s] = ad[s].a ? ad[s].a[0] : NULL;
        if (ads)
            cli_pair_diffs(doc, ads, r->specs, r->n_specs);
        free(ads);
    }
    rc = rp_result_finish(doc, r->cfg.policy, internal, now_s() - t0);
    if (old && !sig) /* an interrupted run is not compared: its kernels are not all there */
        rc = rp_baseline_apply(doc, old, &r->bopt);
    write_failed = cli_write_outputs(doc, r->json, r->report, r->junit) != 0;
    run_summary_print(stdout, doc);
    run_baseline_print(stdout, doc);
    if (old && !sig)
        run_baseline_warn(doc, r->baseline);
    if (r->report)
        printf("report: %s/report.md\n", r->report);
    fflush(stdout);
    if (sig) {
        run_interrupted_notice(doc, sig, r);
        rc = incode; /* docs/design.md section 7: 130/143, with what was measured kept */
    }
    if (write_failed)
        rc = CLI_EXIT_INTERNAL;
    json_decref(doc);
out:
    if (r->cfg.interrupt)
        run_signals_restore();
    json_decref(not_run);
    json_decref(prev);
    json_decref(old);
    json_decref((json_t *)r->bopt.site_map);
    r->bopt.site_map = NULL;
    for (size_t s = 0; s < r->n_specs; s++)
        close_adapter(&ad[s], threads);
    gc_mem_release(&mem); /* after the last worker and exec adapter are gone */
    free(ad);
    return rc;
}
