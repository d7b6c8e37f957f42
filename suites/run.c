/* gs_run_kernel: the suites of a configuration on one kernel, as the kernel's JSON object (the
 * "kernels" entry of a gelucheck-result/1 document, docs/design.md section 8).
 *
 * Suites run in enum order (ulp, special, identity, tail, vector, fingerprint); each gets a
 * fresh struct gs_suite_result and is turned into JSON at once.  In shard K > 0 of --shard
 * K/N the suites that do not split (shard.c) are recorded as skipped, with a note.  The
 * kernel's verdict is the worst of its suites' (error > fail > pass > skip: all skipped gives
 * skip); a context that cannot be prepared makes the kernel an error with the message.
 * Nothing here prints.  merge.c rebuilds this object from shard results: keep the two in
 * step (member order, verdict).  On cfg->interrupt (SIGINT/SIGTERM) no further suite starts
 * and the object ends with "complete": false; gs_run_kernel_resume continues such an object
 * (its finished suites copied, its ulp sweep's covered items read back: ulp_resume.c). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, CLOCK_MONOTONIC */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "crash.h"
#include "suites.h"

typedef void (*suite_fn)(struct gs_ctx *c, struct gs_suite_result *r);

/* Indexed by enum gs_suite. */
static const suite_fn suite_fns[GS_N_SUITES] = {
    gs_suite_ulp, gs_suite_special, gs_suite_identity,
    gs_suite_tail, gs_suite_vector, gs_suite_fingerprint,
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A JSON string of text from outside (a plug-in's description): jansson wants UTF-8; any
 * other byte goes in as '?'. */
static json_t *text_json(const char *s)
{
    json_t *j = json_string(s ? s : "");
    if (j || !s)
        return j;
    char buf[1024];
    size_t n = 0;
    for (; s[n] && n + 1 < sizeof buf; n++)
        buf[n] = (unsigned char)s[n] < 0x80 ? s[n] : '?';
    buf[n] = '\0';
    return json_string(buf);
}

/* One "suites" entry: {"name", "verdict", "points", "inputs", "metrics", "finding_counts",
 * "findings", "note"}. */
static json_t *suite_json(const struct gs_ctx *c, const struct gs_suite_result *r)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    json_object_set_new(o, "name", json_string(gs_suite_name(r->suite)));
    json_object_set_new(o, "verdict", json_string(gs_verdict_name(r->verdict)));
    json_object_set_new(o, "points", json_integer((json_int_t)r->points));
    json_object_set_new(o, "inputs", r->inputs ? json_deep_copy(r->inputs) : json_null());
    json_object_set_new(o, "metrics", r->metrics ? json_deep_copy(r->metrics) : json_object());
    gs_findings_json(o, &r->findings, &r->pv, c->func, c->dt);
    gs_crash_commands(o, c->t->adapter, c->t->k[0]->name, c->dt, c->cfg->memory_limit);
    if (r->note[0])
        json_object_set_new(o, "note", text_json(r->note));
    return o;
}

/* The head every kernel object starts with, in this order. */
static json_t *kernel_head(const struct gs_target *t)
{
    const struct gc_kernel *k = t->n_threads && t->k ? t->k[0] : NULL;
    json_t *o = json_object();
    if (!o)
        return NULL;
    json_object_set_new(o, "adapter", text_json(t->adapter));
    json_object_set_new(o, "kernel", text_json(k ? k->name : ""));
    const char *aid = t->adapter_id ? t->adapter_id : k && k->adapter ? k->adapter->ident : NULL;
    if (aid && k) { /* the kernel's identity ADAPTER/KERNEL */
        char id[400];
        snprintf(id, sizeof id, "%s/%s", aid, k->name);
        json_object_set_new(o, "id", text_json(id));
    }
    json_object_set_new(o, "description", text_json(k ? k->description : ""));
    json_object_set_new(o, "func", json_string(k ? geluref_func_name(k->func) : "gelu"));
    json_object_set_new(o, "dtype", json_string(k ? geluref_dtype_name(k->dtype) : "f32"));
    json_object_set_new(o, "verdict", json_string("skip")); /* replaced at the end */
    return o;
}

int gs_interrupted(const struct gs_config *c) { return c->interrupt && *c->interrupt; }

/* The entry of suite name in a partial kernel object's "suites" (NULL: none). */
static const json_t *partial_suite(const json_t *partial, const char *name)
{
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(partial, "suites"), i, e) {
        const char *n = json_string_value(json_object_get(e, "name"));
        if (n && strcmp(n, name) == 0)
            return e;
    }
    return NULL;
}

/* How a suite stopped the kernel's run: a crash or a timeout (docs/design.md section 10), not an
 * adapter that could not serve it (adapter_error).  GS_K_NONE when it did not. */
static enum gs_kind stop_kind(uint64_t crash, uint64_t timeout, uint64_t adapter_error)
{
    if (adapter_error || !(crash || timeout))
        return GS_K_NONE;
    return crash ? GS_K_CRASH : GS_K_TIMEOUT;
}

/* The same for a suite entry read back (--resume). */
static enum gs_kind entry_stop_kind(const json_t *e)
{
    size_t i;
    json_t *fc;
    uint64_t n[3] = { 0, 0, 0 }; /* crash, timeout, adapter_error */
    json_array_foreach(json_object_get(e, "finding_counts"), i, fc) {
        const char *k = json_string_value(json_object_get(fc, "kind"));
        for (int j = 0; k && j < 3; j++)
            n[j] += strcmp(k, gs_kind_name((enum gs_kind)(GS_K_CRASH + j))) == 0;
    }
    return stop_kind(n[0], n[1], n[2]);
}

/* Fills the rest of o after a successful gs_ctx_init; returns the kernel's verdict.  partial:
 * the kernel's object in an interrupted run (gs_run_kernel_resume), or NULL. */
static enum gs_verdict run_suites(struct gs_ctx *c, const struct gs_config *cfg, json_t *o,
                                  const json_t *partial)
{
    enum gs_verdict v = GS_SKIP;
    json_t *suites = json_array(), *fingerprint = NULL, *vs_exact = NULL;
    enum gs_kind stopped = GS_K_NONE; /* crash or timeout: the later suites are not run */
    enum gs_suite stopped_in = GS_SUITE_ULP;
    /* the load's fpenv_modified finding (gs_fpenv_load_finding) is the kernel's, not a
       suite's: it goes to the first suite that is not skipped, in shard 0 only (gelucheck
       merge adds the shards' counts up); a suite taken from an interrupted run has it */
    int load_pending = cfg->shard_k == 0;

    for (int s = 0; s < GS_N_SUITES && !c->interrupted; s++) {
        if (!(cfg->suites & (1u << s)))
            continue;
        const json_t *prev = partial_suite(partial, gs_suite_name((enum gs_suite)s));
        json_t *entry;
        enum gs_verdict sv = GS_ERROR;
        if (prev && !json_object_get(json_object_get(prev, "inputs"), "covered")) {
            /* --resume: this suite finished before the interruption */
            entry = json_deep_copy(prev);
            gs_verdict_from_name(json_string_value(json_object_get(prev, "verdict")), &sv);
            load_pending &= sv == GS_SKIP;
            if (stopped == GS_K_NONE && sv == GS_FAIL &&
                (stopped = entry_stop_kind(prev)) != GS_K_NONE)
                stopped_in = (enum gs_suite)s;
        } else if (gs_interrupted(cfg)) {
            c->interrupted = 1; /* SIGINT/SIGTERM: this suite and the rest are left out */
            break;
        } else {
            struct gs_suite_result r;
            memset(&r, 0, sizeof r);
            r.suite = (enum gs_suite)s;
            r.verdict = GS_SKIP;
            r.pv = c->pv;
            gs_findings_init(&r.findings);
            c->resume_ulp = s == GS_SUITE_ULP ? prev : NULL; /* its covered items, if any */
            if (stopped != GS_K_NONE) {
                /* the batch that crashed or hung is in that suite's finding; what the later
                   suites would add is not worth another crash or hang per suite */
                snprintf(r.note, sizeof r.note, "not run: the kernel %s in suite %s",
                         stopped == GS_K_CRASH ? "crashed" : "timed out",
                         gs_suite_name(stopped_in));
            } else if (!gs_suite_in_shard(cfg, (enum gs_suite)s)) {
                /* docs/design.md section 9: gelucheck merge takes this suite from shard 0 */
                gs_shard_skip_note(cfg, r.note, sizeof r.note);
            } else {
                suite_fns[s](c, &r);
            }
            /* docs/design.md section 7: a kernel that crashes or times out fails (exit 1);
             * "error" (exit 3) is for one that could not be served */
            enum gs_kind sk = stop_kind(gs_findings_count(&r.findings, GS_K_CRASH),
                                        gs_findings_count(&r.findings, GS_K_TIMEOUT),
                                        gs_findings_count(&r.findings, GS_K_ADAPTER_ERROR));
            if (r.verdict == GS_ERROR && !c->internal_error && sk != GS_K_NONE) {
                r.verdict = GS_FAIL;
                snprintf(r.note, sizeof r.note, "%s suite: stopped, the kernel %s (the %s "
                         "finding gives the input)", gs_suite_name((enum gs_suite)s),
                         sk == GS_K_CRASH ? "crashed" : "timed out",
                         sk == GS_K_CRASH ? "crash" : "timeout");
                stopped = sk;
                stopped_in = (enum gs_suite)s;
            }
            if (load_pending && r.verdict != GS_SKIP) {
                load_pending = 0; /* a partly run ulp suite (prev) read it back */
                if (!prev && gs_fpenv_load_finding(c, &r.findings) && r.verdict == GS_PASS &&
                    gs_findings_fail(&r.findings, &r.pv))
                    r.verdict = GS_FAIL;
            }
            sv = r.verdict;
            entry = suite_json(c, &r);
            gs_findings_release(&r.findings);
            json_decref(r.metrics);
            json_decref(r.inputs);
        }
        const json_t *m = json_object_get(entry, "metrics");
        if (s == GS_SUITE_FINGERPRINT && json_object_get(m, "detected"))
            fingerprint = json_deep_copy(m);
        if (s == GS_SUITE_ULP && json_object_get(m, "vs_exact"))
            vs_exact = json_deep_copy(json_object_get(m, "vs_exact"));
        v = gs_verdict_worse(v, sv);
        json_array_append_new(suites, entry);
    }
    if (c->internal_error)
        v = GS_ERROR;
    json_object_set_new(o, "fingerprint",
                        fingerprint ? fingerprint : json_pack("{s:s}", "detected", "n/a"));
    json_object_set_new(o, "targets", gs_targets_json(&c->targets, c->dt));
    if (vs_exact)
        json_object_set_new(o, "vs_exact", vs_exact);
    if (c->internal_error)
        json_object_set_new(o, "error", text_json(c->internal_msg));
    json_object_set_new(o, "suites", suites ? suites : json_array());
    if (c->interrupted) /* after "suites": merge.c keeps members it does not know, after */
        json_object_set_new(o, "complete", json_false());
    return v;
}

json_t *gs_run_kernel(const struct gs_config *cfg, const struct gs_target *t, int *internal,
                      double *timing_s)
{
    return gs_run_kernel_resume(cfg, t, NULL, internal, timing_s);
}

json_t *gs_run_kernel_resume(const struct gs_config *cfg, const struct gs_target *t,
                             const json_t *partial, int *internal, double *timing_s)
{
    double t0 = now_s();
    struct gs_ctx c;
    char msg[256];
    enum gs_verdict v;

    *internal = 0;
    json_t *o = kernel_head(t);
    if (!o)
        return NULL;
    if (gs_ctx_init(&c, cfg, t, msg, sizeof msg) != 0) {
        *internal = c.internal_error;
        v = GS_ERROR;
        json_object_set_new(o, "fingerprint", json_pack("{s:s}", "detected", "n/a"));
        json_object_set_new(o, "error", text_json(msg));
        json_object_set_new(o, "suites", json_array());
    } else {
        v = run_suites(&c, cfg, o, partial);
        *internal = c.internal_error;
    }
    gs_ctx_release(&c);
    json_object_set_new(o, "verdict", json_string(gs_verdict_name(v)));
    *timing_s = now_s() - t0;
    return o;
}
