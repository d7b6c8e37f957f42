/* Interrupted runs (docs/design.md sections 7 and 10): SIGINT or SIGTERM during `gelucheck run`
 * stops it between work items (gs_config.interrupt), the outputs are written with what was
 * measured, marked "complete": false, and the exit status is 130 or 143; --resume FILE
 * continues such a result (run_exec.c, reports/resume.c, suites/ulp_resume.c). */
#define _POSIX_C_SOURCE 200809L /* sigaction */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h> /* write */

#include "cli.h"
#include "run_args.h"

/* What a signal handler needs: the number of the first signal caught (0: none), and whether
 * its notice starts a line of its own (a progress line may be on stderr's last line). */
static volatile sig_atomic_t caught;
static int notice_newline;
static struct sigaction old_int, old_term;

/* The notice, written at once from the handler (write(2) is async-signal-safe, stdio is not):
 * a work item can take long (an exec adapter's batch, the MPFR path), and the user, or a
 * script that waits for it, learns that the signal arrived and what a second one does. */
#define NOTICE(S) "gelucheck: " S ": stopping after the work items in progress, then writing " \
                  "what was measured (a second " S " stops at once, writing nothing)\n"
static const char notice_int[] = "\n" NOTICE("SIGINT"), notice_term[] = "\n" NOTICE("SIGTERM");

static void on_signal(int sig)
{
    if (!caught) {
        caught = sig;
        const char *m = sig == SIGINT ? notice_int : notice_term;
        size_t n = sig == SIGINT ? sizeof notice_int - 1 : sizeof notice_term - 1;
        ssize_t w = write(STDERR_FILENO, m + !notice_newline, n - !notice_newline);
        (void)w; /* nothing to do about a stderr that cannot be written */
    }
}

const volatile sig_atomic_t *run_signals_install(int newline)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* SA_RESETHAND: the handler runs once, a second signal takes the default action (the
     * process ends at once); SA_RESTART: reads and writes in progress (exec adapters' pipes)
     * go on rather than fail with EINTR */
    sa.sa_flags = SA_RESETHAND | SA_RESTART;
    caught = 0;
    notice_newline = newline;
    /* a SIGINT ignored when we start stays ignored: the shell's way of keeping Ctrl-C away
     * from background jobs (and nohup's) */
    sigaction(SIGINT, NULL, &old_int);
    if (old_int.sa_handler != SIG_IGN)
        sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, &old_term);
    return &caught;
}

void run_signals_restore(void)
{
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
}

const char *run_signal_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "signal";
}

static size_t n_partial(const json_t *doc)
{
    size_t i, partial = 0;
    json_t *k;
    json_array_foreach(json_object_get(doc, "kernels"), i, k)
        partial += json_is_false(json_object_get(k, "complete"));
    return partial;
}

int run_interrupted(json_t *doc, int sig, json_t *not_run)
{
    int code = 128 + sig;
    if (n_partial(doc) || json_array_size(not_run)) {
        json_object_set_new(doc, "complete", json_false());
        json_object_set_new(doc, "interrupted",
                            json_pack("{s:s, s:i, s:o}", "signal", run_signal_name(sig),
                                      "exit_code", code, "kernels_not_run", not_run));
    } else {
        json_decref(not_run);
    }
    return code;
}

void run_interrupted_notice(const json_t *doc, int sig, const struct run_args *r)
{
    size_t partial = n_partial(doc);
    size_t left = json_array_size(json_object_get(json_object_get(doc, "interrupted"),
                                                  "kernels_not_run"));
    const char *out = r->json;
    char path[4200];
    if (!out && r->report) {
        snprintf(path, sizeof path, "%s/result.json", r->report);
        out = path;
    }
    if (!(partial || left))
        fprintf(stderr, "gelucheck: interrupted (%s) after the last kernel finished: the "
                "result is complete\n", run_signal_name(sig));
    else if (out)
        fprintf(stderr, "gelucheck: interrupted (%s): %zu kernel%s incomplete, %zu not run; "
                "what was measured is in '%s' (\"complete\": false): continue with the same "
                "options and --resume '%s'\n", run_signal_name(sig), partial,
                partial == 1 ? "" : "s", left, out, out);
    else
        fprintf(stderr, "gelucheck: interrupted (%s): %zu kernel%s incomplete, %zu not run; "
                "nothing written (no --json or --report given)\n", run_signal_name(sig),
                partial, partial == 1 ? "" : "s", left);
}
