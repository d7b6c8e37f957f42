/* The files a command writes from a result (run, merge): checking the paths and creating
 * their folders before anything runs, then writing --json, --report and --junit (cli.h). */
#define _POSIX_C_SOURCE 200809L /* access */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <reports.h>

#include "cli.h"

/* The parent folder of the file path into buf ("." when none). */
static void parent(char *buf, size_t size, const char *path)
{
    snprintf(buf, size, "%s", path);
    char *slash = strrchr(buf, '/');
    if (!slash)
        snprintf(buf, size, ".");
    else
        slash[slash == buf] = '\0'; /* "/r.json": "/" */
}

int cli_check_output(const char *opt, const char *path)
{
    char dir[4096], msg[4200];
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
    if (strlen(path) >= sizeof dir) {
        cli_error("cannot write %s '%s': path too long", opt, path);
        return -1;
    }
    /* its folder and the missing ones above, as --report DIR does */
    parent(dir, sizeof dir, path);
    if (rp_mkdirs(dir, msg, sizeof msg)) {
        cli_error("cannot write %s '%s': %s", opt, path, msg);
        return -1;
    }
    if (access(dir, W_OK) == 0)
        return 0;
    cli_error("cannot write %s '%s': %s", opt, path, strerror(errno));
    return -1;
}

/* Creates the folder of the output file path and the missing ones above (again: one may have
 * gone during the run); 0, or -1 after a message. */
static int make_parent(const char *path)
{
    char dir[4096], msg[4200];
    parent(dir, sizeof dir, path);
    if (rp_mkdirs(dir, msg, sizeof msg)) {
        cli_error("cannot write '%s': %s", path, msg);
        return -1;
    }
    return 0;
}

/* The result into path: 0, or -1 after a message. */
static int write_json(const json_t *doc, const char *path)
{
    char msg[4200];
    if (make_parent(path))
        return -1;
    if (rp_write_json(doc, path, msg, sizeof msg)) {
        cli_error("%s", msg);
        return -1;
    }
    return 0;
}

/* The JUnit XML of the result into path: 0, or -1 after a message. */
static int write_junit(const json_t *doc, const char *path)
{
    char msg[4200];
    char *xml = rp_junit(doc);
    int rc = -1;
    if (!xml)
        cli_error("cannot write '%s': out of memory", path);
    else if (make_parent(path) == 0 && rp_write_text(path, xml, msg, sizeof msg))
        cli_error("%s", msg);
    else
        rc = 0;
    free(xml);
    return rc;
}

int cli_write_outputs(const json_t *doc, const char *json, const char *report,
                      const char *junit)
{
    char msg[4200];
    int bad = 0;
    if (json && write_json(doc, json))
        bad = -1;
    if (report && rp_report_write(doc, report, msg, sizeof msg)) {
        cli_error("%s", msg);
        bad = -1;
    }
    if (junit && write_junit(doc, junit))
        bad = -1;
    return bad;
}
