/* Fuzz target: the host's check of a plug-in table (adapters/core/validate.c, docs/design.md 5.1)
 * and, for a table it accepts, the copy into a struct gc_adapter, open() and eval
 * (adapters/core/plugin.c).  The input is not a file but a recipe (fuzz_plugin_build.c): a
 * struct gelucheck_plugin and its kernels[] are built from it, each in a heap block of exactly
 * the bytes the table claims (struct_size; n_kernels x kernel_size), so that AddressSanitizer
 * sees any read the contract does not allow: past struct_size, past kernels[n_kernels - 1],
 * any read of kernels[] when the header is already wrong.  Pointers are never fuzz bytes:
 * each is NULL, a string of the recipe (any bytes, NUL-terminated) or a function of this file.
 *
 * Checked, besides crashes, leaks and undefined behaviour: the host accepts exactly the
 * tables a model of the contract, written apart from it, accepts (fuzz_plugin_build.c); a
 * refusal is one line that starts with the "who" it was given; what it accepts is copied
 * faithfully (names, descriptions, func, dtype, element size, the table's name and version),
 * its names valid and unique; eval of kernel j calls kernels[j].eval (the stride is
 * honoured); close() runs once per open() that needs it; a failing open or eval gives one
 * line. */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "fuzz.h"
#include "fuzz_plugin.h"

#define T "fuzz_plugin"
#define WHO "plug-in 'fuzz.so'"

/* ---- the functions a built table points to; what they do is set by the recipe ---- */
static struct fp_behaviour beh;
static int ctx_marker;    /* the ctx open() hands out */
static int evals[2];      /* calls of fp_eval_a, fp_eval_b */
static int opened_ctx;    /* close() calls due and not yet made */

/* plugin.h: a successful open() is closed, whether or not it set *ctx (NULL then); a failed
 * one only when it set *ctx */
int fp_open(void **ctx, const char *options)
{
    (void)options;
    if (beh.open_sets_ctx)
        *ctx = &ctx_marker;
    opened_ctx += beh.open_sets_ctx || beh.open_rc == 0;
    return beh.open_rc;
}

void fp_close(void *ctx)
{
    if (ctx != (beh.open_sets_ctx ? (void *)&ctx_marker : NULL))
        fuzz_fail(T, "close() got a ctx open() did not set");
    opened_ctx--;
}

const char *fp_last_error(void *ctx)
{
    (void)ctx;
    return beh.last_error;
}

int fp_eval_a(void *ctx, const void *x, void *y, size_t n)
{
    (void)ctx;
    memcpy(y, x, n * 8 > 16 ? 16 : n * 8);
    evals[0]++;
    return beh.eval_rc;
}

int fp_eval_b(void *ctx, const void *x, void *y, size_t n)
{
    (void)ctx;
    memcpy(y, x, n * 8 > 16 ? 16 : n * 8);
    evals[1]++;
    return beh.eval_rc;
}

/* ---- checks on what the host accepted ---- */
static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void check_copy(const struct fp_table *t, const struct gc_adapter *a)
{
    const struct gelucheck_plugin *p = t->p;

    if (a->n_kernels != p->n_kernels)
        fuzz_fail(T, "accepted %zu kernels, the table has %zu", a->n_kernels, p->n_kernels);
    if (strcmp(a->name, p->name) != 0 || strcmp(a->version, p->version) != 0)
        fuzz_fail(T, "name or version not copied");
    char **names = malloc(a->n_kernels * sizeof *names);
    if (!names)
        return;
    for (size_t i = 0; i < a->n_kernels; i++) {
        const struct gc_kernel *k = &a->kernels[i];
        const struct gelucheck_kernel *pk = gc_kernel_at(p, i);
        if (!fp_model_name_ok(k->name) || strcmp(k->name, pk->name) != 0)
            fuzz_fail(T, "kernel %zu: accepted name is not the table's or not a name", i);
        if (strcmp(k->description, pk->description ? pk->description : "") != 0)
            fuzz_fail(T, "kernel %zu: description not copied", i);
        if ((unsigned)k->func != pk->func || k->func < GELUREF_GELU || k->func > GELUREF_ERFC ||
            (unsigned)k->dtype != pk->dtype || k->dtype < GELUREF_F64 ||
            k->dtype > GELUREF_BF16 || k->elem_size != gc_dtype_size(k->dtype) ||
            k->elem_size == 0 || k->index != i || k->adapter != a)
            fuzz_fail(T, "kernel %zu: func %u dtype %u elem %zu index %zu accepted or copied "
                         "wrong", i, (unsigned)k->func, (unsigned)k->dtype, k->elem_size,
                      k->index);
        names[i] = k->name;
    }
    qsort(names, a->n_kernels, sizeof *names, cmp_str);
    for (size_t i = 1; i < a->n_kernels; i++)
        if (strcmp(names[i - 1], names[i]) == 0)
            fuzz_fail(T, "accepted a duplicate name '%s'", names[i]);
    free(names);
}

/* eval of kernel j must call the eval at kernels[j] (found by the plug-in's stride). */
static void check_eval(const struct fp_table *t, const struct gc_adapter *a, size_t j)
{
    double x[2] = { 1.0, -2.0 }, y[2];
    char msg[1024];
    int want = gc_kernel_at(t->p, j)->eval == fp_eval_a ? 0 : 1;
    int before = evals[want];

    enum gc_status st = gc_kernel_eval(&a->kernels[j], x, y, 2, msg, sizeof msg);
    if (evals[want] != before + 1)
        fuzz_fail(T, "eval of kernel %zu did not call kernels[%zu].eval", j, j);
    if ((st == GC_OK) != (beh.eval_rc == 0))
        fuzz_fail(T, "eval returned %d, status %d", beh.eval_rc, (int)st);
    if (st != GC_OK)
        fuzz_check_line(T, "eval", msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fp_table t;
    struct gc_adapter *a = NULL;
    char msg[2048];

    if (fp_build(&t, data, size, &beh) != 0)
        return 0; /* out of memory */
    int want = fp_model_accepts(t.p);
    msg[0] = '\0';
    enum gc_status st = gc_plugin_validate(t.p, WHO, msg, sizeof msg);
    if ((st == GC_OK) != want)
        fuzz_fail(T, "the host %s a table the contract %s (%s)", st == GC_OK ? "accepts" :
                  "refuses", want ? "allows" : "forbids", st == GC_OK ? "no message" : msg);
    if (st != GC_OK) {
        fuzz_check_line(T, "validate", msg);
        if (strncmp(msg, WHO ": ", strlen(WHO) + 2) != 0)
            fuzz_fail(T, "message does not start with who: '%s'", msg);
        fp_release(&t);
        return 0;
    }
    opened_ctx = 0;
    st = gc_plugin_adopt(t.p, NULL, GC_ADAPTER_PLUGIN, NULL, WHO, "fuzz.so", NULL, NULL, &a,
                         msg, sizeof msg);
    int open_fails = t.p->open && beh.open_rc != 0;
    if (st == GC_OK) {
        if (open_fails)
            fuzz_fail(T, "open() returned %d and the adapter was kept", beh.open_rc);
        check_copy(&t, a);
        size_t n = a->n_kernels;
        check_eval(&t, a, 0);
        check_eval(&t, a, n - 1);
        check_eval(&t, a, n / 2);
        gc_adapter_close(a);
    } else {
        fuzz_check_line(T, "open", msg);
        if (st != GC_E_NOMEM && !open_fails)
            fuzz_fail(T, "open() succeeded or is NULL and the adapter was refused: '%s'", msg);
    }
    /* close() once per ctx open() set (plugin.h), when there is a close() */
    if (t.p->close && opened_ctx != 0)
        fuzz_fail(T, "a ctx open() set was not closed (or closed twice): %d", opened_ctx);
    fp_release(&t);
    return 0;
}
