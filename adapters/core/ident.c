#define _GNU_SOURCE /* memrchr */
/* An adapter's own name, the ADAPTER of a kernel's identity ADAPTER/KERNEL (docs/ci.md):
 * never the spelling of a path, so that a baseline, a policy section or a comparison finds
 * the same kernel however the command line reached it.
 *   a name the adapter declares: a plug-in's table name, an exec adapter's 'name' banner line
 *   onnx:DIR/MODEL.onnx?OPTIONS  MODEL, then '.FUNC' when the model computes another func than
 *                                gelu and '.LEVEL' for an optimization level other than all
 *                                (the options that change what runs)
 *   scan:DIR/MODEL.onnx?OPTIONS  MODEL, then '.LEVEL' when one level is chosen
 *   exec:COMMAND                 the program's file name: the first word of COMMAND that is
 *                                not an interpreter, a launcher, an option or an assignment
 *                                (example_adapter for 'python3 x/example_adapter.py'), less a
 *                                script suffix
 *   a built-in                   its name (libm, torch, ...)
 * The same rule serves results written before identities were recorded: it needs only the
 * spec, name and kind a result keeps of each adapter. */
#include <stdio.h>
#include <string.h>

#include "adapter.h"

/* Words that run another program (their first operand is the program that matters). */
static int launcher(const char *w, size_t n)
{
    static const char *const names[] = { "python", "pypy", "node", "nodejs", "deno", "bun",
                                         "sh", "bash", "dash", "zsh", "ksh", "perl", "ruby",
                                         "Rscript", "julia", "lua", "php", "java", "env",
                                         "exec", "nice", "nohup", "timeout", "stdbuf",
                                         "taskset", "numactl", "valgrind", "uv", "conda" };
    const char *slash = memrchr(w, '/', n);
    if (slash) {
        n -= (size_t)(slash + 1 - w);
        w = slash + 1;
    }
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t m = strlen(names[i]);
        /* python3, python3.11, perl5.36: a version may follow the name */
        if (n >= m && strncmp(w, names[i], m) == 0 && strspn(w + m, "0123456789.") == n - m)
            return 1;
    }
    return 0;
}

/* The next word of *p into w (quotes removed, no expansion); 0 at the end. */
static size_t word(const char **p, char *w, size_t size)
{
    const char *s = *p + strspn(*p, " \t");
    size_t n = 0;
    char q = 0;

    for (; *s && (q || (*s != ' ' && *s != '\t')); s++) {
        if (!q && (*s == '\'' || *s == '"')) {
            q = *s;
        } else if (q && *s == q) {
            q = 0;
        } else {
            if (*s == '\\' && q != '\'' && s[1])
                s++;
            if (n + 1 < size)
                w[n++] = *s;
        }
    }
    w[n] = '\0';
    *p = s;
    return n;
}

void gc_ident_program(const char *command, char *out, size_t size)
{
    char w[1024];
    size_t n;
    const char *p = command;

    out[0] = '\0';
    while ((n = word(&p, w, sizeof w)) > 0) {
        int number = strspn(w, "0123456789.") == n;
        if (w[0] == '-' || strchr(w, '=') || number || launcher(w, n))
            continue;
        const char *base = strrchr(w, '/') ? strrchr(w, '/') + 1 : w;
        snprintf(out, size, "%s", base);
        break;
    }
    if (!out[0]) /* nothing but launchers: the first word, then */
        word(&command, out, size);
    static const char *const suffixes[] = { ".py", ".js", ".mjs", ".cjs", ".sh", ".pl", ".rb",
                                            ".R", ".jl", ".lua", ".php" };
    size_t len = strlen(out);
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        size_t m = strlen(suffixes[i]);
        if (len > m && strcmp(out + len - m, suffixes[i]) == 0) {
            out[len - m] = '\0';
            break;
        }
    }
    gc_ident_clean(out);
}

/* A file's stem: its name less its last suffix. */
static void stem(const char *path, char *out, size_t size)
{
    const char *q = strchr(path, '?'); /* options after the model path */
    size_t end = q ? (size_t)(q - path) : strlen(path), start = end;

    while (start > 0 && path[start - 1] != '/')
        start--;
    size_t n = end - start;
    const char *dot = memrchr(path + start, '.', n);
    if (dot && dot > path + start)
        n = (size_t)(dot - (path + start));
    snprintf(out, size, "%.*s", (int)n, path + start);
}

void gc_ident_clean(char *s)
{
    for (char *c = s; *c; c++)
        if (!((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
              *c == '_' || *c == '.' || *c == '-'))
            *c = '_';
    if (s[0] == '.')
        s[0] = '_';
}

int gc_ident_derive(const char *spec, const char *name, const char *declared, const char *func,
                    char *buf, size_t size)
{
    if (declared && declared[0]) {
        snprintf(buf, size, "%s", declared);
        return gc_valid_kernel_name(buf) ? 0 : -1;
    }
    spec = spec ? spec : "";
    if (strncmp(spec, "onnx:", 5) == 0 || strncmp(spec, "scan:", 5) == 0) {
        char m[256], why[128];
        struct gc_onnx_spec o;
        stem(spec + 5, m, sizeof m);
        if (gc_onnx_spec_parse(spec + 5, &o, why, sizeof why) != GC_OK)
            o.func[0] = o.opt[0] = '\0';
        if (o.func[0])
            func = o.func;
        if (spec[0] == 'o' && func && func[0] && strcmp(func, "gelu") != 0)
            snprintf(buf, size, "%.200s.%.31s", m, func);
        else
            snprintf(buf, size, "%s", m);
        if (o.opt[0] && strcmp(o.opt, "all") != 0)
            snprintf(buf + strlen(buf), size - strlen(buf), ".%s", o.opt);
        gc_ident_clean(buf); /* a file's name, not a name the user chose for us: made one */
    } else if (strncmp(spec, "exec:", 5) == 0) {
        gc_ident_program(spec + 5, buf, size);
    } else {
        snprintf(buf, size, "%s", name ? name : spec);
    }
    return gc_valid_kernel_name(buf) ? 0 : -1;
}
