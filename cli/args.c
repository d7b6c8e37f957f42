/* Argument helpers shared by the subcommands. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_ci_equal(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

int cli_negative_number(const char *a)
{
    const char *s = a + 1;

    if (a[0] != '-')
        return 0;
    if (isdigit((unsigned char)s[0]) || (s[0] == '.' && isdigit((unsigned char)s[1])))
        return 1;
    return cli_ci_equal(s, "inf") || cli_ci_equal(s, "infinity") || cli_ci_equal(s, "nan");
}

/* Whether option word a ("--dtype", "--dt", "-d") takes the next word as its value, the way
 * getopt_long decides it (unambiguous prefixes of long names included). */
static int takes_next(const char *a, const char *short_opts, const struct option *long_opts)
{
    if (a[1] != '-') {
        short_opts += strspn(short_opts, "+-:");
        const char *o = strchr(short_opts, a[1]);
        return a[1] != ':' && a[2] == '\0' && o && o[1] == ':';
    }
    if (strchr(a, '='))
        return 0;
    int hits = 0, arg = 0;
    for (const struct option *o = long_opts; o->name; o++)
        if (strncmp(o->name, a + 2, strlen(a + 2)) == 0) {
            hits++;
            arg = o->has_arg == required_argument;
            if (strcmp(o->name, a + 2) == 0)
                return arg;
        }
    return hits == 1 && arg;
}

int cli_reorder(int argc, char **argv, const char *short_opts, const struct option *long_opts,
                char **out)
{
    char **ops = out + argc + 1; /* scratch: the upper half of out */
    int n = 0, k = 0;

    out[n++] = argv[0];
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        int next = a[0] == '-' && takes_next(a, short_opts, long_opts);
        if (strcmp(a, "--") == 0) {
            while (++i < argc)
                ops[k++] = argv[i];
        } else if (a[0] != '-' || a[1] == '\0' || cli_negative_number(a)) {
            ops[k++] = a;
        } else if (next && i + 1 == argc) {
            cli_error("option '%s' needs a value", a);
            return -1;
        } else {
            out[n++] = a;
            if (next)
                out[n++] = argv[++i];
        }
    }
    out[n++] = "--";
    memmove(out + n, ops, (size_t)k * sizeof *out);
    out[n + k] = NULL;
    return n + k;
}

int cli_parse_one(int argc, char **argv, const char *short_opts,
                  const struct option *long_opts, const char **values, void (*usage)(void),
                  const char *what, const char *synopsis, const char **operand)
{
    char **av = malloc(CLI_REORDER_SLOTS(argc) * sizeof *av);
    int c, help = 0, rc = CLI_EXIT_USAGE;

    if (!av) {
        cli_error("out of memory");
        return CLI_EXIT_INTERNAL;
    }
    int ac = cli_reorder(argc, argv, short_opts, long_opts, av);
    opterr = 0;
    optind = 1;
    while (ac >= 0 && (c = getopt_long(ac, av, short_opts, long_opts, NULL)) != -1) {
        size_t i = 0;
        while (long_opts[i].name && long_opts[i].val != c)
            i++;
        if (c == 'h') {
            help = 1;
        } else if (long_opts[i].name && long_opts[i].has_arg == required_argument) {
            values[i] = optarg;
        } else {
            cli_bad_option(c, av[optind - 1]);
            goto out;
        }
    }
    if (ac < 0)
        goto out;
    if (help) {
        usage();
        rc = -1;
    } else if (optind >= ac) {
        cli_error("no %s given (usage: %s)", what, synopsis);
    } else if (optind + 1 < ac) {
        cli_error("one %s at a time: '%s' is one too many", what, av[optind + 1]);
    } else {
        *operand = av[optind]; /* a word of argv: it outlives av */
        rc = 0;
    }
out:
    free(av);
    return rc;
}

void cli_bad_option(int c, const char *word)
{
    if (c == ':')
        cli_error("option '%s' needs a value", word);
    else
        cli_error("unknown option '%s'", word);
}

int cli_parse_isolation(const char *arg, int *in_process)
{
    if (strcmp(arg, "process") == 0 || strcmp(arg, "none") == 0) {
        *in_process = strcmp(arg, "none") == 0;
        return 0;
    }
    cli_error("bad --isolation '%s' (expected one of: process, none)", arg);
    return -1;
}

int cli_parse_memory_limit(const char *arg, unsigned long long *bytes)
{
    static const char want[] = "want bytes, or a number with K, M or G for KiB, MiB, GiB, "
                               "or 0 for no limit";
    static const char units[] = "KkMmGg"; /* 2^10, 2^20, 2^30 */
    const char *why = NULL, *u = NULL;
    unsigned long long v = 0, unit = 1;
    char *end;

    if (!arg[0]) {
        why = "it is empty";
    } else if (arg[0] == '-') {
        why = "it is negative";
    } else if (!isdigit((unsigned char)arg[0])) {
        why = "it is not a number";
    } else {
        errno = 0;
        v = strtoull(arg, &end, 10);
        if (end[0] && (end[1] || !(u = strchr(units, end[0])))) {
            cli_error("bad --memory-limit '%s': unknown suffix '%s' (%s)", arg, end, want);
            return -1;
        }
        unit = u ? 1ull << (10 * (1 + (u - units) / 2)) : 1;
        if (errno == ERANGE || v > (uint64_t)INT64_MAX / unit)
            why = "it is too large (at most 9223372036854775807 bytes)";
    }
    if (why) {
        cli_error("bad --memory-limit '%s': %s (%s)", arg, why, want);
        return -1;
    }
    *bytes = v * unit;
    return 0;
}
