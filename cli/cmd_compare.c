/* gelucheck compare RESULT.json... --report DIR (docs/design.md sections 8, 11): the kernels of
 * several saved results in one table per func and dtype (DIR/compare.md, and DIR/compare.html
 * for a browser) and one plot of max ulp error per binade (DIR/plots/compare.svg).  Without --report the table goes to stdout.
 * Every file is loaded before anything is written: a file that cannot be read, is not JSON or
 * is not a gelucheck-result/1 is exit 2 naming the file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <reports.h>

#include "cli.h"

static const struct option long_opts[] = {
    { "report", required_argument, NULL, 'r' },
    { "site-map", required_argument, NULL, 's' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};
static const char short_opts[] = "+:h";

static void usage(void)
{
    printf("usage: gelucheck compare RESULT.json... [--report DIR] [--site-map MAP]\n"
           "\n"
           "Compares the kernels of results written by 'gelucheck run --json' (several\n"
           "adapters, libraries or machines) in one table per func and dtype: max ulp outside\n"
           "the tail and overall, fraction correctly rounded, flush point beside the last\n"
           "non-zero input, NaN at -inf, zero signs, detected formula, verdict.\n"
           "\n"
           "      --report DIR   write DIR/compare.md (the tables), DIR/plots/compare.svg\n"
           "                     (max ulp error per binade of x, one line per kernel) and\n"
           "                     DIR/compare.html (the tables with the plot inside: a\n"
           "                     page that travels alone); DIR and its parents are created\n"
           "                     (default: the tables on stdout)\n"
           "      --site-map MAP also line the kernels up by the model site they measure:\n"
           "                     MAP is a gelucheck-sitemap/1 file or a result of 'run\n"
           "                     --torch-module' (docs/model-audit.md); kernels that match\n"
           "                     no site, and map entries found in no result, are listed\n"
           "                     and warned about on stderr\n"
           "  -h, --help         this text\n"
           "\n"
           "Example:\n"
           "  gelucheck run --adapter libm --dtype f32 --json libm.json\n"
           "  gelucheck run --adapter plugin:./libmykernels.so --json mine.json\n"
           "  gelucheck compare libm.json mine.json --report compare-out\n"
           "\n"
           "Exit status: 0 written (whatever the verdicts in the results); 2 usage error or a\n"
           "result file that cannot be read, is not JSON or not a gelucheck-result/1;\n"
           "4 a file could not be written.\n");
}

/* The plot into dir/plots/compare.svg, then the tables with a link to it into dir/compare.md
 * and dir/compare.html (the same Markdown for a browser, the plot embedded), in that order:
 * neither links a plot that is not there.  Returns an exit code, after a message when not 0. */
static int write_report(json_t *const *docs, size_t n, const char *dir, const char *md)
{
    static const char plot[] =
        "\n## Plot\n\n![max ulp error per binade of x, one line per kernel](plots/compare.svg)\n";
    char msg[4200], path[4096];
    char *text = NULL, *html = NULL;
    int rc = CLI_EXIT_INTERNAL;

    if (snprintf(path, sizeof path, "%s/plots", dir) >= (int)sizeof path) {
        cli_error("cannot write '%s': path too long", dir);
        return CLI_EXIT_INTERNAL;
    }
    if (rp_mkdirs(path, msg, sizeof msg)) {
        cli_error("%s", msg);
        return CLI_EXIT_INTERNAL;
    }
    snprintf(path, sizeof path, "%s/plots/compare.svg", dir);
    if (rp_plot_compare_write(docs, n, path, msg, sizeof msg)) {
        cli_error("%s", msg);
        return CLI_EXIT_INTERNAL;
    }
    if ((text = malloc(strlen(md) + sizeof plot)))
        strcat(strcpy(text, md), plot);
    if (!text) {
        cli_error("out of memory");
        goto out;
    }
    if (!(html = rp_markdown_html_embedded(text, "gelucheck compare", dir, msg, sizeof msg))) {
        cli_error("cannot write '%s/compare.html': %s", dir, msg);
        goto out;
    }
    snprintf(path, sizeof path, "%s/compare.md", dir);
    if (rp_write_text(path, text, msg, sizeof msg))
        goto fail;
    snprintf(path, sizeof path, "%s/compare.html", dir);
    if (rp_write_text(path, html, msg, sizeof msg))
        goto fail;
    printf("wrote %s/compare.html, %s/compare.md and %s/plots/compare.svg\n", dir, dir, dir);
    rc = CLI_EXIT_PASS;
    goto out;
fail:
    cli_error("%s", msg);
out:
    free(html);
    free(text);
    return rc;
}

static int compare(char **files, size_t n, const char *dir, const char *map)
{
    json_t **docs = calloc(n, sizeof *docs);
    char msg[4200];
    int rc = CLI_EXIT_USAGE;
    size_t i;

    if (!docs) {
        cli_error("out of memory");
        return CLI_EXIT_INTERNAL;
    }
    for (i = 0; i < n; i++)
        if (!(docs[i] = rp_result_load(files[i], msg, sizeof msg))) {
            cli_error("%s", msg);
            goto out;
        }
    char *md = rp_compare_markdown(docs, (const char *const *)files, n);
    if (!md) {
        cli_error("out of memory");
        rc = CLI_EXIT_INTERNAL;
        goto out;
    }
    if (map) {
        size_t unmatched;
        char *by = cli_site_map_markdown(docs, (const char *const *)files, n, map, &unmatched,
                                         msg, sizeof msg);
        char *both = by ? malloc(strlen(md) + strlen(by) + 1) : NULL;
        if (!by) {
            cli_error("%s", msg);
            free(md);
            goto out;
        }
        if (both)
            strcat(strcpy(both, md), by);
        free(by);
        free(md);
        if (!(md = both)) {
            cli_error("out of memory");
            rc = CLI_EXIT_INTERNAL;
            goto out;
        }
        if (unmatched)
            fprintf(stderr, "gelucheck: warning: %zu kernel(s) or map entries matched nothing "
                    "(listed under 'By site')\n", unmatched);
    }
    if (dir) {
        rc = write_report(docs, n, dir, md);
    } else {
        fputs(md, stdout);
        rc = CLI_EXIT_PASS;
    }
    free(md);
out:
    for (i = 0; i < n; i++)
        json_decref(docs[i]);
    free(docs);
    return rc;
}

int cmd_compare(int argc, char **argv)
{
    char **av = malloc(CLI_REORDER_SLOTS(argc) * sizeof *av);
    const char *dir = NULL, *map = NULL;
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
        } else if (c == 'r') {
            dir = optarg;
        } else if (c == 's') {
            map = optarg;
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
    } else if (optind >= ac) {
        cli_error("no result file given (usage: gelucheck compare RESULT.json... --report DIR)");
    } else {
        rc = compare(av + optind, (size_t)(ac - optind), dir, map);
    }
out:
    fflush(stdout);
    free(av);
    return rc;
}
