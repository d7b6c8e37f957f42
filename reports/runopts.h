/* Private to reports/: the options of `gelucheck run` (cli/cmd_run.c), to walk a recorded
 * command line (the Markdown's reproduce command, gelucheck merge's comparison of shards). */
#ifndef GELUCHECK_RUNOPTS_H
#define GELUCHECK_RUNOPTS_H

/* Whether option word w ("--samples", "--samp=5", "--json") names an option of gelucheck run
 * as getopt_long resolves it (an exact name, else the only one it is a prefix of); then
 * *name is its long name and *value whether it takes a value.  0 (and *name NULL) for
 * anything else: an operand, a value, an unknown or ambiguous word. */
int rp_run_option(const char *w, const char **name, int *value);

#endif
