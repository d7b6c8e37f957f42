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
