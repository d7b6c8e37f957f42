/* A program outside the project using the installed libgeluref: GELU(-3) in binary64 RN must
 * be the published -0.0040496940948902835. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <geluref.h>

int main(void)
{
    double x = -3, want = strtod("-0.0040496940948902835", NULL), got;
    uint64_t xb, yb = 0;
    memcpy(&xb, &x, sizeof xb);
    if (geluref_eval(GELUREF_GELU, GELUREF_F64, xb, MPFR_RNDN, &yb, NULL, NULL) != GELUREF_OK)
        return 1;
    memcpy(&got, &yb, sizeof got);
    printf("geluref %s: gelu(-3) = %.17g\n", GELUREF_VERSION_STRING, got);
    return got == want ? 0 : 1;
}
