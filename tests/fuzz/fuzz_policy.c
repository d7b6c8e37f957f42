/* Fuzz target: policy files (suites/policy_ini.c, docs/policies.md), what `--policy FILE`
 * reads.  The input is the file's bytes (written to a temporary file: gs_policy_load reads a
 * path).  A policy that loads is resolved for every (func, dtype) and turned into the JSON a
 * result records.  Checked: no crash, leak or undefined behaviour; a failure gives one line
 * that names the file; resolved values stay in their documented ranges. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fuzz.h"
#include "suites.h"

#define T "fuzz_policy"

static void check_values(const struct gs_policy_values *v, int f, int dt)
{
    if (!(v->max_ulp >= 0) || !(v->abs_tol >= 0) || !(v->max_cr_distance >= 0) ||
        !(v->consistency_ulps >= 0.5))
        fuzz_fail(T, "values for func %d dtype %d out of range: max_ulp %g abs_tol %g "
                     "max_cr_distance %g consistency_ulps %g", f, dt, v->max_ulp, v->abs_tol,
                  v->max_cr_distance, v->consistency_ulps);
    for (int k = 0; k < GS_N_KINDS; k++)
        if (v->severity[k] < GS_SEV_FAIL || v->severity[k] > GS_SEV_IGNORE)
            fuzz_fail(T, "severity %d of kind %d out of range", (int)v->severity[k], k);
}

static void use_policy(const struct gs_policy *p)
{
    for (int f = GELUREF_GELU; f <= GELUREF_ERFC; f++) {
        for (int dt = GELUREF_F64; dt <= GELUREF_BF16; dt++) {
            struct gs_policy_values v;
            gs_policy_resolve(p, (enum geluref_func)f, (enum geluref_dtype)dt, &v);
            check_values(&v, f, dt);
            json_t *j = gs_policy_values_json(&v);
            char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
            if (j && !text)
                fuzz_fail(T, "values for func %d dtype %d do not serialise", f, dt);
            free(text);
            json_decref(j);
        }
    }
    /* each [kernel ID] section: a well-formed identity that resolves to its own values */
    for (size_t i = 0; i < gs_policy_kernel_count(p); i++) {
        int line = 0;
        const char *id = gs_policy_kernel_id(p, i, &line);
        const char *slash = id ? strchr(id, '/') : NULL;
        if (!id || !slash || slash == id || !slash[1] || strchr(slash + 1, '/') || line < 1)
            fuzz_fail(T, "kernel section %zu: id '%s' line %d", i, id ? id : "(null)", line);
        struct gs_policy_values v;
        if (!gs_policy_resolve_kernel(p, id, GELUREF_GELU, GELUREF_F32, &v))
            fuzz_fail(T, "kernel section '%s' does not apply to its own id", id);
        check_values(&v, GELUREF_GELU, GELUREF_F32);
    }
    if (gs_policy_name(p) == NULL)
        fuzz_fail(T, "loaded policy has no name");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char msg[1024];
    const char *path = fuzz_temp_file("fuzz_policy", data, size);

    if (path == NULL)
        return 0;
    msg[0] = '\0';
    struct gs_policy *p = gs_policy_load(path, msg, sizeof msg);
    if (p == NULL) {
        fuzz_check_line(T, "load", msg);
        if (strstr(msg, path) == NULL && strncmp(msg, "out of memory", 13) != 0)
            fuzz_fail(T, "message does not name the file: '%s'", msg);
        return 0;
    }
    use_policy(p);
    gs_policy_free(p);
    return 0;
}
