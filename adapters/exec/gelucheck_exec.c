/* The banner and request loop of gelucheck_exec.h (protocol: docs/design.md section 5.2).
 * Lines are at most 4096 bytes before their "\n"; payloads are little-endian on the pipe. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gelucheck_exec.h"

#define LINE_MAX_BYTES 4096

static const char *const funcs[] = { "gelu", "gelu_tanh", "gelu_sigmoid", "gelu_grad",
                                     "gelu_tanh_grad", "normcdf", "normpdf", "erf", "erfc" };

/* Bytes per element of a dtype name; 0 when unknown. */
static size_t dtype_size(const char *dt)
{
    static const char *const names[] = { "f64", "f32", "f16", "bf16" };
    static const size_t sizes[] = { 8, 4, 2, 2 };

    for (size_t i = 0; dt && i < 4; i++)
        if (strcmp(dt, names[i]) == 0)
            return sizes[i];
    return 0;
}

static int known_func(const char *f)
{
    for (size_t i = 0; f && i < sizeof funcs / sizeof funcs[0]; i++)
        if (strcmp(f, funcs[i]) == 0)
            return 1;
    return 0;
}

static int valid_name(const char *s)
{
    size_t n = s ? strlen(s) : 0;

    if (n == 0 || n > 128 || strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                       "0123456789_.-") != n)
        return 0;
    return 1;
}

/* The reason kernel i of the table is unusable, or NULL. */
static const char *bad_kernel(const struct gelucheck_exec_kernel *k, size_t i)
{
    if (!valid_name(k[i].name))
        return "name is not 1 to 128 of [A-Za-z0-9_.-]";
    for (size_t j = 0; j < i; j++)
        if (strcmp(k[j].name, k[i].name) == 0)
            return "duplicate name";
    if (!known_func(k[i].func))
        return "unknown func";
    if (!dtype_size(k[i].dtype))
        return "unknown dtype (f64, f32, f16, bf16)";
    return k[i].eval ? NULL : "no eval function";
}

/* Writes at most max bytes of s, control characters as spaces (a line must stay one line). */
static void put_clean(const char *s, size_t max)
{
    for (size_t i = 0; s[i] && i < max; i++)
        putchar((unsigned char)s[i] < 0x20 || s[i] == 0x7f ? ' ' : s[i]);
}

static void banner(const struct gelucheck_exec_kernel *k, size_t n, const char *version)
{
    printf("gelucheck-exec 1\n");
    if (version) {
        printf("version ");
        put_clean(version, LINE_MAX_BYTES - 8);
        putchar('\n');
    }
    for (size_t i = 0; i < n; i++) {
        int used = printf("kernel %s %s %s", k[i].name, k[i].func, k[i].dtype);
        if (k[i].description && k[i].description[0]) {
            putchar(' ');
            put_clean(k[i].description, LINE_MAX_BYTES - 1 - (size_t)used);
        }
        putchar('\n');
    }
    printf("ready\n");
    fflush(stdout);
}

/* One line into buf without its "\n" and a trailing "\r": 1, 0 at end of input before it,
 * -1 when it is too long or cut short. */
static int read_line(char *buf, size_t size)
{
    size_t n = 0;
    int c;

    while ((c = getchar()) != EOF && c != '\n') {
        if (n + 1 >= size)
            return -1;
        buf[n++] = (char)c;
    }
    if (c == EOF)
        return n == 0 ? 0 : -1;
    if (n > 0 && buf[n - 1] == '\r')
        n--;
    buf[n] = '\0';
    return 1;
}

static void reply_error(const char *msg)
{
    printf("error ");
    put_clean(msg, LINE_MAX_BYTES - 7);
    putchar('\n');
    fflush(stdout);
}

static void swap_if_be(unsigned char *p, size_t n, size_t w)
{
    const uint16_t one = 1;

    if (*(const unsigned char *)&one == 1)
        return;
    for (size_t i = 0; i < n; i++, p += w)
        for (size_t j = 0; j < w / 2; j++) {
            unsigned char t = p[j];
            p[j] = p[w - 1 - j];
            p[w - 1 - j] = t;
        }
}

/* "eval NAME N": the kernel's index in *ki (n when unknown) and N; 0 when malformed. */
static int parse_eval(const char *line, const struct gelucheck_exec_kernel *k, size_t n,
                      size_t *ki, unsigned long *count)
{
    const char *p = line + 5;
    size_t len = strcspn(p, " "), d;

    if (strncmp(line, "eval ", 5) != 0 || len == 0 || p[len] != ' ')
        return 0;
    d = strspn(p + len + 1, "0123456789");
    if (d == 0 || d > 9 || p[len + 1 + d] != '\0')
        return 0;
    *count = strtoul(p + len + 1, NULL, 10);
    for (*ki = 0; *ki < n; ++*ki)
        if (strlen(k[*ki].name) == len && memcmp(k[*ki].name, p, len) == 0)
            break;
    return 1;
}

/* Reads the payload, evaluates, replies.  0 to go on, 1 when the stream cannot go on. */
static int serve_one(const struct gelucheck_exec_kernel *k, unsigned long count,
                     unsigned char *x, unsigned char *y)
{
    size_t w = dtype_size(k->dtype);
    char err[512] = "";

    if (count > GELUCHECK_EXEC_BATCH_MAX) {
        for (unsigned long i = 0; i < count; i++) /* skip its payload, element by element */
            if (fread(x, w, 1, stdin) != 1)
                return 1;
        snprintf(err, sizeof err, "batch of %lu elements: at most %d", count,
                 GELUCHECK_EXEC_BATCH_MAX);
        reply_error(err);
        return 0;
    }
    if (fread(x, w, count, stdin) != count)
        return 1;
    swap_if_be(x, count, w);
    if (k->eval(x, y, count, err, sizeof err) != 0) {
        reply_error(err[0] ? err : "kernel failed");
        return 0;
    }
    swap_if_be(y, count, w);
    printf("ok %lu\n", count);
    fwrite(y, w, count, stdout);
    return fflush(stdout) != 0 || ferror(stdout);
}

static int serve_loop(const struct gelucheck_exec_kernel *k, size_t n, unsigned char *x,
                      unsigned char *y)
{
    char line[LINE_MAX_BYTES + 2], msg[LINE_MAX_BYTES];
    size_t ki;
    unsigned long count;
    int r;

    while ((r = read_line(line, sizeof line)) == 1) {
        if (!parse_eval(line, k, n, &ki, &count)) {
            snprintf(msg, sizeof msg, "malformed request '%.80s'", line);
            reply_error(msg); /* a bad line: the next line may be good again */
        } else if (ki == n) {
            int len = (int)strcspn(line + 5, " ");
            snprintf(msg, sizeof msg, "unknown kernel '%.*s'", len < 130 ? len : 130, line + 5);
            reply_error(msg);
            return 1; /* its payload has no known size: the stream is lost */
        } else if (serve_one(&k[ki], count, x, y) != 0) {
            return 1;
        }
    }
    return r == 0 ? 0 : 1;
}

int gelucheck_exec_serve(const struct gelucheck_exec_kernel *kernels, size_t n,
                         const char *version)
{
    for (size_t i = 0; i < n; i++) {
        const char *why = bad_kernel(kernels, i);
        if (why) {
            fprintf(stderr, "gelucheck_exec: kernel %zu ('%.130s'): %s\n", i,
                    kernels[i].name ? kernels[i].name : "(null)", why);
            return 2;
        }
    }
    unsigned char *x = malloc((size_t)GELUCHECK_EXEC_BATCH_MAX * 8);
    unsigned char *y = malloc((size_t)GELUCHECK_EXEC_BATCH_MAX * 8);
    int st = 1;
    if (x && y) {
        banner(kernels, n, version);
        st = serve_loop(kernels, n, x, y);
    } else {
        fprintf(stderr, "gelucheck_exec: out of memory\n");
    }
    free(x);
    free(y);
    return st;
}
