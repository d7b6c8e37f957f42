/* gelucheck: dispatch to a subcommand (one file per command, cmd_*.c). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <geluref.h>

#include "cli.h"

static const struct cli_command commands[] = {
    { "ref", "print correctly rounded reference values", cmd_ref },
    { "list", "list adapters and their kernels", cmd_list },
    { "run", "run the conformance suites on kernels and judge them", cmd_run },
    { "report", "render the report of a saved result (Markdown, SVG, JUnit)", cmd_report },
    { "compare", "compare the kernels of several results in one table", cmd_compare },
    { "merge", "join the results of the shards of one run (run --shard K/N)", cmd_merge },
    { "baseline", "write the compact baseline of a result, for run --baseline", cmd_baseline },
    { "scan", "list the GELU sites of an ONNX model and what ONNX Runtime runs there", cmd_scan },
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

void cli_error(const char *fmt, ...)
{
    va_list ap;

    fputs("gelucheck: error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static void usage(FILE *f)
{
    fputs("usage: gelucheck COMMAND [OPTIONS] [ARGS]\n"
          "       gelucheck help [COMMAND] | --help | --version\n\ncommands:\n",
          f);
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("\n'gelucheck COMMAND --help' describes a command.\n", f);
}

static const struct cli_command *find(const char *name)
{
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

/* "gelucheck help [COMMAND]": the usage, or COMMAND --help. */
static int help(int argc, char **argv)
{
    if (argc < 2) {
        usage(stdout);
        return CLI_EXIT_PASS;
    }
    const struct cli_command *c = find(argv[1]);
    if (!c) {
        cli_error("unknown command '%s'", argv[1]);
        return CLI_EXIT_USAGE;
    }
    char *sub[] = { argv[1], "--help", NULL };
    return c->run(2, sub);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        cli_error("no command given");
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)
        return help(1, argv + 1);
    if (strcmp(name, "help") == 0)
        return help(argc - 1, argv + 1);
    if (strcmp(name, "--version") == 0) {
        printf("gelucheck %s (geluref %s, MPFR %s)\n", GELUCHECK_VERSION,
               geluref_version(), mpfr_get_version());
        return CLI_EXIT_PASS;
    }
    const struct cli_command *c = find(name);
    if (!c) {
        cli_error(name[0] == '-' ? "unknown option '%s'" : "unknown command '%s'", name);
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    return c->run(argc - 1, argv + 1);
}
