# Tests of the `sleef` adapter (adapters/sleef), included by thirdparty.cmake when configure
# found SLEEF.  adapters_sleef and the cli_ ones are fast (seconds); the exhaustive one is slow.
add_executable(test_adapters_sleef ${CMAKE_CURRENT_LIST_DIR}/test_sleef.c
                                   ${CMAKE_CURRENT_LIST_DIR}/test_sleef_vector.c)
target_link_libraries(test_adapters_sleef PRIVATE adapt_util gc_sleef gc_adapters
                                          gelucheck_warnings m)
add_test(NAME adapters_sleef COMMAND test_adapters_sleef)
# every binary32 input: the backends that must agree bit for bit do (minutes: label slow)
add_test(NAME adapters_sleef_exhaustive_f32 COMMAND test_adapters_sleef exhaustive)
set_tests_properties(adapters_sleef_exhaustive_f32 PROPERTIES LABELS slow)

# The command line on scalar kernels (every CPU has them), 4096 samples: SLEEF's erf passes
# the default policy; the erf form of GELU in float fails it (1 + erff cancels: premature
# flush below about -5.5; NaN at x = -inf, where the reference is -0).
cli_test(sleef_run_erf 0
    "run|--adapter|sleef|--kernel|erf.u10.scalar.f64|--suite|ulp,special|--samples|4096"
    OUT "^PASS +sleef +erf[.]u10[.]scalar[.]f64 +erf f64\n\nPASS: 1 kernel, 1 pass, 0 fail")
cli_test(sleef_run_gelu_erf 1
    "run|--adapter|sleef|--kernel|gelu_erf.u10.scalar.f32|--suite|ulp,special|--samples|4096"
    OUT "^FAIL +sleef +gelu_erf[.]u10[.]scalar[.]f32 +gelu f32  worst: premature_flush.*\nFAIL: 1 kernel, 0 pass, 1 fail.*\nfindings: .*premature_flush [0-9]+.*special_value 1\n")
