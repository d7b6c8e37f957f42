/* Checks a result of `gelucheck run --adapter libfastmath.so` (fpenv_load.cmake runs it, with
 * the worker and with --isolation none, through tests/suites/run_check.cmake):
 *
 *   check_fpenv_load load R.json
 *
 * Every kernel has exactly one fpenv_modified finding, the load's ("at load: FTZ set ...
 * (in dlopen: a constructor); restored at once"), in its first suite that is not skipped;
 * and nothing the load could have caused if it had reached the kernel or the host: no
 * position_dependent, ftz or premature_flush finding. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#define AT_LOAD "at load: FTZ set (MXCSR bit 15); DAZ set (MXCSR bit 6) (in dlopen: a " \
                "constructor); restored at once"

static json_t *doc;

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static long long kind_count(const json_t *s, const char *kind)
{
    long long n = 0;
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(s, "finding_counts"), i, c)
        if (strcmp(str(c, "kind"), kind) == 0)
            n += json_integer_value(json_object_get(c, "count"));
    return n;
}

/* the kinds a load-time FTZ or DAZ would bring about, had it reached an eval or the host */
static const char *const leaked[] = { "position_dependent", "ftz", "premature_flush" };

static void test_one_load_finding(void **state)
{
    (void)state;
    size_t i, j, n_kernels = json_array_size(json_object_get(doc, "kernels"));
    json_t *k, *s;
    assert_true(n_kernels > 0);
    json_array_foreach(json_object_get(doc, "kernels"), i, k) {
        const char *name = str(k, "kernel");
        long long fpenv = 0;
        int first = -1, where = -1;
        json_array_foreach(json_object_get(k, "suites"), j, s) {
            if (first < 0 && strcmp(str(s, "verdict"), "skip") != 0)
                first = (int)j;
            fpenv += kind_count(s, "fpenv_modified");
            for (size_t l = 0; l < sizeof leaked / sizeof leaked[0]; l++)
                if (kind_count(s, leaked[l]))
                    fail_msg("%s: suite %s has %s findings", name, str(s, "name"), leaked[l]);
            size_t f;
            json_t *fd;
            json_array_foreach(json_object_get(s, "findings"), f, fd)
                if (strcmp(str(fd, "kind"), "fpenv_modified") == 0) {
                    if (strcmp(str(fd, "detail"), AT_LOAD) != 0)
                        fail_msg("%s: detail '%s'", name, str(fd, "detail"));
                    where = (int)j;
                }
        }
        if (fpenv != 1 || where != first)
            fail_msg("%s: %lld fpenv_modified findings (want 1), in suite %d (want %d)", name,
                     fpenv, where, first);
        assert_string_equal(str(k, "verdict"), "fail"); /* fpenv_modified fails under default */
    }
}

int main(int argc, char **argv)
{
    json_error_t err;
    if (argc != 3 || strcmp(argv[1], "load") != 0) {
        fprintf(stderr, "usage: check_fpenv_load load RESULT.json\n");
        return 2;
    }
    if (!(doc = json_load_file(argv[2], 0, &err))) {
        fprintf(stderr, "check_fpenv_load: %s: %s\n", argv[2], err.text);
        return 1;
    }
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_one_load_finding) };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    json_decref(doc);
    return rc;
}
