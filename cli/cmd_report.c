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
    char **av = malloc(CLI_REORDER_SLOTS(argc) * sizeof *av);
    const char *dir = NULL, *junit = NULL;
    char msg[4200];
    int c, help = 0, rc = CLI_EXIT_USAGE;

    if (!av) {
        cli_error("out of memory");
        return CLI_EXIT_INTERNAL;
    }
    int ac = cli_reorder(argc, argv, short_opts, long_opts, av);
    opterr = 0;
    optind = 1;
    while (ac >= 0 && (c = getopt_long(ac, av, short_opts, long_opts, NULL)) != -1) {
        if (c == 'h') {
            help = 1;
        } else if (c == 'r' || c == 'j') {
            *(c == 'r' ? &dir : &junit) = optarg;
        } else {
            cli_bad_option(c, av[optind - 1]);
            goto out;
        }
    }
    if (ac < 0)
        goto out;
    if (help) {
        usage();
        rc = CLI_EXIT_PASS;
        goto out;
    }
    if (optind >= ac) {
        cli_error("no result file given (usage: gelucheck report RESULT.json --report DIR)");
        goto out;
    }
    if (optind + 1 < ac) {
        cli_error("one result file at a time: '%s' is one too many", av[optind + 1]);
        goto out;
    }
    if (!dir && !junit) {
        cli_error("nothing to write: give --report DIR or --junit FILE");
        goto out;
    }
    json_t *doc = rp_result_load(av[optind], msg, sizeof msg);
    if (!doc) {
        cli_error("%s", msg);
        goto out;
    }
    rc = cli_write_outputs(doc, NULL, dir, junit) ? CLI_EXIT_INTERNAL : CLI_EXIT_PASS;
    if (rc == CLI_EXIT_PASS && dir)
        printf("wrote %s/report.html, report.md, result.json, junit.xml and plots/\n", dir);
    json_decref(doc);
out:
    free(av);
    return rc;
}
