// Configure's check of the boost adapter (adapters/boost/CMakeLists.txt): the calls
// boost_math.cpp makes, with its policy, compile, link and give sane values.
#include "boost_policy.hpp"

#include <boost/math/distributions/normal.hpp>
#include <boost/math/special_functions/erf.hpp>

int main()
{
    double e = boost::math::erf(0.5), c = boost::math::erfc(0.5);
    double p = boost::math::cdf(boost::math::normal_distribution<double>(), 0.5);
    float f = boost::math::erf(0.5f);
    // erf(0.5) = 0.5205, erfc(0.5) = 0.4795, Phi(0.5) = 0.6915
    return e > 0.52 && e < 0.521 && c > 0.479 && c < 0.48 && p > 0.691 && p < 0.692 &&
                   f > 0.52f && f < 0.521f
               ? 0
               : 1;
}
