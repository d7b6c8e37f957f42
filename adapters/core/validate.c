/* The check of a plug-in table (docs/design.md 5.1), shared by built-ins and dlopen'ed plug-ins:
 * everything is checked before anything is used, in member order, and the first problem is
 * reported naming who handed the table over, the field, and the kernel's index and name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* struct_size / kernel_size: at least ABI 1's, at most GC_MAX_STRUCT_SIZE. */
static int check_size(const char *who, const char *field, const char *type, uint32_t v,
                      size_t abi1, char *msg, size_t size)
{
    if (v < abi1) {
        gc_msg(msg, size, "%s: %s %u is smaller than ABI 1's struct %s (%zu bytes)", who,
               field, (unsigned)v, type, abi1);
        return -1;
    }
    if (v > GC_MAX_STRUCT_SIZE) {
        gc_msg(msg, size, "%s: %s %u is absurd (more than %u bytes)", who, field, (unsigned)v,
               GC_MAX_STRUCT_SIZE);
        return -1;
    }
    return 0;
}

static enum gc_status check_header(const struct gelucheck_plugin *p, const char *who, char *msg,
                                   size_t size)
{
    if (p->abi_version < 1) {
        gc_msg(msg, size, "%s: abi_version %u is not a plug-in ABI version (1 or later)", who,
               (unsigned)p->abi_version);
        return GC_E_INVALID;
    }
    if (check_size(who, "struct_size", "gelucheck_plugin", p->struct_size, GC_ABI1_PLUGIN_SIZE,
                   msg, size) ||
        check_size(who, "kernel_size", "gelucheck_kernel", p->kernel_size, GC_ABI1_KERNEL_SIZE,
                   msg, size))
        return GC_E_INVALID;
    if (p->kernel_size % _Alignof(struct gelucheck_kernel) != 0) {
        gc_msg(msg, size, "%s: kernel_size %u is not a multiple of the alignment of struct "
               "gelucheck_kernel (%zu): no C array has that stride", who,
               (unsigned)p->kernel_size, (size_t)_Alignof(struct gelucheck_kernel));
        return GC_E_INVALID;
    }
    const char *bad = !p->name ? "name is NULL" : !p->version ? "version is NULL" : NULL;
    if (bad) {
        gc_msg(msg, size, "%s: %s", who, bad);
        return GC_E_INVALID;
    }
    if (p->n_kernels == 0 || p->n_kernels > GC_MAX_KERNELS) {
        gc_msg(msg, size, "%s: n_kernels %zu is %s", who, p->n_kernels,
               p->n_kernels ? "absurd (more than 100000)" : "not allowed (no kernels offered)");
        return GC_E_INVALID;
    }
    if (!p->kernels) {
        gc_msg(msg, size, "%s: kernels is NULL (n_kernels is %zu)", who, p->n_kernels);
        return GC_E_INVALID;
    }
    return GC_OK;
}

/* "gelu=1, gelu_tanh=2, ..., erfc=9": the funcs of the ABI, from the reference's names. */
static const char *func_choices(char *buf, size_t size)
{
    size_t len = 0;

    buf[0] = '\0';
    for (int f = GELUCHECK_GELU; f <= GELUCHECK_ERFC && len < size; f++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s=%d", f > 1 ? ", " : "",
                                geluref_func_name((enum geluref_func)f), f);
    return buf;
}

static enum gc_status check_kernel(const struct gelucheck_kernel *k, size_t i, const char *who,
                                   char *msg, size_t size)
{
    char name[80], funcs[160];

    if (!gc_valid_kernel_name(k->name)) {
        if (k->name)
            gc_msg(msg, size, "%s: kernel %zu: name '%s' is not a kernel name "
                   "([A-Za-z0-9_.-]+, 1 to 128 characters)", who, i,
                   gc_safe(name, sizeof name, k->name, 60));
        else
            gc_msg(msg, size, "%s: kernel %zu: name is NULL", who, i);
        return GC_E_INVALID;
    }
    if (k->func < GELUCHECK_GELU || k->func > GELUCHECK_ERFC)
        gc_msg(msg, size, "%s: kernel %zu '%s': func %u is not one of %s", who, i, k->name,
               (unsigned)k->func, func_choices(funcs, sizeof funcs));
    else if (k->dtype < GELUCHECK_F64 || k->dtype > GELUCHECK_BF16)
        gc_msg(msg, size, "%s: kernel %zu '%s': dtype %u is not one of f64=1, f32=2, f16=3, "
               "bf16=4", who, i, k->name, (unsigned)k->dtype);
    else if (!k->eval)
        gc_msg(msg, size, "%s: kernel %zu '%s': eval is NULL", who, i, k->name);
    else
        return GC_OK;
    return GC_E_INVALID;
}

/* Duplicate names: sort (name, index) pairs; within a run of equal names the second entry
 * is a duplicate; report the one that comes first in the table. */
struct named {
    const char *name;
    size_t index;
};

static int by_name(const void *a, const void *b)
{
    const struct named *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static enum gc_status check_unique(const struct gelucheck_plugin *p, const char *who, char *msg,
                                   size_t size)
{
    size_t n = p->n_kernels, dup = n, first = 0;
    struct named *v = malloc(n * sizeof *v);

    if (!v) {
        gc_msg(msg, size, "%s: out of memory", who);
        return GC_E_NOMEM;
    }
    for (size_t i = 0; i < n; i++)
        v[i] = (struct named){ gc_kernel_at(p, i)->name, i };
    qsort(v, n, sizeof *v, by_name);
    for (size_t i = 1; i < n; i++)
        if (strcmp(v[i - 1].name, v[i].name) == 0 && v[i].index < dup &&
            (i < 2 || strcmp(v[i - 2].name, v[i].name) != 0)) {
            dup = v[i].index;
            first = v[i - 1].index;
        }
    free(v);
    if (dup == n)
        return GC_OK;
    gc_msg(msg, size, "%s: kernel %zu '%s': duplicate name (kernel %zu has it too)", who, dup,
           gc_kernel_at(p, dup)->name, first);
    return GC_E_INVALID;
}

enum gc_status gc_plugin_validate(const struct gelucheck_plugin *p, const char *who, char *msg,
                                  size_t size)
{
    enum gc_status st = check_header(p, who, msg, size);

    for (size_t i = 0; st == GC_OK && i < p->n_kernels; i++)
        st = check_kernel(gc_kernel_at(p, i), i, who, msg, size);
    return st == GC_OK ? check_unique(p, who, msg, size) : st;
}
