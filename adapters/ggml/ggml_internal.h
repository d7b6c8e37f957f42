/* The ggml adapter's parts: CPU variants (ggml_cpu.c), loading the libraries (ggml_load.c),
 * evaluation and the kernel table (ggml_main.c). */
#ifndef GC_GGML_INTERNAL_H
#define GC_GGML_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ggml_api.h"

/* One of ggml's x86-64 CPU variants (libggml-cpu-NAME.so), in ggml's order */
struct gc_ggml_variant {
    const char *name;
    int runnable; /* this CPU has every feature it is built with, and the OS saves the registers */
    int score;    /* ggml_backend_score() it returns where it is runnable */
};
/* The variants ggml 0.19.0 builds for x86-64 (at most max); none elsewhere. */
size_t gc_ggml_variants(struct gc_ggml_variant *out, size_t max);

/* Loads DIR/libggml-base.so and checks its version; 0, or -1 with the reason in err. */
int gc_ggml_load_base(const char *dir, struct gc_ggml_base *base, char *err, size_t size);
/* Loads DIR/libggml-cpu-NAME.so with a handle of its own (RTLD_LOCAL: every variant exports
 * the same names) and calls its ggml_cpu_init(); 0, or -1 with the reason in err. */
int gc_ggml_load_cpu(const char *dir, const char *name, struct gc_ggml_cpu *cpu, char *err,
                     size_t size);
/* The address of a variant's own symbol (e.g. its ggml_table_gelu_f16), or NULL */
void *gc_ggml_cpu_sym(const struct gc_ggml_cpu *cpu, const char *symbol);

/* binary16 <-> binary32, round to nearest even (as ggml's GGML_CPU_FP32_TO_FP16 does) */
uint16_t gc_ggml_f32_to_f16(float f);
float gc_ggml_f16_to_f32(uint16_t h);

#endif
