/* The test groups of test_oracle, one per file. */
#ifndef GC_TEST_ORACLE_H
#define GC_TEST_ORACLE_H

int test_oracle_round_group(void); /* test_oracle_round.c: oracle_round and oracle_decode */
int test_oracle_sweep_group(void); /* test_oracle_sweep.c: cross-checks and invariants */

#endif
