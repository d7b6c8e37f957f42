/* Private to adapters/boost: the C side (boost_entry.c) and the C++ side (boost_math.cpp). */
#ifndef GC_BOOST_INTERNAL_H
#define GC_BOOST_INTERNAL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a kernel computes (boost_math.cpp has the formulas). */
enum gc_boost_form {
    GC_BOOST_ERF = 0,       /* boost::math::erf(x) */
    GC_BOOST_ERFC = 1,      /* boost::math::erfc(x) */
    GC_BOOST_NORMCDF = 2,   /* cdf(normal_distribution<T>(), x) */
    GC_BOOST_GELU_CDF = 3,  /* x * cdf(normal_distribution<T>(), x) */
    GC_BOOST_GELU_ERF = 4,  /* 0.5 * x * (1 + erf(x * one_div_root_two<T>())) */
    GC_BOOST_GELU_ERFC = 5, /* 0.5 * x * erfc(-x * one_div_root_two<T>()) */
    GC_BOOST_NFORMS = 6
};

/* y[i] = form(x[i]) for i < n (x == y allowed).  Returns 0; nonzero when Boost threw, which
 * the policy (boost_policy.hpp) rules out for these functions, with the exception's what()
 * in msg.  Never lets an exception out. */
int gc_boost_map_f64(int form, const double *x, double *y, size_t n, char *msg, size_t size);
int gc_boost_map_f32(int form, const float *x, float *y, size_t n, char *msg, size_t size);

/* "1.74.0" (boost/version.hpp's BOOST_VERSION at build time: header-only, no run-time
 * version), and the C++ compiler that compiled Boost.Math's code ("GCC 12.2.0"). */
const char *gc_boost_version(void);
const char *gc_boost_compiler(void);

#ifdef __cplusplus
}
#endif

#endif
