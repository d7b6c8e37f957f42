# tests of the reports module: markdown (owned by one change at a time)
# report.md (rp_markdown), reading results back (rp_result_load), the report folder
# (rp_report_write), `gelucheck report` and `gelucheck run --report/--junit/--baseline`.
# Included from tests/CMakeLists.txt (paths relative to tests/).  Golden files: README.md here.
add_executable(test_markdown reports/test_markdown.c)
target_link_libraries(test_markdown PRIVATE gc_reports PkgConfig::CMOCKA PkgConfig::JANSSON
                                            gelucheck_warnings)
add_test(NAME reports_markdown COMMAND test_markdown)
# reports/runopts.c's table of run's options (how recorded commands are read back) is run's
add_test(NAME reports_runopts_complete
    COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/reports/runopts_check.py
            $<TARGET_FILE:gelucheck> ${PROJECT_SOURCE_DIR}/reports/runopts.c)
set_tests_properties(reports_runopts_complete PROPERTIES LABELS cli)

# golden report.md of the committed result fixtures, and the round trip of result.json
set(md_fixtures ${CMAKE_CURRENT_SOURCE_DIR}/reports/fixtures)
foreach(name mutants)
    add_test(NAME reports_markdown_golden_${name}
        COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gelucheck> -DCHECK=$<TARGET_FILE:test_markdown>
                -DFIXTURE=${md_fixtures}/${name}.json -DGOLDEN=${md_fixtures}/${name}.report.md
                -DDIR=${CMAKE_CURRENT_BINARY_DIR}/report_results/golden_${name}
                -P ${CMAKE_CURRENT_SOURCE_DIR}/reports/golden_check.cmake)
    set_tests_properties(reports_markdown_golden_${name} PROPERTIES LABELS cli)
endforeach()

# gelucheck report: usage and bad result files (exit 2, the file and the problem named)
set(e "gelucheck: error: ")
set(md_out ${CMAKE_CURRENT_BINARY_DIR}/report_results/bad)
cli_test(report_help 0 "report|--help" OUT "^usage: gelucheck report RESULT[.]json --report DIR")
cli_test(report_no_file 2 "report|--report|${md_out}" EMPTY_OUT
    ERR "^${e}no result file given")
cli_test(report_nothing 2 "report|${md_fixtures}/mutants.json" EMPTY_OUT
    ERR "^${e}nothing to write: give --report DIR or --junit FILE\n$")
cli_test(report_two_files 2 "report|a.json|b.json|--report|${md_out}" EMPTY_OUT
    ERR "^${e}one result file at a time: 'b[.]json'")
cli_test(report_missing 2 "report|${md_out}/none.json|--report|${md_out}" EMPTY_OUT
    ERR "^${e}[^\n]*/none[.]json: cannot read: No such file or directory\n$")
cli_test(report_bad_json 2 "report|${md_fixtures}/bad_syntax.json|--report|${md_out}" EMPTY_OUT
    ERR "^${e}[^\n]*/bad_syntax[.]json: line 3, column 16: unexpected token")
cli_test(report_bad_schema 2 "report|${md_fixtures}/bad_schema.json|--report|${md_out}"
    EMPTY_OUT
    ERR "^${e}[^\n]*/bad_schema[.]json: schema is 'gelucheck-result/0', want 'gelucheck-result/1'\n$")
cli_test(report_bad_member 2 "report|${md_fixtures}/bad_member.json|--report|${md_out}"
    EMPTY_OUT ERR "^${e}[^\n]*/bad_member[.]json: kernels[[]0[]]: no 'dtype'\n$")
cli_test(report_unknown_option 2 "report|${md_fixtures}/mutants.json|--bogus"
    ERR "^${e}unknown option '--bogus'\n$")

# gelucheck run --report, --junit, --json (their folders created), --baseline
add_test(NAME reports_run_report
    COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gelucheck> -DRC=1
            "-DARGS=run|--adapter|mutants|--kernel|nan_neginf.f32|--kernel|clamp0.f32|--samples|2000|--threads|2|--progress|never"
            "-DKERNELS=nan_neginf.f32|clamp0.f32"
            -DDIR=${CMAKE_CURRENT_BINARY_DIR}/report_results/run_report
            -P ${CMAKE_CURRENT_SOURCE_DIR}/reports/run_report_check.cmake)
set_tests_properties(reports_run_report PROPERTIES LABELS cli)
cli_test(run_baseline_bad 2
    "run|--adapter|mutants|--kernel|nan_neginf.f32|--baseline|${md_fixtures}/bad_schema.json"
    EMPTY_OUT ERR "^${e}[^\n]*/bad_schema[.]json: schema is 'gelucheck-result/0'")
cli_test(run_baseline_missing 2
    "run|--adapter|mutants|--kernel|nan_neginf.f32|--baseline|${md_out}/none.json"
    EMPTY_OUT ERR "^${e}[^\n]*/none[.]json: cannot read: No such file or directory\n$")
# --site-map: only with --baseline (run and merge); a map that cannot be read is exit 2 naming
# it, before anything runs (a valid one: tests/reports/test_baseline.c and scan_pair)
cli_test(run_site_map_alone 2
    "run|--adapter|mutants|--kernel|nan_neginf.f32|--site-map|${md_fixtures}/mutants.json"
    EMPTY_OUT ERR "^${e}--site-map '[^']*mutants[.]json' needs --baseline: ")
cli_test(merge_site_map_alone 2
    "merge|${md_fixtures}/mutants.json|--json|${md_out}/m.json|--site-map|${md_fixtures}/mutants.json"
    EMPTY_OUT ERR "^${e}--site-map '[^']*mutants[.]json' needs --baseline: ")
cli_test(run_site_map_missing 2
    "run|--adapter|mutants|--kernel|nan_neginf.f32|--baseline|${md_fixtures}/mutants.json|--site-map|${md_out}/none.map.json"
    EMPTY_OUT ERR "^${e}--site-map: cannot read site map '[^']*/none[.]map[.]json': ")
cli_test(run_site_map_not_a_map 2
    "run|--adapter|mutants|--kernel|nan_neginf.f32|--baseline|${md_fixtures}/mutants.json|--site-map|${md_fixtures}/bad_schema.json"
    EMPTY_OUT ERR "^${e}--site-map: site map '[^']*/bad_schema[.]json' is neither a gelucheck-sitemap/1 nor a result ")
cli_test(run_report_on_file 2
    "run|--adapter|mutants|--kernel|nan_neginf.f32|--report|${md_fixtures}/mutants.json"
    EMPTY_OUT ERR "^${e}--report: cannot create folder '[^']*mutants[.]json': a file of that")
cli_test(run_junit_under_file 2
    "run|--adapter|mutants|--kernel|nan_neginf.f32|--junit|${md_fixtures}/mutants.json/no/j.xml"
    EMPTY_OUT ERR "^${e}cannot write --junit '[^']*/j[.]xml': cannot create folder '[^']*/mutants[.]json/no': Not a directory\n$")

# scripts/published_summary.py, the README of reports/published/, on the mutants fixture
add_test(NAME published_summary
    COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/check_published_summary.py
            ${PROJECT_SOURCE_DIR}/scripts/published_summary.py
            ${CMAKE_CURRENT_LIST_DIR}/fixtures/mutants.json)

# rp_write_text ended by a fatal SIGINT or SIGTERM mid-write: no temporary file is left
add_executable(test_write_signal reports/test_write_signal.c)
target_link_libraries(test_write_signal PRIVATE gc_reports gelucheck_warnings)
add_test(NAME reports_write_signal
    COMMAND test_write_signal ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(reports_write_signal PROPERTIES SKIP_RETURN_CODE 77)
