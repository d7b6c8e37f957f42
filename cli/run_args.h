/* `gelucheck run`: its options once parsed and checked (cmd_run.c), and the run itself
 * (run_exec.c). */
#ifndef GELUCHECK_RUN_ARGS_H
#define GELUCHECK_RUN_ARGS_H

#include <stddef.h>

#include <suites.h>

#include "run_output.h"

struct run_args {
    const char **specs;        /* --adapter, in order */
    size_t n_specs;
    const char *options;       /* --adapter-options */
    const char *func;          /* --func: what onnx: models compute (NULL: gelu) */
    const char **kernels;      /* --kernel, in order */
    size_t n_kernels;
    int has_dtype;
    enum geluref_dtype dtype;  /* --dtype */
    const char *json;          /* --json FILE */
    const char *report;        /* --report DIR: the report folder (reports.h) */
    const char *junit;         /* --junit FILE: JUnit XML there too */
    const char *baseline;      /* --baseline FILE: an earlier result to fail regressions on */
    double timeout_s, startup_timeout_s;
    enum run_progress_mode progress;
    struct gs_config cfg;      /* suites, policy (owned), seed, samples, exhaustive, range,
                                  threads */
    const char **command;      /* the command line recorded in the result */
    size_t n_command;
};

/* Opens the adapters, runs the kernels, writes the JSON, prints the summary; returns the exit
 * code (run_exec.c). */
int run_execute(struct run_args *r);

#endif
