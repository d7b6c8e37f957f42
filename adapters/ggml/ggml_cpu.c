/* Which of ggml's x86-64 CPU variants this CPU can run, decided from what the CPU and the OS
 * report (CPUID, and XGETBV for the register state the OS saves), never assumed.
 *
 * The variants and their features are ggml 0.19.0's (src/CMakeLists.txt, GGML_CPU_ALL_VARIANTS:
 * ggml_add_cpu_backend_variant(NAME FEATURES...)); a variant is compiled with exactly those
 * features (-msse4.2 -mavx -mf16c -mfma -mavx2 -mbmi2, AVX512 = -mavx512f -mavx512cd
 * -mavx512vl -mavx512dq -mavx512bw, ...: src/ggml-cpu/CMakeLists.txt).  The score is ggml's
 * own (src/ggml-cpu/arch/x86/cpu-feats.cpp, ggml_backend_cpu_x86_score): ggml's loader
 * (ggml_backend_load_best) takes the runnable variant with the highest score, so the best
 * variant here is the one llama.cpp runs on this CPU.  Unlike ggml's check ("FIXME: this
 * does not check for OS support"), AVX, AVX-512 and AMX also need the OS to save their
 * registers (XCR0). */
#include <stddef.h>
#include <string.h>

#include "ggml_internal.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

enum {
    F_SSE42 = 1 << 0, F_AVX = 1 << 1, F_F16C = 1 << 2, F_FMA = 1 << 3, F_AVX2 = 1 << 4,
    F_BMI2 = 1 << 5, F_AVX512 = 1 << 6, F_AVX512_VBMI = 1 << 7, F_AVX512_VNNI = 1 << 8,
    F_AVX512_BF16 = 1 << 9, F_AVX_VNNI = 1 << 10, F_AMX_TILE = 1 << 11, F_AMX_INT8 = 1 << 12
};
#define HASWELL (F_SSE42 | F_AVX | F_F16C | F_FMA | F_AVX2 | F_BMI2)
#define SKYLAKEX (HASWELL | F_AVX512)

static const struct {
    const char *name;
    unsigned features;
} variants[] = {
    { "x64", 0 },
    { "sse42", F_SSE42 },
    { "sandybridge", F_SSE42 | F_AVX },
    { "ivybridge", F_SSE42 | F_AVX | F_F16C },
    { "piledriver", F_SSE42 | F_AVX | F_F16C | F_FMA },
    { "haswell", HASWELL },
    { "skylakex", SKYLAKEX },
    { "cannonlake", SKYLAKEX | F_AVX512_VBMI },
    { "cascadelake", SKYLAKEX | F_AVX512_VNNI },
    { "icelake", SKYLAKEX | F_AVX512_VBMI | F_AVX512_VNNI },
    { "cooperlake", SKYLAKEX | F_AVX512_VNNI | F_AVX512_BF16 },
    { "zen4", SKYLAKEX | F_AVX512_VBMI | F_AVX512_VNNI | F_AVX512_BF16 },
    { "alderlake", HASWELL | F_AVX_VNNI },
    { "sapphirerapids", SKYLAKEX | F_AVX512_VBMI | F_AVX512_VNNI | F_AVX512_BF16 | F_AMX_TILE |
                        F_AMX_INT8 },
};
#define N_VARIANTS (sizeof variants / sizeof variants[0])

/* The features of this CPU that the OS lets programs use. */
static unsigned cpu_features(void)
{
    unsigned f = 0;
#if defined(__x86_64__)
    unsigned a, b, c, d, max = __get_cpuid_max(0, NULL);
    unsigned long long xcr0 = 0;

    if (max < 1 || !__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    if (c & (1u << 20))
        f |= F_SSE42;
    if (c & (1u << 27)) { /* OSXSAVE: XGETBV is there */
        unsigned lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        xcr0 = ((unsigned long long)hi << 32) | lo;
    }
    int ymm = (xcr0 & 0x6) == 0x6;     /* XMM and YMM state */
    int zmm = (xcr0 & 0xe6) == 0xe6;   /* and opmask, ZMM_Hi256, Hi16_ZMM */
    int tile = (xcr0 & 0x60000) == 0x60000; /* XTILECFG, XTILEDATA */
    if ((c & (1u << 28)) && ymm)
        f |= F_AVX;
    if ((c & (1u << 29)) && ymm)
        f |= F_F16C;
    if ((c & (1u << 12)) && ymm)
        f |= F_FMA;
    if (max >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        unsigned b7 = b, c7 = c, d7 = d, a71 = 0, sub = a;
        if (sub >= 1) {
            __cpuid_count(7, 1, a, b, c, d);
            a71 = a;
        }
        if ((b7 & (1u << 5)) && ymm)
            f |= F_AVX2;
        if (b7 & (1u << 8))
            f |= F_BMI2;
        /* AVX512F (16), DQ (17), CD (28), BW (30), VL (31): ggml's AVX512 needs all five */
        unsigned avx512 = (1u << 16) | (1u << 17) | (1u << 28) | (1u << 30) | (1u << 31);
        if ((b7 & avx512) == avx512 && zmm) {
            f |= F_AVX512;
            if (c7 & (1u << 1))
                f |= F_AVX512_VBMI;
            if (c7 & (1u << 11))
                f |= F_AVX512_VNNI;
            if (a71 & (1u << 5))
                f |= F_AVX512_BF16;
        }
        if ((a71 & (1u << 4)) && ymm)
            f |= F_AVX_VNNI;
        if ((d7 & (1u << 24)) && tile)
            f |= F_AMX_TILE;
        if ((d7 & (1u << 25)) && tile)
            f |= F_AMX_INT8;
    }
#endif
    return f;
}

/* ggml_backend_cpu_x86_score's weights for the features a variant is built with */
static int score_of(unsigned v)
{
    static const struct { unsigned f; int w; } w[] = {
        { F_FMA, 1 }, { F_F16C, 1 << 1 }, { F_SSE42, 1 << 2 }, { F_BMI2, 1 << 3 },
        { F_AVX, 1 << 4 }, { F_AVX2, 1 << 5 }, { F_AVX_VNNI, 1 << 6 }, { F_AVX512, 1 << 7 },
        { F_AVX512_VBMI, 1 << 8 }, { F_AVX512_BF16, 1 << 9 }, { F_AVX512_VNNI, 1 << 10 },
        { F_AMX_INT8, 1 << 11 },
    };
    int s = 1;
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
        if (v & w[i].f)
            s += w[i].w;
    return s;
}

size_t gc_ggml_variants(struct gc_ggml_variant *out, size_t max)
{
    unsigned have = cpu_features();
    size_t n = 0;
    for (size_t i = 0; i < N_VARIANTS && n < max; i++) {
        out[n].name = variants[i].name;
        out[n].runnable = (variants[i].features & ~have) == 0;
        out[n].score = score_of(variants[i].features);
        n++;
    }
    return n;
}
