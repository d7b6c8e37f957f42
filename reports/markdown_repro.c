/* report.md, per kernel (markdown.h): the commands that reproduce its findings: the run
 * restricted to this kernel, and `gelucheck ref` at each finding's input. */
#include <string.h>

#include "markdown.h"

/* The options of `gelucheck run` (cli/cmd_run.c) and whether each takes a value, to walk a
 * recorded command line, abbreviations ("--samp 5") and "--name=value" included. */
static const struct {
    const char *name;
    int value;
} run_opts[] = {
    { "adapter", 1 }, { "adapter-options", 1 }, { "kernel", 1 },   { "dtype", 1 },
    { "suite", 1 },   { "policy", 1 },          { "exhaustive", 0 }, { "samples", 1 },
    { "seed", 1 },    { "range", 1 },           { "threads", 1 },  { "json", 1 },
    { "timeout", 1 }, { "startup-timeout", 1 }, { "progress", 1 }, { "help", 0 },
    { "func", 1 },    { "shard", 1 },           { "reference", 1 }, { "report", 1 },
    { "junit", 1 },   { "baseline", 1 },        { "resume", 1 },
};
#define N_RUN_OPTS (sizeof run_opts / sizeof run_opts[0])

/* The option word w names ("--sam=3" -> samples), as getopt_long resolves it: an exact name,
 * else the only one it is a prefix of; -1 when none or ambiguous. */
static int option_of(const char *w)
{
    if (strncmp(w, "--", 2) != 0 || !w[2])
        return -1;
    size_t n = strcspn(w + 2, "=");
    int hit = -1, hits = 0;
    for (size_t i = 0; i < N_RUN_OPTS; i++) {
        if (strncmp(run_opts[i].name, w + 2, n) != 0)
            continue;
        if (strlen(run_opts[i].name) == n)
            return (int)i;
        hit = (int)i;
        hits++;
    }
    return hits == 1 ? hit : -1;
}

void md_shell_word(struct md *m, const char *s)
{
    /* bytes a POSIX shell takes literally outside quotes */
    static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                "0123456789_./:=,+-@%";
    if (s[0] && strspn(s, plain) == strlen(s)) {
        md_puts(m, s);
        return;
    }
    md_puts(m, "'");
    for (; *s; s++) {
        if (*s == '\'')
            md_puts(m, "'\\''");
        else
            md_printf(m, "%c", (unsigned char)*s < 0x20 ? ' ' : *s);
    }
    md_puts(m, "'");
}

void md_run_command(struct md *m, const json_t *doc, const json_t *k)
{
    const json_t *cmd = json_object_get(doc, "command");
    const char *spec = md_str(k, "adapter");
    size_t n = json_array_size(cmd);

    md_puts(m, "gelucheck run");
    /* the recorded words after "gelucheck run", less the other adapters, the kernel choice
     * and the outputs (json, report, junit, baseline, resume) */
    for (size_t i = 2; i < n; i++) {
        const char *w = json_string_value(json_array_get(cmd, i));
        int o = w ? option_of(w) : -1;
        if (!w)
            continue;
        const char *val = NULL;
        if (o >= 0 && run_opts[o].value)
            val = strchr(w, '=') ? strchr(w, '=') + 1
                                 : json_string_value(json_array_get(cmd, ++i));
        if (o >= 0) {
            const char *nm = run_opts[o].name;
            if (strcmp(nm, "kernel") == 0 || strcmp(nm, "json") == 0 ||
                strcmp(nm, "report") == 0 || strcmp(nm, "junit") == 0 ||
                strcmp(nm, "baseline") == 0 || strcmp(nm, "resume") == 0 ||
                (strcmp(nm, "adapter") == 0 && (!val || strcmp(val, spec) != 0)))
                continue;
            md_printf(m, " --%s", nm);
            if (val) {
                md_puts(m, " ");
                md_shell_word(m, val);
            }
            continue;
        }
        md_puts(m, " ");
        md_shell_word(m, w);
    }
    md_puts(m, " --kernel ");
    md_shell_word(m, md_str(k, "kernel"));
}

/* Whether command c is already among the ref lines written (a linear scan: a few dozen). */
static int seen(const char **done, size_t n, const char *c)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(done[i], c) == 0)
            return 1;
    return 0;
}

void md_reproduce(struct md *m, const json_t *doc, const json_t *k)
{
    /* at most this many ref lines per kernel: one per (suite, kind, region) group is a few
     * dozen at most (6 suites, 18 kinds, 7 regions in principle; far fewer in practice) */
    enum { MAX_REF = 64 };
    const char *done[MAX_REF];
    size_t n_done = 0, i, j;
    json_t *s, *f;

    md_puts(m, "\n### Reproduce\n\nThis kernel alone, then the correctly rounded value at the "
               "worst input of each kind and region (every finding kept is in result.json, "
               "with its command):\n\n```sh\n");
    md_run_command(m, doc, k);
    md_puts(m, "\n");
    json_array_foreach(json_object_get(k, "suites"), i, s) {
        const char *prev_kind = "", *prev_region = "";
        json_array_foreach(json_object_get(s, "findings"), j, f) {
            const char *c = md_str(f, "command"), *kind = md_str(f, "kind");
            const char *region = md_str(f, "region");
            /* findings come grouped by (kind, region), the worst first */
            int first = strcmp(kind, prev_kind) != 0 || strcmp(region, prev_region) != 0;
            prev_kind = kind;
            prev_region = region;
            if (!first || !c[0] || seen(done, n_done, c) || n_done == MAX_REF)
                continue;
            done[n_done++] = c;
            md_puts(m, c);
            md_printf(m, "  # %s: %s in %s", md_str(s, "name"), kind, region);
            if (md_str(json_object_get(f, "x"), "dec")[0])
                md_printf(m, ", x = %s", md_str(json_object_get(f, "x"), "dec"));
            md_puts(m, "\n");
        }
    }
    md_puts(m, "```\n");
}
