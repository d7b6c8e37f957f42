/* Reports (docs/design.md section 8): the JSON result document, schema gelucheck-result/1
 * (reports/schema/gelucheck-result-1.schema.json), and writing it atomically.  Module prefix
 * rp_.  Internal to gelucheck; nothing here prints or exits.
 *
 * Building a result:
 *   doc = rp_result_new(&meta);                       head: schema, tool, command, options
 *   rp_result_add_adapter(doc, spec, id, a, NULL);    per adapter (a NULL + message: error;
 *                                                     id: its name, NULL: none recorded)
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
int rp_result_add_adapter(json_t *doc, const char *spec, const char *id,
                          const struct gc_adapter *a, const char *error);

/* Appends a kernel object (stolen, as from gs_run_kernel) with its wall time ("timing").
 * Returns 0, nonzero on no memory (kernel NULL counts as that). */
int rp_result_add_kernel(json_t *doc, json_t *kernel, double wall_s);

/* Completes the document: "policy"."values" for every (func, dtype) of its kernels, each
 * adapter's kernel count and verdict, "totals", "verdict", "exit_code" (docs/design.md section 7:
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
/* jansson's error text on one line, in place (its "near '...'" quotes the input, control
 * characters and all: they become spaces); returns e->text. */
const char *rp_json_error_text(json_error_t *e);
/* The checks of rp_result_load on a document already parsed (path only names it in msg):
 * 0, or -1 with msg set. */
int rp_result_check(const json_t *doc, const char *path, char *msg, size_t size);

/* ---------------------------------------------------------------- plots (svg.c, plots.c) */

/* The file-name stem of a kernel in a report (slug.c): its identity ADAPTER/KERNEL (the
 * kernel object's "id", else "adapter" "/" "kernel") with the '/' as '-'
 * ("libm-erf1p.f32").  Where that would not be a unique, visible name of at most 100 bytes
 * of [A-Za-z0-9_.-] (a byte outside the set, now '_'; a leading '.' or '-', now '_'; a longer
 * identity, cut; an ADAPTER holding '-'), "-" and 12 hex digits of a hash of the kernel's
 * adapter spec, kernel, func, dtype and id follow ("__x.so-gelu.f32-3b0c5f2a91de").  Two
 * kernels of a result never share a stem; at most RP_SLUG_SIZE - 1 bytes, cut to size - 1. */
#define RP_SLUG_SIZE 128
void rp_kernel_slug(const json_t *kernel, char *buf, size_t size);

enum { RP_PLOT_ULP = 1u, RP_PLOT_TAIL = 2u, RP_PLOT_APPROX = 4u, RP_PLOT_ULP_LINEAR = 8u };
/* Writes the plots of one kernel object into plots_dir (which exists): SLUG-ulp.svg (error
 * against x over the whole range, symlog axis, when the ulp suite ran), SLUG-ulp_linear.svg
 * (the same on a linear axis from -10 to 10), SLUG-tail.svg (output against the true curve in the
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
 * rp_compare_markdown) as one HTML page (no script, no external resource; the plots as <img>
 * of their relative paths) titled title.  Only the subset those writers use is converted;
 * anything else is escaped text, never raw HTML.  malloc'ed, NULL on no memory. */
char *rp_markdown_html(const char *markdown, const char *title);
/* The same page made self-contained, what `report` and `compare` write: each image of a plot
 * beside it (src "plots/NAME.svg") embedded as a data:image/svg+xml;base64 URI of the file
 * dir/plots/NAME.svg, any other image as its alt text, a link to a relative path as its text;
 * so the page shows everything on its own and refers to no other file (html_embed.c says why
 * data: URIs).  NULL with msg ("cannot embed 'out/plots/x.svg' in the page: No such file or
 * directory", "out of memory"). */
char *rp_markdown_html_embedded(const char *markdown, const char *title, const char *dir,
                                char *msg, size_t size);
/* junit.xml of a result (junit.c): one <testcase> per (kernel, suite); malloc'ed, NULL on no
 * memory. */
char *rp_junit(const json_t *doc);

/* The report folder (report.c): dir/result.json, dir/report.md, dir/report.html (report.md
 * for a browser with the plots embedded, rp_markdown_html_embedded), dir/junit.xml and dir/plots/SLUG-*.svg, each written
 * atomically; dir is created if missing.  Returns 0, or nonzero with msg naming the file. */
int rp_report_write(const json_t *doc, const char *dir, char *msg, size_t size);

/* ---------------------------------------------------------------- compare, baseline ----- */

/* `gelucheck compare` (compare.c): the Markdown table across the kernels of several results,
 * by func and dtype; malloc'ed, NULL on no memory. */
char *rp_compare_markdown(json_t *const *docs, const char *const *names, size_t n);

/* `gelucheck merge` (merge.c, docs/design.md section 9): the results docs[0..n-1] (read from
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

#define RP_BASELINE_SCHEMA "gelucheck-baseline/1"

/* --baseline-tolerance ULPS[,FRACTION] and --baseline-allow-missing. */
struct rp_baseline_opts {
    double tol_ulp;      /* max_ulp is worse only when it grew by more than this */
    double tol_fraction; /* fraction_correctly_rounded is worse only when it fell by more */
    int allow_missing;   /* a selected baseline kernel the run did not produce does not fail */
    const json_t *site_map;    /* --site-map MAP: site -> [ADAPTER/KERNEL...]; NULL: kernels
                                  are matched by identity only (baseline.c's head) */
    const char *site_map_file; /* MAP's path, for the messages */
};

/* `--baseline FILE` (baseline.c, rules in its head and in docs/ci.md): compares every kernel
 * of doc with the kernel of the same identity, func and dtype in old (a result or a compact
 * baseline), adds "baseline" to each kernel ({"found", "metrics", "new_kinds", "gone_kinds",
 * "not_compared", "regressions", "improvements"}; "why" when not found; through a site map
 * "site", "kernel", "matched_by", "also") and to doc ({"compared", "regressions",
 * "improvements", "missing", "new", the kernels of each, "same_inputs", ..., "site_map"
 * with a map}), fails each
 * kernel with a regression and the run when a selected kernel is missing (unless
 * opts->allow_missing), and redoes the verdicts.  opts NULL: no tolerance.  Returns the exit
 * code (4 on no memory). */
int rp_baseline_apply(json_t *doc, const json_t *old, const struct rp_baseline_opts *opts);
/* The compact baseline of a result (baseline_form.c): NULL on no memory. */
json_t *rp_baseline_compact(const json_t *doc);
/* Loads FILE for --baseline: a compact baseline, checked, or a result (rp_result_load's
 * checks) made compact.  NULL with msg naming the file and what is wrong. */
json_t *rp_baseline_load(const char *path, char *msg, size_t size);
/* Kernel k's identity ADAPTER/KERNEL in doc: its "id", or for a result written before ids
 * were recorded, derived from its adapter's spec, name and kind (gc_ident_derive).  Into buf,
 * which is returned. */
const char *rp_kernel_id(const json_t *doc, const json_t *k, char *buf, size_t size);
/* The name of adapter entry a of doc (its "id", else derived the same way); func: the func
 * of its kernels (what an onnx: model computes), may be NULL or "". */
const char *rp_adapter_id(const json_t *doc, const json_t *a, const char *func, char *buf,
                          size_t size);

#ifdef __cplusplus
}
#endif
#endif
