/* Adapters that hand over a plug-in table (docs/design.md 5.1): dlopen'ed plug-ins and the
 * built-ins alike.  The table is validated, its kernels copied, open() called once with the
 * --adapter-options text; eval goes through a wrapper that prepares the floating-point
 * environment and turns a failure into a message with last_error's text.  Each step of a load
 * (dlopen, the entry, open) is bracketed by the load check of fpenv.c. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

struct plugin_state {
    const struct gelucheck_plugin *p; /* lives in the library: valid until dlclose */
    void *dl;                         /* NULL for built-ins */
    void *ctx;                        /* what open() set */
    int opened;                       /* open() exists and succeeded: close() is due */
    char who[320];                    /* "plug-in 'x.so'" for messages */
};

/* last_error's text made one line, or a stand-in when there is none. */
static const char *why(const struct plugin_state *s, char *buf, size_t size)
{
    const char *e = s->p->last_error ? s->p->last_error(s->ctx) : NULL;
    return e ? gc_safe(buf, size, e, 400) : "no message (last_error gave none)";
}

static enum gc_status plugin_eval(struct gc_adapter *a, const struct gc_kernel *k,
                                  const void *x, void *y, size_t n, struct gc_eval_extra *ex,
                                  char *msg, size_t size)
{
    struct plugin_state *s = a->state;

    (void)ex; /* in process: nothing is guarded, nothing restarts */
    char text[420];

    gc_fpenv_prepare();
    int rc = gc_kernel_at(s->p, k->index)->eval(s->ctx, x, y, n);
    /* a kernel that left the rounding mode, FTZ or DAZ changed gets an fpenv_modified
     * finding from the suites (docs/design.md 5.1 and 6), which read a->fpenv_modified */
    gc_fpenv_check(a);
    if (rc == 0)
        return GC_OK;
    gc_msg(msg, size, "%s: kernel '%s': eval of %zu elements failed (returned %d): %s", s->who,
           k->name, n, rc, why(s, text, sizeof text));
    return GC_E_EVAL;
}

static void plugin_close(struct gc_adapter *a)
{
    struct plugin_state *s = a->state;

    if (!s)
        return;
    if (s->opened && s->p->close)
        s->p->close(s->ctx);
    if (s->dl)
        dlclose(s->dl);
    free(s);
    a->state = NULL;
}

static const struct gc_adapter_ops plugin_ops = { plugin_eval, plugin_close, NULL };

/* Copies the validated table's strings into a. */
static int copy_table(struct gc_adapter *a, const struct gelucheck_plugin *p, const char *name)
{
    a->name = gc_strdup(name ? name : p->name);
    a->version = gc_strdup(p->version);
    if (!a->name || !a->version)
        return -1;
    for (size_t i = 0; i < p->n_kernels; i++) {
        const struct gelucheck_kernel *pk = gc_kernel_at(p, i);
        struct gc_kernel *k = &a->kernels[i];
        k->name = gc_strdup(pk->name);
        k->description = gc_strdup(pk->description ? pk->description : "");
        if (!k->name || !k->description)
            return -1;
        k->func = (enum geluref_func)pk->func;
        k->dtype = (enum geluref_dtype)pk->dtype;
        k->elem_size = gc_dtype_size(k->dtype);
    }
    return 0;
}

/* Calls open() once.  After a failure, last_error() is asked with whatever *ctx open() left,
 * and a ctx it did set is then closed ("once per ctx that open() set", plugin.h): so a
 * plug-in can say why through its ctx. */
static enum gc_status open_plugin(struct plugin_state *s, const struct gc_open_options *opt,
                                  char *msg, size_t size)
{
    char text[420];

    if (!s->p->open)
        return GC_OK; /* every ctx stays NULL, close() is never called */
    int rc = s->p->open(&s->ctx, opt ? opt->options : NULL);
    if (rc == 0) {
        s->opened = 1;
        return GC_OK;
    }
    gc_msg(msg, size, "%s: open failed (returned %d): %s", s->who, rc, why(s, text, sizeof text));
    if (s->ctx && s->p->close)
        s->p->close(s->ctx);
    s->ctx = NULL;
    return GC_E_LOAD;
}

enum gc_status gc_plugin_adopt(const struct gelucheck_plugin *p, void *dl,
                               enum gc_adapter_kind kind, const char *name, const char *who,
                               const char *spec, const struct gc_open_options *opt,
                               struct gc_fpenv_load *load, struct gc_adapter **out, char *msg,
                               size_t size)
{
    struct plugin_state *s = NULL;
    struct gc_adapter *a = NULL;
    struct gc_fpenv_load own;
    enum gc_status st = gc_plugin_validate(p, who, msg, size);

    *out = NULL;
    if (!load) /* a built-in: its open() is the whole load */
        gc_fpenv_load_begin(load = &own);
    if (st == GC_OK) {
        a = gc_adapter_alloc(kind, spec, p->n_kernels);
        s = calloc(1, sizeof *s);
        if (!a || !s || copy_table(a, p, name)) {
            gc_msg(msg, size, "%s: out of memory", who);
            st = GC_E_NOMEM;
        }
    }
    if (st != GC_OK) {
        free(s);
        gc_adapter_close(a);
        if (dl)
            dlclose(dl);
        return st;
    }
    s->p = p;
    s->dl = dl;
    gc_safe(s->who, sizeof s->who, who, sizeof s->who - 4);
    a->ops = &plugin_ops;
    a->state = s;
    st = open_plugin(s, opt, msg, size);
    gc_fpenv_load_step(load, "open");
    snprintf(a->fpenv_load, sizeof a->fpenv_load, "%s", load->what);
    if (st != GC_OK) {
        gc_adapter_close(a); /* dlclose through plugin_close */
        return st;
    }
    *out = a;
    return GC_OK;
}

void gc_plugin_who(char *who, size_t size, const char *path)
{
    char safe[256];
    snprintf(who, size, "plug-in '%s'", gc_safe(safe, sizeof safe, path, 240));
}

enum gc_status gc_plugin_dlopen(const char *path, const char *spec,
                                const struct gc_open_options *opt, struct gc_adapter **out,
                                char *msg, size_t size)
{
    char who[300], file[4096];
    const char *err;

    *out = NULL;
    gc_plugin_who(who, sizeof who, path);
    /* a path, never a library name: without a '/', dlopen would search the library path */
    int len = snprintf(file, sizeof file, "%s%s", strchr(path, '/') ? "" : "./", path);
    if (len < 0 || (size_t)len >= sizeof file) {
        gc_msg(msg, size, "%s: path longer than %zu bytes", who, sizeof file - 1);
        return GC_E_LOAD;
    }
    struct gc_fpenv_load load;
    gc_fpenv_load_begin(&load);
    void *dl = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    gc_fpenv_load_step(&load, "dlopen: a constructor");
    if (!dl) {
        err = dlerror();
        gc_msg(msg, size, "%s: %s", who, err ? err : "dlopen failed");
        return GC_E_LOAD;
    }
    dlerror();
    void *sym = dlsym(dl, "gelucheck_plugin_entry");
    if (!sym) {
        gc_msg(msg, size, "%s: undefined symbol gelucheck_plugin_entry", who);
        dlclose(dl);
        return GC_E_LOAD;
    }
    gelucheck_plugin_entry_fn entry;
    memcpy(&entry, &sym, sizeof entry); /* POSIX: a data pointer holds a function's address */
    const struct gelucheck_plugin *p = entry(GELUCHECK_PLUGIN_ABI);
    gc_fpenv_load_step(&load, "gelucheck_plugin_entry");
    if (!p) {
        gc_msg(msg, size, "%s: gelucheck_plugin_entry(%u) returned NULL (the plug-in cannot "
               "serve ABI %u)", who, GELUCHECK_PLUGIN_ABI, GELUCHECK_PLUGIN_ABI);
        dlclose(dl);
        return GC_E_INVALID;
    }
    return gc_plugin_adopt(p, dl, GC_ADAPTER_PLUGIN, NULL, who, spec, opt, &load, out, msg,
                           size);
}
