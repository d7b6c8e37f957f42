/* The findings of a kernel as every renderer shows them (part of the reports module, prefix
 * rp_; docs/findings.md): its kinds in the order of severity (kinds.c), each with its count
 * and worst finding, and for a finding its likely cause and usual fix (hints.c).  The
 * terminal summary (cli/run_findings.c), report.md (markdown_findings.c) and junit.xml
 * (junit.c) read findings through these and nothing else, so they agree. */
#ifndef GELUCHECK_REPORTS_FINDINGS_H
#define GELUCHECK_REPORTS_FINDINGS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "suites.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One kind of finding of a kernel, over all its suites and regions. */
struct rp_kind {
    enum gs_kind kind;
    uint64_t count;             /* its "finding_counts", every suite and region added */
    enum gs_severity severity;  /* the most severe of its rows */
    const json_t *worst;        /* its worst listed finding by the order of severity, or NULL
                                   (a count without a finding listed) */
    const json_t *suite;        /* the suite entry of worst (else of its first row) */
};

/* The finding kinds of kernel object k (a "kernels" entry of a result) in the order of
 * severity: by gs_finding_json_cmp on their worst findings (a kind without one by its
 * severity and rank, after the kinds with one of the same severity).  out holds GS_N_KINDS
 * entries; returns how many are filled.  Unknown kinds and malformed entries are skipped. */
size_t rp_kernel_kinds(const json_t *k, struct rp_kind out[GS_N_KINDS]);

/* Whether kernel object k has a finding of kind kind, in any suite. */
int rp_kernel_has(const json_t *k, enum gs_kind kind);

/* A likely cause and the usual fix of a finding (docs/findings.md, "Causes and fixes"). */
struct rp_hint {
    const char *id;    /* short and stable, for tests: "flush_erf1p" */
    const char *cause; /* one sentence: what usually makes this finding here */
    const char *fix;   /* what to change */
};
/* The hint of finding fd (a "findings" entry) of kernel object k: the first row of the table
 * whose kinds include fd's and whose condition holds for what the suites saw (the declared
 * func and dtype, the formula the fingerprint detected, where x is, the kernel's other
 * findings).  Every kind ends with a general row, so only an unknown kind gives NULL. */
const struct rp_hint *rp_hint(const json_t *k, const json_t *fd);
/* Row i of the table (NULL past the end): the tests check that every row is chosen for a
 * kernel that has its defect and for none without. */
const struct rp_hint *rp_hint_at(size_t i);

#ifdef __cplusplus
}
#endif
#endif
