/* The files a command writes from a result (run, merge): checking the paths before anything
 * runs, then writing --json, --report and --junit (cli.h). */
#define _POSIX_C_SOURCE 200809L /* access */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <reports.h>

#include "cli.h"

int cli_check_output(const char *opt, const char *path)
{
    char buf[4096];
    struct stat st;
    /* caught now, not after the run: an empty name, a folder ("out/", "/tmp") */
    if (!*path) {
        cli_error("cannot write %s '': empty file name", opt);
        return -1;
    }
    if (path[strlen(path) - 1] == '/' || (stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
        cli_error("cannot write %s '%s': Is a directory", opt, path);
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", path);
    const char *dir = dirname(buf);
    if (access(dir, W_OK) == 0)
        return 0;
    cli_error("cannot write %s '%s': %s", opt, path, strerror(errno));
    return -1;
}

int cli_write_outputs(const json_t *doc, const char *json, const char *report,
                      const char *junit)
{
    char msg[4200];
    int bad = 0;
    if (json && rp_write_json(doc, json, msg, sizeof msg)) {
        cli_error("%s", msg);
        bad = -1;
    }
    if (report && rp_report_write(doc, report, msg, sizeof msg)) {
        cli_error("%s", msg);
        bad = -1;
    }
    if (junit) {
        char *xml = rp_junit(doc);
        if (!xml || rp_write_text(junit, xml, msg, sizeof msg)) {
            if (!xml)
                snprintf(msg, sizeof msg, "cannot write '%s': out of memory", junit);
            cli_error("%s", msg);
            bad = -1;
        }
        free(xml);
    }
    return bad;
}
