/* Reports (DESIGN.md section 8): the JSON result document, schema gelucheck-result/1
 * (reports/schema/gelucheck-result-1.schema.json), and writing it atomically.  Module prefix
 * rp_.  Internal to gelucheck; nothing here prints or exits.
 *
 * Building a result:
 *   doc = rp_result_new(&meta);                       head: schema, tool, command, options
 *   rp_result_add_adapter(doc, spec, a, NULL);        per adapter (a NULL + message: error)
 *   rp_result_add_kernel(doc, kobj, wall_s);          per kernel, gs_run_kernel's object
 *   rp_result_finish(doc, policy, internal, wall_s);  verdict, exit_code, totals, policy values
 *   rp_write_json(doc, path, msg, size);              temp file + rename
 *
 * Members in order: schema, tool, command, policy, verdict, exit_code, rounding, reference,
 * seed, samples, exhaustive, range, memory_limit, suites, complete, shard, environment,
 * adapters, kernels, totals, timing, and, in an interrupted run only, interrupted
 * (cli/run_resume.c).
 * Everything but "timing" depends only on the options that change what is measured, so two
 * runs with the same options give the same bytes whatever --threads (kept in "timing"). */
#ifndef GELUCHECK_REPORTS_H
#define GELUCHECK_REPORTS_H

#include <stddef.h>

#include <jansson.h>

#include "suites.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RP_SCHEMA "gelucheck-result/1"

/* What the head of a result records. */
struct rp_meta {
    const char *tool_version;        /* gelucheck's version ("0.1.0") */
    const char *const *command;      /* the command line as recorded (argv strings) */
    size_t n_command;
    const struct gs_config *cfg;     /* suites, policy, reference, seed, samples, exhaustive,
                                        range, memory_limit, shard, threads (timing only) */
};

/* The head of a result, with empty adapters and kernels; NULL on no memory. */
json_t *rp_result_new(const struct rp_meta *m);

/* Appends an adapter: a opened (its name, version, kind), or a == NULL and error the reason it
 * could not be loaded (verdict error).  Returns 0, nonzero on no memory. */
int rp_result_add_adapter(json_t *doc, const char *spec, const struct gc_adapter *a,
                          const char *error);

/* Appends a kernel object (stolen, as from gs_run_kernel) with its wall time ("timing").
 * Returns 0, nonzero on no memory (kernel NULL counts as that). */
int rp_result_add_kernel(json_t *doc, json_t *kernel, double wall_s);

/* Completes the document: "policy"."values" for every (func, dtype) of its kernels, each
 * adapter's kernel count and verdict, "totals", "verdict", "exit_code" (DESIGN.md section 7:
 * 4 if internal (the reference failed in some gs_run_kernel), else 3 if an adapter or kernel
 * is an error, else 1 if a kernel fails, else 0) and "timing"."wall_s".  Returns the exit
 * code. */
int rp_result_finish(json_t *doc, const struct gs_policy *policy, int internal, double wall_s);

/* "environment": {"cpu", "cpu_flags", "libc", "os", "compiler"} of this machine and build
 * (environment.c). */
json_t *rp_environment(void);

/* Writes doc to path atomically: into "PATH.tmp.PID" in the same folder, flushed to disk,
 * then renamed over path; never a half-written file.  Returns 0, or nonzero with msg set
 * ("cannot write 'r.json': No such file or directory"). */
int rp_write_json(const json_t *doc, const char *path, char *msg, size_t size);

/* ---------------------------------------------------------------- files (write.c) ------- */

/* Writes text to path atomically (temporary name in the same folder, then rename), like
 * rp_write_json.  Returns 0, or nonzero with msg set. */
int rp_write_text(const char *path, const char *text, char *msg, size_t size);
/* mkdir -p: creates path and its missing parents (mode 0777 & ~umask).  0, or nonzero + msg
 * ("cannot create folder 'out/plots': Permission denied"). */
int rp_mkdirs(const char *path, char *msg, size_t size);

/* ---------------------------------------------------------------- reading (read.c) ------ */

/* Loads a result file and checks what every reader relies on: valid JSON, "schema" equal to
 * RP_SCHEMA, "kernels" an array of objects each with string "adapter", "kernel", "func",
 * "dtype", "verdict" and an array "suites" of objects with "name", "verdict", "metrics",
 * "findings".  Returns NULL with msg naming the file and what is wrong ("old.json: line 3:
 * ...", "r.json: schema is 'x', want 'gelucheck-result/1'", "r.json: kernels[2]: no
 * 'dtype'"). */
json_t *rp_result_load(const char *path, char *msg, size_t size);
/* The checks of rp_result_load on a document already parsed (path only names it in msg):
 * 0, or -1 with msg set. */
int rp_result_check(const json_t *doc, const char *path, char *msg, size_t size);

/* ---------------------------------------------------------------- plots (svg.c, plots.c) */

/* The file-name stem of a kernel in a report: "ADAPTER-KERNEL" from the kernel object's
 * "adapter" and "kernel", every byte outside [A-Za-z0-9_.-] replaced by '_', cut to 120
 * bytes (slug.c). */
void rp_kernel_slug(const json_t *kernel, char *buf, size_t size);

enum { RP_PLOT_ULP = 1u, RP_PLOT_TAIL = 2u, RP_PLOT_APPROX = 4u };
/* Writes the plots of one kernel object into plots_dir (which exists): SLUG-ulp.svg (error
 * against x, when the ulp suite ran), SLUG-tail.svg (output against the true curve in the
 * tail, when the tail suite ran), SLUG-approx.svg (deviation from the exact function, for a
 * kernel with "vs_exact").  *which gets the RP_PLOT_* mask of the files written.  Returns 0,
 * or nonzero with msg set. */
int rp_plots_write(const json_t *kernel, const char *plots_dir, unsigned *which, char *msg,
                   size_t size);
/* The combined plot of `gelucheck compare`: max ulp error per binade of x, one line per
 * kernel of every result.  Returns 0, or nonzero with msg. */
int rp_plot_compare_write(json_t *const *docs, size_t n, const char *path, char *msg,
                          size_t size);

/* ---------------------------------------------------------------- Markdown, JUnit ------- */

/* report.md of a result (markdown.c): malloc'ed text, NULL on no memory.  plots: for each
 * kernel in doc order, the RP_PLOT_* mask of the plots written beside it in plots/ (NULL:
 * none, no links). */
char *rp_markdown(const json_t *doc, const unsigned *plots);
/* report.html and compare.html (html.c): the Markdown text our writers produce (rp_markdown,
 * rp_compare_markdown) as one self-contained HTML page (no script, no external resource; the
 * plots as <img> of their relative paths) titled title.  Only the subset those writers use
 * is converted; anything else is escaped text, never raw HTML.  malloc'ed, NULL on no
 * memory. */
char *rp_markdown_html(const char *markdown, const char *title);
/* junit.xml of a result (junit.c): one <testcase> per (kernel, suite); malloc'ed, NULL on no
 * memory. */
char *rp_junit(const json_t *doc);

/* The report folder (report.c): dir/result.json, dir/report.md, dir/report.html (report.md
 * for a browser, rp_markdown_html), dir/junit.xml and dir/plots/SLUG-*.svg, each written
 * atomically; dir is created if missing.  Returns 0, or nonzero with msg naming the file. */
int rp_report_write(const json_t *doc, const char *dir, char *msg, size_t size);

/* ---------------------------------------------------------------- compare, baseline ----- */

/* `gelucheck compare` (compare.c): the Markdown table across the kernels of several results,
 * by func and dtype; malloc'ed, NULL on no memory. */
char *rp_compare_markdown(json_t *const *docs, const char *const *names, size_t n);

/* `gelucheck merge` (merge.c, DESIGN.md section 9): the results docs[0..n-1] (read from
 * paths[i], named in messages) of the n shards of one run (--shard K/N, any order) joined
 * into the result of the run without --shard: the same bytes but "shard" ({"index": 0,
 * "count": 1, "merged": n}) and "timing" (the shards' wall times added).  NULL with msg
 * naming the file and the problem when a file is not a complete shard of the same run as the
 * others, a shard is missing or given twice, or a kernel cannot be merged. */
json_t *rp_merge(json_t *const *docs, const char *const *paths, size_t n, char *msg,
                 size_t size);

/* `gelucheck run --resume OLD.json` (resume.c): each returns 0, or -1 with msg, one line
 * starting "--resume 'OLD.json': ", saying what rules OLD out.
 * rp_resume_check: OLD is incomplete ("complete": false) and of the run whose head is head
 * (rp_result_new's, not finished): same tool, options, shard and command but for --threads,
 * --progress, --json, --report and --junit, and policy gives the values OLD judged by.
 * rp_resume_adapters_check: OLD's adapters are doc's (spec, name, version, kind), once the
 * run has opened and added them.
 * rp_resume_kernel_check: OLD's kernels[i], if it has one, is the i-th kernel this run runs
 * (adapter spec, name, func, dtype, description). */
int rp_resume_check(const json_t *old, const json_t *head, const struct gs_policy *policy,
                    const char *path, char *msg, size_t size);
int rp_resume_adapters_check(const json_t *old, const json_t *doc, const char *path,
                             char *msg, size_t size);
int rp_resume_kernel_check(const json_t *old, size_t i, const char *adapter,
                           const struct gc_kernel *k, const char *path, char *msg, size_t size);

/* `--baseline OLD.json` (baseline.c): compares every kernel of doc with the kernel of the
 * same adapter spec, name, func and dtype in old, adds "baseline": {"found", "metrics":
 * [{"name", "old", "new", "worse"}...], "new_kinds": [...], "regressions": n} to each kernel
 * object, turns a pass into fail where anything got worse, and updates "verdict",
 * "exit_code" and "totals" of doc.  Returns the new exit code. */
int rp_baseline_apply(json_t *doc, const json_t *old);

#ifdef __cplusplus
}
#endif
#endif
