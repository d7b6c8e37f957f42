/* policy.c: the built-in policies (docs/policies.md, the table published there), the
 * resolution of a policy for one (func, dtype), its JSON and the judging of one accuracy
 * measurement.  Policy files are read by policy_ini.c. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy_priv.h"

static const char *const builtin_names[GS_PB_N + 1] = {
    "strict", "faithful", "default", "lenient", NULL
};

/* Built-ins are static: gs_policy_builtin() never allocates, gs_policy_free() ignores them,
 * so a caller may free what it got or not. */
static struct gs_policy builtins[GS_PB_N] = {
    { GS_PB_STRICT, "strict", 1, NULL, NULL, NULL, 0 },
    { GS_PB_FAITHFUL, "faithful", 1, NULL, NULL, NULL, 0 },
    { GS_PB_DEFAULT, "default", 1, NULL, NULL, NULL, 0 },
    { GS_PB_LENIENT, "lenient", 1, NULL, NULL, NULL, 0 },
};

static const char *const pkey_names[GS_PK_SEVERITY] = {
    "max_ulp", "max_cr_distance", "faithful", "abs_tol", "accuracy_domain",
    "special_zero_sign", "nan_at_neg_inf", "consistency_ulps"
};

const char *gs_pkey_name(int key)
{
    if (key >= 0 && key < GS_PK_SEVERITY)
        return pkey_names[key];
    if (key >= GS_PK_SEVERITY && key < GS_PK_N)
        return gs_kind_name((enum gs_kind)(key - GS_PK_SEVERITY));
    return NULL;
}

int gs_pkey_settable(int key)
{
    int k = key - GS_PK_SEVERITY;
    return key >= 0 && key < GS_PK_N && k != GS_K_CRASH && k != GS_K_TIMEOUT &&
           k != GS_K_ADAPTER_ERROR;
}

const char *const *gs_policy_builtin_names(void)
{
    return builtin_names;
}

int gs_policy_base_index(const char *name)
{
    for (int i = 0; name != NULL && i < GS_PB_N; i++)
        if (strcmp(name, builtin_names[i]) == 0)
            return i;
    return -1;
}

struct gs_policy *gs_policy_builtin(const char *name)
{
    int i = gs_policy_base_index(name);
    return i < 0 ? NULL : &builtins[i];
}

void gs_policy_free(struct gs_policy *p)
{
    /* a built-in by its address too, so that the compiler sees it is never freed where it
     * inlines this after gs_policy_builtin() (gcc's LTO build warned -Wfree-nonheap-object) */
    if (p == NULL || p->is_builtin ||
        (uintptr_t)p - (uintptr_t)builtins < sizeof builtins)
        return;
    free(p->name_buf);
    free(p->sec);
    free(p->kern);
    free(p);
}

const char *gs_policy_name(const struct gs_policy *p)
{
    return p != NULL ? p->name : NULL;
}

/* The table of docs/policies.md (section 7 of docs/design.md, made final). */
void gs_policy_base_values(int base, enum geluref_dtype dt, struct gs_policy_values *v)
{
    int half = dt == GELUREF_F16 || dt == GELUREF_BF16; /* the 16-bit dtypes */
    for (int k = 0; k < GS_N_KINDS; k++)
        v->severity[k] = GS_SEV_FAIL; /* every built-in: all kinds fail ... */
    v->faithful = 0;
    v->abs_tol = 0;
    v->accuracy_domain = GS_DOMAIN_NORMAL;
    v->special_zero_sign = 0; /* any */
    v->nan_at_neg_inf = 0;    /* fail */
    switch (base) {
    case GS_PB_STRICT: /* correctly rounded everywhere, zero signs exact */
        v->consistency_ulps = 0.5; /* what correctly rounded outputs show (docs/design.md 6) */
        v->max_ulp = INFINITY;
        v->max_cr_distance = 0;
        v->faithful = 1;
        v->accuracy_domain = GS_DOMAIN_ALL;
        v->special_zero_sign = 1; /* exact */
        break;
    case GS_PB_FAITHFUL: /* RD(f) or RU(f) everywhere */
        v->consistency_ulps = 1; /* a faithful output is within 1 ulp */
        v->max_ulp = INFINITY;
        v->max_cr_distance = INFINITY;
        v->faithful = 1;
        v->accuracy_domain = GS_DOMAIN_ALL;
        break;
    case GS_PB_LENIENT: /* typical framework tolerances */
        v->max_ulp = 16;
        v->consistency_ulps = 16; /* as max_ulp */
        v->max_cr_distance = INFINITY;
        /* abs_tol: docs/design.md section 7 (lenient): 1e-12 f64, 1e-6 f32, 1e-3 f16/bf16 */
        v->abs_tol = half ? 1e-3 : dt == GELUREF_F32 ? 1e-6 : 1e-12;
        v->nan_at_neg_inf = 1; /* allow */
        /* ... except these four, warnings under lenient */
        v->severity[GS_K_SIGNED_ZERO] = GS_SEV_WARN;
        v->severity[GS_K_IDENTITY_VIOLATION] = GS_SEV_WARN;
        v->severity[GS_K_BOUND_VIOLATION] = GS_SEV_WARN;
        v->severity[GS_K_NON_MONOTONIC] = GS_SEV_WARN;
        break;
    default: /* GS_PB_DEFAULT: f64/f32 ulp <= 4, f16/bf16 cr_distance <= 1, where normal */
        v->max_ulp = half ? INFINITY : 4;
        v->max_cr_distance = half ? 1 : INFINITY;
        /* as the accuracy demanded: 4 ulp, and cr_distance <= 1 is an error below 1.5 ulp;
           a kernel this accurate is not failed for inconsistencies its accuracy implies */
        v->consistency_ulps = half ? 1.5 : 4;
        break;
    }
}

static void apply(struct gs_policy_values *v, const struct gs_policy_section *s)
{
    for (int key = 0; key < GS_PK_N; key++) {
        if (!s->set[key])
            continue;
        switch (key) {
        case GS_PK_MAX_ULP: v->max_ulp = s->v.max_ulp; break;
        case GS_PK_MAX_CR_DISTANCE: v->max_cr_distance = s->v.max_cr_distance; break;
        case GS_PK_FAITHFUL: v->faithful = s->v.faithful; break;
        case GS_PK_ABS_TOL: v->abs_tol = s->v.abs_tol; break;
        case GS_PK_ACCURACY_DOMAIN: v->accuracy_domain = s->v.accuracy_domain; break;
        case GS_PK_SPECIAL_ZERO_SIGN: v->special_zero_sign = s->v.special_zero_sign; break;
        case GS_PK_NAN_AT_NEG_INF: v->nan_at_neg_inf = s->v.nan_at_neg_inf; break;
        case GS_PK_CONSISTENCY_ULPS: v->consistency_ulps = s->v.consistency_ulps; break;
        default: v->severity[key - GS_PK_SEVERITY] = s->v.severity[key - GS_PK_SEVERITY];
        }
    }
}

void gs_policy_resolve(const struct gs_policy *p, enum geluref_func f, enum geluref_dtype dt,
                       struct gs_policy_values *v)
{
    int has_dt = dt >= GELUREF_F64 && dt <= GELUREF_BF16;
    int has_f = f >= GELUREF_GELU && f <= GELUREF_ERFC;
    gs_policy_base_values(p->base, dt, v);
    if (p->sec == NULL)
        return;
    /* least to most specific: [all], [DTYPE], [FUNC], [FUNC.DTYPE] */
    apply(v, &p->sec[GS_PS_ALL]);
    if (has_dt)
        apply(v, &p->sec[GS_PS_DTYPE + (dt - 1)]);
    if (has_f)
        apply(v, &p->sec[GS_PS_FUNC + (f - 1)]);
    if (has_f && has_dt)
        apply(v, &p->sec[GS_PS_FUNC_DTYPE + (f - 1) * GS_PS_DTYPES + (dt - 1)]);
}

int gs_policy_resolve_kernel(const struct gs_policy *p, const char *id, enum geluref_func f,
                             enum geluref_dtype dt, struct gs_policy_values *v)
{
    gs_policy_resolve(p, f, dt, v);
    for (size_t i = 0; id != NULL && i < p->n_kern; i++)
        if (strcmp(p->kern[i].id, id) == 0) { /* ids are unique: the reader merges repeats */
            apply(v, &p->kern[i].s);
            return 1;
        }
    return 0;
}

size_t gs_policy_kernel_count(const struct gs_policy *p)
{
    return p != NULL ? p->n_kern : 0;
}

const char *gs_policy_kernel_id(const struct gs_policy *p, size_t i, int *line)
{
    if (p == NULL || i >= p->n_kern)
        return NULL;
    if (line != NULL)
        *line = p->kern[i].line;
    return p->kern[i].id;
}

static json_t *limit_json(double x, int integer)
{
    if (isinf(x))
        return json_string("inf");
    return integer ? json_integer((json_int_t)x) : json_real(x);
}

json_t *gs_policy_values_json(const struct gs_policy_values *v)
{
    static const char *const sev[] = { "fail", "warn", "ignore" };
    json_t *o = json_object();
    if (o == NULL)
        return NULL;
    int bad = 0;
    bad |= json_object_set_new(o, "max_ulp", limit_json(v->max_ulp, 0));
    bad |= json_object_set_new(o, "max_cr_distance", limit_json(v->max_cr_distance, 1));
    bad |= json_object_set_new(o, "faithful", json_boolean(v->faithful));
    bad |= json_object_set_new(o, "abs_tol", limit_json(v->abs_tol, 0));
    bad |= json_object_set_new(o, "accuracy_domain", json_string(
        v->accuracy_domain == GS_DOMAIN_ALL ? "all" : "normal"));
    bad |= json_object_set_new(o, "special_zero_sign",
                               json_string(v->special_zero_sign ? "exact" : "any"));
    bad |= json_object_set_new(o, "nan_at_neg_inf",
                               json_string(v->nan_at_neg_inf ? "allow" : "fail"));
    bad |= json_object_set_new(o, "consistency_ulps", limit_json(v->consistency_ulps, 0));
    for (int k = 0; k < GS_N_KINDS; k++) {
        unsigned s = (unsigned)v->severity[k];
        bad |= json_object_set_new(o, gs_kind_name((enum gs_kind)k),
                                   json_string(s <= GS_SEV_IGNORE ? sev[s] : "fail"));
    }
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

enum gs_kind gs_policy_judge(const struct gs_policy_values *v, const struct gs_meas *m)
{
    /* abs_tol excuses any inaccuracy within it (0 = no tolerance) */
    int within_tol = v->abs_tol > 0 && m->abs_err <= v->abs_tol;
    switch (m->defect) {
    case GS_K_NONE:
    case GS_K_NAN_OUTPUT:
    case GS_K_INF_OUTPUT:
    case GS_K_SIGNED_ZERO:
        return m->defect;
    case GS_K_WRONG_SIGN:
    case GS_K_PREMATURE_FLUSH:
    case GS_K_FTZ:
        return within_tol ? GS_K_NONE : m->defect;
    case GS_K_ULP_EXCEEDED:
        if (within_tol)
            return GS_K_NONE;
        if (v->accuracy_domain == GS_DOMAIN_NORMAL && m->want_class != GS_WANT_NORMAL)
            return GS_K_NONE;
        if (m->ulp > v->max_ulp || (double)m->cr_distance > v->max_cr_distance ||
            (v->faithful && !m->faithful))
            return GS_K_ULP_EXCEEDED;
        return GS_K_NONE;
    default:
        return m->defect; /* not an accuracy kind: passed through */
    }
}
