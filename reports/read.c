/* Reading a result back (`gelucheck report`, compare, --baseline): the JSON must parse and have
 * the members every reader relies on (reports.h); anything else is one line naming the file
 * and the first problem, so that the CLI can stop with exit 2 before it renders anything. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "reports.h"

/* Checks that o has a member name of the given jansson type; 0, or -1 with msg set. */
static int need(const json_t *o, const char *name, json_type type, const char *path,
                const char *where, char *msg, size_t size)
{
    static const char *const type_name[] = {
        [JSON_OBJECT] = "an object", [JSON_ARRAY] = "an array",   [JSON_STRING] = "a string",
        [JSON_INTEGER] = "a number", [JSON_REAL] = "a number",    [JSON_TRUE] = "a boolean",
        [JSON_FALSE] = "a boolean",  [JSON_NULL] = "null",
    };
    const json_t *m = json_object_get(o, name);
    if (!m) {
        snprintf(msg, size, "%s: %s%sno '%s'", path, where, where[0] ? ": " : "", name);
        return -1;
    }
    if (json_typeof(m) != type) {
        snprintf(msg, size, "%s: %s%s'%s' is not %s", path, where, where[0] ? ": " : "", name,
                 type_name[type]);
        return -1;
    }
    return 0;
}

static int check_suite(const json_t *s, const char *path, const char *where, char *msg,
                       size_t size)
{
    if (!json_is_object(s)) {
        snprintf(msg, size, "%s: %s: not an object", path, where);
        return -1;
    }
    return need(s, "name", JSON_STRING, path, where, msg, size) ||
                   need(s, "verdict", JSON_STRING, path, where, msg, size) ||
                   need(s, "metrics", JSON_OBJECT, path, where, msg, size) ||
                   need(s, "findings", JSON_ARRAY, path, where, msg, size)
               ? -1
               : 0;
}

static int check_kernel(const json_t *k, size_t ki, const char *path, char *msg, size_t size)
{
    static const char *const strings[] = { "adapter", "kernel", "func", "dtype", "verdict" };
    char where[96];
    size_t i;
    json_t *s;

    snprintf(where, sizeof where, "kernels[%zu]", ki);
    if (!json_is_object(k)) {
        snprintf(msg, size, "%s: %s: not an object", path, where);
        return -1;
    }
    for (i = 0; i < sizeof strings / sizeof strings[0]; i++)
        if (need(k, strings[i], JSON_STRING, path, where, msg, size))
            return -1;
    if (need(k, "suites", JSON_ARRAY, path, where, msg, size))
        return -1;
    json_array_foreach(json_object_get(k, "suites"), i, s) {
        snprintf(where, sizeof where, "kernels[%zu].suites[%zu]", ki, i);
        if (check_suite(s, path, where, msg, size))
            return -1;
    }
    return 0;
}

/* adapters[], where a result has it (merge and the totals read it): objects with a string
 * "spec" and a "name" that is a string, or null for an adapter that could not be loaded. */
static int check_adapters(const json_t *doc, const char *path, char *msg, size_t size)
{
    const json_t *all = json_object_get(doc, "adapters"), *a, *name;
    char where[64];
    size_t i;

    if (!all)
        return 0;
    if (!json_is_array(all)) {
        snprintf(msg, size, "%s: 'adapters' is not an array", path);
        return -1;
    }
    json_array_foreach(all, i, a) {
        snprintf(where, sizeof where, "adapters[%zu]", i);
        if (!json_is_object(a)) {
            snprintf(msg, size, "%s: %s: not an object", path, where);
            return -1;
        }
        if (need(a, "spec", JSON_STRING, path, where, msg, size))
            return -1;
        name = json_object_get(a, "name");
        if (name && !json_is_null(name) && !json_is_string(name)) {
            snprintf(msg, size, "%s: %s: 'name' is neither a string nor null", path, where);
            return -1;
        }
    }
    return 0;
}

/* The offset of the first NUL byte in f at or before limit, or -1: jansson stops at a NUL
 * and calls it the end of the file, which it is not. */
static long nul_before(FILE *f, size_t limit)
{
    long at = 0;
    int c;
    rewind(f);
    for (; (size_t)at <= limit && (c = getc(f)) != EOF; at++)
        if (c == 0)
            return at;
    return -1;
}

/* A byte that would break a one-line message: a control byte (below 0x20, or 0x7f). */
static int control_byte(char c) { return (unsigned char)c < 0x20 || c == 0x7f; }

const char *rp_json_error_text(json_error_t *e)
{
    for (char *c = e->text; *c; c++)
        if (control_byte(*c))
            *c = ' ';
    return e->text;
}

json_t *rp_result_load(const char *path, char *msg, size_t size)
{
    json_error_t err;
    FILE *f = fopen(path, "r");
    long nul;

    if (!f) {
        snprintf(msg, size, "%s: cannot read: %s", path, strerror(errno));
        return NULL;
    }
    json_t *doc = json_loadf(f, JSON_REJECT_DUPLICATES, &err);
    int rerr = ferror(f) ? errno : 0;
    nul = doc || rerr ? -1 : nul_before(f, (size_t)err.position);
    fclose(f);
    if (!doc) {
        if (rerr)
            snprintf(msg, size, "%s: cannot read: %s", path, strerror(rerr));
        else if (nul >= 0)
            snprintf(msg, size, "%s: NUL byte at offset %ld", path, nul);
        else if (err.line > 0)
            snprintf(msg, size, "%s: line %d, column %d: %s", path, err.line, err.column,
                     rp_json_error_text(&err));
        else
            snprintf(msg, size, "%s: not JSON: %s", path, rp_json_error_text(&err));
        return NULL;
    }
    if (rp_result_check(doc, path, msg, size)) {
        json_decref(doc);
        return NULL;
    }
    return doc;
}

/* The first 200 bytes of s for a one-line message: a control byte (control_byte) as \xNN,
 * so that a value read from the file cannot break the message's line. */
static const char *one_line(const char *s, char *buf, size_t size)
{
    size_t o = 0;
    for (size_t i = 0; s[i] != '\0' && i < 200 && o + 5 < size; i++) {
        if (control_byte(s[i]))
            o += (size_t)snprintf(buf + o, size - o, "\\x%02x", (unsigned char)s[i]);
        else
            buf[o++] = s[i];
    }
    buf[o] = '\0';
    return buf;
}

int rp_result_check(const json_t *doc, const char *path, char *msg, size_t size)
{
    const char *schema = json_string_value(json_object_get(doc, "schema"));
    size_t i;
    json_t *k;
    if (!json_is_object(doc)) {
        snprintf(msg, size, "%s: not a JSON object", path);
    } else if (!schema) {
        snprintf(msg, size, "%s: %s (want '%s')", path,
                 json_object_get(doc, "schema") ? "'schema' is not a string" : "no 'schema'",
                 RP_SCHEMA);
    } else if (strcmp(schema, RP_SCHEMA) != 0) {
        char b[1024];
        snprintf(msg, size, "%s: schema is '%s', want '%s'", path,
                 one_line(schema, b, sizeof b), RP_SCHEMA);
    } else if (!need(doc, "kernels", JSON_ARRAY, path, "", msg, size)) {
        json_array_foreach(json_object_get(doc, "kernels"), i, k) {
            if (check_kernel(k, i, path, msg, size))
                return -1;
        }
        return check_adapters(doc, path, msg, size);
    }
    return -1;
}
