/* exec:COMMAND, the subprocess protocol of docs/design.md section 5.2: start the command, read its
 * banner up to 'ready' (exec_banner.c), and hand back an adapter whose kernels are evaluated
 * by requests (exec_eval.c).  When the open fails, the process group is killed and reaped
 * before we return.  exec_restart (ops->restart) starts the command again after it died,
 * stalled or broke the protocol, and checks that it offers the same kernels. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec_internal.h"

/* A positive number of seconds (+inf: no limit); anything else means the default. */
static double seconds(double t, double dflt)
{
    return t > 0 ? t : dflt;
}

static struct exec_state *state_new(const char *command, const char *spec,
                                    const struct gc_open_options *opt)
{
    struct exec_state *s = calloc(1, sizeof *s);
    int labelled = spec && strncmp(spec, "exec:", 5) != 0;

    if (s) {
        s->command = gc_strdup(command);
        s->label = labelled ? gc_strdup(spec) : NULL;
    }
    if (!s || !s->command || (labelled && !s->label)) {
        if (s) {
            free(s->command);
            free(s->label);
        }
        free(s);
        return NULL;
    }
    s->startup_s = seconds(opt ? opt->startup_timeout_s : 0, 60.0);
    s->batch_s = seconds(opt ? opt->batch_timeout_s : 0, 60.0);
    s->grace_s = s->batch_s < EXEC_GRACE_S ? s->batch_s : EXEC_GRACE_S;
    s->p.pid = 0;
    s->p.reaped = 1;
    s->p.in_fd = s->p.out_fd = s->p.err_fd = -1;
    s->mem = opt ? opt->memlimit : NULL;
    return s;
}

/* Starts the command, in its cgroup under --memory-limit's GC_MEM_CGROUP (made on the first
 * start).  0, or -1 with msg (what = "start" or "restart"). */
static int spawn(struct exec_state *s, const char *what, char *msg, size_t size)
{
    char why[700];

    if (gc_mem_cage_open(s->mem, &s->cage, why, sizeof why) != 0) {
        exec_msg(s, 0, msg, size, "cannot %s it: %s", what, why);
        return -1;
    }
    gc_mem_cage_oom(&s->cage); /* counts from this start on */
    int e = exec_spawn(&s->p, s->command, s->cage.dir[0] ? s->cage.procs : NULL);
    if (e)
        exec_msg(s, 0, msg, size, "cannot %s /bin/sh: %s", what, strerror(e));
    return e ? -1 : 0;
}

/* Moves the banner into a new adapter (the core frees it with gc_adapter_close). */
static struct gc_adapter *make_adapter(struct exec_state *s, struct exec_banner *b,
                                       const char *spec)
{
    struct gc_adapter *a = gc_adapter_alloc(GC_ADAPTER_EXEC, spec, b->n);

    /* named by its built-in or onnx: spec where it has one, else by its command line */
    if (!a || !(a->name = gc_strdup(s->label ? s->label : s->command))
        || !(a->version = b->version ? b->version : gc_strdup(""))) {
        gc_adapter_close(a); /* ops still NULL: frees the strings and the adapter only */
        return NULL;
    }
    b->version = NULL;
    /* its own name: the banner's, else (unless a built-in or onnx: spec names it: the
       registry derives those) its program's file name */
    if (b->name) {
        a->ident = b->name;
        b->name = NULL;
    } else if (!s->label) {
        char id[256];
        gc_ident_program(s->command, id, sizeof id);
        if (!(a->ident = gc_strdup(id))) {
            gc_adapter_close(a);
            return NULL;
        }
    }
    a->ops = &exec_ops;
    a->state = s;
    for (size_t i = 0; i < b->n; i++) {
        struct gc_kernel *k = &a->kernels[i];
        k->name = b->k[i].name;
        k->description = b->k[i].desc;
        k->func = b->k[i].func;
        k->dtype = b->k[i].dtype;
        k->elem_size = gc_dtype_size(k->dtype);
        b->k[i].name = b->k[i].desc = NULL;
    }
    return a;
}

static enum gc_status open_state(struct exec_state *s, const char *spec, struct gc_adapter **out,
                                 char *msg, size_t size)
{
    struct exec_banner b = { NULL, NULL, NULL, 0, 0 };

    if (spawn(s, "start", msg, size) != 0)
        return GC_E_LOAD;
    enum gc_status st = exec_read_banner(s, &b, msg, size);
    if (st == GC_OK && !(*out = make_adapter(s, &b, spec))) {
        exec_msg(s, 0, msg, size, "out of memory");
        st = GC_E_NOMEM;
    }
    exec_banner_free(&b);
    return st;
}

enum gc_status gc_exec_open(const char *command, const char *spec,
                            const struct gc_open_options *opt, struct gc_adapter **out,
                            char *msg, size_t size)
{
    struct gc_adapter *a = NULL;

    if (msg && size)
        msg[0] = '\0';
    if (out)
        *out = NULL;
    if (!command || !command[strspn(command, " \t")] || !out) {
        if (msg && size)
            snprintf(msg, size, "exec adapter: %s", out ? "no command given" : "no result pointer");
        return GC_E_SPEC;
    }
    struct exec_state *s = state_new(command, spec, opt);
    if (!s) {
        if (msg && size)
            snprintf(msg, size, "exec adapter: out of memory");
        return GC_E_NOMEM;
    }
    enum gc_status st = open_state(s, spec ? spec : command, &a, msg, size);
    if (st != GC_OK) {
        exec_state_free(s, 0); /* kills the group at once (it broke the protocol) and reaps */
        return st;
    }
    *out = a;
    return GC_OK;
}

/* The restarted banner offers a's kernels: the same names, funcs and dtypes in the same order
 * (descriptions and the version may differ).  GC_E_INVALID and a message otherwise. */
static enum gc_status same_kernels(struct exec_state *s, const struct gc_adapter *a,
                                   const struct exec_banner *b, char *msg, size_t size)
{
    if (b->n != a->n_kernels) {
        exec_msg(s, 0, msg, size, "restarted, it offered %zu kernels instead of %zu", b->n,
                 a->n_kernels);
        return GC_E_INVALID;
    }
    for (size_t i = 0; i < b->n; i++) {
        const struct gc_kernel *k = &a->kernels[i];
        if (strcmp(b->k[i].name, k->name) != 0 || b->k[i].func != k->func ||
            b->k[i].dtype != k->dtype) {
            exec_msg(s, 0, msg, size, "restarted, it offered kernel %zu as '%s %s %s' instead "
                     "of '%s %s %s'", i + 1, b->k[i].name, geluref_func_name(b->k[i].func),
                     geluref_dtype_name(b->k[i].dtype), k->name, geluref_func_name(k->func),
                     geluref_dtype_name(k->dtype));
            return GC_E_INVALID;
        }
    }
    return GC_OK;
}

enum gc_status exec_restart(struct gc_adapter *a, char *msg, size_t size)
{
    struct exec_state *s = a ? a->state : NULL;
    struct exec_banner b = { NULL, NULL, NULL, 0, 0 };
    char prefix[512], m[1024];

    if (msg && size)
        msg[0] = '\0';
    if (!s) {
        if (msg && size)
            snprintf(msg, size, "exec adapter: restart of a closed adapter");
        return GC_E_INVALID;
    }
    exec_end(&s->p, 0.0); /* kills the group at once if it is still there; reaps */
    exec_close_fds(&s->p);
    exec_proc_reset(&s->p);
    enum gc_status st = GC_OK;
    if (spawn(s, "restart", m, sizeof m) != 0) {
        st = GC_E_LOAD;
    } else {
        st = exec_read_banner(s, &b, m, sizeof m);
        if (st == GC_OK)
            st = same_kernels(s, a, &b, m, sizeof m);
    }
    exec_banner_free(&b);
    if (st == GC_OK) {
        s->dead = GC_OK;
        s->dead_msg[0] = '\0';
        return GC_OK;
    }
    exec_end(&s->p, 0.0);
    exec_close_fds(&s->p);
    s->dead = GC_E_LOAD;
    /* dead_msg is quoted after our own "exec adapter 'CMD': " later: keep what follows it */
    exec_msg(s, 0, prefix, sizeof prefix, "%s", "");
    size_t skip = strncmp(m, prefix, strlen(prefix)) == 0 ? strlen(prefix) : 0;
    snprintf(s->dead_msg, sizeof s->dead_msg, "restart failed: %.990s", m + skip);
    if (msg && size)
        snprintf(msg, size, "%s", m);
    return st;
}
