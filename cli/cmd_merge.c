/* gelucheck merge SHARD.json... --json OUT (docs/design.md sections 9, 11): the results of the N
 * shards of one run (gelucheck run --shard K/N) joined into the result of the run without
 * --shard (rp_merge), written like run writes it, with its summary and its exit status.
 * Every file is loaded and checked before anything is written: a file that cannot be read,
 * is not a gelucheck-result/1, is not a complete shard of the same run as the others, or a
 * shard missing or given twice is exit 2 naming the file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <reports.h>

#include "cli.h"
#include "run_output.h"

static const struct option long_opts[] = {
    { "json", required_argument, NULL, 'J' },
    { "report", required_argument, NULL, 'R' },
    { "junit", required_argument, NULL, 'U' },
    { "baseline", required_argument, NULL, 'B' },
    { "site-map", required_argument, NULL, 'G' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};
static const char short_opts[] = "+:h";

static void usage(void)
{
    printf("usage: gelucheck merge SHARD.json... --json OUT [--report DIR] [--junit FILE]\n"
           "                       [--baseline OLD.json [--site-map MAP]]\n"
           "\n"
           "Joins the results of the N shards of one run ('gelucheck run --shard K/N --json\n"
           "SHARD.json' for K = 0 .. N-1, in any order) into the result the run without\n"
           "--shard writes: the same bytes but \"shard\" (which says merged) and \"timing\"\n"
           "(the shards' wall times added).  The ulp suite's counts, maxima and worst\n"
           "findings are merged; the other suites, which run in shard 0 only, come from\n"
           "shard 0; verdicts are judged again from the merged findings.\n"
           "\n"
           "      --json OUT        write the merged result there (atomically; its folder\n"
           "                        and parents are created)\n"
           "      --report DIR      write the report folder of the merged result, as\n"
           "                        'gelucheck run --report' does\n"
           "      --junit FILE      write its JUnit XML there (its folder is created)\n"
           "      --baseline FILE   an earlier result: a kernel that got worse in any metric\n"
           "                        fails, as with 'gelucheck run --baseline'\n"
           "      --site-map MAP    with --baseline: kernels matched by model site too, as\n"
           "                        with 'gelucheck run --site-map'\n"
           "  -h, --help            this text\n"
           "\n"
           "At least one of --json, --report and --junit.  The shards must be complete results\n"
           "of one run: the same options, kernels, policy and gelucheck, each shard once;\n"
           "their output paths (--json, --report, --junit) may differ.  The merged result\n"
           "keeps shard 0's command line and environment.\n"
           "\n"
           "Example (docs/scale-out.md: Slurm and Kubernetes):\n"
           "  for k in 0 1 2 3; do\n"
           "    gelucheck run --adapter libm --kernel erfc.f32 --exhaustive --shard $k/4 \\\n"
           "      --json shard-$k.json\n"
           "  done\n"
           "  gelucheck merge shard-*.json --json erfc.json --report erfc-report\n"
           "\n"
           "Exit status: that of the run without --shard (0 every kernel passes, 1 a kernel\n"
           "fails, 3 an adapter or kernel could not be loaded or served, 4 internal error);\n"
           "2 usage error or a file that cannot be merged (nothing written); 4 also when a\n"
           "file could not be written.\n");
}

struct merge_args {
    const char *json, *report, *junit, *baseline, *site_map;
    char **files;
    size_t n_files;
};

/* The options; 0, 1 for --help (done), or -1 after a message. */
static int parse_args(struct merge_args *a, int ac, char **av)
{
    int c, help = 0;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(ac, av, short_opts, long_opts, NULL)) != -1) {
        if (c == 'h')
            help = 1;
        else if (c == 'J' || c == 'R' || c == 'U' || c == 'B' || c == 'G')
            *(c == 'J'   ? &a->json
              : c == 'R' ? &a->report
              : c == 'U' ? &a->junit
              : c == 'B' ? &a->baseline
                         : &a->site_map) = optarg;
        else {
            cli_bad_option(c, av[optind - 1]);
            return -1;
        }
    }
    if (help) {
        usage();
        return 1;
    }
    a->files = av + optind;
    a->n_files = (size_t)(ac - optind);
    if (a->n_files == 0) {
        cli_error("no shard results given (usage: gelucheck merge SHARD.json... --json OUT)");
        return -1;
    }
    if (a->site_map && !a->baseline) {
        cli_error("--site-map '%s' needs --baseline: it says which kernel of the baseline "
                  "each kernel is compared with", a->site_map);
        return -1;
    }
    if (!a->json && !a->report && !a->junit) {
        cli_error("nothing to write: give --json OUT, --report DIR or --junit FILE");
        return -1;
    }
    return (a->json && cli_check_output("--json", a->json)) ||
                   (a->junit && cli_check_output("--junit", a->junit))
               ? -1
               : 0;
}

/* Loads every file and the baseline, then merges: the merged document, or NULL after a
 * message (exit 2). */
static json_t *load_and_merge(const struct merge_args *a, json_t **docs, json_t **old,
                              json_t **map)
{
    char msg[4200];
    json_t *doc = NULL;
    for (size_t i = 0; i < a->n_files; i++)
        if (!(docs[i] = rp_result_load(a->files[i], msg, sizeof msg))) {
            cli_error("%s", msg);
            return NULL;
        }
    if (a->baseline && !(*old = rp_baseline_load(a->baseline, msg, sizeof msg))) {
        cli_error("--baseline: %s", msg);
        return NULL;
    }
    if (a->site_map && !(*map = cli_site_map_load(a->site_map, msg, sizeof msg))) {
        cli_error("--site-map: %s", msg);
        return NULL;
    }
    if (!(doc = rp_merge(docs, (const char *const *)a->files, a->n_files, msg, sizeof msg)))
        cli_error("%s", msg);
    return doc;
}

int cmd_merge(int argc, char **argv)
{
    struct merge_args a;
    char **av = malloc(CLI_REORDER_SLOTS(argc) * sizeof *av);
    json_t **docs = calloc((size_t)argc + 1, sizeof *docs), *old = NULL, *doc = NULL,
           *map = NULL;
    int rc = CLI_EXIT_USAGE;

    memset(&a, 0, sizeof a);
    if (!av || !docs) {
        cli_error("out of memory");
        rc = CLI_EXIT_INTERNAL;
        goto out;
    }
    int ac = cli_reorder(argc, argv, short_opts, long_opts, av);
    int p = ac < 0 ? -1 : parse_args(&a, ac, av);
    if (p != 0) {
        rc = p > 0 ? CLI_EXIT_PASS : CLI_EXIT_USAGE;
        goto out;
    }
    if (!(doc = load_and_merge(&a, docs, &old, &map)))
        goto out;
    rc = (int)json_integer_value(json_object_get(doc, "exit_code"));
    struct rp_baseline_opts bopt = { 0, 0, 0, map, a.site_map };
    if (old)
        rc = rp_baseline_apply(doc, old, map ? &bopt : NULL);
    if (cli_write_outputs(doc, a.json, a.report, a.junit))
        rc = CLI_EXIT_INTERNAL;
    run_summary_print(stdout, doc);
    run_baseline_print(stdout, doc);
    if (old)
        run_baseline_warn(doc, a.baseline);
    if (a.report)
        printf("report: %s/report.md\n", a.report);
out:
    fflush(stdout);
    for (size_t i = 0; docs && i < a.n_files; i++)
        json_decref(docs[i]);
    json_decref(doc);
    json_decref(old);
    json_decref(map);
    free(docs);
    free(av);
    return rc;
}
