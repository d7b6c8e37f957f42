/* The gelucheck executable: command table, exit codes (docs/design.md section 7) and messages. */
#ifndef GELUCHECK_CLI_H
#define GELUCHECK_CLI_H

#include <jansson.h>

/* Exit codes (contract): the most severe wins, 4 > 3 > 1 > 0. */
enum cli_exit {
    CLI_EXIT_PASS = 0,     /* all kernels pass, or the command did what it was asked */
    CLI_EXIT_FAIL = 1,     /* at least one kernel fails */
    CLI_EXIT_USAGE = 2,    /* usage error: nothing was run */
    CLI_EXIT_LOAD = 3,     /* an adapter or kernel could not be loaded or served */
    CLI_EXIT_INTERNAL = 4  /* internal error, e.g. the reference hit its precision cap */
};

/* A subcommand: argv[0] is its name; returns an enum cli_exit. */
struct cli_command {
    const char *name;
    const char *summary; /* one line, lower case, no final period */
    int (*run)(int argc, char **argv);
};

int cmd_ref(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_baseline(int argc, char **argv);
int cmd_scan(int argc, char **argv);

/* The CPUs this process may run on (its affinity mask; the online CPUs when that cannot be
 * read), at least 1: the default of run --threads (cpus.c). */
unsigned cli_cpus_usable(void);

/* "gelucheck: error: ..." and a newline on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- scan_sites.c ---- */

/* Runs cmd with /bin/sh, its stdout passed through (pass_stdout) or thrown away, its stderr
 * into err (the last part that fits).  Its exit status, 128 + the signal, or -1 when it could
 * not be started. */
int cli_run_script(const char *cmd, int pass_stdout, char *err, size_t size);
/* The WHY of a script's "PROG: error: WHY" line in err (all of err when there is none), *len
 * its length up to the end of the line. */
const char *cli_script_error(const char *err, size_t *len);
/* For a "scan:MODEL" adapter of a run: scans the model as the adapter did (its levels) and
 * puts the gelucheck-scan/1 document into the result's adapter object under "scan".  0, or
 * -1 after a warning (the run goes on; report.md then has no table of the sites). */
/* run --torch-module: each paired site's kernels beside its activation's kernel of the
 * torch-module: adapter, on the same inputs (cli/scan_pairs.c); ads[s] NULL when spec s could
 * not be opened.  Writes "diff" into each pair of the scans in doc. */
struct gc_adapter;
void cli_pair_diffs(json_t *doc, struct gc_adapter *const *ads, const char *const *specs,
                    size_t n);
/* A kernel of a result's own accuracy: {verdict, max_ulp_near, flush_point, f_minus_inf,
 * wrong_signs, suites}; JSON null when it ran no suite (k NULL too). */
json_t *cli_kernel_accuracy(const json_t *k);
/* compare --site-map MAP: the rows of the results lined up by site (cli/compare_sites.c): the
 * Markdown, NULL with msg on a bad map; *unmatched: the rows and map entries that matched
 * nothing (each also a warning on stderr). */
/* A site map (MAP of compare --site-map and run --site-map): a gelucheck-sitemap/1 file or a
 * result of run --torch-module, as an object site -> [ADAPTER/KERNEL...]; NULL with msg
 * naming the file and what is wrong. */
json_t *cli_site_map_load(const char *map, char *msg, size_t size);
char *cli_site_map_markdown(json_t *const *docs, const char *const *files, size_t n,
                            const char *map, size_t *unmatched, char *msg, size_t size);
int cli_scan_attach(json_t *adapter, const char *spec, const char *runtime,
                    const char *torch_module);

/* ---- outputs.c ---- */

/* Creates the folder of an output file (--json FILE, --junit FILE) and its missing parents,
 * as --report DIR is, and checks that it is writable: found out before anything runs.  0, or
 * -1 after "cannot write --json 'x/r.json': ...". */
int cli_check_output(const char *opt, const char *path);
/* Writes doc to each output given (not NULL): json, the report folder, the JUnit XML, each
 * file atomically and its missing folders created first.  0, or -1 after a message per file
 * that could not be written. */
int cli_write_outputs(const json_t *doc, const char *json, const char *report,
                      const char *junit);

/* ---- args.c ---- */
struct option;

/* The message for what getopt_long returned for a bad word: c ':' (a missing value) gives
 * "option 'WORD' needs a value", anything else "unknown option 'WORD'" (word: av[optind - 1]). */
void cli_bad_option(int c, const char *word);

/* The command line of report, baseline and scan: options that take a value, -h/--help, and
 * exactly one operand.  long_opts ends with a zero entry; an option's short letter is its val
 * ('h' is help); values[i] gets the value of long_opts[i] (the caller sets them to NULL
 * first).  Returns 0 with *operand set; -1 after usage() was printed (exit 0); or an exit
 * status after a message: CLI_EXIT_USAGE for a bad option or no or several operands ("no
 * WHAT given (usage: SYNOPSIS)", "one WHAT at a time: 'X' is one too many"),
 * CLI_EXIT_INTERNAL when out of memory. */
int cli_parse_one(int argc, char **argv, const char *short_opts,
                  const struct option *long_opts, const char **values, void (*usage)(void),
                  const char *what, const char *synopsis, const char **operand);

/* --isolation process|none (docs/design.md section 10): *in_process gets 0 for process (built-in
 * and plug-in kernels run in a worker process), 1 for none (in gelucheck's own process; a
 * crash takes gelucheck down).  0, or -1 after "bad --isolation 'X' (...)". */
int cli_parse_isolation(const char *arg, int *in_process);
#define CLI_ISOLATION_HELP \
    "      --isolation MODE      process: built-in and plug-in kernels run in a worker\n" \
    "                            process, so a crash or a hang is a finding and the run\n" \
    "                            goes on; none: in gelucheck's own process (faster to\n" \
    "                            start; a crash ends gelucheck, a hang is not bounded).\n" \
    "                            exec: adapters are processes either way (default:\n" \
    "                            process)\n"

/* --memory-limit SIZE (docs/isolation.md): bytes, or a number with K, M or G (KiB, MiB, GiB,
 * either case); 0 for none; at most 2^63 - 1 bytes.  0, or -1 after "bad --memory-limit 'X':
 * WHY (...)". */
int cli_parse_memory_limit(const char *arg, unsigned long long *bytes);
#define CLI_MEMORY_LIMIT_HELP \
    "      --memory-limit SIZE   memory for each process that runs kernels: bytes, or\n" \
    "                            K, M, G (KiB, MiB, GiB); 0: none.  Each process has it\n" \
    "                            all: one worker per thread and per built-in or plug-in\n" \
    "                            adapter.  A cgroup v2 memory.max for workers and exec\n" \
    "                            adapters where gelucheck runs in a cgroup delegated to\n" \
    "                            it; else RLIMIT_AS for workers only (Node, V8 and\n" \
    "                            Python reserve far more address space than they use,\n" \
    "                            so exec adapters go unlimited).  Off with --isolation\n" \
    "                            none and in sanitizer builds.  A kernel past it gets a\n" \
    "                            crash finding that says it ran out of memory\n" \
    "                            (default: 4G)\n"

/* Case-insensitive string equality (ASCII). */
int cli_ci_equal(const char *a, const char *b);

/* Whether a is a negative number rather than an option: "-5.6", "-.5", "-inf", "-nan",
 * "-0x1p-149" (no option name starts with a digit, '.', "inf" or "nan"). */
int cli_negative_number(const char *a);

/* Rewrites argv into out as argv[0], the options with their values, "--", then the operands
 * (words not starting with '-', a lone "-", negative numbers, everything after "--"), so that
 * getopt_long with a "+" optstring sees options anywhere and negative numbers as operands.
 * out needs CLI_REORDER_SLOTS(argc) entries; it points into argv (no copies).  Returns the
 * new count (out[count] = NULL), or -1 after a message when the last option lacks its value. */
#define CLI_REORDER_SLOTS(argc) ((size_t)(2 * (argc) + 2))
int cli_reorder(int argc, char **argv, const char *short_opts, const struct option *long_opts,
                char **out);

#endif
