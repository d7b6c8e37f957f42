/* policy_priv.h: what policy.c (built-ins, resolution, judging) and policy_ini.c (policy
 * files) share.  Not part of the suites.h contract. */
#ifndef GELUCHECK_POLICY_PRIV_H
#define GELUCHECK_POLICY_PRIV_H

#include "suites.h"

/* The built-ins, in the order of gs_policy_builtin_names(). */
enum { GS_PB_STRICT = 0, GS_PB_FAITHFUL, GS_PB_DEFAULT, GS_PB_LENIENT, GS_PB_N };

/* Policy keys, in the order of gs_policy_values_json(): the eight accuracy, special and consistency keys,
 * then one severity key per finding kind (enum gs_kind order, named by gs_kind_name). */
enum {
    GS_PK_MAX_ULP = 0,
    GS_PK_MAX_CR_DISTANCE,
    GS_PK_FAITHFUL,
    GS_PK_ABS_TOL,
    GS_PK_ACCURACY_DOMAIN,
    GS_PK_SPECIAL_ZERO_SIGN,
    GS_PK_NAN_AT_NEG_INF,
    GS_PK_CONSISTENCY_ULPS,
    GS_PK_SEVERITY,                     /* + enum gs_kind */
    GS_PK_N = GS_PK_SEVERITY + GS_N_KINDS
};
const char *gs_pkey_name(int key); /* NULL when out of range */
/* Whether a finding kind's severity may be set: not crash, timeout, adapter_error. */
int gs_pkey_settable(int key);

/* Override sections of a policy file: [all], [DTYPE] (4), [FUNC] (the 9 funcs of the plug-in
 * ABI), [FUNC.DTYPE] (36), indexed as below. */
#define GS_PS_FUNCS 9 /* GELUREF_GELU .. GELUREF_ERFC: the funcs a kernel can declare */
#define GS_PS_DTYPES 4
enum {
    GS_PS_ALL = 0,
    GS_PS_DTYPE = 1,                                   /* + dtype - 1 */
    GS_PS_FUNC = GS_PS_DTYPE + GS_PS_DTYPES,           /* + func - 1 */
    GS_PS_FUNC_DTYPE = GS_PS_FUNC + GS_PS_FUNCS,       /* + (func - 1) * 4 + dtype - 1 */
    GS_PS_N = GS_PS_FUNC_DTYPE + GS_PS_FUNCS * GS_PS_DTYPES
};

/* The keys one section sets: set[key] nonzero when given on line line[key] with value v. */
struct gs_policy_section {
    unsigned char set[GS_PK_N];
    int line[GS_PK_N];
    struct gs_policy_values v;
};

/* A section [kernel ADAPTER/KERNEL]: one kernel's overrides, applied after every other. */
#define GS_PS_KERNELS_MAX 1024 /* kernel sections a file may have (a hostile file's bound) */
struct gs_policy_kernel {
    char id[260];                      /* ADAPTER/KERNEL, each part [A-Za-z0-9_.-]{1,128} */
    int line;                          /* of its first header */
    struct gs_policy_section s;
};

struct gs_policy {
    int base;                          /* GS_PB_*: the built-in overridden */
    const char *name;                  /* the built-in's name or name_buf */
    int is_builtin;                    /* static storage: gs_policy_free leaves it alone */
    char *name_buf;                    /* owned: a file's base name */
    struct gs_policy_section *sec;     /* GS_PS_N entries (owned), NULL for a built-in */
    struct gs_policy_kernel *kern;     /* n_kern kernel sections (owned), in file order */
    size_t n_kern;
};

/* The built-in's values for dt (the f64 column for an unknown dtype). */
void gs_policy_base_values(int base, enum geluref_dtype dt, struct gs_policy_values *v);
/* Index of a built-in by name, -1 when none. */
int gs_policy_base_index(const char *name);

#endif
