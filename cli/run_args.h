/* `gelucheck run`: its options once parsed and checked (cmd_run.c), and the run itself
 * (run_exec.c). */
#ifndef GELUCHECK_RUN_ARGS_H
#define GELUCHECK_RUN_ARGS_H

#include <stddef.h>

#include <reports.h>
#include <suites.h>

#include "run_output.h"

struct run_args {
    const char **specs;        /* --adapter, in order */
    const char **names;        /* --adapter-name of each (NULL: the adapter's own name) */
    size_t n_specs;
    const char *options;       /* --adapter-options */
    const char *func;          /* --func: what onnx: models compute (NULL: gelu) */
    const char *runtime;       /* --runtime: where onnx: and scan: models run (NULL:
                                  onnxruntime) */
    const char *torch_module;  /* --torch-module: the TorchScript module the scan: models'
                                  sites are paired with (NULL: none) */
    char *torch_spec;          /* "torch-module:FILE": the adapter --torch-module adds */
    const char **kernels;      /* --kernel, in order */
    size_t n_kernels;
    int has_dtype;
    enum geluref_dtype dtype;  /* --dtype */
    const char *json;          /* --json FILE */
    const char *report;        /* --report DIR: the report folder (reports.h) */
    const char *junit;         /* --junit FILE: JUnit XML there too */
    const char *baseline;      /* --baseline FILE: an earlier result or a compact baseline */
    struct rp_baseline_opts bopt; /* --baseline-tolerance, --baseline-allow-missing; its
                                     site_map is --site-map's, loaded by run_execute */
    const char *site_map;      /* --site-map MAP (with --baseline) */
    const char *resume;        /* --resume FILE: an interrupted run's result to continue */
    double timeout_s, startup_timeout_s;
    int in_process;            /* --isolation none: gc_open_options.in_process */
    unsigned long long memory_limit; /* --memory-limit as given (bytes; 0 none); the one
                                  put in place is cfg.memory_limit */
    enum run_progress_mode progress;
    struct gs_config cfg;      /* suites, policy (owned), seed, samples, exhaustive, range,
                                  threads */
    const char **command;      /* the command line recorded in the result */
    size_t n_command;
};

/* Opens the adapters, runs the kernels, writes the JSON, prints the summary; returns the exit
 * code (run_exec.c). */
int run_execute(struct run_args *r);

/* ---- run_resume.c: SIGINT/SIGTERM and --resume (docs/design.md sections 7, 10) ---- */

/* Catches SIGINT and SIGTERM for the run: the first sets the returned flag to the signal's
 * number (gs_config.interrupt) and writes a one-line notice to stderr at once (after a
 * newline when newline is set: a progress line may be there); the handler then resets
 * itself, so a second one ends the process at once.  run_signals_restore puts the previous
 * handlers back. */
const volatile sig_atomic_t *run_signals_install(int newline);
void run_signals_restore(void);
/* "SIGINT", "SIGTERM" */
const char *run_signal_name(int sig);
/* After the run: marks doc incomplete when a kernel is ("complete": false) or kernels were
 * not run (not_run: [{"adapter", "kernel"}...], stolen), with "interrupted": {"signal",
 * "exit_code", "kernels_not_run"}.  Returns 128 + sig. */
int run_interrupted(json_t *doc, int sig, json_t *not_run);
/* Once the outputs are written: one line on stderr saying what is in which file and how to
 * continue. */
void run_interrupted_notice(const json_t *doc, int sig, const struct run_args *r);

#endif
