/* gelucheck scan MODEL.onnx [--json FILE]: the GELU-like sites of an ONNX model and what ONNX
 * Runtime computes at each one at each graph optimization level (docs/model-audit.md).  The
 * onnxruntime adapter's script does the work (adapters/onnxruntime/scan.js): this command runs
 * it, passes its table through to stdout and turns its one-line error into ours. */
#define _POSIX_C_SOURCE 200809L /* fdopen */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "adapter.h"
#include "cli.h"

static const struct option long_opts[] = {
    { "json", required_argument, NULL, 'j' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};
static const char short_opts[] = "+:h";

static void usage(void)
{
    printf("usage: gelucheck scan MODEL.onnx [--json FILE]\n"
           "\n"
           "Lists every GELU-like site of an ONNX model: ai.onnx Gelu; com.microsoft Gelu,\n"
           "FastGelu, BiasGelu, QuickGelu; the erf and tanh decompositions exporters and people\n"
           "write; x*sigmoid(a*x), with a (1.702: the GELU approximation; 1: SiLU, listed but\n"
           "not a GELU).  For each ONNX Runtime optimization level (disabled, basic, extended,\n"
           "layout, all) it says which operator computes the site in the optimized whole model,\n"
           "and which kernel of 'gelucheck run --adapter scan:MODEL.onnx' measures it.\n"
           "\n"
           "      --json FILE  also write the scan as JSON (schema gelucheck-scan/1)\n"
           "  -h, --help       this text\n"
           "\n"
           "Example:\n"
           "  gelucheck scan model.onnx\n"
           "  gelucheck run --adapter scan:model.onnx --report audit\n"
           "\n"
           "Exit status: 0 scanned; 2 usage error; 3 the model cannot be read or loaded, or\n"
           "ONNX Runtime is not in this build.\n");
}

/* Appends s to w in single quotes for /bin/sh; returns the end. */
static char *shq(char *w, const char *s)
{
    *w++ = '\'';
    for (; *s; s++)
        w = *s == '\'' ? (memcpy(w, "'\\''", 4), w + 4) : (*w = *s, w + 1);
    *w++ = '\'';
    *w = '\0';
    return w;
}

/* Runs cmd with stdout passed through; its stderr into err (the last part that fits). */
static int run_script(const char *cmd, char *err, size_t size)
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        close(fd[1]);
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

int cmd_scan(int argc, char **argv)
{
    char **av = malloc(CLI_REORDER_SLOTS(argc) * sizeof *av);
    const char *json = NULL;
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
        } else if (c == 'j') {
            json = optarg;
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
        goto out;
    }
    if (optind >= ac) {
        cli_error("no model given (usage: gelucheck scan MODEL.onnx [--json FILE])");
        goto out;
    }
    if (optind + 1 < ac) {
        cli_error("one model at a time: '%s' is one too many", av[optind + 1]);
        goto out;
    }
    if (json && cli_check_output("--json", json))
        goto out;
    const char *model = av[optind], *skipped = "not built";
    const struct gc_builtin *ort = NULL;
    for (size_t i = 0; i < gc_builtin_count(); i++)
        if (strcmp(gc_builtin_get(i)->name, "onnxruntime") == 0) {
            ort = gc_builtin_get(i);
            skipped = ort->skipped ? ort->skipped : skipped;
        }
    rc = CLI_EXIT_LOAD;
    if (!ort || !ort->command) {
        cli_error("cannot scan '%s': ONNX Runtime is not in this build (%s)", model, skipped);
        goto out;
    }
    char *base, err[4096];
    if (gc_builtin_command(ort, &base, err, sizeof err) != GC_OK) { /* its files are missing */
        cli_error("cannot scan '%s': %s", model, err);
        goto out;
    }
    char *cmd = malloc(strlen(base) + 4 * (strlen(model) + (json ? strlen(json) : 0)) + 64);
    if (!cmd) {
        free(base);
        cli_error("out of memory");
        rc = CLI_EXIT_INTERNAL;
        goto out;
    }
    char *w = shq(cmd + sprintf(cmd, "%s --scan-report ", base), model);
    free(base);
    if (json)
        shq(w + sprintf(w, " --json "), json);
    int st = run_script(cmd, err, sizeof err);
    free(cmd);
    if (st == 0) {
        fputs(err, stderr); /* its notes, if any */
        rc = CLI_EXIT_PASS;
        goto out;
    }
    /* "gelucheck_ort.js: error: WHY\n" -> "gelucheck: error: WHY" */
    const char *why = strstr(err, ": error: ");
    why = why ? why + 9 : err;
    size_t len = strcspn(why, "\n");
    if (st < 0)
        cli_error("cannot scan '%s': cannot start /bin/sh", model);
    else
        cli_error("%.*s", (int)len, len ? why : "the scan script failed with no message");
out:
    free(av);
    return rc;
}
