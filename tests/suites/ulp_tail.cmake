# tests of the suites module: the ulp and tail suites (suites/ulp*.c, suites/tail*.c).
# Included from tests/CMakeLists.txt (paths relative to tests/).

# The tests: the libm and mutants adapters, and the correctly rounded plug-in fixture_cr
# (tests/suites/run.cmake), loaded by path.
foreach(t ulp tail)
    add_executable(test_suites_${t} suites/test_${t}.c suites/test_ulp_common.c)
    target_compile_definitions(test_suites_${t} PRIVATE
        FIXTURE_CR="$<TARGET_FILE:gelucheck_fixture_cr>")
    target_include_directories(test_suites_${t} PRIVATE suites)
    target_link_libraries(test_suites_${t} PRIVATE gc_suites PkgConfig::CMOCKA
                                                    gelucheck_warnings m)
    add_dependencies(test_suites_${t} gelucheck_fixture_cr)
    add_test(NAME suites_${t} COMMAND test_suites_${t})
endforeach()

# the ulp sweep's block measurement (gs_measure_n) against gs_measure, field for field:
# every f16/bf16 input of five functions and f32/f64 runs; under `sweep` every function
add_executable(test_suites_ulp_measure_n suites/test_ulp_measure_n.c)
target_include_directories(test_suites_ulp_measure_n PRIVATE ${PROJECT_SOURCE_DIR}/suites)
target_link_libraries(test_suites_ulp_measure_n PRIVATE gc_suites PkgConfig::CMOCKA
                                                        gelucheck_warnings m)
add_test(NAME suites_ulp_measure_n COMMAND test_suites_ulp_measure_n)
add_test(NAME suites_ulp_measure_n_all16 COMMAND test_suites_ulp_measure_n sweep)
set_tests_properties(suites_ulp_measure_n_all16 PROPERTIES LABELS sweep)

# the fused binary32 measurement (suites/ulp_fused.h) against gs_measure, every function
add_executable(test_suites_ulp_fused suites/test_ulp_fused.c)
target_include_directories(test_suites_ulp_fused PRIVATE ${PROJECT_SOURCE_DIR}/suites)
target_link_libraries(test_suites_ulp_fused PRIVATE gc_suites PkgConfig::CMOCKA
                                                     gelucheck_warnings m)
add_test(NAME suites_ulp_fused COMMAND test_suites_ulp_fused)
add_test(NAME suites_ulp_fused_mpfr COMMAND test_suites_ulp_fused mpfr)

# the bound and quick lanes four at a time (suites/ulp_lane_avx2.c), the bound lane eight at a
# time (suites/ulp_lane_avx512.c), against one at a time
add_executable(test_suites_ulp_lane suites/test_ulp_lane.c)
target_include_directories(test_suites_ulp_lane PRIVATE ${PROJECT_SOURCE_DIR}/suites)
target_link_libraries(test_suites_ulp_lane PRIVATE gc_suites gelucheck_warnings m)
add_test(NAME suites_ulp_lane COMMAND test_suites_ulp_lane 200000 1)
set_tests_properties(suites_ulp_lane PROPERTIES SKIP_RETURN_CODE 77)

# the end of a rule's run in an item without a scan (suites/ulp_util.h gs_ut_stretch_end)
# against the scan
add_executable(test_suites_ulp_stretch suites/test_ulp_stretch.c)
target_include_directories(test_suites_ulp_stretch PRIVATE ${PROJECT_SOURCE_DIR}/suites
                                                           ${PROJECT_SOURCE_DIR}/tests/reference)
target_link_libraries(test_suites_ulp_stretch PRIVATE gc_suites gelucheck_warnings m)
add_test(NAME suites_ulp_stretch COMMAND test_suites_ulp_stretch 200000 1)

# the span lane (suites/ulp_lane.h: the exact function's measurement from enclosures at the
# ends of runs of inputs) against gs_measure, and four at a time against one at a time
add_executable(test_suites_ulp_span suites/test_ulp_span.c)
target_include_directories(test_suites_ulp_span PRIVATE ${PROJECT_SOURCE_DIR}/suites
                                                        ${PROJECT_SOURCE_DIR}/tests/reference)
target_link_libraries(test_suites_ulp_span PRIVATE gc_suites gelucheck_warnings m)
add_test(NAME suites_ulp_span COMMAND test_suites_ulp_span 100000 1)
