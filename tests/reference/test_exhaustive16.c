/* Every f16 or bf16 input of every function against the independent oracle, bit for bit.
 * Usage: test_exhaustive16 DTYPE MODES [STRIDE [OFFSET]]
 *   DTYPE f16 | bf16; MODES a comma list of rn, rz, ru, rd; STRIDE k checks inputs
 *   OFFSET, OFFSET + k, ... (default 1: all 65536). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "geluref.h"
#include "refcheck.h"

static enum geluref_dtype dtype;
static mpfr_rnd_t modes[4];
static size_t nmodes;
static unsigned stride = 1, offset;

static void test_all_inputs(void **state)
{
    (void)state;
    size_t n = 0;
    uint64_t *xs = malloc(sizeof *xs * 65536);
    assert_non_null(xs);
    for (unsigned b = offset; b < 65536; b += stride)
        xs[n++] = b;
    size_t bad = 0;
    for (int f = GELUREF_FUNC_FIRST; f <= GELUREF_FUNC_LAST; f++) {
        enum geluref_func fn = (enum geluref_func)f;
        size_t b = refcheck_many(&fn, 1, dtype, xs, n, modes, nmodes);
        print_message("%s %s: %zu inputs x %zu modes, %zu mismatches\n", geluref_func_name(fn),
                      geluref_dtype_name(dtype), n, nmodes, b);
        bad += b;
    }
    free(xs);
    assert_int_equal(bad, 0);
}

static int parse_args(int argc, char **argv)
{
    if (argc < 3 || geluref_dtype_from_name(argv[1], &dtype) != 0
        || geluref_dtype_info(dtype)->bits != 16)
        return -1;
    char list[32];
    if (strlen(argv[2]) >= sizeof list)
        return -1;
    strcpy(list, argv[2]);
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ","))
        if (nmodes == 4 || geluref_rnd_from_name(tok, &modes[nmodes++]) != 0)
            return -1;
    if (argc > 3)
        stride = (unsigned)strtoul(argv[3], NULL, 10);
    if (argc > 4)
        offset = (unsigned)strtoul(argv[4], NULL, 10);
    return stride == 0 || nmodes == 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
    if (parse_args(argc, argv) != 0) {
        fprintf(stderr, "usage: %s f16|bf16 rn[,rz,ru,rd] [STRIDE [OFFSET]]\n", argv[0]);
        return 2;
    }
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_all_inputs) };
    int failed = cmocka_run_group_tests_name("reference_exhaustive16", tests, NULL, NULL);
    refcheck_report_paths();
    return failed;
}
