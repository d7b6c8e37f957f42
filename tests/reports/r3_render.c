/* The renderers of junit.c and compare.c on saved results, for the golden tests and their
 * update (fixtures_r3/update.sh):
 *   r3_render junit RESULT.json [BASELINE.json]   junit.xml (after rp_baseline_apply)
 *   r3_render compare RESULT.json...              compare.md, each result named by its base
 *                                                 name
 * Output on stdout; exit 0, or 2 after a message on stderr. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <reports.h>

static json_t *load(const char *path)
{
    char msg[4200];
    json_t *doc = rp_result_load(path, msg, sizeof msg);
    if (!doc)
        fprintf(stderr, "r3_render: %s\n", msg);
    return doc;
}

static int junit(int argc, char **argv)
{
    json_t *doc = load(argv[2]), *old = argc > 3 ? load(argv[3]) : NULL;
    if (!doc || (argc > 3 && !old))
        return 2;
    if (old)
        rp_baseline_apply(doc, old, NULL);
    char *xml = rp_junit(doc);
    if (xml)
        fputs(xml, stdout);
    free(xml);
    json_decref(doc);
    json_decref(old);
    return xml ? 0 : 2;
}

static int compare(int argc, char **argv)
{
    size_t n = (size_t)argc - 2;
    json_t **docs = calloc(n, sizeof *docs);
    const char **names = calloc(n, sizeof *names);
    int rc = 2;
    for (size_t i = 0; docs && names && i < n; i++) {
        const char *slash = strrchr(argv[2 + i], '/');
        names[i] = slash ? slash + 1 : argv[2 + i];
        if (!(docs[i] = load(argv[2 + i])))
            goto out;
    }
    char *md = docs && names ? rp_compare_markdown(docs, names, n) : NULL;
    if (md) {
        fputs(md, stdout);
        rc = 0;
    }
    free(md);
out:
    for (size_t i = 0; docs && i < n; i++)
        json_decref(docs[i]);
    free(docs);
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && argc <= 4 && strcmp(argv[1], "junit") == 0)
        return junit(argc, argv);
    if (argc >= 3 && strcmp(argv[1], "compare") == 0)
        return compare(argc, argv);
    fprintf(stderr, "usage: r3_render junit RESULT.json [BASELINE.json] | "
                    "compare RESULT.json...\n");
    return 2;
}
