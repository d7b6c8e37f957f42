# tests of the suites module: the core (names, bits, the reference workspace and measurement,
# findings, error statistics, JSON helpers and reading them back, inputs, threads, targets)
foreach(t basics measure stats targets readback order)
    add_executable(test_suites_core_${t} suites/test_core_${t}.c)
    target_link_libraries(test_suites_core_${t}
                          PRIVATE gc_suites PkgConfig::CMOCKA gelucheck_warnings m)
endforeach()
add_test(NAME suites_core_basics COMMAND test_suites_core_basics)
add_test(NAME suites_core_measure COMMAND test_suites_core_measure)
add_test(NAME suites_core_stats COMMAND test_suites_core_stats)
# the order of severity (docs/findings.md) and its comparison
add_test(NAME suites_core_order COMMAND test_suites_core_order)
add_test(NAME suites_core_targets COMMAND test_suites_core_targets)
# gelucheck merge reads results back: every writer's output, read back, written again
add_test(NAME suites_core_readback COMMAND test_suites_core_readback)
# every f16 and bf16 input of gelu, normcdf, erfc and gelu_tanh against geluref_eval
add_test(NAME suites_core_measure_all16 COMMAND test_suites_core_measure sweep)
set_tests_properties(suites_core_measure_all16 PROPERTIES LABELS sweep)
