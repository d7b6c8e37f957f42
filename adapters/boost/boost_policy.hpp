// The error-handling policy of the boost adapter's calls, set the way a program sets it for
// every Boost.Math call: these macros before the first Boost.Math include.
//
// Boost.Math's default policy throws std::domain_error, std::overflow_error and
// boost::math::evaluation_error (domain, pole, overflow, evaluation and rounding errors), and
// ignores underflow and denormal results.  A numeric kernel cannot throw per element, so it
// needs values: errno_on_error sets errno and returns the most appropriate value (NaN for a
// NaN argument, +-inf on overflow), as C's <math.h> does.  It is the policy Boost.Math picks
// itself when exceptions are off (BOOST_NO_EXCEPTIONS, boost/math/policies/policy.hpp) and the
// one of its C99 compatibility library (libboost_math_c99, boost::math::tr1).  Underflow and
// denormal stay at their default, ignore_error.  The precision policies stay at their
// defaults too: float is evaluated in double and double in long double (promote_float,
// promote_double), as every user of the defaults gets.
#ifndef GC_BOOST_POLICY_HPP
#define GC_BOOST_POLICY_HPP

#define BOOST_MATH_DOMAIN_ERROR_POLICY errno_on_error
#define BOOST_MATH_POLE_ERROR_POLICY errno_on_error
#define BOOST_MATH_OVERFLOW_ERROR_POLICY errno_on_error
#define BOOST_MATH_EVALUATION_ERROR_POLICY errno_on_error
#define BOOST_MATH_ROUNDING_ERROR_POLICY errno_on_error

#endif
