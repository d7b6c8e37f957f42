/* The format group of the parse_format test (test_format.c). */
#ifndef TEST_FORMAT_H
#define TEST_FORMAT_H

/* Runs the cmocka group "format"; returns the number of failed tests. */
int run_format_tests(void);

#endif
