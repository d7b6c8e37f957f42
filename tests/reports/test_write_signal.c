/* rp_write_text (reports/write.c) ended by a signal: a SIGINT or SIGTERM whose action is to end
 * the process (as the second signal to gelucheck run is) arrives while the temporary file is
 * being written; the process must die of that signal, leaving neither the temporary file nor
 * a target.  A child writes 128 MiB (more if it finishes before the signal lands); the parent
 * signals it as soon as PATH.tmp.PID appears.  Usage: test_write_signal DIR.  Exit 0 when both
 * signals behaved so, 1 when one did not, 77 when no write was slow enough to be caught. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "reports.h"

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

/* 1: caught and clean; 0: the write finished first (try a bigger one); -1: failure. */
static int one(const char *dir, int sig, size_t bytes)
{
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/target-%d.json", dir, sig);
    unlink(path);
    char *text = malloc(bytes + 1);
    if (!text)
        return -1;
    memset(text, 'x', bytes);
    text[bytes] = '\0';
    pid_t pid = fork();
    if (pid == 0) {
        char msg[512];
        signal(sig, SIG_DFL);
        _exit(rp_write_text(path, text, msg, sizeof msg) == 0 ? 0 : 3);
    }
    free(text);
    if (pid < 0)
        return -1;
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)pid);
    struct timespec ms = { 0, 200000 };
    int seen = 0;
    for (int i = 0; i < 100000 && !seen; i++) { /* up to about 20 s */
        seen = exists(tmp);
        int st;
        if (!seen && waitpid(pid, &st, WNOHANG) == pid)
            return 0; /* done (or failed) before the file was seen */
        if (!seen)
            nanosleep(&ms, NULL);
    }
    if (seen)
        kill(pid, sig);
    int st = 0;
    waitpid(pid, &st, 0);
    if (!seen) {
        printf("signal %d: %s never appeared\n", sig, tmp);
        return -1;
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0; /* the write completed before the signal landed */
    if (!WIFSIGNALED(st) || WTERMSIG(st) != sig) {
        printf("signal %d: the writer did not die of it (status %#x)\n", sig, st);
        return -1;
    }
    int bad = 0;
    if (exists(tmp)) {
        printf("signal %d: the temporary file %s was left behind\n", sig, tmp);
        unlink(tmp);
        bad = 1;
    }
    if (exists(path)) {
        printf("signal %d: the target %s was written\n", sig, path);
        unlink(path);
        bad = 1;
    }
    if (!bad)
        printf("signal %d: the writer died of it, %zu MiB into the write, no file left\n", sig,
               bytes >> 20);
    return bad ? -1 : 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_write_signal DIR\n");
        return 2;
    }
    int sigs[2] = { SIGINT, SIGTERM }, rc = 0;
    for (int s = 0; s < 2; s++) {
        int r = 0;
        for (size_t bytes = (size_t)128 << 20; r == 0 && bytes <= (size_t)1 << 30; bytes *= 2)
            r = one(argv[1], sigs[s], bytes);
        if (r < 0)
            rc = 1;
        else if (r == 0 && rc == 0)
            rc = 77;
    }
    return rc;
}
