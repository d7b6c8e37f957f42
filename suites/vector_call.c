/* vector_call.c: one guarded kernel call of the vector suite, and its findings.
 *
 * The output lies between two canary regions of GS_V_GUARD bytes filled with a pattern that
 * varies with the byte's offset (so no constant a kernel stores, such as a NaN or 0, matches
 * a whole element of it); the input is copied in fresh for every call and compared with the
 * copy afterwards.  Both buffers have room for GS_V_GUARD bytes on either side at every
 * offset used, so a kernel that writes past the end (mutants' writes_yn.f32 stores y[n])
 * corrupts only canaries.  The canary regions go to the kernel as the call's y slack: an
 * isolated kernel (docs/design.md section 10) sees them around its copy of y, and its guard pages
 * catch what lands further away, and its x is read-only (GC_E_FAULT: ctx.c records
 * out_of_bounds_write or input_modified; the write never reaches x or the canaries here, so
 * this call's own comparisons cannot report it a second time). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vector_internal.h"

/* the canary byte at offset j from the start of a guarded region: odd steps of 37 mod 256
 * visit every byte value, and 0xa5 keeps the first bytes away from 0x00 and 0xff */
static unsigned char pattern(size_t j)
{
    return (unsigned char)(0xa5u + 37u * (unsigned)(j & 0xffu));
}

static void fill(unsigned char *p, size_t from, size_t to)
{
    for (size_t j = from; j < to; j++)
        p[j] = pattern(j);
}

int gs_vsame(enum geluref_dtype dt, uint64_t a, uint64_t b)
{
    return a == b || (gs_is_nan(dt, a) && gs_is_nan(dt, b));
}

static void bits_text(char *buf, size_t size, enum geluref_dtype dt, uint64_t b)
{
    geluref_format_bits(buf, size, dt, b);
}

static const enum gs_kind check_kind[GS_N_VCHECKS] = {
    GS_K_POSITION_DEPENDENT, GS_K_ALIGNMENT_DEPENDENT, GS_K_INPLACE_MISMATCH,
    GS_K_LANE_CONTAMINATION, GS_K_NONDETERMINISTIC,   GS_K_OUT_OF_BOUNDS_WRITE,
    GS_K_INPUT_MODIFIED };

void gs_vvalue(struct gs_vstate *v, enum gs_vcheck k, uint64_t x, uint64_t got, uint64_t want,
               const char *fmt, ...)
{
    struct gs_finding f;
    va_list ap;
    memset(&f, 0, sizeof f);
    f.kind = check_kind[k];
    f.region = GS_R_NONE; /* a batch property, not tied to where x lies */
    f.has_x = f.has_got = f.has_want = 1;
    f.x = x;
    f.got = got;
    f.want = want;
    /* score: how far apart the two outputs are, in positions of the dtype */
    if (gs_is_nan(v->dt, got) || gs_is_nan(v->dt, want))
        f.score = INFINITY;
    else
        f.score = fabs((double)(gs_pos(v->dt, got) - gs_pos(v->dt, want)));
    f.ulp = NAN;
    f.abs_err = NAN;
    va_start(ap, fmt);
    vsnprintf(f.detail, sizeof f.detail, fmt, ap);
    va_end(ap);
    gs_findings_add(&v->r->findings, &f);
    v->failures[k]++;
}

/* out_of_bounds_write: the canaries before y (GUARD bytes ending at y) and after y[n-1]
 * (GUARD bytes from y + n elements); score = number of element slots written */
static void check_canaries(struct gs_vstate *v, const unsigned char *y, size_t n,
                           const char *what)
{
    const unsigned char *lo = y - GS_V_GUARD, *hi = y + n * v->elem;
    size_t e = v->elem, slots = 0, near_before = 0, near_after = (size_t)-1;
    for (size_t k = 1; k * e <= GS_V_GUARD; k++) { /* y[-k], nearest first */
        size_t at = GS_V_GUARD - k * e;
        for (size_t j = at; j < at + e; j++)
            if (lo[j] != pattern(j)) {
                slots++;
                if (near_before == 0)
                    near_before = k;
                break;
            }
    }
    for (size_t k = 0; (k + 1) * e <= GS_V_GUARD; k++) { /* y[n+k] */
        size_t at = GS_V_GUARD + n * e + k * e;
        for (size_t j = at; j < at + e; j++)
            if (lo[j] != pattern(j)) {
                slots++;
                if (near_after == (size_t)-1)
                    near_after = k;
                break;
            }
    }
    v->checked[GS_VC_BOUNDS]++;
    if (slots == 0)
        return;
    struct gs_finding f;
    char g[24];
    memset(&f, 0, sizeof f);
    f.kind = GS_K_OUT_OF_BOUNDS_WRITE;
    f.region = GS_R_NONE;
    f.has_got = 1; /* what was written, in the nearest slot */
    f.score = (double)slots;
    f.ulp = NAN;
    f.abs_err = NAN;
    if (near_after != (size_t)-1) {
        f.got = gs_load(v->dt, hi, near_after);
        bits_text(g, sizeof g, v->dt, f.got);
        snprintf(f.detail, sizeof f.detail, "n = %zu (%s): wrote element y[n+%zu] (%s), %zu "
                 "element slots outside y changed", n, what, near_after, g, slots);
    } else {
        f.got = gs_load(v->dt, y - near_before * e, 0);
        bits_text(g, sizeof g, v->dt, f.got);
        snprintf(f.detail, sizeof f.detail, "n = %zu (%s): wrote element y[-%zu] (%s), %zu "
                 "element slots outside y changed", n, what, near_before, g, slots);
    }
    gs_findings_add(&v->r->findings, &f);
    v->failures[GS_VC_BOUNDS]++;
}

/* input_modified: x against the copy it was made from; score = number of elements changed */
static void check_input(struct gs_vstate *v, const unsigned char *x, size_t n, const char *what)
{
    size_t changed = 0, first = 0;
    for (size_t i = 0; i < n; i++)
        if (memcmp(x + i * v->elem, v->xsrc + i * v->elem, v->elem) != 0 && changed++ == 0)
            first = i;
    v->checked[GS_VC_INPUT]++;
    if (changed == 0)
        return;
    struct gs_finding f;
    char a[24], b[24];
    memset(&f, 0, sizeof f);
    f.kind = GS_K_INPUT_MODIFIED;
    f.region = GS_R_NONE;
    f.has_x = f.has_got = 1;
    f.x = gs_load(v->dt, v->xsrc, first);
    f.got = gs_load(v->dt, x, first);
    f.score = (double)changed;
    f.ulp = NAN;
    f.abs_err = NAN;
    bits_text(a, sizeof a, v->dt, f.x);
    bits_text(b, sizeof b, v->dt, f.got);
    snprintf(f.detail, sizeof f.detail, "n = %zu (%s): x[%zu] changed from %s to %s, %zu "
             "elements of x changed", n, what, first, a, b, changed);
    gs_findings_add(&v->r->findings, &f);
    v->failures[GS_VC_INPUT]++;
}

int gs_vcall(struct gs_vstate *v, size_t n, size_t xoff, size_t yoff, int inplace,
             const char *what, uint64_t *out)
{
    size_t bytes = n * v->elem;
    unsigned char *x = v->xmem + GS_V_GUARD + xoff;
    unsigned char *y = inplace ? x : v->ymem + GS_V_GUARD + yoff;
    if (v->failed)
        return 1;
    memcpy(x, v->xsrc, bytes);
    if (inplace) { /* canaries around the data, which is x itself */
        fill(y - GS_V_GUARD, 0, GS_V_GUARD);
        fill(y - GS_V_GUARD, GS_V_GUARD + bytes, 2 * GS_V_GUARD + bytes);
    } else { /* y starts as canary too: the kernel must overwrite all of it */
        fill(y - GS_V_GUARD, 0, 2 * GS_V_GUARD + bytes);
    }
    v->calls++;
    v->points += n;
    /* GC_E_FAULT comes back as GC_OK once ctx.c has made its finding: the outputs are the
     * kernel's, the stray write went to the worker's scratch page, not to x or the canaries */
    enum gc_status st = gs_kernel_eval_ex(v->c, 0, x, y, n, GS_V_GUARD, &v->r->findings);
    if (st != GC_OK) {
        v->failed = 1;
        return 1;
    }
    check_canaries(v, y, n, what);
    if (!inplace)
        check_input(v, x, n, what);
    for (size_t i = 0; i < n && out != NULL; i++)
        out[i] = gs_load(v->dt, y, i);
    return 0;
}
