/* Loading ggml's libraries with dlopen.  libggml-base.so (the graph, the ops' definitions) is
 * loaded once; each libggml-cpu-VARIANT.so (the CPU backend built for one instruction-set
 * level) gets a handle of its own with RTLD_LOCAL, since all of them export the same names
 * (ggml_graph_compute, ggml_cpu_init, their tables): a variant's calls to its own functions
 * bind within its own handle, and dlsym on that handle finds its own.  They all need
 * libggml-base.so (DT_NEEDED, RUNPATH $ORIGIN), loaded first from the same folder, so the
 * one copy serves every variant. */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ggml_internal.h"

/* dlsym into *slot; 0, or -1 naming the missing symbol */
static int sym(void *h, const char *name, void *slot, const char *lib, char *err, size_t size)
{
    void *p = dlsym(h, name);
    if (!p) {
        snprintf(err, size, "%s has no symbol %s: not the ggml this adapter was written for",
                 lib, name);
        return -1;
    }
    memcpy(slot, &p, sizeof p); /* object pointer to function pointer, as POSIX allows */
    return 0;
}

int gc_ggml_load_base(const char *dir, struct gc_ggml_base *b, char *err, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/libggml-base.so", dir);
    memset(b, 0, sizeof *b);
    b->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!b->handle) {
        snprintf(err, size, "cannot load %s: %s", path, dlerror());
        return -1;
    }
    if (sym(b->handle, "ggml_version", &b->version, path, err, size) ||
        sym(b->handle, "ggml_commit", &b->commit, path, err, size))
        return -1;
    const char *v = b->version(), *c = b->commit();
    if (!v || strcmp(v, GC_GGML_VERSION) != 0) {
        snprintf(err, size, "%s is ggml %.40s (commit %.40s), not the %s whose API this "
                 "adapter declares by hand: run scripts/setup (adapters/ggml/package-lock.json "
                 "pins npm @node-llama-cpp/linux-x64)", path, v ? v : "(null)", c ? c : "(null)",
                 GC_GGML_VERSION);
        return -1;
    }
    if (sym(b->handle, "ggml_init", &b->init, path, err, size) ||
        sym(b->handle, "ggml_free", &b->free, path, err, size) ||
        sym(b->handle, "ggml_tensor_overhead", &b->tensor_overhead, path, err, size) ||
        sym(b->handle, "ggml_graph_overhead", &b->graph_overhead, path, err, size) ||
        sym(b->handle, "ggml_new_tensor_1d", &b->new_tensor_1d, path, err, size) ||
        sym(b->handle, "ggml_get_data", &b->get_data, path, err, size) ||
        sym(b->handle, "ggml_new_graph", &b->new_graph, path, err, size) ||
        sym(b->handle, "ggml_build_forward_expand", &b->build_forward_expand, path, err, size) ||
        sym(b->handle, "ggml_gelu", &b->op[0], path, err, size) ||
        sym(b->handle, "ggml_gelu_quick", &b->op[1], path, err, size) ||
        sym(b->handle, "ggml_gelu_erf", &b->op[2], path, err, size))
        return -1;
    return 0;
}

int gc_ggml_load_cpu(const char *dir, const char *name, struct gc_ggml_cpu *cpu, char *err,
                     size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/libggml-cpu-%s.so", dir, name);
    memset(cpu, 0, sizeof *cpu);
    cpu->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!cpu->handle) {
        snprintf(err, size, "cannot load %s: %s", path, dlerror());
        return -1;
    }
    if (sym(cpu->handle, "ggml_backend_score", &cpu->score, path, err, size) ||
        sym(cpu->handle, "ggml_cpu_init", &cpu->cpu_init, path, err, size) ||
        sym(cpu->handle, "ggml_graph_compute_with_ctx", &cpu->compute_with_ctx, path, err, size))
        return -1;
    return 0;
}

void *gc_ggml_cpu_sym(const struct gc_ggml_cpu *cpu, const char *symbol)
{
    return dlsym(cpu->handle, symbol);
}

uint16_t gc_ggml_f32_to_f16(float f)
{
    uint32_t w, a;
    memcpy(&w, &f, sizeof w);
    uint16_t s = (uint16_t)((w >> 16) & 0x8000u);
    a = w & 0x7fffffffu;
    if (a > 0x7f800000u)
        return s | 0x7e00u;  /* NaN (quiet) */
    if (a >= 0x477ff000u)
        return s | 0x7c00u;  /* >= 65520 = 65504 + half an ulp: inf (65504 is odd) */
    if (a < 0x38800000u) {   /* below 2^-14: a subnormal (or zero) f16, units of 2^-24 */
        float v;
        memcpy(&v, &a, sizeof v);
        return s | (uint16_t)rintf(v * 0x1p24f); /* exact scaling; rintf rounds to even */
    }
    a += 0xfffu + ((a >> 13) & 1u); /* round to nearest even at bit 13; a carry is right too */
    return s | (uint16_t)((a - 0x38000000u) >> 13); /* exponent bias 127 -> 15 */
}

float gc_ggml_f16_to_f32(uint16_t h)
{
    uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, w;
    float f;
    if (e == 0) {
        f = ldexpf((float)m, -24); /* exact */
        return s ? -f : f;
    }
    w = s | (e == 31 ? 0x7f800000u : (e + 112u) << 23) | (m << 13);
    memcpy(&f, &w, sizeof f);
    return f;
}
