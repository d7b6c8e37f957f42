/* gs_ut_stretch_end (suites/ulp_util.h), the end of a rule's run in a work item, without a
 * scan where the inputs are consecutive patterns, against the scan itself: N random cases of
 * items of 1 to 300 patterns, consecutive (an exhaustive sweep's) or increasing with gaps,
 * a start i anywhere (the end too), the template xt below, at or above x[i], and xmax before
 * the stretch, inside it, at its last pattern, one past it and beyond the item.  Every end
 * must be the scan's; enough cases of each kind (the shortcut taken, an end inside the item)
 * that a wrong one would show.  Usage: test_ulp_stretch N SEED. */
#include <stdio.h>
#include <stdlib.h>

#include "oddtest.h" /* next64 */
#include "ulp_util.h"

static size_t scan_end(const uint64_t *x, size_t i, size_t n, uint64_t xt, uint64_t xmax)
{
    size_t e = i;
    while (e < n && x[e] > xt && x[e] <= xmax)
        e++;
    return e;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_ulp_stretch N SEED\n");
        return 2;
    }
    long n = atol(argv[1]);
    rng_state = 88172645463325252u + (uint64_t)atol(argv[2]);
    static uint64_t x[300];
    unsigned long cases = 0, quick = 0, inside = 0, wrong = 0;
    for (long it = 0; it < n; it++) {
        size_t len = 1 + next64() % 300;
        int consecutive = next64() % 4 != 0;
        uint64_t x0 = (next64() % 2) << 31 | (next64() & 0x7fffff00u);
        for (size_t j = 0; j < len; j++)
            x[j] = j == 0 ? x0 : x[j - 1] + (consecutive ? 1 : 1 + next64() % 3);
        size_t i = next64() % (len + 1);
        uint64_t base = i < len ? x[i] : x[len - 1] + 1;
        uint64_t xt;
        switch (next64() % 3) {
        case 0: xt = base - 1 - next64() % 5; break;
        case 1: xt = base; break;
        default: xt = base + next64() % 3; break;
        }
        uint64_t xmax;
        switch (next64() % 5) {
        case 0: xmax = base - 1 - next64() % 3; break;             /* before the stretch */
        case 1: xmax = base + next64() % (len + 1); break;          /* inside */
        case 2: xmax = x[len - 1]; break;                           /* its last pattern */
        case 3: xmax = x[len - 1] + 1; break;                       /* one past */
        default: xmax = x[len - 1] + 1 + next64() % 100000; break; /* beyond the item */
        }
        int incr = (int)(next64() % 2) | consecutive; /* increasing either way */
        size_t want = scan_end(x, i, len, xt, xmax);
        size_t got = gs_ut_stretch_end(x, i, len, xt, xmax, incr);
        cases++;
        quick += incr && i < len && x[i] > xt && x[len - 1] - x[i] == len - 1 - i;
        inside += want > i && want < len;
        if (got != want && wrong++ < 20)
            printf("FAIL len %zu i %zu xt %llu xmax %llu (x[i] %llu, %s): end %zu, the scan's "
                   "%zu\n",
                   len, i, (unsigned long long)xt, (unsigned long long)xmax,
                   (unsigned long long)(i < len ? x[i] : 0),
                   consecutive ? "consecutive" : "with gaps", got, want);
    }
    printf("%lu cases, %lu by the shortcut, %lu ending inside the item, %lu wrong\n", cases,
           quick, inside, wrong);
    if (quick < cases / 8 || inside < cases / 40) {
        printf("FAIL: too few cases of a kind for the comparison to mean anything\n");
        return 1;
    }
    return wrong != 0;
}
