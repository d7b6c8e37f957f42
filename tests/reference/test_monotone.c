/* geluref_monotone's claims against correctly rounded values, for every function it claims:
 * over a grid of inputs (every 1/64 over [-40, 40], and every 2^-17 within 0.02 of each
 * piece's end and each extremum),
 * each pair of neighbours that geluref_monotone puts in one piece must have binary64 values
 * (geluref_eval, rounded to nearest: monotone rounding keeps the order) ordered in its
 * direction.  Moving a piece's end across an extremum (gelu's -0.748 to -0.752, say) puts
 * pairs of the other direction into it.  Also: the extrema's neighbourhoods, the functions
 * not claimed, NaN and an empty interval give 0, and enough pairs are claimed for each function
 * that the test cannot pass by claiming nothing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geluref.h"

static double eval(enum geluref_func f, double x)
{
    uint64_t xb, yb;
    double y;
    memcpy(&xb, &x, sizeof xb);
    if (geluref_eval(f, GELUREF_F64, xb, MPFR_RNDN, &yb, NULL, NULL) != GELUREF_OK) {
        fprintf(stderr, "geluref_eval(%s, %a) failed\n", geluref_func_name(f), x);
        exit(1);
    }
    memcpy(&y, &yb, sizeof y);
    return y;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    static const enum geluref_func fs[] = { GELUREF_GELU,      GELUREF_GELU_GRAD,
                                            GELUREF_NORMCDF,   GELUREF_NORMPDF,
                                            GELUREF_ERF,       GELUREF_ERFC,
                                            GELUREF_GELU_TANH, GELUREF_GELU_SIGMOID,
                                            GELUREF_GELU_TANH_GRAD };
    /* the least share of the grid's pairs each must have claimed (gelu_tanh_grad's one piece
     * holds [-1.25, 1.25]: a sixtieth of the uniform grid, with the dense parts next to it) */
    static const double share[] = { 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.1 };
    /* the pieces' ends and the extrema, where a wrong constant would show */
    static const double edges[] = { -0.755, -0.748, -0.7517915, -1.415, -1.414, 1.414, 1.415,
                                    -1.4142135623730951, 1.4142135623730951, 0,
                                    -0.8, -0.7, -0.7524614, -0.7511543, -1.25, 1.25,
                                    -1.4185040, 1.4185040 };
    size_t nedge = sizeof edges / sizeof edges[0], per = 2 * 2622 + 1; /* 0.02 / 2^-17 */
    size_t n = 80 * 64 + 1 + nedge * per, m = 0;
    double *xs = malloc(n * sizeof *xs);
    if (xs == NULL)
        return 1;
    for (int i = 0; i <= 80 * 64; i++)
        xs[m++] = -40 + i / 64.0;
    for (size_t j = 0; j < nedge; j++)
        for (size_t i = 0; i < per; i++)
            xs[m++] = edges[j] + ((double)i - (double)(per / 2)) * 0x1p-17;
    qsort(xs, m, sizeof *xs, cmp_double);
    int fail = 0;
    for (size_t fi = 0; fi < sizeof fs / sizeof fs[0]; fi++) {
        enum geluref_func f = fs[fi];
        unsigned long pairs = 0, bad = 0;
        double prev = eval(f, xs[0]);
        for (size_t i = 1; i < m; i++) {
            double y = eval(f, xs[i]);
            int dir = geluref_monotone(f, xs[i - 1], xs[i]);
            if (dir != 0 && xs[i] > xs[i - 1]) {
                pairs++;
                if ((dir > 0 && y < prev) || (dir < 0 && y > prev)) {
                    if (bad++ < 5)
                        fprintf(stderr, "%s claimed %s on [%a, %a]: %a then %a\n",
                                geluref_func_name(f), dir > 0 ? "increasing" : "decreasing",
                                xs[i - 1], xs[i], prev, y);
                }
            }
            prev = y;
        }
        printf("%-10s %lu pairs claimed, %lu out of order\n", geluref_func_name(f), pairs, bad);
        if (bad > 0 || (double)pairs < share[fi] * (double)m) /* claimed over its share */
            fail = 1;
    }
    /* not claimed */
    struct {
        enum geluref_func f;
        double lo, hi;
    } none[] = { { GELUREF_GELU, -0.76, -0.74 },       { GELUREF_GELU, -0.7518, -0.7517 },
                 { GELUREF_GELU_GRAD, 1.4, 1.5 },      { GELUREF_GELU_GRAD, -1.42, -1.41 },
                 { GELUREF_NORMPDF, -1, 1 },           { GELUREF_GELU_TANH, -0.76, -0.74 },
                 { GELUREF_GELU_TANH, -0.8, -0.69 },   { GELUREF_GELU_SIGMOID, -0.76, -0.74 },
                 { GELUREF_GELU_SIGMOID, -0.81, -0.7 }, { GELUREF_GELU_TANH_GRAD, 0, 1.26 },
                 { GELUREF_GELU_TANH_GRAD, 1.3, 2 },   { GELUREF_GELU_TANH_GRAD, -3, -1.3 },
                 { GELUREF_GELU_GRAD2, 0, 1 },         { GELUREF_GELU_SCALED, 0, 1 },
                 { GELUREF_ERF, NAN, 1 },              { GELUREF_ERF, 1, NAN },
                 { GELUREF_ERF, 2, 1 } };
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        if (geluref_monotone(none[i].f, none[i].lo, none[i].hi) != 0) {
            fprintf(stderr, "%s claimed on [%g, %g]\n", geluref_func_name(none[i].f), none[i].lo,
                    none[i].hi);
            fail = 1;
        }
    /* whole pieces, infinite ends included */
    if (geluref_monotone(GELUREF_GELU, -INFINITY, -0.755) != -1 ||
        geluref_monotone(GELUREF_GELU, -0.748, INFINITY) != 1 ||
        geluref_monotone(GELUREF_GELU_GRAD, -1.414, 1.414) != 1 ||
        geluref_monotone(GELUREF_GELU_TANH, -INFINITY, -0.8) != -1 ||
        geluref_monotone(GELUREF_GELU_SIGMOID, -0.7, INFINITY) != 1 ||
        geluref_monotone(GELUREF_GELU_TANH_GRAD, -1.25, 1.25) != 1 ||
        geluref_monotone(GELUREF_ERFC, -INFINITY, INFINITY) != -1) {
        fprintf(stderr, "a whole piece not claimed\n");
        fail = 1;
    }
    free(xs);
    printf("%s\n", fail ? "FAIL" : "ok");
    return fail;
}
