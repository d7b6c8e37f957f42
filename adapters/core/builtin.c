/* The built-in adapters.  libm and mutants are always here; the third-party ones are
 * detected at configure time (adapters/CMakeLists.txt, gc_builtin_config.h): an in-process
 * one has its entry, a subprocess one its command, and one that a build lacks says why. */
#include "adapter.h"
#include "gc_builtin_config.h"

#if GC_HAVE_SLEEF
#define SLEEF_ENTRY gc_sleef_entry
#else
#define SLEEF_ENTRY NULL
#endif
#if GC_HAVE_ONEDNN
#define ONEDNN_ENTRY gc_onednn_entry
#else
#define ONEDNN_ENTRY NULL
#endif
#if GC_HAVE_GSL
#define GSL_ENTRY gc_gsl_entry
#else
#define GSL_ENTRY NULL
#endif
#if GC_HAVE_BOOST
#define BOOST_ENTRY gc_boost_entry
#else
#define BOOST_ENTRY NULL
#endif

static const struct gc_builtin builtins[] = {
    { "libm", "the formulas people write with the C library's erf, erfc, tanh and exp",
      gc_libm_entry, NULL, NULL },
    { "mutants", "deliberately defective kernels, one per defect class the suites must catch",
      gc_mutants_entry, NULL, NULL },
    { "sleef", "GELU on SLEEF's erf, erfc and tanh, scalar and vector (libsleef)",
      SLEEF_ENTRY, GC_SLEEF_SKIPPED, GC_SLEEF_COMMAND },
    { "onednn", "oneDNN's eltwise gelu_erf and gelu_tanh, forward and backward (libdnnl)",
      ONEDNN_ENTRY, GC_ONEDNN_SKIPPED, GC_ONEDNN_COMMAND },
    { "onnxruntime", "ONNX Runtime (onnxruntime-node) on GELU models the project builds",
      NULL, GC_ONNXRUNTIME_SKIPPED, GC_ONNXRUNTIME_COMMAND },
    { "onnxruntime-web", "the onnxruntime adapter's models on ONNX Runtime Web (WebAssembly)",
      NULL, GC_ONNXRUNTIME_WEB_SKIPPED, GC_ONNXRUNTIME_WEB_COMMAND },
    { "torch", "PyTorch's F.gelu and its autograd backward (Debian python3-torch)",
      NULL, GC_TORCH_SKIPPED, GC_TORCH_COMMAND },
    { "musl", "the libm adapter's formulas built with musl-gcc against musl's libm",
      NULL, GC_MUSL_SKIPPED, GC_MUSL_COMMAND },
    { "ggml", "llama.cpp's ggml: ggml_gelu, ggml_gelu_quick and ggml_gelu_erf per CPU variant",
      NULL, GC_GGML_SKIPPED, GC_GGML_COMMAND },
    { "tfjs", "TensorFlow.js: the 'gelu' and 'gelu_new' activations and tf.erf, cpu and wasm",
      NULL, GC_TFJS_SKIPPED, GC_TFJS_COMMAND },
    { "gsl", "GSL's gsl_sf_erf, gsl_sf_erfc, gsl_cdf_ugaussian_P and GELU on them (libgsl)",
      GSL_ENTRY, GC_GSL_SKIPPED, GC_GSL_COMMAND },
    { "boost", "Boost.Math's erf, erfc, normal cdf and GELU on them (libboost-math-dev)",
      BOOST_ENTRY, GC_BOOST_SKIPPED, GC_BOOST_COMMAND },
    { "scipy", "SciPy's erf, erfc, ndtr and GELU on them, as NumPy code (python3-scipy)",
      NULL, GC_SCIPY_SKIPPED, GC_SCIPY_COMMAND },
};

size_t gc_builtin_count(void)
{
    return sizeof builtins / sizeof builtins[0];
}

const struct gc_builtin *gc_builtin_get(size_t i)
{
    return i < gc_builtin_count() ? &builtins[i] : NULL;
}
