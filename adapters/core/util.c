/* Helpers every adapter kind uses (adapter.h), and the core's message helpers (core.h). */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

int gc_valid_kernel_name(const char *name)
{
    size_t n = 0;

    if (!name)
        return 0;
    for (; name[n]; n++) {
        char c = name[n];
        int ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                 c == '_' || c == '.' || c == '-';
        if (!ok || n >= 128)
            return 0;
    }
    return n > 0;
}

size_t gc_dtype_size(enum geluref_dtype dt)
{
    switch (dt) {
    case GELUREF_F64:
        return 8;
    case GELUREF_F32:
        return 4;
    case GELUREF_F16:
    case GELUREF_BF16:
        return 2; /* uint16_t bit patterns */
    }
    return 0;
}

char *gc_strdup(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    return d ? memcpy(d, s, n) : NULL;
}

/* Kernels come back zeroed except for their adapter and index, which are set. */
struct gc_adapter *gc_adapter_alloc(enum gc_adapter_kind kind, const char *spec, size_t n)
{
    struct gc_adapter *a = calloc(1, sizeof *a);

    if (!a)
        return NULL;
    a->kind = kind;
    a->spec = gc_strdup(spec ? spec : "");
    a->kernels = n ? calloc(n, sizeof *a->kernels) : NULL;
    if (!a->spec || (n && !a->kernels)) {
        free(a->spec);
        free(a->kernels);
        free(a);
        return NULL;
    }
    a->n_kernels = n;
    for (size_t i = 0; i < n; i++) {
        a->kernels[i].adapter = a;
        a->kernels[i].index = i;
    }
    return a;
}

/* Every kind's adapter is freed here: ops->close releases the kind's state (ops may still be
 * NULL for a half-built adapter), then the strings, the kernels and the adapter. */
void gc_adapter_close(struct gc_adapter *a)
{
    if (!a)
        return;
    if (a->ops && a->ops->close)
        a->ops->close(a);
    for (size_t i = 0; i < a->n_kernels; i++) {
        free(a->kernels[i].name);
        free(a->kernels[i].description);
    }
    free(a->kernels);
    free(a->name);
    free(a->ident);
    free(a->spec);
    free(a->version);
    free(a);
}

void gc_msg(char *msg, size_t size, const char *fmt, ...)
{
    va_list ap;

    if (!msg || size == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, size, fmt, ap);
    va_end(ap);
}

const char *gc_safe(char *buf, size_t size, const char *s, size_t max)
{
    size_t n = 0;

    if (size == 0)
        return buf;
    if (!s)
        s = "(null)";
    for (; s[n] && n < max && n + 4 < size; n++)
        buf[n] = s[n] >= 0x20 && s[n] < 0x7f ? s[n] : '?';
    if (s[n] && n + 3 < size) {
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    buf[n] = '\0';
    return buf;
}

const char *gc_signal_name(int sig, char *buf, size_t size)
{
    static const struct { int sig; const char *name; } names[] = {
        { SIGSEGV, "SIGSEGV" }, { SIGBUS, "SIGBUS" },   { SIGFPE, "SIGFPE" },
        { SIGABRT, "SIGABRT" }, { SIGILL, "SIGILL" },   { SIGTRAP, "SIGTRAP" },
        { SIGSYS, "SIGSYS" },   { SIGKILL, "SIGKILL" }, { SIGTERM, "SIGTERM" },
        { SIGINT, "SIGINT" },   { SIGQUIT, "SIGQUIT" }, { SIGHUP, "SIGHUP" },
        { SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" }, { SIGXCPU, "SIGXCPU" },
        { SIGXFSZ, "SIGXFSZ" }, { SIGUSR1, "SIGUSR1" }, { SIGUSR2, "SIGUSR2" },
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig)
            return names[i].name;
    snprintf(buf, size, "signal %d", sig);
    return buf;
}
