# Tests of the gsl adapter (adapters/gsl), included by thirdparty.cmake when configure found
# libgsl.  Fast (about a second each): no label.
#   adapters_gsl      the cmocka group: table, registry, every kernel, known values
#   cli_gsl_*         gelucheck list and a short run through the command line
add_executable(test_adapters_gsl ${CMAKE_CURRENT_LIST_DIR}/test_gsl.c)
target_link_libraries(test_adapters_gsl PRIVATE adapt_util gc_gsl gc_adapters gelucheck_warnings)
add_test(NAME adapters_gsl COMMAND test_adapters_gsl)

cli_test(gsl_list 0 "list|--adapter|gsl"
    OUT "^adapter gsl [(]version GSL [0-9]+[.][0-9.]+; built-in[)]\n.*\n  erf[.]f64 +erf +f64 +erf gsl_sf_erf[(]x[)].*\n  normcdf[.]f64 +normcdf +f64 +normcdf gsl_cdf_ugaussian_P[(]x[)].*\n  gelu_erfc[.]f64 +gelu +f64 +gelu 0[.]5[*]x[*]gsl_sf_erfc[(]-x/M_SQRT2[)]")
# x*gsl_cdf_ugaussian_P(x): P is 0 below -37.519 (cdf/gauss.c), where x*Phi(x) is still normal
# down to about -37.6: a premature flush; -inf * 0 = NaN at x = -inf (GELU(-inf) = -0)
cli_test(gsl_run_gelu_cdf 1
    "run|--adapter|gsl|--kernel|gelu_cdf.f64|--suite|special,tail|--samples|2048"
    OUT "^FAIL +gsl +gelu_cdf[.]f64 +gelu f64  worst: premature_flush at x = -37[.]5[0-9]*.*\n +special_value +[0-9]+  special x<-10  x = -inf  got nan .*\n +tail +flush point x = -37[.]519000000000005, last non-zero x = -38[.]58")
