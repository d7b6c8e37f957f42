/* The cmocka tests of the onednn adapter: test_onednn.c (table, contexts, cache, batch
 * lengths) and test_onednn_values.c (known inputs against the reference). */
#ifndef TEST_ONEDNN_H
#define TEST_ONEDNN_H

#include <stddef.h>
#include <stdint.h>

#include <gelucheck/plugin.h>

const struct gelucheck_plugin *onednn(void);
/* eval through a fresh context (open/eval/close); cmocka fails on any error */
void onednn_eval(const struct gelucheck_kernel *k, const void *x, void *y, size_t n);

void test_known_values(void **state);
void test_exact_values(void **state);
void test_epilogues(void **state); /* test_onednn_epilogue.c */

#endif
