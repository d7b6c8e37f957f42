/* exec:COMMAND, the subprocess protocol of DESIGN.md section 5.2: start the command, read its
 * banner up to 'ready' (exec_banner.c), and hand back an adapter whose kernels are evaluated
 * by requests (exec_eval.c).  When the open fails, the process group is killed and reaped
 * before we return. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec_internal.h"

static size_t elem_size(enum geluref_dtype dt)
{
    return dt == GELUREF_F64 ? 8 : dt == GELUREF_F32 ? 4 : 2; /* f16, bf16: uint16_t bits */
}

/* A positive number of seconds (+inf: no limit); anything else means the default. */
static double seconds(double t, double dflt)
{
    return t > 0 ? t : dflt;
}

static struct exec_state *state_new(const char *command, const struct gc_open_options *opt)
{
    struct exec_state *s = calloc(1, sizeof *s);
    size_t n = strlen(command) + 1;

    if (s)
        s->command = malloc(n);
    if (!s || !s->command) {
        free(s);
        return NULL;
    }
    memcpy(s->command, command, n);
    s->startup_s = seconds(opt ? opt->startup_timeout_s : 0, 60.0);
    s->batch_s = seconds(opt ? opt->batch_timeout_s : 0, 60.0);
    s->grace_s = s->batch_s < EXEC_GRACE_S ? s->batch_s : EXEC_GRACE_S;
    s->p.pid = 0;
    s->p.reaped = 1;
    s->p.in_fd = s->p.out_fd = s->p.err_fd = -1;
    return s;
}

/* Moves the banner into a new adapter laid out as gc_adapter_alloc does it (the core frees it
 * with gc_adapter_close: every string with free()). */
static struct gc_adapter *make_adapter(struct exec_state *s, struct exec_banner *b,
                                       const char *spec)
{
    struct gc_adapter *a = calloc(1, sizeof *a);
    struct gc_kernel *k = calloc(b->n, sizeof *k);
    char *name = malloc(strlen(s->command) + 1);
    char *spec_copy = malloc(strlen(spec) + 1);
    char *version = b->version ? b->version : calloc(1, 1);

    if (!a || !k || !name || !spec_copy || !version) {
        free(a);
        free(k);
        free(name);
        free(spec_copy);
        if (version != b->version)
            free(version);
        return NULL;
    }
    *a = (struct gc_adapter){ GC_ADAPTER_EXEC, strcpy(name, s->command), strcpy(spec_copy, spec),
                              version, b->n, k, &exec_ops, s };
    b->version = NULL;
    for (size_t i = 0; i < b->n; i++) {
        k[i] = (struct gc_kernel){ b->k[i].name, b->k[i].desc, b->k[i].func, b->k[i].dtype,
                                   elem_size(b->k[i].dtype), a, i };
        b->k[i].name = b->k[i].desc = NULL;
    }
    return a;
}

static enum gc_status open_state(struct exec_state *s, const char *spec, struct gc_adapter **out,
                                 char *msg, size_t size)
{
    struct exec_banner b = { NULL, NULL, 0, 0 };
    int e = exec_spawn(&s->p, s->command);

    if (e) {
        exec_msg(s, 0, msg, size, "cannot start /bin/sh: %s", strerror(e));
        return GC_E_LOAD;
    }
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
    struct exec_state *s = state_new(command, opt);
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
