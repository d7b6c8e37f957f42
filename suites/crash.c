/* Crashes and hangs become crash and timeout findings with the smallest batch that reproduces
 * them (crash.h; docs/design.md section 10). */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "crash.h"
#include "memlimit.h"

/* What one try of a sub-batch gave. */
enum try_result { TRY_SAME, TRY_OTHER, TRY_CAPPED, TRY_ABORT };

struct bisect {
    const struct gc_kernel *k;
    const unsigned char *x; /* the original batch */
    unsigned char *xw, *yw; /* scratch: the sub-batch copied to the start (64-byte aligned) */
    enum gc_status st;
    struct gc_eval_extra ex;
    struct gs_crash *c;
};

static int restart(struct bisect *b)
{
    b->c->restarts++;
    if (gc_adapter_restart(b->k->adapter, b->c->msg, sizeof b->c->msg) == GC_OK)
        return 0;
    b->c->restart_failed = 1;
    return -1;
}

/* Evaluates x[off, off + m) on the scratch buffers; restarts after a death or a stall. */
static enum try_result try_batch(struct bisect *b, size_t off, size_t m)
{
    struct gs_crash *c = b->c;
    struct gc_eval_extra ex;
    char msg[512];

    if (c->evals >= GS_CRASH_MAX_EVALS || c->timeouts >= GS_CRASH_MAX_TIMEOUTS) {
        c->capped = 1;
        return TRY_CAPPED;
    }
    size_t w = b->k->elem_size;
    if (m)
        memcpy(b->xw, b->x + off * w, m * w);
    memset(&ex, 0, sizeof ex);
    enum gc_status st = gc_kernel_eval_ex(b->k, b->xw, b->yw, m, &ex, msg, sizeof msg);
    c->evals++;
    c->timeouts += st == GC_E_TIMEOUT;
    if ((st == GC_E_DIED || st == GC_E_TIMEOUT) && restart(b) != 0)
        return TRY_ABORT;
    if (st != b->st)
        return TRY_OTHER;
    if (st == GC_E_DIED && (ex.signal != b->ex.signal || ex.exit_status != b->ex.exit_status ||
                            !ex.oom[0] != !b->ex.oom[0]))
        return TRY_OTHER;
    return TRY_SAME;
}

void gs_crash_bisect(const struct gc_kernel *k, const void *x, size_t n, enum gc_status st,
                     const struct gc_eval_extra *ex, struct gs_crash *c)
{
    struct bisect b = { k, x, NULL, NULL, st, { 0 }, c };

    memset(c, 0, sizeof c[0]);
    c->count = n;
    if (ex)
        b.ex = *ex;
    if (restart(&b) != 0)
        return;
    size_t bytes = (n ? n : 1) * k->elem_size;
    b.xw = gs_buf_alloc(bytes);
    b.yw = gs_buf_alloc(bytes);
    c->nomem = !b.xw || !b.yw;
    if (!c->nomem && try_batch(&b, 0, n) == TRY_SAME) {
        c->reproduced = 1;
        /* invariant: x[offset, offset + count) fails the same way */
        while (c->count > 1) {
            size_t h = c->count / 2;
            enum try_result r = try_batch(&b, c->offset, h);
            if (r == TRY_SAME) {
                c->count = h;
                continue;
            }
            if (r == TRY_OTHER)
                r = try_batch(&b, c->offset + h, c->count - h);
            if (r != TRY_SAME)
                break; /* capped, a restart failed, or neither half fails on its own */
            c->offset += h;
            c->count -= h;
        }
    }
    gs_buf_free(b.xw);
    gs_buf_free(b.yw);
}

/* "killed by SIGSEGV", "exited with status 3", "no reply within the batch timeout", and for a
 * process out of memory "ran out of memory: the worker's --memory-limit of 4 GiB (RLIMIT_AS);
 * killed by SIGSEGV" */
static void how_text(char *buf, size_t size, enum gc_status st, const struct gc_eval_extra *ex)
{
    char nb[32];
    int sh = ex->exit_status > 128 ? ex->exit_status - 128 : 0; /* a shell's 128 + N */
    const char *shn = sh ? gc_signal_name(sh, nb, sizeof nb) : NULL;

    if (st == GC_E_DIED && ex->oom[0]) {
        int n = snprintf(buf, size, "ran out of memory: %.96s; ", ex->oom);
        if (n > 0 && (size_t)n < size) {
            struct gc_eval_extra plain = *ex;
            plain.oom[0] = '\0';
            how_text(buf + n, size - (size_t)n, st, &plain);
        }
    } else if (st == GC_E_TIMEOUT)
        snprintf(buf, size, "no reply within the batch timeout");
    else if (ex->signal)
        snprintf(buf, size, "killed by %s", gc_signal_name(ex->signal, nb, sizeof nb));
    else if (shn && strncmp(shn, "signal ", 7) != 0)
        snprintf(buf, size, "exited with status %d (128 + %s: a shell's report of that signal)",
                 ex->exit_status, shn);
    else
        snprintf(buf, size, "exited with status %d", ex->exit_status);
}

/* detail = head + ": " + msg, cut to the 199 characters a detail holds ("..." marks a cut) */
static void set_detail(char *detail, size_t size, const char *head, const char *msg)
{
    int n = snprintf(detail, size, "%s%s%s", head, msg[0] ? ": " : "", msg);
    if (n >= 0 && (size_t)n >= size)
        memcpy(detail + size - 4, "...", 4);
}

enum gc_status gs_crash_record(const struct gs_ctx *ctx, unsigned t, const void *x, size_t n,
                               enum gc_status st, const struct gc_eval_extra *ex,
                               const char *msg, struct gs_findings *f)
{
    const struct gc_kernel *k = ctx->t->k[t];
    struct gs_finding fd = { .kind = st == GC_E_TIMEOUT ? GS_K_TIMEOUT : GS_K_CRASH,
                             .region = GS_R_NONE, .ulp = NAN, .abs_err = NAN };
    struct gs_crash c;
    char how[160], head[400];

    how_text(how, sizeof how, st, ex);
    gs_crash_bisect(k, x, n, st, ex, &c);
    if (c.restart_failed) {
        snprintf(head, sizeof head, "%s on a batch of %zu; the restart failed (%.150s)", how, n,
                 c.msg);
    } else if (c.nomem) {
        snprintf(head, sizeof head, "%s on a batch of %zu; not bisected: out of memory", how, n);
    } else if (!c.reproduced) {
        snprintf(head, sizeof head, "%s on a batch of %zu; not reproducible: the same batch did "
                 "not fail that way after a restart", how, n);
    } else if (c.count == 1) {
        snprintf(head, sizeof head, "%s; reproduced by 1 input, x[%zu] of a batch of %zu "
                 "(%u evals, %u restarts%s)", how, c.offset, n, c.evals, c.restarts,
                 c.capped ? ", capped" : "");
    } else {
        snprintf(head, sizeof head, "%s; reproduced by %zu inputs, x[%zu..%zu] of a batch of %zu "
                 "(%u evals, %u restarts%s)", how, c.count, c.offset, c.offset + c.count - 1, n,
                 c.evals, c.restarts,
                 c.capped ? ", bisection capped" : "; neither half fails alone");
    }
    if (n > 0) { /* the input that starts the smallest failing batch */
        fd.has_x = 1;
        fd.x = gs_load(ctx->dt, x, c.offset);
        fd.region = gs_region_of(ctx->dt, fd.x);
    }
    set_detail(fd.detail, sizeof fd.detail, head, msg);
    gs_findings_add(f, &fd);
    return st;
}

/* s as one shell word: as is when every byte is plain, else in single quotes ('\'' for ').
 * Returns the bytes written (0 when it does not fit: then buf is unusable). */
static size_t shell_word(char *buf, size_t size, const char *s)
{
    static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                "0123456789_./:=,+-@%";
    size_t o = 0;
    int quote = !s[0] || strspn(s, plain) != strlen(s);

    if (quote && o + 1 < size)
        buf[o++] = '\'';
    for (; *s && o + 5 < size; s++) {
        if (quote && *s == '\'') {
            memcpy(buf + o, "'\\''", 4);
            o += 4;
        } else {
            buf[o++] = (unsigned char)*s < 0x20 ? ' ' : *s;
        }
    }
    if (*s || o + 2 > size)
        return 0;
    if (quote)
        buf[o++] = '\'';
    buf[o] = '\0';
    return o;
}

void gs_crash_commands(json_t *suite, const char *spec, const char *kernel,
                       enum geluref_dtype dt, unsigned long long memory_limit)
{
    size_t i;
    json_t *f;

    json_array_foreach(json_object_get(suite, "findings"), i, f) {
        const char *kind = json_string_value(json_object_get(f, "kind"));
        uint64_t x;
        char cmd[4096], hex[48];
        if (!kind || (strcmp(kind, "crash") != 0 && strcmp(kind, "timeout") != 0) ||
            gs_bits_from_json(json_object_get(f, "x"), &x) != 0)
            continue;
        size_t o = (size_t)snprintf(cmd, sizeof cmd, "gelucheck run --adapter ");
        size_t w = shell_word(cmd + o, sizeof cmd - o, spec ? spec : "");
        if (w == 0)
            continue;
        o += w;
        if (memory_limit != GC_MEM_DEFAULT) /* the run's limit, where it was not the default */
            o += (size_t)snprintf(cmd + o, sizeof cmd - o, " --memory-limit %llu", memory_limit);
        if (o >= sizeof cmd)
            continue;
        o += (size_t)snprintf(cmd + o, sizeof cmd - o, " --kernel ");
        if (o >= sizeof cmd || (w = shell_word(cmd + o, sizeof cmd - o, kernel)) == 0)
            continue;
        o += w;
        if (gs_is_nan(dt, x) || gs_is_inf(dt, x)) { /* --range takes finite numbers only */
            snprintf(cmd + o, sizeof cmd - o, " --suite special");
        } else {
            geluref_format_hex(hex, sizeof hex, dt, x); /* exact, and strtod reads it back */
            snprintf(cmd + o, sizeof cmd - o, " --suite ulp --range %s:%s", hex, hex);
        }
        json_object_set_new(f, "command", json_string(cmd));
    }
}
