/* The floating-point environment around a plug-in's code (docs/design.md 5.1, and the load check
 * of section 12).
 *
 * Every eval runs in round-to-nearest with FTZ and DAZ off, and an eval that leaves them
 * changed is counted in the adapter (gc_fpenv_prepare, gc_fpenv_check).  Loading a plug-in
 * runs its code too, before any eval: the constructors dlopen calls (a library linked with
 * -Ofast or -ffast-math gets crtfastmath.o, whose constructor sets FTZ and DAZ in the loading
 * thread), gelucheck_plugin_entry and open().  With --isolation none that thread is
 * gelucheck's own, whose reference and measurements must round as C says; in the worker it
 * is the thread that serves the evals.  So each step of a load is bracketed
 * (gc_fpenv_load_begin, gc_fpenv_load_step): what the step changed is described once and the
 * environment of before the load is put back at once, whole (fesetenv, and MXCSR by hand:
 * the exception masks and flags come back too, though only the three settings are
 * reported). */
#include <fenv.h>
#include <stdio.h>
#include <string.h>
#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#define GC_HAVE_MXCSR 1
#else
#define GC_HAVE_MXCSR 0
#endif

#include "core.h"

#define FTZ 0x8000u /* MXCSR bit 15: results that would be subnormal become zero */
#define DAZ 0x0040u /* MXCSR bit 6: subnormal operands are read as zero */

static unsigned csr_get(void)
{
#if GC_HAVE_MXCSR
    return _mm_getcsr();
#else
    return 0;
#endif
}

void gc_fpenv_prepare(void)
{
    fesetround(FE_TONEAREST);
#if GC_HAVE_MXCSR
    _mm_setcsr(_mm_getcsr() & ~(FTZ | DAZ));
#endif
}

/* "rounding mode not to-nearest; FTZ set (MXCSR bit 15); DAZ set (MXCSR bit 6)", the parts
 * that apply to (round, csr), into buf; "" when none does. */
static void describe(char *buf, size_t size, int round, unsigned csr)
{
    snprintf(buf, size, "%s%s%s", round == FE_TONEAREST ? "" : "rounding mode not to-nearest; ",
             (csr & FTZ) ? "FTZ set (MXCSR bit 15); " : "",
             (csr & DAZ) ? "DAZ set (MXCSR bit 6); " : "");
    size_t len = strlen(buf);
    if (len >= 2)
        buf[len - 2] = '\0'; /* drop the final "; " */
}

void gc_fpenv_check(struct gc_adapter *a)
{
    int round = fegetround();
    unsigned csr = csr_get() & (FTZ | DAZ);

    if (round == FE_TONEAREST && csr == 0)
        return;
    a->fpenv_modified++;
    describe(a->fpenv_what, sizeof a->fpenv_what, round, csr);
    gc_fpenv_prepare();
}

void gc_fpenv_load_begin(struct gc_fpenv_load *l)
{
    fegetenv(&l->env);
    l->round = fegetround();
    l->csr = csr_get();
    l->what[0] = '\0';
}

static const char *round_name(int round)
{
    return round == FE_TONEAREST ? "to-nearest" : round == FE_TOWARDZERO ? "toward zero"
         : round == FE_UPWARD ? "upward" : round == FE_DOWNWARD ? "downward" : "unknown";
}

void gc_fpenv_load_step(struct gc_fpenv_load *l, const char *step)
{
    int round = fegetround();
    unsigned csr = csr_get();
    /* what the step set, and what it cleared that the host had set (which would change the
       host's results as much) */
    unsigned set = csr & ~l->csr & (FTZ | DAZ), cleared = l->csr & ~csr & (FTZ | DAZ);

    fesetenv(&l->env);
#if GC_HAVE_MXCSR
    _mm_setcsr(l->csr); /* whole, FTZ and DAZ included, whatever fesetenv keeps of it */
#endif
    if (l->what[0] || (round == l->round && !set && !cleared))
        return; /* the first change is the one reported */
    char r[48] = "";
    if (round != l->round)
        snprintf(r, sizeof r, "rounding mode %s; ", round_name(round));
    snprintf(l->what, sizeof l->what, "%s%s%s%s%s", r,
             (set & FTZ) ? "FTZ set (MXCSR bit 15); " : "",
             (set & DAZ) ? "DAZ set (MXCSR bit 6); " : "",
             (cleared & FTZ) ? "FTZ cleared (MXCSR bit 15); " : "",
             (cleared & DAZ) ? "DAZ cleared (MXCSR bit 6); " : "");
    size_t len = strlen(l->what);
    snprintf(l->what + len - 2, sizeof l->what - (len - 2), " (in %s)", step);
}
