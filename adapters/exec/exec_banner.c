/* The banner of the subprocess protocol (docs/design.md section 5.2), up to 'ready':
 *   gelucheck-exec 1
 *   name NAME                                  (optional, once: the adapter's own name, the
 *                                              ADAPTER of its kernels' ADAPTER/KERNEL)
 *   version TEXT                               (optional, once)
 *   kernel NAME FUNC DTYPE [DESCRIPTION...]    (at least one; names unique)
 *   ready
 * Anything else, a bad field, a line too long, a NUL byte, the end of output or silence past
 * the start-up timeout is an error that quotes the line. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec_internal.h"

static const char funcs[] = "gelu, gelu_tanh, gelu_sigmoid, gelu_grad, gelu_tanh_grad, "
                            "normcdf, normpdf, erf, erfc";

/* Outside text kept for reports: control bytes become '?' (a tab a space). */
static char *dup_clean(const char *s, size_t n)
{
    char *d = malloc(n + 1);

    if (!d)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        d[i] = c == '\t' ? ' ' : (c < 0x20 || c == 0x7f) ? '?' : (char)c;
    }
    d[n] = '\0';
    return d;
}

/* The next space-separated field of *p, NUL-terminated into f (cut at size - 1). */
static size_t field(const char **p, char *f, size_t size)
{
    const char *s = *p + strspn(*p, " "), *e = s + strcspn(s, " ");
    size_t n = (size_t)(e - s);

    memcpy(f, s, n < size ? n : size - 1);
    f[n < size ? n : size - 1] = '\0';
    *p = e;
    return n;
}

/* "kernel NAME FUNC DTYPE [DESCRIPTION...]": the reason it is bad in why, or NULL. */
static const char *kernel_check(const struct exec_banner *b, const char *line, struct exec_kdef *d,
                                char *why, size_t size)
{
    char name[130], func[32], dtype[16];
    const char *p = line + strlen("kernel");
    size_t nn = field(&p, name, sizeof name), nf = field(&p, func, sizeof func);
    size_t nd = field(&p, dtype, sizeof dtype);

    if (nn == 0 || nf == 0 || nd == 0)
        return "expected 'kernel NAME FUNC DTYPE [DESCRIPTION...]'";
    if (nn >= sizeof name || !gc_valid_kernel_name(name))
        return "illegal name (allowed: 1 to 128 of [A-Za-z0-9_.-])";
    for (size_t i = 0; i < b->n; i++)
        if (strcmp(b->k[i].name, name) == 0)
            return "duplicate kernel name";
    if (nf >= sizeof func || geluref_func_from_name(func, &d->func) != 0 ||
        d->func > GELUREF_ERFC) {
        snprintf(why, size, "unknown function (expected one of: %s)", funcs);
        return why;
    }
    if (nd >= sizeof dtype || geluref_dtype_from_name(dtype, &d->dtype) != 0)
        return "unknown dtype (expected one of: f64, f32, f16, bf16)";
    p += strspn(p, " ");
    d->name = dup_clean(name, nn);
    d->desc = dup_clean(p, strlen(p));
    return NULL;
}

static enum gc_status add_kernel(struct exec_state *s, struct exec_banner *b,
                                 const struct exec_line *l, char *msg, size_t size)
{
    char why[200], q[300];
    struct exec_kdef d = { NULL, NULL, GELUREF_GELU, GELUREF_F64 };
    const char *bad = b->n >= EXEC_MAX_KERNELS ? "too many kernels"
                                               : kernel_check(b, l->text, &d, why, sizeof why);

    if (bad) {
        exec_quote(q, sizeof q, l->text, l->len, 60);
        exec_msg(s, 0, msg, size, "bad kernel line '%s': %s", q, bad);
        return GC_E_INVALID;
    }
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 16;
        struct exec_kdef *k = d.name && d.desc ? realloc(b->k, cap * sizeof *k) : NULL;
        if (k) {
            b->k = k;
            b->cap = cap;
        }
    }
    if (!d.name || !d.desc || b->n == b->cap) {
        free(d.name);
        free(d.desc);
        exec_msg(s, 0, msg, size, "out of memory");
        return GC_E_NOMEM;
    }
    b->k[b->n++] = d;
    return GC_OK;
}

/* The read ended without a line: say how, ending the process where it is gone. */
static enum gc_status banner_broken(struct exec_state *s, enum exec_read r,
                                    const struct exec_line *l, int lines, char *msg,
                                    size_t size)
{
    char q[300], how[120];
    const char *want = lines ? "'ready'" : "'gelucheck-exec 1'";

    exec_quote(q, sizeof q, l->text, l->len, 60);
    if (r == EXEC_R_TIMEOUT) {
        exec_msg(s, 1, msg, size, "no %s within %g s", want, s->startup_s);
        return GC_E_TIMEOUT;
    }
    if (r == EXEC_R_LONG || r == EXEC_R_NUL) {
        if (r == EXEC_R_LONG)
            exec_msg(s, 0, msg, size, "line longer than %d bytes: '%s'", EXEC_LINE_MAX, q);
        else
            exec_msg(s, 0, msg, size, "NUL byte in line '%s'", q);
        return GC_E_INVALID;
    }
    int self = exec_end(&s->p, exec_now() + s->grace_s);
    exec_exit_text(&s->p, how, sizeof how);
    exec_msg(s, 1, msg, size, "%s before %s%s%s%s", self ? how : "closed its output", want,
             l->len ? " (last output '" : "", l->len ? q : "", l->len ? "' had no line end)" : "");
    return GC_E_DIED;
}

static enum gc_status banner_line(struct exec_state *s, struct exec_banner *b,
                                  const struct exec_line *l, int first, char *msg, size_t size)
{
    char q[300];

    exec_quote(q, sizeof q, l->text, l->len, 60);
    if (first && strncmp(l->text, "gelucheck-exec ", 15) == 0 && strcmp(l->text + 15, "1")) {
        exec_msg(s, 0, msg, size, "unsupported protocol version '%s' (this host speaks 1)", q + 15);
        return GC_E_INVALID;
    }
    if (first && strcmp(l->text, "gelucheck-exec 1") != 0) {
        exec_msg(s, 1, msg, size, "expected 'gelucheck-exec 1', got '%s'", q);
        return GC_E_INVALID;
    }
    if (first)
        return GC_OK;
    if (strncmp(l->text, "kernel ", 7) == 0)
        return add_kernel(s, b, l, msg, size);
    if (strncmp(l->text, "name ", 5) == 0 && !b->name) {
        if (!gc_valid_kernel_name(l->text + 5)) {
            exec_msg(s, 0, msg, size, "bad name line '%s': the name must be 1 to 128 of "
                     "[A-Za-z0-9_.-]", q);
            return GC_E_INVALID;
        }
        if ((b->name = gc_strdup(l->text + 5)))
            return GC_OK;
        exec_msg(s, 0, msg, size, "out of memory");
        return GC_E_NOMEM;
    }
    if (strncmp(l->text, "version ", 8) == 0 && !b->version) {
        b->version = dup_clean(l->text + 8, l->len - 8);
        if (b->version)
            return GC_OK;
        exec_msg(s, 0, msg, size, "out of memory");
        return GC_E_NOMEM;
    }
    exec_msg(s, 0, msg, size, "unexpected line before 'ready': '%s'", q);
    return GC_E_INVALID;
}

enum gc_status exec_read_banner(struct exec_state *s, struct exec_banner *b, char *msg, size_t size)
{
    struct exec_line l;
    double deadline = exec_now() + s->startup_s;

    for (int lines = 0;; lines++) {
        enum exec_read r = exec_read_line(&s->p, &l, deadline);
        if (r != EXEC_R_OK)
            return banner_broken(s, r, &l, lines, msg, size);
        if (lines > 0 && strcmp(l.text, "ready") == 0)
            break;
        enum gc_status st = banner_line(s, b, &l, lines == 0, msg, size);
        if (st != GC_OK)
            return st;
    }
    if (b->n == 0) {
        exec_msg(s, 0, msg, size, "no kernel lines before 'ready'");
        return GC_E_INVALID;
    }
    return GC_OK;
}

void exec_banner_free(struct exec_banner *b)
{
    for (size_t i = 0; i < b->n; i++) {
        free(b->k[i].name);
        free(b->k[i].desc);
    }
    free(b->k);
    free(b->version);
    free(b->name);
}
