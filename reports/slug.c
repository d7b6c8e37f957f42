/* slug.c: the file-name stem of a kernel in a report (reports.h). */
#include <string.h>

#include "reports.h"

/* Longest stem in bytes (without the NUL): with "-approx.svg" a name stays well under the
 * 255 bytes most file systems allow. */
#define SLUG_MAX 120

static int slug_byte(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '.' || c == '-';
}

void rp_kernel_slug(const json_t *kernel, char *buf, size_t size)
{
    const char *a = json_string_value(json_object_get(kernel, "adapter"));
    const char *k = json_string_value(json_object_get(kernel, "kernel"));
    const char *part[3] = { a ? a : "", "-", k ? k : "" };
    size_t n = 0, max = size ? size - 1 : 0;
    if (size == 0)
        return;
    max = max < SLUG_MAX ? max : SLUG_MAX;
    for (int i = 0; i < 3; i++)
        for (const unsigned char *p = (const unsigned char *)part[i]; *p && n < max; p++)
            buf[n++] = slug_byte(*p) ? (char)*p : '_';
    buf[n] = '\0';
}
