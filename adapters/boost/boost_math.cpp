// The C++ side of the boost adapter: Boost.Math's calls, written as a C++ user writes them,
// behind the C functions of boost_internal.h.  Every exception stops here (none is expected:
// boost_policy.hpp turns Boost's throwing errors into errno); an exception that reached C
// would be undefined behaviour.  Built with -ffp-contract=off: each * and + rounds once.
#include "boost_policy.hpp" // before any Boost.Math header: the macros set the policy

#include <cstdio>
#include <exception>

#include <boost/math/constants/constants.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/special_functions/erf.hpp>
#include <boost/version.hpp>

#include "boost_internal.h"

namespace {

template <class T> T form_eval(int form, T x)
{
    using boost::math::erf;
    using boost::math::erfc;
    const boost::math::normal_distribution<T> normal; // mean 0, sd 1
    const T c = boost::math::constants::one_div_root_two<T>();
    switch (form) {
    case GC_BOOST_ERF:
        return erf(x);
    case GC_BOOST_ERFC:
        return erfc(x);
    case GC_BOOST_NORMCDF:
        return cdf(normal, x);
    case GC_BOOST_GELU_CDF:
        return x * cdf(normal, x);
    case GC_BOOST_GELU_ERF:
        return T(0.5) * x * (T(1) + erf(x * c));
    default:
        return T(0.5) * x * erfc(-x * c);
    }
}

template <class T> int map(int form, const T *x, T *y, size_t n, char *msg, size_t size)
{
    try {
        for (size_t i = 0; i < n; i++) // x == y works: y[i] is written after x[i] is read
            y[i] = form_eval<T>(form, x[i]);
        return 0;
    } catch (const std::exception &e) {
        std::snprintf(msg, size, "Boost.Math threw: %s", e.what());
    } catch (...) {
        std::snprintf(msg, size, "Boost.Math threw an exception that is not a std::exception");
    }
    return 1;
}

} // namespace

extern "C" int gc_boost_map_f64(int form, const double *x, double *y, size_t n, char *msg,
                                size_t size)
{
    return map<double>(form, x, y, n, msg, size);
}

extern "C" int gc_boost_map_f32(int form, const float *x, float *y, size_t n, char *msg,
                                size_t size)
{
    return map<float>(form, x, y, n, msg, size);
}

namespace {
// BOOST_VERSION is 100000 * major + 100 * minor + patch (boost/version.hpp)
char version_text[32];
const bool version_done = std::snprintf(version_text, sizeof version_text, "%d.%d.%d",
                                        BOOST_VERSION / 100000, BOOST_VERSION / 100 % 1000,
                                        BOOST_VERSION % 100) > 0;
} // namespace

extern "C" const char *gc_boost_version(void)
{
    return version_done ? version_text : "(unknown)";
}

extern "C" const char *gc_boost_compiler(void)
{
#if defined(__clang__)
    return "clang " __clang_version__;
#elif defined(__GNUC__)
    return "GCC " __VERSION__;
#else
    return "an unknown C++ compiler";
#endif
}
