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
 * Members in order: schema, tool, command, policy, verdict, exit_code, rounding, seed, samples,
 * exhaustive, range, suites, complete, shard, environment, adapters, kernels, totals, timing.
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
    const struct gs_config *cfg;     /* suites, policy, seed, samples, exhaustive, range,
                                        threads (timing only) */
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

#ifdef __cplusplus
}
#endif
#endif
