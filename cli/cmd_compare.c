/* gelucheck compare: being written (issue: reports). */
#include "cli.h"

int cmd_compare(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("'compare' is not implemented yet");
    return CLI_EXIT_USAGE;
}
