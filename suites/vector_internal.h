/* Private to the vector suite (vector.c, vector_call.c): the state of one run, and one kernel
 * call with canaries around the output and a check that the input was left alone. */
#ifndef GS_VECTOR_INTERNAL_H
#define GS_VECTOR_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "suites.h"

/* Canary bytes before and after every output buffer: at least the widest vector store
 * (AVX-512: 64 bytes), doubled so that a store one full vector past the end is still seen. */
#define GS_V_GUARD 128
/* Headroom for misaligned pointers: byte offsets up to 64 from a 64-byte boundary. */
#define GS_V_SLACK 64
/* The largest batch: the exec protocol's limit (docs/design.md section 5.2). */
#define GS_V_MAX_N 65536

/* The checks, one per finding kind of the suite (fpenv_modified is counted by ctx.c). */
enum gs_vcheck {
    GS_VC_POSITION = 0,  /* position_dependent */
    GS_VC_ALIGNMENT,     /* alignment_dependent */
    GS_VC_INPLACE,       /* inplace_mismatch */
    GS_VC_LANE,          /* lane_contamination */
    GS_VC_REPEAT,        /* nondeterministic */
    GS_VC_BOUNDS,        /* out_of_bounds_write */
    GS_VC_INPUT,         /* input_modified */
    GS_N_VCHECKS
};

struct gs_vstate {
    struct gs_ctx *c;
    struct gs_suite_result *r;
    enum geluref_dtype dt;
    size_t elem;
    uint64_t *pool;          /* finite inputs every batch draws from */
    size_t n_pool;
    uint64_t *base;          /* base[i]: the kernel's output for pool[i] in a call of length 1 */
    unsigned char *xmem;     /* 64-byte aligned: GUARD + SLACK + MAX_N elements + GUARD */
    unsigned char *ymem;
    unsigned char *xsrc;     /* the batch's inputs, element-packed (what vcall copies in) */
    uint64_t *ref;           /* a batch's outputs kept for comparison */
    uint64_t *got;
    uint64_t calls;          /* kernel calls */
    uint64_t points;         /* elements evaluated */
    int failed;              /* an eval failed: the suite stops (verdict error) */
    int faulted;             /* a guard page caught a stray write (ctx.c made the finding and
                                restarted the worker): the suite stops, every later call
                                would fault again (verdict fail, by the finding) */
    int nondet;              /* outputs not reproducible: kernel-vs-kernel values not compared */
    uint64_t checked[GS_N_VCHECKS], failures[GS_N_VCHECKS];
};

/* One call of the kernel on the n inputs of v->xsrc, x placed xoff bytes and y yoff bytes
 * after a 64-byte boundary (multiples of the element size), or in place (x == y, at xoff).
 * Fills canaries around y, checks them and x afterwards (out_of_bounds_write,
 * input_modified findings, described with what), and copies the n outputs into out.
 * Returns 0, or nonzero when the kernel failed (v->failed set; ctx.c recorded why). */
int gs_vcall(struct gs_vstate *v, size_t n, size_t xoff, size_t yoff, int inplace,
             const char *what, uint64_t *out);

/* Two outputs are the same: identical bits, or both NaN (payloads never judged). */
int gs_vsame(enum geluref_dtype dt, uint64_t a, uint64_t b);

/* Records a value finding of check k (kind from the check): x, got, want (the baseline);
 * score = distance in positions between got and want (+inf when one is NaN). */
void gs_vvalue(struct gs_vstate *v, enum gs_vcheck k, uint64_t x, uint64_t got, uint64_t want,
               const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

#endif
