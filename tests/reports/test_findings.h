/* tests/reports/test_findings*.c: the checks of real results (test_findings_hints.c). */
#ifndef GELUCHECK_TEST_FINDINGS_H
#define GELUCHECK_TEST_FINDINGS_H

#include <stddef.h>

/* test_findings hints RESULT...: every expectation of hints_expect.h holds, every row of the
 * hint table is expected for some kernel, a conditional row is chosen for no kernel it does
 * not expect, and report.md and junit.xml of each result show the hints.  Returns 0 or 1. */
int tf_check_hints(const char *const *paths, size_t n);
/* test_findings print RESULT...: "KERNEL KIND HINT-ID" per kind of every kernel. */
int tf_print(const char *const *paths, size_t n);

#endif
