/* The cmocka tests of test_libm_half.c, run by test_libm.c's main. */
#ifndef TEST_LIBM_H
#define TEST_LIBM_H

void test_f16_conversion(void **state);
void test_bf16_conversion(void **state);
void test_random_conversion(void **state);

#endif
