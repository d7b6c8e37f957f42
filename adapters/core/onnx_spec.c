/* The model part of an "onnx:" or "scan:" spec: "MODEL.onnx[?KEY=VALUE[&KEY=VALUE]...]".
 * Keys: func (what the model computes: a func name such as gelu or gelu_tanh, not
 * gelu_scaled) and opt (ONNX Runtime's graph optimization level: disabled, basic, extended,
 * layout, all).  The options follow the last '?' of the spec, so a path may hold a '?' when
 * it is not followed by "func=" or "opt="; func is checked by the registry, which knows the
 * func names. */
#include <stdio.h>
#include <string.h>

#include "adapter.h"
#include "core.h"

static const char *const levels[] = { "disabled", "basic", "extended", "layout", "all" };

int gc_onnx_level_valid(const char *level)
{
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
        if (strcmp(level, levels[i]) == 0)
            return 1;
    return 0;
}

enum gc_status gc_onnx_spec_parse(const char *rest, struct gc_onnx_spec *out, char *msg,
                                  size_t size)
{
    const char *q = strrchr(rest, '?');
    memset(out, 0, sizeof *out);
    if (q && strncmp(q + 1, "func=", 5) != 0 && strncmp(q + 1, "opt=", 4) != 0 &&
        strncmp(q + 1, "runtime=", 8) != 0)
        q = NULL; /* a '?' of the file name */
    size_t n = q ? (size_t)(q - rest) : strlen(rest);
    if (n >= sizeof out->model) {
        gc_msg(msg, size, "the model path is longer than %zu bytes", sizeof out->model - 1);
        return GC_E_SPEC;
    }
    memcpy(out->model, rest, n);
    out->model[n] = '\0';
    for (const char *p = q ? q + 1 : NULL; p && *p;) {
        size_t len = strcspn(p, "&");
        const char *eq = memchr(p, '=', len);
        char *dst = NULL;
        if (eq && eq - p == 4 && strncmp(p, "func", 4) == 0)
            dst = out->func;
        else if (eq && eq - p == 3 && strncmp(p, "opt", 3) == 0)
            dst = out->opt;
        else if (eq && eq - p == 7 && strncmp(p, "runtime", 7) == 0)
            dst = out->runtime;
        if (!dst || dst[0] || (size_t)(p + len - eq - 1) >= sizeof out->func ||
            p + len == eq + 1) {
            gc_msg(msg, size, "bad option '%.*s' after the model path (expected func=F, "
                   "opt=LEVEL or runtime=RT, each at most once, joined by '&')",
                   (int)(len < 60 ? len : 60), p);
            return GC_E_SPEC;
        }
        memcpy(dst, eq + 1, (size_t)(p + len - eq - 1));
        p += len + (p[len] == '&');
    }
    if (out->opt[0] && !gc_onnx_level_valid(out->opt)) {
        gc_msg(msg, size, "unknown optimization level '%s' (opt=): expected disabled, basic, "
               "extended, layout or all", out->opt);
        return GC_E_SPEC;
    }
    if (out->runtime[0] && strcmp(out->runtime, "onnxruntime") != 0 &&
        strcmp(out->runtime, "onnxruntime-web") != 0) {
        gc_msg(msg, size, "unknown runtime '%s' (runtime=): expected onnxruntime or "
               "onnxruntime-web", out->runtime);
        return GC_E_SPEC;
    }
    return GC_OK;
}
