/* The options of `gelucheck run` (runopts.h). */
#include <string.h>

#include "runopts.h"

/* cli/cmd_run.c's long options and whether each takes a value: all of them (the test
 * runopts_complete compares this table with `gelucheck run --help`), or a command word would
 * be taken for a value or a value for a word. */
static const struct {
    const char *name;
    int value;
} run_opts[] = {
    { "adapter", 1 }, { "adapter-options", 1 }, { "kernel", 1 },   { "dtype", 1 },
    { "suite", 1 },   { "policy", 1 },          { "exhaustive", 0 }, { "samples", 1 },
    { "seed", 1 },    { "range", 1 },           { "threads", 1 },  { "json", 1 },
    { "timeout", 1 }, { "startup-timeout", 1 }, { "progress", 1 }, { "help", 0 },
    { "func", 1 },    { "shard", 1 },           { "reference", 1 }, { "report", 1 },
    { "junit", 1 },   { "baseline", 1 },        { "resume", 1 },  { "memory-limit", 1 },
    { "site-map", 1 }, { "adapter-name", 1 },  { "baseline-tolerance", 1 },
    { "baseline-allow-missing", 0 },            { "runtime", 1 },  { "torch-module", 1 },
    { "isolation", 1 },
};
#define N_RUN_OPTS (sizeof run_opts / sizeof run_opts[0])

int rp_run_option(const char *w, const char **name, int *value)
{
    *name = NULL;
    *value = 0;
    if (strncmp(w, "--", 2) != 0 || !w[2])
        return 0;
    size_t n = strcspn(w + 2, "=");
    int hit = -1, hits = 0;
    for (size_t i = 0; i < N_RUN_OPTS && hits >= 0; i++) {
        if (strncmp(run_opts[i].name, w + 2, n) != 0)
            continue;
        hit = (int)i;
        hits = strlen(run_opts[i].name) == n ? -1 : hits + 1; /* exact: that one */
    }
    if (hit < 0 || hits > 1)
        return 0;
    *name = run_opts[hit].name;
    *value = run_opts[hit].value;
    return 1;
}
