/* Adapter specs (docs/design.md 5): a built-in name, "plugin:PATH" or a path ending in ".so"
 * (dlopen), "exec:COMMAND" (the subprocess protocol), "onnx:MODEL" (the onnxruntime
 * adapter's subprocess, started on the user's model).  Also the kind-independent part of
 * evaluating. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* "libm, mutants": the built-in names, for messages. */
static const char *builtin_names(char *buf, size_t size)
{
    size_t len = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < gc_builtin_count() && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
                                gc_builtin_get(i)->name);
    return buf;
}

/* The built-in called name, or NULL. */
static const struct gc_builtin *builtin_named(const char *name)
{
    for (size_t i = 0; i < gc_builtin_count(); i++)
        if (strcmp(name, gc_builtin_get(i)->name) == 0)
            return gc_builtin_get(i);
    return NULL;
}

static enum gc_status open_builtin(const struct gc_builtin *b, const char *spec,
                                   const struct gc_open_options *opt, struct gc_adapter **out,
                                   char *msg, size_t size)
{
    char who[96];

    snprintf(who, sizeof who, "built-in adapter '%s'", b->name);
    if (b->command) {
        char *cmd;
        enum gc_status st = gc_home_command(b->command, who, &cmd, msg, size);
        if (st != GC_OK)
            return st;
        st = gc_exec_open(cmd, spec, opt, out, msg, size); /* named by the spec */
        free(cmd);
        return st;
    }
    if (!b->entry) {
        gc_msg(msg, size, "%s is not in this build (%s)", who, b->skipped ? b->skipped : "skipped");
        return GC_E_LOAD;
    }
    if (!opt->in_process) /* in gelucheck-worker (docs/design.md section 10) */
        return gc_worker_open(spec, GC_ADAPTER_BUILTIN, who, opt, out, msg, size);
    const struct gelucheck_plugin *p = b->entry(GELUCHECK_PLUGIN_ABI);
    if (!p) {
        gc_msg(msg, size, "%s: its entry returned NULL for ABI %u", who, GELUCHECK_PLUGIN_ABI);
        return GC_E_INVALID;
    }
    return gc_plugin_adopt(p, NULL, GC_ADAPTER_BUILTIN, b->name, who, spec, opt, NULL, out, msg,
                           size);
}

/* Appends s to w in single quotes for /bin/sh, each ' written as '\''; returns the end. */
static char *shq(char *w, const char *s)
{
    *w++ = '\'';
    for (; *s; s++)
        w = *s == '\'' ? (memcpy(w, "'\\''", 4), w + 4) : (*w = *s, w + 1);
    *w++ = '\'';
    *w = '\0';
    return w;
}

int gc_runtime_web(const char *runtime)
{
    if (!runtime || strcmp(runtime, "onnxruntime") == 0)
        return 0;
    return strcmp(runtime, "onnxruntime-web") == 0 ? 1 : -1;
}

/* For --runtime onnxruntime-web: GC_OK when this build has the onnxruntime-web adapter (the
 * same script, its web backend), else GC_E_LOAD with why. */
static enum gc_status web_present(const char *who, char *msg, size_t size)
{
    const struct gc_builtin *web = builtin_named("onnxruntime-web");
    if (web && web->command)
        return GC_OK;
    gc_msg(msg, size, "%s: --runtime onnxruntime-web: onnxruntime-web is not in this build (%s)",
           who, web && web->skipped ? web->skipped : "skipped");
    return GC_E_LOAD;
}

/* "onnx:MODEL[?func=F&opt=LEVEL]": the onnxruntime adapter's command with --model 'MODEL'
 * --func FUNC --opt LEVEL; "scan:MODEL[?opt=LEVEL]": with --scan 'MODEL' [--opt LEVEL] (one
 * kernel per GELU site of the model and level, adapters/onnxruntime/scan.js). */
static enum gc_status open_onnx(const char *rest, const char *spec, int scan,
                                const struct gc_open_options *opt, struct gc_adapter **out,
                                char *msg, size_t size)
{
    const struct gc_builtin *ort = builtin_named("onnxruntime");
    const char *prefix = scan ? "scan:" : "onnx:";
    char *base = NULL;
    struct gc_onnx_spec o;
    enum geluref_func f;
    char safe[256], why[256];

    if (!rest[0]) {
        gc_msg(msg, size, "adapter '%s': nothing after the '%s'", spec, prefix);
        return GC_E_SPEC;
    }
    if (gc_onnx_spec_parse(rest, &o, why, sizeof why) != GC_OK) {
        gc_msg(msg, size, "adapter '%s': %s", gc_safe(safe, sizeof safe, spec, 200), why);
        return GC_E_SPEC;
    }
    if (scan && o.func[0]) {
        gc_msg(msg, size, "adapter '%s': a scan: model takes no func= (each site declares "
               "its own formula)", gc_safe(safe, sizeof safe, spec, 200));
        return GC_E_SPEC;
    }
    const char *func = o.func[0] ? o.func : opt->func ? opt->func : "gelu";
    if (!scan && (geluref_func_from_name(func, &f) != 0 || f == GELUREF_GELU_SCALED)) {
        gc_msg(msg, size, "adapter '%s': unknown func '%s' (%s)",
               gc_safe(safe, sizeof safe, spec, 200), func, o.func[0] ? "func=" : "--func");
        return GC_E_SPEC;
    }
    if (!o.model[0]) {
        gc_msg(msg, size, "adapter '%s': no model path before the '?'", spec);
        return GC_E_SPEC;
    }
    if (!ort || !ort->command) {
        gc_msg(msg, size, "adapter '%s': ONNX Runtime is not in this build (%s)",
               gc_safe(safe, sizeof safe, spec, 200),
               ort && ort->skipped ? ort->skipped : "skipped");
        return GC_E_LOAD;
    }
    char who[300];
    snprintf(who, sizeof who, "adapter '%s'", gc_safe(safe, sizeof safe, spec, 200));
    const char *rt = o.runtime[0] ? o.runtime : opt->runtime; /* ?runtime= wins */
    int web = gc_runtime_web(rt);
    if (web < 0) {
        gc_msg(msg, size, "%s: unknown runtime '%s'", who, rt);
        return GC_E_SPEC;
    }
    if (web && web_present(who, msg, size) != GC_OK)
        return GC_E_LOAD;
    enum gc_status hs = gc_home_command(ort->command, who, &base, msg, size);
    if (hs != GC_OK)
        return hs;
    size_t n = strlen(base) + 4 * strlen(o.model) + 64 + strlen(func) + strlen(o.opt);
    char *cmd = malloc(n);
    if (!cmd) {
        free(base);
        gc_msg(msg, size, "adapter '%s': out of memory", spec);
        return GC_E_NOMEM;
    }
    char *w = shq(cmd + sprintf(cmd, "%s %s ", base, scan ? "--scan" : "--model"), o.model);
    free(base);
    if (!scan)
        w += sprintf(w, " --func %s", func);
    if (!scan || o.opt[0])
        w += sprintf(w, " --opt %s", o.opt[0] ? o.opt : "all");
    if (web)
        strcpy(w, " --web");
    enum gc_status st = gc_exec_open(cmd, spec, opt, out, msg, size); /* named by the spec */
    free(cmd);
    return st;
}

enum gc_status gc_scan_command(const char *model_spec, const char *json, char **out, char *msg,
                               size_t size)
{
    return gc_scan_command_rt(model_spec, json, NULL, NULL, out, msg, size);
}

enum gc_status gc_scan_command_rt(const char *model_spec, const char *json, const char *runtime,
                                  const char *torch_module, char **out, char *msg, size_t size)
{
    char *tcmd = NULL; /* the torch adapter's --activations command */
    const struct gc_builtin *ort = builtin_named("onnxruntime");
    struct gc_onnx_spec o;
    char *base = NULL, why[256];

    *out = NULL;
    if (gc_onnx_spec_parse(model_spec, &o, why, sizeof why) != GC_OK) {
        gc_msg(msg, size, "%s", why);
        return GC_E_SPEC;
    }
    if (o.func[0]) {
        gc_msg(msg, size, "a scanned model takes no func= (each site declares its own formula)");
        return GC_E_SPEC;
    }
    if (!ort || !ort->command) {
        gc_msg(msg, size, "ONNX Runtime is not in this build (%s)",
               ort && ort->skipped ? ort->skipped : "not built");
        return GC_E_LOAD;
    }
    if (o.runtime[0])
        runtime = o.runtime; /* ?runtime= wins */
    int web = gc_runtime_web(runtime);
    if (web < 0) {
        gc_msg(msg, size, "unknown runtime '%s'", runtime);
        return GC_E_SPEC;
    }
    if (web && web_present("the scan", msg, size) != GC_OK)
        return GC_E_LOAD;
    if (torch_module) {
        const struct gc_builtin *t = builtin_named("torch");
        if (!t || !t->command) {
            gc_msg(msg, size, "--torch-module: the torch adapter is not in this build (%s)",
                   t && t->skipped ? t->skipped : "skipped");
            return GC_E_LOAD;
        }
        char *tb = NULL;
        enum gc_status ts = gc_builtin_command(t, &tb, msg, size);
        if (ts != GC_OK)
            return ts;
        tcmd = malloc(strlen(tb) + 4 * strlen(torch_module) + 32);
        if (tcmd)
            shq(tcmd + sprintf(tcmd, "%s --activations ", tb), torch_module);
        free(tb);
        if (!tcmd) {
            gc_msg(msg, size, "out of memory");
            return GC_E_NOMEM;
        }
    }
    enum gc_status hs = gc_builtin_command(ort, &base, msg, size);
    if (hs != GC_OK) {
        free(tcmd);
        return hs;
    }
    size_t n = strlen(base) + 4 * (strlen(o.model) + (json ? strlen(json) : 0) +
                                   (tcmd ? strlen(tcmd) : 0)) + 80;
    char *cmd = malloc(n);
    if (!cmd) {
        free(tcmd);
        free(base);
        gc_msg(msg, size, "out of memory");
        return GC_E_NOMEM;
    }
    char *w = shq(cmd + sprintf(cmd, "%s --scan-report ", base), o.model);
    free(base);
    if (o.opt[0])
        w += sprintf(w, " --opt %s", o.opt);
    if (json)
        w = shq(w + sprintf(w, " --json "), json);
    if (tcmd)
        w = shq(w + sprintf(w, " --torch "), tcmd);
    free(tcmd);
    if (web)
        strcpy(w, " --web");
    *out = cmd;
    return GC_OK;
}

/* torch-module:FILE.pt: one kernel per GELU activation of a TorchScript module, computing what
 * PyTorch computes there (the torch adapter's --pairs; gelucheck run --torch-module adds it
 * beside the scan: adapters, docs/model-audit.md). */
static enum gc_status open_torch_module(const char *file, const char *spec,
                                        const struct gc_open_options *opt,
                                        struct gc_adapter **out, char *msg, size_t size)
{
    const struct gc_builtin *t = builtin_named("torch");
    char *tb = NULL;

    if (!file[0]) {
        gc_msg(msg, size, "adapter '%s': nothing after the 'torch-module:'", spec);
        return GC_E_SPEC;
    }
    if (!t || !t->command) {
        gc_msg(msg, size, "adapter '%s': the torch adapter is not in this build (%s)", spec,
               t && t->skipped ? t->skipped : "skipped");
        return GC_E_LOAD;
    }
    enum gc_status st = gc_builtin_command(t, &tb, msg, size);
    if (st != GC_OK)
        return st;
    char *cmd = malloc(strlen(tb) + 4 * strlen(file) + 32);
    if (!cmd) {
        free(tb);
        gc_msg(msg, size, "out of memory");
        return GC_E_NOMEM;
    }
    shq(cmd + sprintf(cmd, "%s --pairs ", tb), file);
    free(tb);
    st = gc_exec_open(cmd, spec, opt, out, msg, size);
    free(cmd);
    return st;
}

static enum gc_status open_spec(const char *spec, const struct gc_open_options *opt,
                                struct gc_adapter **out, char *msg, size_t size)
{
    char names[256], safe[256];

    if (!spec || !spec[0]) {
        gc_msg(msg, size, "empty adapter spec");
        return GC_E_SPEC;
    }
    const struct gc_builtin *b = builtin_named(spec);
    if (b)
        return open_builtin(b, spec, opt, out, msg, size);
    if (starts_with(spec, "onnx:") || starts_with(spec, "scan:"))
        return open_onnx(spec + 5, spec, spec[0] == 's', opt, out, msg, size);
    if (starts_with(spec, "torch-module:"))
        return open_torch_module(spec + 13, spec, opt, out, msg, size);
    const char *rest = starts_with(spec, "exec:") ? spec + 5
                       : starts_with(spec, "plugin:") ? spec + 7 : NULL;
    if (rest && !rest[0]) {
        gc_msg(msg, size, "adapter '%s': nothing after the '%s'", spec,
               spec[0] == 'e' ? "exec:" : "plugin:");
        return GC_E_SPEC;
    }
    if (starts_with(spec, "exec:"))
        return gc_exec_open(rest, spec, opt, out, msg, size);
    if ((rest || ends_with(spec, ".so")) && !opt->in_process) {
        char who[300]; /* the host never dlopens it */
        gc_plugin_who(who, sizeof who, rest ? rest : spec);
        return gc_worker_open(spec, GC_ADAPTER_PLUGIN, who, opt, out, msg, size);
    }
    if (rest || ends_with(spec, ".so"))
        return gc_plugin_dlopen(rest ? rest : spec, spec, opt, out, msg, size);
    gc_msg(msg, size, "unknown adapter '%s' (built-in: %s; or plugin:PATH, PATH.so, "
           "exec:COMMAND, onnx:MODEL.onnx, scan:MODEL.onnx, torch-module:FILE.pt)",
           gc_safe(safe, sizeof safe, spec, 200), builtin_names(names, sizeof names));
    return GC_E_SPEC;
}

enum gc_status gc_adapter_open(const char *spec, const struct gc_open_options *opt,
                               struct gc_adapter **out, char *msg, size_t size)
{
    static const struct gc_open_options defaults = GC_OPEN_OPTIONS_INIT;
    char id[256];

    *out = NULL;
    if (msg && size)
        msg[0] = '\0';
    if (!opt)
        opt = &defaults;
    enum gc_status st = open_spec(spec, opt, out, msg, size);
    if (st != GC_OK || (*out)->ident) /* an exec adapter's banner may have declared it */
        return st;
    gc_ident_derive(spec, (*out)->name, NULL, opt->func, id, sizeof id);
    /* the runtime changes what runs: onnx: and scan: models on onnxruntime-web are MODEL.web */
    struct gc_onnx_spec o;
    char why[256];
    const char *rt = opt->runtime;
    if ((starts_with(spec, "onnx:") || starts_with(spec, "scan:")) &&
        gc_onnx_spec_parse(spec + 5, &o, why, sizeof why) == GC_OK && o.runtime[0])
        rt = o.runtime; /* ?runtime= wins */
    if ((starts_with(spec, "onnx:") || starts_with(spec, "scan:")) &&
        gc_runtime_web(rt) == 1 && strlen(id) + 4 < sizeof id)
        strcat(id, ".web");
    if (!((*out)->ident = gc_strdup(id))) {
        gc_adapter_close(*out);
        *out = NULL;
        gc_msg(msg, size, "adapter '%s': out of memory", spec);
        return GC_E_NOMEM;
    }
    return GC_OK;
}

enum gc_status gc_kernel_eval(const struct gc_kernel *k, const void *x, void *y, size_t n,
                              char *msg, size_t size)
{
    return gc_kernel_eval_ex(k, x, y, n, NULL, msg, size);
}

enum gc_status gc_kernel_eval_ex(const struct gc_kernel *k, const void *x, void *y, size_t n,
                                 struct gc_eval_extra *ex, char *msg, size_t size)
{
    struct gc_eval_extra none = { 0 };

    if (msg && size)
        msg[0] = '\0';
    if (!k || !k->adapter || !k->adapter->ops || !k->adapter->ops->eval ||
        (n && (!x || !y))) {
        gc_msg(msg, size, "gc_kernel_eval: %s", !k || !k->adapter ? "no kernel"
                                                : n && (!x || !y) ? "NULL array" : "no eval");
        return GC_E_INVALID;
    }
    if (ex == NULL)
        ex = &none;
    ex->fault = GC_FAULT_NONE;
    ex->offset = 0;
    ex->signal = ex->exit_status = 0;
    return k->adapter->ops->eval(k->adapter, k, x, y, n, ex, msg, size);
}

enum gc_status gc_adapter_restart(struct gc_adapter *a, char *msg, size_t size)
{
    if (msg && size)
        msg[0] = '\0';
    if (!a || !a->ops || !a->ops->restart) {
        gc_msg(msg, size, "adapter '%s' runs in gelucheck's own process and cannot be restarted",
               a && a->name ? a->name : "?");
        return GC_E_INVALID;
    }
    return a->ops->restart(a, msg, size);
}
