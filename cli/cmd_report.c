/* gelucheck report RESULT.json --report DIR [--junit FILE] (docs/design.md sections 8, 11): the
 * report folder of a saved result, so that reports can be rebuilt without rerunning.  A file
 * that cannot be read, is not JSON or is not a gelucheck-result/1 is exit 2 naming the file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <reports.h>

#include "cli.h"

static const struct option long_opts[] = {
    { "report", required_argument, NULL, 'r' },
    { "junit", required_argument, NULL, 'j' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};
static const char short_opts[] = "+:h";

static void usage(void)
{
    printf("usage: gelucheck report RESULT.json --report DIR [--junit FILE]\n"
           "\n"
           "Renders the report of a result written by 'gelucheck run --json', without\n"
           "running anything again.\n"
           "\n"
           "      --report DIR   write DIR/report.md (Markdown: summary table, then each\n"
           "                     kernel's worst inputs, regions, tail, specials, identity,\n"
           "                     vector results and the commands that reproduce them),\n"
           "                     DIR/report.html (the same with the plots inside: open it\n"
           "                     in a browser, send it alone), DIR/plots/*.svg,\n"
           "                     DIR/junit.xml and DIR/result.json (the result again); DIR\n"
           "                     and its parents are created\n"
           "      --junit FILE   also write the JUnit XML there (one testcase per kernel\n"
           "                     and suite); its folder and parents are created\n"
           "  -h, --help         this text\n"
           "\n"
           "At least one of --report and --junit.  Every file is written atomically.\n"
           "\n"
           "Example:\n"
           "  gelucheck run --adapter libm --kernel erf1p.f32 --json erf1p.json\n"
           "  gelucheck report erf1p.json --report erf1p-report\n"
           "\n"
           "Exit status: 0 written (whatever the verdicts in the result); 2 usage error or a\n"
           "result file that cannot be read, is not JSON or not a gelucheck-result/1;\n"
           "4 a file could not be written.\n");
}

int cmd_report(int argc, char **argv)
{
    const char *v[3] = { NULL }, *file = NULL;
    char msg[4200];
    int rc = cli_parse_one(argc, argv, short_opts, long_opts, v, usage, "result file",
                           "gelucheck report RESULT.json --report DIR", &file);
    const char *dir = v[0], *junit = v[1];

    if (rc)
        return rc < 0 ? CLI_EXIT_PASS : rc;
    if (!dir && !junit) {
        cli_error("nothing to write: give --report DIR or --junit FILE");
        return CLI_EXIT_USAGE;
    }
    json_t *doc = rp_result_load(file, msg, sizeof msg);
    if (!doc) {
        cli_error("%s", msg);
        return CLI_EXIT_USAGE;
    }
    rc = cli_write_outputs(doc, NULL, dir, junit) ? CLI_EXIT_INTERNAL : CLI_EXIT_PASS;
    if (rc == CLI_EXIT_PASS && dir)
        printf("wrote %s/report.html, report.md, result.json, junit.xml and plots/\n", dir);
    json_decref(doc);
    return rc;
}
