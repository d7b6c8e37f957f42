# The findings as every renderer shows them (reports/findings.h, docs/findings.md): the kinds
# in the order of severity and the hint table on hand-made kernels (test_findings), then on
# real runs (findings_check.py): the terminal summary, report.md and junit.xml of kernels that
# crash, and of mutants and libm kernels each with its defect and its hint.
# Included from tests/CMakeLists.txt (paths relative to tests/).
add_executable(test_findings reports/test_findings.c reports/test_findings_hints.c)
target_include_directories(test_findings PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/reports)
target_link_libraries(test_findings PRIVATE gc_reports PkgConfig::CMOCKA PkgConfig::JANSSON
                                            gelucheck_warnings)
add_test(NAME reports_findings COMMAND test_findings)

add_test(NAME reports_findings_runs
    COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/reports/findings_check.py
            $<TARGET_FILE:gelucheck> $<TARGET_FILE:test_findings>
            $<TARGET_FILE:gcfx_hostile> $<TARGET_FILE:gcfx_fail>
            ${CMAKE_CURRENT_BINARY_DIR}/findings_results)
set_tests_properties(reports_findings_runs PROPERTIES LABELS cli)
