/* Private to the report writers (Markdown, plots, JUnit, compare, baseline): small readers of
 * result members (the layout is in reports.h and docs/suites.md).  Header-only, static
 * inline.  Prefix rr_. */
#ifndef GELUCHECK_RESREAD_H
#define GELUCHECK_RESREAD_H

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

/* json_string_value of o[key], or "" */
static inline const char *rr_str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

/* A "real" of the schema: a JSON number, or one of the strings "inf", "-inf", "nan".
 * Returns 0 with *v set, -1 when v is absent, null or anything else. */
static inline int rr_real(const json_t *j, double *v)
{
    const char *s = json_string_value(j);
    if (json_is_number(j)) {
        *v = json_number_value(j);
        return 0;
    }
    if (!s)
        return -1;
    if (strcmp(s, "inf") == 0)
        *v = INFINITY;
    else if (strcmp(s, "-inf") == 0)
        *v = -INFINITY;
    else if (strcmp(s, "nan") == 0)
        *v = NAN;
    else
        return -1;
    return 0;
}

/* A value object {dec, hex, bits} as a double: its hex float read exactly ("-0x1.62cp+2"),
 * "nan" and "inf" included.  Returns 0, or -1 when j is not such an object. */
static inline int rr_value(const json_t *j, double *v)
{
    const char *h = json_string_value(json_object_get(j, "hex"));
    char *end;
    if (!h || !*h)
        return -1;
    *v = strtod(h, &end);
    return *end ? -1 : 0;
}

/* The suite entry named name of kernel object k, or NULL. */
static inline const json_t *rr_suite(const json_t *k, const char *name)
{
    size_t i;
    json_t *s;
    json_array_foreach(json_object_get(k, "suites"), i, s) {
        if (strcmp(rr_str(s, "name"), name) == 0)
            return s;
    }
    return NULL;
}

/* a + b for counts read from a file: an absurd count saturates instead of overflowing. */
static inline long long rr_count_add(long long a, long long b)
{
    if (b > 0 && a > LLONG_MAX - b)
        return LLONG_MAX;
    if (b < 0 && a < LLONG_MIN - b)
        return LLONG_MIN;
    return a + b;
}

/* The count of findings of kind in suite s ("finding_counts", every region and severity). */
static inline long long rr_suite_kind_count(const json_t *s, const char *kind)
{
    long long n = 0;
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(s, "finding_counts"), i, c) {
        if (strcmp(rr_str(c, "kind"), kind) == 0)
            n = rr_count_add(n, (long long)json_integer_value(json_object_get(c, "count")));
    }
    return n;
}

/* The same over every suite of kernel k. */
static inline long long rr_kind_count(const json_t *k, const char *kind)
{
    long long n = 0;
    size_t i;
    json_t *s;
    json_array_foreach(json_object_get(k, "suites"), i, s)
        n = rr_count_add(n, rr_suite_kind_count(s, kind));
    return n;
}

#endif
