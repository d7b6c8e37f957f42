/* The built-in adapters.  Third-party ones (sleef, onednn, ...) join this table with their
 * configure-time detection: entry NULL and the reason in skipped when a build lacks them. */
#include "adapter.h"

static const struct gc_builtin builtins[] = {
    { "libm", "the formulas people write with the C library's erf, erfc, tanh and exp",
      gc_libm_entry, NULL },
    { "mutants", "deliberately defective kernels, one per defect class the suites must catch",
      gc_mutants_entry, NULL },
};

size_t gc_builtin_count(void)
{
    return sizeof builtins / sizeof builtins[0];
}

const struct gc_builtin *gc_builtin_get(size_t i)
{
    return i < gc_builtin_count() ? &builtins[i] : NULL;
}
