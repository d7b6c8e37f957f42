/* What `gelucheck run` shows on the terminal (run_output.c): the summary on stdout, read from
 * the result document, and the progress line on stderr. */
#ifndef GELUCHECK_RUN_OUTPUT_H
#define GELUCHECK_RUN_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

/* Under --baseline: the line "baseline: N kernels compared, R regressions, I improvements,
 * M missing, A new", then the kernels of each and what could not be compared
 * (run_baseline.c). */
void run_baseline_print(FILE *f, const json_t *doc);
/* Under --baseline FILE, on stderr: "gelucheck: warning: ..." for each kernel with no
 * baseline through --site-map, each kernel of the baseline compared with none, each entry of
 * the map in neither, and when nothing at all was compared (suggesting --site-map). */
void run_baseline_warn(const json_t *doc, const char *file);
/* The summary of a finished result: one line per kernel ("FAIL  mutants  erf1p_float.f32
 * gelu f32  worst: premature_flush at x = ..."), under it one line per finding kind in the
 * order of severity with its count, worst input, likely cause and usual fix, adapters that
 * could not be loaded, and the totals. */
void run_summary_print(FILE *f, const json_t *doc);
/* The parts about findings (run_findings.c): "  worst: KIND ..." for the end of a kernel's
 * line (nothing without a finding that is not ignored), and the lines of its kinds. */
void run_worst_print(FILE *f, const json_t *k);
void run_kinds_print(FILE *f, const json_t *k);

enum run_progress_mode { RUN_PROGRESS_AUTO = 0, RUN_PROGRESS_ALWAYS, RUN_PROGRESS_NEVER };

/* The progress line: "[3/22] mutants erf1p_float.f32  ulp  12000/20000  41.2k/s  ETA 2s",
 * rewritten in place with '\r' at most a few times a second; with RUN_PROGRESS_AUTO only when
 * stderr is a terminal and the run has taken more than a second. */
struct run_progress;
struct run_progress *run_progress_new(enum run_progress_mode mode);
/* A kernel starts: index (from 1) of n, its adapter spec. */
void run_progress_kernel(struct run_progress *p, unsigned index, unsigned n, const char *adapter);
/* The gs_progress_fn of struct gs_config (arg = the struct run_progress). */
void run_progress_fn(void *arg, const char *kernel, const char *suite, uint64_t done,
                     uint64_t total);
/* Clears the line (if one was shown) and frees; NULL is fine. */
void run_progress_free(struct run_progress *p);

#endif
