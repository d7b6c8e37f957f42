# Tests of the boost adapter (adapters/boost: C++ behind a C entry), included by
# thirdparty.cmake when configure found Boost.Math and a C++ compiler.  Fast: no label.
#   adapters_boost    the cmocka group: table, registry, every kernel, known values, policy
#   cli_boost_*       gelucheck list and a short run through the command line
# The test program is C and links the C++ object with the C compiler, as gelucheck does.
add_executable(test_adapters_boost ${CMAKE_CURRENT_LIST_DIR}/test_boost.c)
target_link_libraries(test_adapters_boost PRIVATE adapt_util gc_boost gc_adapters
                                          gelucheck_warnings)
add_test(NAME adapters_boost COMMAND test_adapters_boost)

cli_test(boost_list 0 "list|--adapter|boost"
    OUT "^adapter boost [(]version Boost[.]Math 1[.][0-9]+[.][0-9]+; built-in[)]\n.*\n  erf[.]f64 +erf +f64 +erf boost::math::erf[(]x[)] [(]double[)].*errno_on_error, evaluated in long double.*\n  normcdf[.]f64 +normcdf +f64 +normcdf cdf[(]normal_distribution<double>[(][)], x[)].*\n  gelu_erfc[.]f32 +gelu +f32 +gelu 0[.]5f[*]x[*]erfc[(]-x[*]one_div_root_two<float>[(][)][)]")
# erf in double passes the default policy (long double inside: <= 2 ulp); the float erf form of
# GELU flushes from -5.54 (1 + erf cancels) and gives NaN at -inf (-inf * 0)
cli_test(boost_run 1
    "run|--adapter|boost|--kernel|erf.f64|--kernel|gelu_erf.f32|--suite|ulp,special,tail|--samples|2048"
    OUT "^PASS +boost +erf[.]f64 +erf f64.*\nFAIL +boost +gelu_erf[.]f32 +gelu f32  worst: premature_flush .*\n +special_value +1  special x<-10  x = -inf  got nan .*\n +tail +flush point x = -5[.]54[0-9]*, last non-zero x = -14[.]356068")
