/* Running the scan script (adapters/onnxruntime/scan.js through gc_scan_command): for
 * `gelucheck scan`, and for `gelucheck run --adapter scan:MODEL`, whose result then holds the
 * scan under its adapter's "scan" (docs/model-audit.md), so that report.md can give one row
 * per site of the model: what ONNX Runtime runs there at each level, and what its kernel
 * measured. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <reports.h>

#include "adapter.h"
#include "cli.h"

int cli_run_script(const char *cmd, int pass_stdout, char *err, size_t size)
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        close(fd[1]);
        if (!pass_stdout) {
            int null = open("/dev/null", O_WRONLY);
            if (null >= 0)
                dup2(null, 1);
        }
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    size_t n = 0;
    ssize_t r;
    char buf[1024];
    while ((r = read(fd[0], buf, sizeof buf)) > 0) {
        size_t m = (size_t)r < size - 1 ? (size_t)r : size - 1;
        if (n + m > size - 1) { /* keep the tail */
            memmove(err, err + (n + m - (size - 1)), size - 1 - m);
            n = size - 1 - m;
        }
        memcpy(err + n, buf + (size_t)r - m, m);
        n += m;
    }
    err[n] = '\0';
    close(fd[0]);
    int st;
    if (waitpid(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

const char *cli_script_error(const char *err, size_t *len)
{
    /* "gelucheck_ort.js: error: WHY\n" -> "WHY" */
    const char *why = strstr(err, ": error: ");
    why = why ? why + 9 : err;
    *len = strcspn(why, "\n");
    return why;
}

int cli_scan_attach(json_t *adapter, const char *spec, const char *runtime,
                    const char *torch_module)
{
    char file[4096], err[4096], *cmd = NULL;
    const char *dir = getenv("TMPDIR");

    if (!dir || !dir[0] || strlen(dir) > 4000)
        dir = "/tmp";
    snprintf(file, sizeof file, "%s/gelucheck-scan-XXXXXX", dir);
    int fd = mkstemp(file);
    if (fd < 0) {
        fprintf(stderr, "gelucheck: warning: adapter '%s': cannot make a temporary file for its "
                "scan; report.md will have no table of its sites\n", spec);
        return -1;
    }
    close(fd);
    int rc = -1;
    if (gc_scan_command_rt(spec + 5, file, runtime, torch_module, &cmd, err, sizeof err) !=
        GC_OK) {
        fprintf(stderr, "gelucheck: warning: adapter '%s': cannot scan it (%s); report.md will "
                "have no table of its sites\n", spec, err);
        goto out;
    }
    int st = cli_run_script(cmd, 0, err, sizeof err);
    if (st != 0) {
        size_t len;
        const char *why = st < 0 ? "cannot start /bin/sh" : cli_script_error(err, &len);
        fprintf(stderr, "gelucheck: warning: adapter '%s': its scan failed (%.*s); report.md "
                "will have no table of its sites\n", spec, st < 0 ? 20 : (int)len, why);
        goto out;
    }
    json_error_t je;
    json_t *scan = json_load_file(file, 0, &je);
    if (!scan || !json_is_object(scan) ||
        strcmp(json_string_value(json_object_get(scan, "schema")) ? json_string_value(
                   json_object_get(scan, "schema")) : "", "gelucheck-scan/1") != 0) {
        fprintf(stderr, "gelucheck: warning: adapter '%s': its scan wrote no gelucheck-scan/1 "
                "document (%s); report.md will have no table of its sites\n", spec,
                scan ? "another schema" : rp_json_error_text(&je));
        json_decref(scan);
        goto out;
    }
    rc = json_object_set_new(adapter, "scan", scan) ? -1 : 0;
out:
    free(cmd);
    unlink(file);
    return rc;
}
