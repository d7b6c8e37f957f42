# tests of the reports module: report.html and compare.html (rp_markdown_html, reports/html.c).
# Included from tests/CMakeLists.txt (paths relative to tests/).  Golden file: README.md here.

# --- unit tests: each Markdown construct, hostile text, an unterminated fence, the page
add_executable(test_html reports/test_html.c)
target_link_libraries(test_html PRIVATE gc_reports PkgConfig::CMOCKA gelucheck_warnings)
add_test(NAME reports_html_unit COMMAND test_html)

set(html_fix ${CMAKE_CURRENT_SOURCE_DIR}/reports/fixtures)
set(html_check -DEXE=$<TARGET_FILE:gelucheck> -DRENDER=$<TARGET_FILE:test_html>
               -DPY=/usr/bin/python3 -DCHECK=${CMAKE_CURRENT_SOURCE_DIR}/reports/check_html.py)

# --- golden: mutants.report.html rendered from the golden mutants.report.md, byte for byte
add_test(NAME reports_html_golden_mutants
    COMMAND ${CMAKE_COMMAND} -DMODE=golden ${html_check} -DMD=${html_fix}/mutants.report.md
            -DGOLDEN=${html_fix}/mutants.report.html
            -DDIR=${CMAKE_CURRENT_BINARY_DIR}/report_results/html_golden
            -P ${CMAKE_CURRENT_SOURCE_DIR}/reports/html_check.cmake)

# --- the pages of real folders: `gelucheck report` and `gelucheck compare --report` write a
# well-formed page whose images exist, rendered from the Markdown beside it
add_test(NAME reports_html_report
    COMMAND ${CMAKE_COMMAND} -DMODE=report ${html_check} -DA=${html_fix}/mutants.json
            -DDIR=${CMAKE_CURRENT_BINARY_DIR}/report_results/html_report
            -P ${CMAKE_CURRENT_SOURCE_DIR}/reports/html_check.cmake)
add_test(NAME reports_html_compare
    COMMAND ${CMAKE_COMMAND} -DMODE=compare ${html_check}
            -DA=${CMAKE_CURRENT_SOURCE_DIR}/reports/fixtures_r3/a.json
            -DB=${CMAKE_CURRENT_SOURCE_DIR}/reports/fixtures_r3/b.json
            -DDIR=${CMAKE_CURRENT_BINARY_DIR}/report_results/html_compare
            -P ${CMAKE_CURRENT_SOURCE_DIR}/reports/html_check.cmake)
set_tests_properties(reports_html_golden_mutants reports_html_report reports_html_compare
                     PROPERTIES LABELS cli)

# --- report.html opened alone in headless Chromium shows each kernel's own plots: the
# screenshot (report_results/html_screenshot/report.png) holds each plot as Chromium renders
# it alone, at a place of its own.  Skipped (77) when chromium is not installed.
add_test(NAME reports_html_screenshot
    COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/reports/check_screenshot.py
            $<TARGET_FILE:gelucheck> ${CMAKE_CURRENT_BINARY_DIR}/report_results/html_screenshot)
set_tests_properties(reports_html_screenshot PROPERTIES LABELS cli SKIP_RETURN_CODE 77
                     TIMEOUT 900)
