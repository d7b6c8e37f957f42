/* gelucheck report: being written (issue: reports). */
#include "cli.h"

int cmd_report(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("'report' is not implemented yet");
    return CLI_EXIT_USAGE;
}
