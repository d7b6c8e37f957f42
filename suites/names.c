/* names.c: the contract names of suites, finding kinds, regions and verdicts (docs/design.md
 * section 6), and the region of an input. */
#include <string.h>

#include "suites.h"

/* docs/design.md section 6, in enum gs_suite order. */
static const char *const suite_names[GS_N_SUITES] = {
    "ulp", "special", "identity", "tail", "vector", "fingerprint"
};

/* docs/design.md section 6, "Finding kinds (contract)", in enum gs_kind order. */
static const char *const kind_names[GS_N_KINDS] = {
    "ulp_exceeded", "nan_output", "inf_output", "wrong_sign", "premature_flush", "ftz",
    "signed_zero", "special_value", "identity_violation", "bound_violation", "non_monotonic",
    "position_dependent", "alignment_dependent", "inplace_mismatch", "lane_contamination",
    "nondeterministic", "out_of_bounds_write", "input_modified", "fpenv_modified",
    "declared_mismatch", "crash", "timeout", "adapter_error"
};

static const char *const region_names[GS_N_REGIONS + 1] = {
    "x<-10", "[-10,-5)", "[-5,-1)", "[-1,0)", "[0,1)", "x>=1", "none"
};

static const char *const verdict_names[] = { "pass", "fail", "skip", "error" };

const char *gs_suite_name(enum gs_suite s)
{
    return (unsigned)s < GS_N_SUITES ? suite_names[s] : NULL;
}

int gs_suite_from_name(const char *name, enum gs_suite *s)
{
    for (int i = 0; name != NULL && i < GS_N_SUITES; i++)
        if (strcmp(name, suite_names[i]) == 0) {
            *s = (enum gs_suite)i;
            return 0;
        }
    return -1;
}

static void copy_word(char *bad, size_t bad_size, const char *w, size_t n)
{
    if (bad == NULL || bad_size == 0)
        return;
    if (n >= bad_size)
        n = bad_size - 1;
    memcpy(bad, w, n);
    bad[n] = '\0';
}

int gs_suite_mask_parse(const char *list, unsigned *mask, char *bad, size_t bad_size)
{
    unsigned m = 0;
    const char *p = list != NULL ? list : "";
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        const char *w = p;
        while (len > 0 && (*w == ' ' || *w == '\t')) {
            w++;
            len--;
        }
        while (len > 0 && (w[len - 1] == ' ' || w[len - 1] == '\t'))
            len--;
        if (len == 0) {
            copy_word(bad, bad_size, "", 0);
            return -1;
        }
        char word[32]; /* longer than every suite name; a longer word is unknown anyway */
        int found = 0;
        if (len < sizeof word) {
            memcpy(word, w, len);
            word[len] = '\0';
            enum gs_suite s;
            if (strcmp(word, "all") == 0) {
                m |= GS_SUITES_ALL;
                found = 1;
            } else if (gs_suite_from_name(word, &s) == 0) {
                m |= 1u << s;
                found = 1;
            }
        }
        if (!found) {
            copy_word(bad, bad_size, w, len);
            return -1;
        }
        if (end == NULL)
            break;
        p = end + 1;
    }
    *mask = m;
    return 0;
}

const char *gs_kind_name(enum gs_kind k)
{
    return (unsigned)k < GS_N_KINDS ? kind_names[k] : NULL;
}

int gs_kind_from_name(const char *name, enum gs_kind *k)
{
    for (int i = 0; name != NULL && i < GS_N_KINDS; i++)
        if (strcmp(name, kind_names[i]) == 0) {
            *k = (enum gs_kind)i;
            return 0;
        }
    return -1;
}

const char *gs_region_name(enum gs_region r)
{
    return (unsigned)r <= GS_N_REGIONS ? region_names[r] : NULL;
}

int gs_region_from_name(const char *name, enum gs_region *r)
{
    for (int i = 0; name != NULL && i <= GS_N_REGIONS; i++)
        if (strcmp(name, region_names[i]) == 0) {
            *r = (enum gs_region)i;
            return 0;
        }
    return -1;
}

/* Exact: the boundaries -10, -5, -1, 0, 1 are values of every dtype, and the comparison is
 * made on the exact double widening of x. */
enum gs_region gs_region_of(enum geluref_dtype dt, uint64_t xbits)
{
    if (gs_is_nan(dt, xbits))
        return GS_R_NONE;
    if (gs_is_zero(dt, xbits))
        return gs_sign(dt, xbits) ? GS_R_M1_0 : GS_R_0_1;
    double x = gs_to_double(dt, xbits);
    if (x < -10.0)
        return GS_R_LT_M10;
    if (x < -5.0)
        return GS_R_M10_M5;
    if (x < -1.0)
        return GS_R_M5_M1;
    if (x < 0.0)
        return GS_R_M1_0;
    if (x < 1.0)
        return GS_R_0_1;
    return GS_R_GE_1;
}

const char *gs_verdict_name(enum gs_verdict v)
{
    return (unsigned)v <= GS_ERROR ? verdict_names[v] : NULL;
}

int gs_verdict_from_name(const char *name, enum gs_verdict *v)
{
    for (int i = 0; name != NULL && i <= GS_ERROR; i++)
        if (strcmp(name, verdict_names[i]) == 0) {
            *v = (enum gs_verdict)i;
            return 0;
        }
    return -1;
}

/* error > fail > pass > skip */
static int verdict_rank(enum gs_verdict v)
{
    switch (v) {
    case GS_ERROR: return 3;
    case GS_FAIL: return 2;
    case GS_PASS: return 1;
    default: return 0;
    }
}

enum gs_verdict gs_verdict_worse(enum gs_verdict a, enum gs_verdict b)
{
    return verdict_rank(a) >= verdict_rank(b) ? a : b;
}
