/* fuzz_plugin: a plug-in table from a recipe of fuzz bytes, and the model of docs/design.md 5.1
 * that the host's check is compared with (fuzz_plugin.h).
 *
 * The recipe, byte by byte (a byte past the end reads 0, and 0 always picks the valid
 * default, so that a short input is a good table and mutations break one thing at a time):
 *   abi_version, struct_size, kernel_size: pick32 (0: the right value; 1..k: a table of
 *     boundary values; else 4 raw bytes)
 *   name, version: pick_str (0: a default; 1: NULL; 2: ""; 3: 128 letters; 4: 129 letters;
 *     5: the previous kernel's name; c >= 6: the next c - 6 bytes, any bytes, NUL-terminated)
 *   one byte of switches: open, close, last_error NULL; kernels NULL; open fails; open leaves
 *     ctx unset; eval fails
 *   last_error's text: pick_str
 *   n_kernels: 0: 3; 1..7 boundary values (0, 100000, 100001, SIZE_MAX, 2^32, 8 raw bytes,
 *     2 raw bytes); else the byte - 7
 *   then per kernel: name, description (pick_str), func, dtype (0: valid; 1: 4 raw bytes;
 *     else the byte - 2), eval (0: fp_eval_a/b alternately; 1: NULL; else a or b).
 * A table whose header the host must accept is walked: then n_kernels is cut to what
 * FP_MAX_WALK bytes of kernels[] hold, so the buffer stays bounded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "fuzz_plugin.h"

#define FP_MAX_WALK (64u << 10) /* bytes of kernels[] at most: 2048 ABI 1 kernels */
#define FP_NAME_MAX 128         /* the contract's longest name */
#define FP_ABI1_PLUGIN (offsetof(struct gelucheck_plugin, kernels) + sizeof(void *))
#define FP_ABI1_KERNEL (offsetof(struct gelucheck_kernel, eval) + sizeof(void (*)(void)))
#define FP_MAX_SIZE 4096u       /* struct_size and kernel_size at most (docs/design.md 5.1: the
                                   host's sanity limit GC_MAX_STRUCT_SIZE) */
#define FP_MAX_KERNELS 100000u  /* n_kernels at most (the host's GC_MAX_KERNELS) */

struct reader {
    const uint8_t *d;
    size_t n, i;
    char *pool;
    size_t used, cap;
};

static uint8_t u8(struct reader *r) { return r->i < r->n ? r->d[r->i++] : 0; }

static uint64_t raw(struct reader *r, int bytes)
{
    uint64_t v = 0;
    for (int k = 0; k < bytes; k++)
        v |= (uint64_t)u8(r) << (8 * k);
    return v;
}

static uint32_t pick32(struct reader *r, uint32_t good, const uint32_t *edge, size_t n_edge)
{
    uint8_t c = u8(r);
    return c == 0 ? good : c <= n_edge ? edge[c - 1] : (uint32_t)raw(r, 4);
}

/* A string of len bytes from src (or len copies of fill when src is NULL) in the pool. */
static const char *keep(struct reader *r, const void *src, size_t len, char fill)
{
    if (r->used + len + 1 > r->cap)
        return "pool-full"; /* cannot happen: fp_build sizes the pool */
    char *s = r->pool + r->used;
    if (src)
        memcpy(s, src, len);
    else
        memset(s, fill, len);
    s[len] = '\0';
    r->used += len + 1;
    return s;
}

static const char *pick_str(struct reader *r, const char *dflt, const char *prev)
{
    uint8_t c = u8(r);
    switch (c) {
    case 0: return dflt;
    case 1: return NULL;
    case 2: return keep(r, NULL, 0, 0);
    case 3: return keep(r, NULL, FP_NAME_MAX, 'a');
    case 4: return keep(r, NULL, FP_NAME_MAX + 1, 'a');
    case 5: return prev ? prev : dflt;
    }
    size_t len = c - 6u, avail = r->i < r->n ? r->n - r->i : 0;
    len = len < avail ? len : avail;
    const char *s = keep(r, r->d + r->i, len, 0);
    r->i += len;
    return s;
}

static uint32_t pick_enum(struct reader *r, uint32_t good)
{
    uint8_t c = u8(r);
    return c == 0 ? good : c == 1 ? (uint32_t)raw(r, 4) : c - 2u;
}

/* Whether the host must walk kernels[]: the header as the model allows it. */
static int header_ok(const struct gelucheck_plugin *p, uint32_t ss)
{
    return p->abi_version >= 1 && ss >= FP_ABI1_PLUGIN && ss <= FP_MAX_SIZE &&
           p->kernel_size >= FP_ABI1_KERNEL && p->kernel_size <= FP_MAX_SIZE &&
           p->kernel_size % _Alignof(struct gelucheck_kernel) == 0 && p->name && p->version &&
           p->n_kernels >= 1 && p->n_kernels <= FP_MAX_KERNELS && p->kernels;
}

static size_t pick_count(struct reader *r)
{
    static const uint64_t edge[] = { 0, FP_MAX_KERNELS, FP_MAX_KERNELS + 1, SIZE_MAX,
                                     UINT64_C(1) << 32 };
    uint8_t c = u8(r);
    if (c == 0)
        return 3;
    if (c <= 5)
        return (size_t)edge[c - 1];
    if (c == 6)
        return (size_t)raw(r, 8);
    if (c == 7)
        return (size_t)raw(r, 2);
    return c - 7u;
}

static void build_kernels(struct reader *r, char *buf, size_t n, size_t ks, size_t bytes)
{
    const char *prev = NULL;
    for (size_t i = 0; i < n; i++) {
        struct gelucheck_kernel k;
        char name[24];
        snprintf(name, sizeof name, "k%zu", i);
        k.name = pick_str(r, keep(r, name, strlen(name), 0), prev);
        k.description = pick_str(r, "x * Phi(x), the fuzz table's", NULL);
        k.func = pick_enum(r, 1 + (uint32_t)(i % 9));
        k.dtype = pick_enum(r, 1 + (uint32_t)(i % 4));
        uint8_t e = u8(r);
        k.eval = e == 1 ? NULL : (e == 0 ? i % 2 : e % 2) ? fp_eval_b : fp_eval_a;
        prev = k.name;
        size_t at = i * ks, len = ks < sizeof k ? ks : sizeof k;
        if (at >= bytes)
            break;
        len = len < bytes - at ? len : bytes - at;
        memcpy(buf + at, &k, len);
        if (ks > sizeof k && at + sizeof k < bytes) /* the appended members of a later ABI */
            memset(buf + at + sizeof k, 0xa5, (ks < bytes - at ? ks : bytes - at) - sizeof k);
    }
}

int fp_build(struct fp_table *t, const uint8_t *data, size_t size, struct fp_behaviour *b)
{
    static const uint32_t abi_edge[] = { 0, 2, UINT32_MAX };
    const uint32_t ss_edge[] = { 0, 8, FP_ABI1_PLUGIN - 8, FP_ABI1_PLUGIN - 1, FP_ABI1_PLUGIN + 8,
                                 FP_MAX_SIZE, FP_MAX_SIZE + 1, UINT32_MAX };
    const uint32_t ks_edge[] = { 0, FP_ABI1_KERNEL - 8, FP_ABI1_KERNEL + 1, FP_ABI1_KERNEL + 4,
                                 FP_ABI1_KERNEL + 8, FP_MAX_SIZE, FP_MAX_SIZE + 8, UINT32_MAX };
    struct gelucheck_plugin P;
    memset(t, 0, sizeof *t);
    memset(&P, 0, sizeof P);
    /* every string at most 255 bytes of input or 129 letters, two per kernel */
    struct reader r = { data, size, 0, NULL, 0, 0 };
    r.cap = size + (2 * (FP_MAX_WALK / FP_ABI1_KERNEL + 8) + 8) * (FP_NAME_MAX + 24);
    if (!(t->pool = r.pool = malloc(r.cap)))
        return -1;

    P.abi_version = pick32(&r, 1, abi_edge, sizeof abi_edge / sizeof abi_edge[0]);
    uint32_t ss = pick32(&r, sizeof P, ss_edge, sizeof ss_edge / sizeof ss_edge[0]);
    P.struct_size = ss;
    P.kernel_size = pick32(&r, sizeof(struct gelucheck_kernel), ks_edge,
                           sizeof ks_edge / sizeof ks_edge[0]);
    P.name = pick_str(&r, "fuzzkernels", NULL);
    P.version = pick_str(&r, "1.0", NULL);
    uint8_t sw = u8(&r);
    P.open = sw & 1 ? NULL : fp_open;
    P.close = sw & 2 ? NULL : fp_close;
    P.last_error = sw & 4 ? NULL : fp_last_error;
    b->open_rc = sw & 16 ? 1 + (sw >> 7) : 0;
    b->open_sets_ctx = !(sw & 32);
    b->eval_rc = sw & 64 ? -1 : 0;
    b->last_error = pick_str(&r, "the fuzz table failed", NULL);
    P.n_kernels = pick_count(&r);
    P.kernels = (const void *)&P; /* for header_ok; set below */
    if (sw & 8)
        P.kernels = NULL;
    int walk = header_ok(&P, ss);
    size_t ks = P.kernel_size <= FP_MAX_SIZE ? P.kernel_size : 0;
    if (walk && P.n_kernels > FP_MAX_WALK / ks)
        P.n_kernels = FP_MAX_WALK / ks;
    size_t n = walk ? P.n_kernels : P.n_kernels < 4 ? P.n_kernels : 4;
    size_t bytes = n * ks;
    if (P.kernels) {
        if (!(t->kernels = malloc(bytes ? bytes : 1))) {
            fp_release(t);
            return -1;
        }
        build_kernels(&r, t->kernels, n, ks, bytes);
        P.kernels = t->kernels;
    }
    /* the struct in exactly the bytes it claims (8 at least: abi_version and struct_size) */
    size_t ps = ss < 8 ? 8 : ss <= FP_MAX_SIZE ? ss : sizeof P;
    if (!(t->p = malloc(ps))) {
        fp_release(t);
        return -1;
    }
    memcpy(t->p, &P, ps < sizeof P ? ps : sizeof P);
    if (ps > sizeof P)
        memset((char *)t->p + sizeof P, 0x5a, ps - sizeof P);
    return 0;
}

void fp_release(struct fp_table *t)
{
    free(t->p);
    free(t->kernels);
    free(t->pool);
    memset(t, 0, sizeof *t);
}

int fp_model_name_ok(const char *s)
{
    size_t n = s ? strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                             "0123456789_.-") : 0;
    return s && n >= 1 && n <= FP_NAME_MAX && s[n] == '\0';
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int fp_model_accepts(const struct gelucheck_plugin *p)
{
    if (p->abi_version < 1 || p->struct_size < FP_ABI1_PLUGIN ||
        !header_ok(p, p->struct_size))
        return 0;
    size_t n = p->n_kernels;
    const char **names = malloc(n * sizeof *names);
    int ok = names != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        const struct gelucheck_kernel *k =
            (const void *)((const char *)p->kernels + i * p->kernel_size);
        ok = fp_model_name_ok(k->name) && k->func >= 1 && k->func <= 9 && k->dtype >= 1 &&
             k->dtype <= 4 && k->eval;
        names[i] = k->name;
    }
    if (ok)
        qsort(names, n, sizeof *names, cmp_name);
    for (size_t i = 1; ok && i < n; i++)
        ok = strcmp(names[i - 1], names[i]) != 0;
    free(names);
    return ok;
}
