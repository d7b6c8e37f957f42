/* gelucheck baseline RESULT.json -o FILE: the compact baseline of a result (docs/ci.md),
 * schema gelucheck-baseline/1: what `run --baseline` compares, a few kilobytes to commit and
 * review like code.  A result that cannot be read is exit 2 naming the file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include <reports.h>

#include "cli.h"

static const struct option long_opts[] = {
    { "output", required_argument, NULL, 'o' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};
static const char short_opts[] = "+:ho:";

static void usage(void)
{
    printf("usage: gelucheck baseline RESULT.json -o FILE\n"
           "\n"
           "Writes the compact baseline of a result written by 'gelucheck run --json': the\n"
           "options that decide the inputs, the policy, the adapters' names and, per kernel\n"
           "(by its identity ADAPTER/KERNEL), its verdict, max ulp, fraction correctly\n"
           "rounded, flush point, special values passed and finding counts by suite and kind.\n"
           "'gelucheck run --baseline FILE' takes it, or a whole result.\n"
           "\n"
           "  -o, --output FILE  where to write it (atomically; parent folders are created)\n"
           "  -h, --help         this text\n"
           "\n"
           "Example:\n"
           "  gelucheck run --adapter libm --kernel erfc.f32 --json now.json\n"
           "  gelucheck baseline now.json -o erfc.baseline.json\n"
           "  gelucheck run --adapter libm --kernel erfc.f32 --baseline erfc.baseline.json\n"
           "\n"
           "Exit status: 0 written; 2 usage error or a result that cannot be read, is not\n"
           "JSON or not a gelucheck-result/1; 4 the file could not be written.\n");
}

int cmd_baseline(int argc, char **argv)
{
    const char *v[3] = { NULL }, *file = NULL;
    char msg[4200];
    int rc = cli_parse_one(argc, argv, short_opts, long_opts, v, usage, "result file",
                           "gelucheck baseline RESULT.json -o FILE", &file);
    const char *out = v[0];

    if (rc)
        return rc < 0 ? CLI_EXIT_PASS : rc;
    rc = CLI_EXIT_USAGE;
    if (!out) {
        cli_error("no output file given (-o FILE)");
        return rc;
    }
    if (cli_check_output("--output", out))
        return rc;
    json_t *doc = rp_result_load(file, msg, sizeof msg);
    if (!doc) {
        cli_error("%s", msg);
        return rc;
    }
    json_t *b = rp_baseline_compact(doc);
    json_decref(doc);
    rc = CLI_EXIT_INTERNAL;
    if (!b)
        cli_error("out of memory");
    else if (rp_write_json(b, out, msg, sizeof msg))
        cli_error("%s", msg);
    else
        rc = CLI_EXIT_PASS;
    if (rc == CLI_EXIT_PASS)
        printf("wrote %s: %zu kernels\n", out, json_array_size(json_object_get(b, "kernels")));
    json_decref(b);
    return rc;
}
