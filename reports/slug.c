/* slug.c: the file-name stem of a kernel in a report (reports.h).
 *
 * The stem is the kernel identity ADAPTER/KERNEL (the kernel's "id", split at its first
 * '/'; else its "adapter" and "kernel") written ADAPTER-KERNEL.  It must be a visible file
 * name (artifact uploaders and `ls` skip names starting with '.'), short enough for any file
 * system, and different for any two kernels of a report.  The identities of a run are
 * unique and made of [A-Za-z0-9_.-] (docs/design.md section 12), so the stem of one is unique
 * too as long as the '-' that stands for '/' can be found again: the first '-' when ADAPTER
 * holds none.  Every other stem (a byte replaced, a leading '.' or '-', cut at SLUG_MAX
 * bytes, an ADAPTER with '-', an id without '/') gets "-" and a hash of the kernel's adapter
 * spec, kernel, func, dtype and id appended, so that two kernels whose specs share their
 * first few hundred bytes, or differ only in bytes that were replaced, get two names. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "reports.h"

/* Longest stem in bytes before the hash: with "-" + HASH_HEX digits and "-ulp_linear.svg" a name
 * stays well under the 255 bytes most file systems allow (and RP_SLUG_SIZE holds it). */
#define SLUG_MAX 100
/* Hex digits of the hash: 48 bits, so that a collision among even 10^4 kernels stays below
 * one in a million (birthday bound n^2 / 2^49). */
#define HASH_HEX 12

_Static_assert(SLUG_MAX + 1 + HASH_HEX < RP_SLUG_SIZE, "RP_SLUG_SIZE holds every stem");

static int slug_byte(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '.' || c == '-';
}

static const char *member(const json_t *kernel, const char *key)
{
    const char *s = json_string_value(json_object_get(kernel, key));
    return s ? s : "";
}

/* FNV-1a, 64 bits, over s and its terminating NUL (so that ("ab", "c") and ("a", "bc")
 * differ). */
static uint64_t fnv1a(uint64_t h, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    do {
        h ^= *p;
        h *= 0x100000001b3u; /* the 64-bit FNV prime */
    } while (*p++);
    return h;
}

/* Appends s[0..n) to stem[*len..] (at most SLUG_MAX bytes in all), each byte outside the set
 * as '_', a leading '.' or '-' as '_'; returns whether anything was replaced or cut, or
 * (adapter) s holds a '-'. */
static int put(char *stem, size_t *len, const char *s, size_t n, int adapter)
{
    int hash = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (*len == SLUG_MAX)
            return 1;
        if (!slug_byte((unsigned char)c))
            hash = 1, c = '_';
        else if (c == '-' && adapter)
            hash = 1; /* the stem would not say where KERNEL starts */
        if (*len == 0 && (c == '.' || c == '-'))
            hash = 1, c = '_'; /* visible, and never taken for an option */
        stem[(*len)++] = c;
    }
    return hash;
}

void rp_kernel_slug(const json_t *kernel, char *buf, size_t size)
{
    char stem[RP_SLUG_SIZE];
    const char *id = json_string_value(json_object_get(kernel, "id"));
    const char *a = id ? id : member(kernel, "adapter");
    const char *k = id ? strchr(id, '/') : member(kernel, "kernel");
    size_t n = 0, na = id && k ? (size_t)(k - id) : strlen(a);
    int hash;

    if (size == 0)
        return;
    k = id && k ? k + 1 : k; /* the id's ADAPTER ends at its first '/' (names have none) */
    hash = put(stem, &n, a, na, 1);
    if (k) {
        hash |= put(stem, &n, "-", 1, 0);
        hash |= put(stem, &n, k, strlen(k), 0);
    } else {
        hash = 1; /* an id without '/': not ADAPTER/KERNEL */
    }
    stem[n] = '\0';
    if (hash) {
        uint64_t h = 0xcbf29ce484222325u; /* the 64-bit FNV offset basis */
        h = fnv1a(h, member(kernel, "adapter"));
        h = fnv1a(h, member(kernel, "kernel"));
        h = fnv1a(h, member(kernel, "func"));
        h = fnv1a(h, member(kernel, "dtype"));
        h = fnv1a(h, id ? id : "");
        snprintf(stem + n, sizeof stem - n, "%s%0*llx", n ? "-" : "", HASH_HEX,
                 (unsigned long long)(h >> (64 - 4 * HASH_HEX)));
    }
    snprintf(buf, size, "%s", stem);
}
