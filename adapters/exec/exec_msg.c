/* Messages of the exec client: one line, naming the command, quoting what the adapter said
 * (made printable and cut short), and the end of its stderr where that explains a failure. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "exec_internal.h"

#define EXEC_CMD_HEAD 60      /* a long command is quoted as its head, "...", its tail: */
#define EXEC_CMD_TAIL 120     /* paths differ at their ends, arguments come last */
#define EXEC_QUOTE_STDERR 240 /* bytes of the stderr tail quoted */

void exec_quote(char *buf, size_t size, const char *s, size_t n, size_t max)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0, i = 0;

    if (size == 0)
        return;
    for (; i < n && i < max; i++) {
        unsigned char c = (unsigned char)s[i];
        int plain = c >= 0x20 && c < 0x7f;
        if (o + (plain ? 1 : 4) + 4 > size) /* room for this, "..." and the NUL */
            break;
        if (plain) {
            buf[o++] = (char)c;
        } else {
            buf[o++] = '\\';
            buf[o++] = 'x';
            buf[o++] = hex[c >> 4];
            buf[o++] = hex[c & 15];
        }
    }
    if (i < n && o + 4 <= size) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o] = '\0';
}

/* The kept tail of stderr in order, trailing white space dropped. */
static size_t stderr_tail(const struct exec_proc *p, char *out)
{
    size_t n = p->err_total < EXEC_ERR_KEEP ? (size_t)p->err_total : EXEC_ERR_KEEP;
    size_t start = (size_t)((p->err_total - n) % EXEC_ERR_KEEP);

    for (size_t i = 0; i < n; i++)
        out[i] = p->err_tail[(start + i) % EXEC_ERR_KEEP];
    while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == '\r' || out[n - 1] == ' ' ||
                     out[n - 1] == '\t'))
        n--;
    return n;
}

/* "; stderr: '...'": its last lines, at most EXEC_QUOTE_STDERR bytes, starting at a line
 * where possible; line breaks shown as " | ". */
static void append_stderr(const struct exec_proc *p, char *msg, size_t size)
{
    char all[EXEC_ERR_KEEP], flat[3 * EXEC_QUOTE_STDERR], q[4 * 3 * EXEC_QUOTE_STDERR + 8];
    size_t n = stderr_tail(p, all), from = 0, k = 0;

    if (n == 0)
        return;
    if (n > EXEC_QUOTE_STDERR) {
        from = n - EXEC_QUOTE_STDERR;
        const char *nl = memchr(all + from, '\n', n - from);
        if (nl && (size_t)(nl - all) + 1 < n)
            from = (size_t)(nl - all) + 1;
    }
    for (size_t i = from; i < n; i++) {
        if (all[i] == '\r')
            continue;
        if (all[i] == '\n') {
            memcpy(flat + k, " | ", 3);
            k += 3;
        } else {
            flat[k++] = all[i];
        }
    }
    exec_quote(q, sizeof q, flat, k, k);
    size_t used = strlen(msg);
    snprintf(msg + used, size - used, "; stderr: '%s%s'", from > 0 ? "..." : "", q);
}

static void quote_command(char *buf, size_t size, const char *c)
{
    size_t n = strlen(c);

    if (n <= EXEC_CMD_HEAD + 3 + EXEC_CMD_TAIL) {
        exec_quote(buf, size, c, n, n);
        return;
    }
    exec_quote(buf, size, c, EXEC_CMD_HEAD, EXEC_CMD_HEAD - 1); /* ends in "..." */
    size_t used = strlen(buf);
    exec_quote(buf + used, size - used, c + n - EXEC_CMD_TAIL, EXEC_CMD_TAIL, EXEC_CMD_TAIL);
}

void exec_msg(const struct exec_state *s, int with_stderr, char *msg, size_t size,
              const char *fmt, ...)
{
    char cmd[4 * (EXEC_CMD_HEAD + EXEC_CMD_TAIL) + 16];
    va_list ap;

    if (!msg || size == 0)
        return;
    quote_command(cmd, sizeof cmd, s->label ? s->label : s->command);
    int n = snprintf(msg, size, "%sadapter '%s': ", s->label ? "" : "exec ", cmd);
    if (n < 0 || (size_t)n >= size)
        return;
    va_start(ap, fmt);
    vsnprintf(msg + n, size - (size_t)n, fmt, ap);
    va_end(ap);
    if (with_stderr)
        append_stderr(&s->p, msg, size);
}
