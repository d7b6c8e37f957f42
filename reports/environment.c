/* "environment" of a result: the CPU, its floating-point relevant flags, the C library, the
 * OS and the compiler that built gelucheck.  Read from /proc/cpuinfo and uname(2); anything
 * that cannot be read is "unknown" (never an error: the result is still valid). */
#define _GNU_SOURCE /* gnu_get_libc_version */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#if defined(__GLIBC__) || defined(__linux__)
#include <features.h>
#endif
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "reports.h"

/* The flags that change how a kernel may compute (vector width, FMA, half and bfloat16
 * conversions), in the order listed; the names are the kernel's /proc/cpuinfo names. */
static const char *const cpu_flags[] = {
    "sse2", "avx", "avx2", "fma", "avx512f", "avx512_bf16", "f16c",
};
#define N_FLAGS (sizeof cpu_flags / sizeof cpu_flags[0])

/* Copies the value of the first "key<tabs>: value" line of /proc/cpuinfo into buf. */
static int cpuinfo(const char *key, char *buf, size_t size)
{
    static char line[8192]; /* a flags line of a recent x86 CPU is about 1.6 kB */
    FILE *f = fopen("/proc/cpuinfo", "r");
    int found = 0;
    size_t n = strlen(key);

    if (!f)
        return 0;
    while (!found && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, key, n) != 0 || !colon || strspn(line + n, " \t") != (size_t)(colon - line) - n)
            continue;
        char *v = colon + 1 + strspn(colon + 1, " \t");
        v[strcspn(v, "\n")] = '\0';
        snprintf(buf, size, "%s", v);
        found = 1;
    }
    fclose(f);
    return found;
}

/* Whether word appears as a whole word in the space-separated list. */
static int has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(list, word); p; p = strstr(p + 1, word))
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

json_t *rp_environment(void)
{
    static char model[256], flags[8192];
    char libc[64] = "unknown", os[3 * 65 + 4] = "unknown";
    struct utsname u;

    if (!cpuinfo("model name", model, sizeof model)) /* x86; other machines: "unknown" */
        snprintf(model, sizeof model, "unknown");
    if (!cpuinfo("flags", flags, sizeof flags))
        flags[0] = '\0';
    json_t *fl = json_array();
    for (size_t i = 0; fl && i < N_FLAGS; i++)
        if (has_word(flags, cpu_flags[i]))
            json_array_append_new(fl, json_string(cpu_flags[i]));
#ifdef __GLIBC__
    snprintf(libc, sizeof libc, "glibc %s", gnu_get_libc_version());
#endif
    if (uname(&u) == 0)
        snprintf(os, sizeof os, "%s %s %s", u.sysname, u.release, u.machine);
#if defined(__clang__)
    const char *cc = "clang " __clang_version__;
#elif defined(__GNUC__)
    const char *cc = "gcc " __VERSION__;
#else
    const char *cc = "unknown";
#endif
    return json_pack("{s:s, s:o, s:s, s:s, s:s}", "cpu", model, "cpu_flags", fl, "libc", libc,
                     "os", os, "compiler", cc);
}
