/* Names of functions, dtypes, rounding modes and statuses; dtype shapes; config defaults. */
#include <string.h>

#include "geluref.h"

static const char *const func_names[] = {
    [GELUREF_GELU] = "gelu",
    [GELUREF_GELU_TANH] = "gelu_tanh",
    [GELUREF_GELU_SIGMOID] = "gelu_sigmoid",
    [GELUREF_GELU_GRAD] = "gelu_grad",
    [GELUREF_GELU_TANH_GRAD] = "gelu_tanh_grad",
    [GELUREF_NORMCDF] = "normcdf",
    [GELUREF_NORMPDF] = "normpdf",
    [GELUREF_ERF] = "erf",
    [GELUREF_ERFC] = "erfc",
    [GELUREF_GELU_GRAD2] = "gelu_grad2",
    [GELUREF_GELU_SCALED] = "gelu_scaled",
};

/* IEEE 754 binary64, binary32, binary16 and bfloat16 (the top half of a binary32). */
static const struct geluref_dtype_info dtypes[] = {
    [GELUREF_F64] = { "f64", 64, 53, -1022, 1023, 11 },
    [GELUREF_F32] = { "f32", 32, 24, -126, 127, 8 },
    [GELUREF_F16] = { "f16", 16, 11, -14, 15, 5 },
    [GELUREF_BF16] = { "bf16", 16, 8, -126, 127, 8 },
};

const char *geluref_func_name(enum geluref_func f)
{
    if (f < GELUREF_FUNC_FIRST || f > GELUREF_FUNC_LAST)
        return NULL;
    return func_names[f];
}

int geluref_func_from_name(const char *name, enum geluref_func *f)
{
    for (int i = GELUREF_FUNC_FIRST; i <= GELUREF_FUNC_LAST; i++)
        if (name && strcmp(name, func_names[i]) == 0) {
            *f = (enum geluref_func)i;
            return 0;
        }
    return -1;
}

const struct geluref_dtype_info *geluref_dtype_info(enum geluref_dtype dt)
{
    if (dt < GELUREF_DTYPE_FIRST || dt > GELUREF_DTYPE_LAST)
        return NULL;
    return &dtypes[dt];
}

const char *geluref_dtype_name(enum geluref_dtype dt)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    return d ? d->name : NULL;
}

int geluref_dtype_from_name(const char *name, enum geluref_dtype *dt)
{
    for (int i = GELUREF_DTYPE_FIRST; i <= GELUREF_DTYPE_LAST; i++)
        if (name && strcmp(name, dtypes[i].name) == 0) {
            *dt = (enum geluref_dtype)i;
            return 0;
        }
    return -1;
}

const char *geluref_rnd_name(mpfr_rnd_t rnd)
{
    switch (rnd) {
    case MPFR_RNDN: return "rn";
    case MPFR_RNDZ: return "rz";
    case MPFR_RNDU: return "ru";
    case MPFR_RNDD: return "rd";
    default: return NULL;
    }
}

int geluref_rnd_from_name(const char *name, mpfr_rnd_t *rnd)
{
    static const mpfr_rnd_t modes[] = { MPFR_RNDN, MPFR_RNDZ, MPFR_RNDU, MPFR_RNDD };
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (name && strcmp(name, geluref_rnd_name(modes[i])) == 0) {
            *rnd = modes[i];
            return 0;
        }
    return -1;
}

const char *geluref_strerror(enum geluref_status st)
{
    switch (st) {
    case GELUREF_OK: return "success";
    case GELUREF_E_PREC_CAP: return "precision cap reached before the rounding was decided";
    case GELUREF_E_INVALID: return "invalid function, dtype, rounding mode or scale";
    case GELUREF_E_SYNTAX: return "not a number";
    }
    return "unknown status";
}

const char *geluref_version(void)
{
    return GELUREF_VERSION_STRING;
}

void geluref_config_init(struct geluref_config *cfg)
{
    const struct geluref_config def = GELUREF_CONFIG_INIT;
    *cfg = def;
}
