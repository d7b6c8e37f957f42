/* Runs a fuzz target over files without libFuzzer: the committed corpus as an ordinary test
 * (ctest fuzz_corpus_NAME), and a reproducer under gdb or valgrind.
 *   fuzz_NAME_replay PATH...    each PATH a file, or a folder whose files are run in name order
 * Prints "replay: N inputs" and exits 0; a target that finds a broken contract aborts. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

#define REPLAY_MAX (16u << 20) /* a corpus file is small; past this it is not a corpus */

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = malloc(REPLAY_MAX);
    size_t n = 0;

    if (f == NULL || buf == NULL) {
        fprintf(stderr, "replay: error: cannot read '%s'\n", path);
        if (f)
            fclose(f);
        free(buf);
        return -1;
    }
    n = fread(buf, 1, REPLAY_MAX, f);
    int bad = ferror(f) || !feof(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "replay: error: cannot read '%s' (or larger than %u bytes)\n", path,
                REPLAY_MAX);
        free(buf);
        return -1;
    }
    /* a copy of exactly n bytes, so that ASan sees a read past the input */
    uint8_t *in = malloc(n ? n : 1);
    if (in == NULL) {
        free(buf);
        return -1;
    }
    memcpy(in, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(in, n);
    free(in);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of a folder in name order (dot files skipped); returns the count run, -1 on error. */
static int run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0;
    int runs = 0;

    if (d == NULL) {
        fprintf(stderr, "replay: error: cannot open folder '%s'\n", dir);
        return -1;
    }
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(names, cap * sizeof *names);
            if (grown == NULL)
                break;
            names = grown;
        }
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        if ((names[n] = malloc(len)) == NULL)
            break;
        snprintf(names[n++], len, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (n > 0)
        qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        if (runs >= 0)
            runs = run_file(names[i]) == 0 ? runs + 1 : -1;
        free(names[i]);
    }
    free(names);
    return runs;
}

int main(int argc, char **argv)
{
    int total = 0;
    struct stat st;

    if (argc < 2) {
        fprintf(stderr, "usage: %s PATH...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        int r;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: error: no such file or folder '%s'\n", argv[i]);
            return 1;
        }
        r = S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i]) == 0 ? 1 : -1;
        if (r < 0)
            return 1;
        total += r;
    }
    printf("replay: %d inputs\n", total);
    return 0;
}
