/* Private to the Markdown writer (markdown*.c): a growing text buffer and the helpers that put
 * result values into GitHub-flavoured Markdown safely.  Prefix md_. */
#ifndef GELUCHECK_MARKDOWN_H
#define GELUCHECK_MARKDOWN_H

#include <stddef.h>

#include <jansson.h>

struct md {
    char *s;
    size_t len, cap;
    int nomem; /* an allocation failed: everything after is dropped, rp_markdown returns NULL */
};

void md_printf(struct md *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void md_puts(struct md *m, const char *s);

/* Free text: Markdown punctuation backslash-escaped, '|' included (safe in a table cell),
 * control bytes and newlines as spaces; NULL as "". */
void md_text(struct md *m, const char *s);
/* A code span: `s`, with a longer fence when s holds backticks; '|' escaped for tables. */
void md_code(struct md *m, const char *s);

/* A number or a non-finite string from the result ("inf"): 3 significant digits, or "-" when
 * absent. */
void md_num(struct md *m, const json_t *v);
/* A fraction as a percentage with 2 decimals that never shows 100.00% or 0.00% for a value
 * that is not exactly 1 or 0. */
void md_pct(struct md *m, const json_t *v);
/* A value object {dec, hex, bits}: its decimal, or "-" for null. */
void md_dec(struct md *m, const json_t *v);
/* A value object as `dec` `hex` `bits` cells ("| a | b | c "), or three "-" cells. */
void md_value_cells(struct md *m, const json_t *v);
/* The verdict in capitals, bold when fail or error. */
void md_verdict(struct md *m, const char *v);

/* json_string_value or "" */
const char *md_str(const json_t *o, const char *key);

/* The sections of one kernel (markdown_kernel.c, markdown_suites.c). */
/* "Beside its companion": the findings split by kind against the kernel the description
 * names as "companion kernel NAME", when it ran in doc too (markdown_companion.c) */
void md_companion(struct md *m, const json_t *doc, const json_t *k);
void md_kernel(struct md *m, const json_t *doc, const json_t *k, unsigned plots);
const json_t *md_suite(const json_t *k, const char *name);
void md_tail(struct md *m, const json_t *k);
void md_special(struct md *m, const json_t *k);
void md_identity(struct md *m, const json_t *k);
void md_vector(struct md *m, const json_t *k);
void md_baseline(struct md *m, const json_t *k);
/* A row "| label | points | correctly rounded | max ulp | at x | max abs error |" of an error
 * statistics object (docs/suites.md section 1). */
void md_stats_row(struct md *m, const char *label, const json_t *st);

/* markdown_findings.c: the Findings part of a kernel (its kinds in the order of severity,
 * each with its worst finding, likely cause and fix), and its worst kind as a table cell
 * ("-" when none). */
void md_findings(struct md *m, const json_t *k);
void md_worst_kind(struct md *m, const json_t *k);

/* markdown_sites.c: for each scan:MODEL adapter whose result holds its scan, the table of the
 * model's sites (one row per site and computation: what runs at which levels, and what its
 * kernel measured). */
void md_sites(struct md *m, const json_t *doc);
/* With run --torch-module: the table of every PyTorch activation across the run's scan:
 * adapters, a column per adapter and run of levels (markdown_runtimes.c); nothing without. */
void md_runtimes(struct md *m, const json_t *doc);

/* markdown_repro.c: s as one POSIX shell word (single-quoted when it needs to be). */
void md_shell_word(struct md *m, const char *s);
/* The run command restricted to kernel k (its adapter and --kernel), shell-quoted. */
void md_run_command(struct md *m, const json_t *doc, const json_t *k);
/* The Reproduce part: that run command and a `gelucheck ref` line per finding group. */
void md_reproduce(struct md *m, const json_t *doc, const json_t *k);

#endif
