# tests of the reports module: junit_compare_baseline (rp_junit, rp_compare_markdown,
# rp_baseline_apply, gelucheck compare, run --baseline).  Included from tests/CMakeLists.txt
# (paths relative to tests/).  Fixtures: reports/fixtures_r3/ (generate.sh makes them, update.sh
# the golden files; never edited by hand).
set(r3_fix ${CMAKE_CURRENT_LIST_DIR}/fixtures_r3)
set(r3_out ${CMAKE_CURRENT_BINARY_DIR}/r3_out)
file(MAKE_DIRECTORY ${r3_out})

# r3_render: the renderers on saved results (golden tests, update.sh)
add_executable(r3_render reports/r3_render.c)
target_link_libraries(r3_render PRIVATE gc_reports gelucheck_warnings)

# --- golden: junit.xml of both fixtures, compare.md of the two
foreach(g junit_a junit_b compare)
    if(g STREQUAL "compare")
        set(args "compare|${r3_fix}/a.json|${r3_fix}/b.json")
    else()
        string(REPLACE "junit_" "" f ${g})
        set(args "junit|${r3_fix}/${f}.json")
    endif()
    add_test(NAME reports_golden_${g}
        COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:r3_render>|${args}"
                -DGOLDEN=${r3_fix}/${g}$<IF:$<STREQUAL:${g},compare>,.md,.xml>
                -DACTUAL=${r3_out}/${g}.out
                -P ${CMAKE_CURRENT_LIST_DIR}/r3_golden_check.cmake)
endforeach()

# --- unit tests: escaping, error and skipped testcases, the compare cells (results built in
# C), and rp_baseline_apply against copies of b.json made better than reality in one metric
add_executable(test_junit_compare reports/test_junit_compare.c)
target_link_libraries(test_junit_compare PRIVATE gc_reports PkgConfig::CMOCKA gelucheck_warnings)
add_test(NAME reports_junit_compare COMMAND test_junit_compare)
add_executable(test_baseline reports/test_baseline.c)
target_link_libraries(test_baseline PRIVATE gc_reports PkgConfig::CMOCKA gelucheck_warnings)
add_test(NAME reports_baseline COMMAND test_baseline ${r3_fix}/b.json)

# --- the JUnit shape CI consumers read (check_junit.py, /usr/bin/python3's xml.etree): the
# junit.xml rendered now from both fixtures, and the golden files
add_test(NAME reports_junit_shape
    COMMAND sh -c "\"$1\" junit \"$2/a.json\" >\"$3/shape_a.xml\" && \"$1\" junit \"$2/b.json\" >\"$3/shape_b.xml\" && /usr/bin/python3 \"$4\" \"$3/shape_a.xml\" \"$3/shape_b.xml\" \"$2/junit_a.xml\" \"$2/junit_b.xml\""
            sh $<TARGET_FILE:r3_render> ${r3_fix} ${r3_out} ${CMAKE_CURRENT_LIST_DIR}/check_junit.py)

# --- gelucheck compare: help, usage errors, a bad file named (exit 2, nothing written), and
# the report folder of the two fixtures
set(e "gelucheck: error: ")
cli_test(compare_help 0 "compare|--help" OUT "^usage: gelucheck compare RESULT[.]json[.][.][.]")
cli_test(compare_no_file 2 "compare" ERR "^${e}no result file given" EMPTY_OUT)
cli_test(compare_bad_option 2 "compare|--bogus|${r3_fix}/a.json" ERR "^${e}unknown option '--bogus'"
    EMPTY_OUT)
cli_test(compare_not_json 2 "compare|${r3_fix}/a.json|${r3_fix}/trim.py|--report|${r3_out}/never"
    ERR "^${e}[^\n]*/trim[.]py: line 1, column [0-9]+: [^\n]+\n$" EMPTY_OUT)
cli_test(compare_wrong_schema 2
    "compare|${PROJECT_SOURCE_DIR}/reports/schema/gelucheck-result-1.schema.json"
    ERR "^${e}[^\n]*/gelucheck-result-1[.]schema[.]json: no 'schema' [(]want 'gelucheck-result/1'[)]\n$"
    EMPTY_OUT)
cli_test(compare_missing 2 "compare|${r3_out}/no-such.json"
    ERR "^${e}[^\n]*/no-such[.]json: cannot read: No such file or directory\n$" EMPTY_OUT)
cli_test(compare_stdout 0 "compare|${r3_fix}/a.json"
    OUT "^# gelucheck compare\n.*\n## gelu f32\n.*\n[|] libm [|] erfc[\\]_via[\\]_f64[.]f32 [|] 0[.]5 [|]")
add_test(NAME reports_compare_report
    COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gelucheck> -DA=${r3_fix}/a.json
            -DB=${r3_fix}/b.json -DDIR=${r3_out}/compare -DPY=/usr/bin/python3
            -P ${CMAKE_CURRENT_LIST_DIR}/compare_check.cmake)

# --- gelucheck run --baseline: against itself passes, against a doctored baseline (max_ulp 0)
# fails naming the metric in the summary and the JUnit; a bad baseline file is exit 2
add_test(NAME reports_run_baseline
    COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gelucheck>
            "-DARGS=run|--adapter|mutants|--kernel|nan_neginf.f32|--kernel|pos_zero.f32|--policy|lenient|--samples|2000|--threads|2|--progress|never"
            -DDIR=${r3_out}/baseline -DPY=/usr/bin/python3
            -DCHECKJ=${CMAKE_CURRENT_LIST_DIR}/check_junit.py
            -DVALIDATE=${run_validate} -DSCHEMA=${run_schema}
            -P ${CMAKE_CURRENT_LIST_DIR}/baseline_run_check.cmake)
set_tests_properties(reports_compare_report reports_run_baseline PROPERTIES LABELS cli)

# --- hostile results (issue 8): every member of each fixture replaced, one at a time, by a
# value of another type or an absurd number: rejected with one line naming the file, or read
# by every renderer, compare, merge and baseline without a crash (test_hostile_json.c)
add_executable(test_hostile_json reports/test_hostile_json.c)
target_link_libraries(test_hostile_json PRIVATE gc_reports PkgConfig::CMOCKA gelucheck_warnings)
# a.json (an adapter not loaded, trimmed curves: every 2nd member) and mutants.json (every curve:
# every 4th member; a merge and a compare copy its 28000 members per mutant); a sanitizer
# build takes every 8th of those (all of them would take about 10 minutes there)
set(hostile_scale 1)
if(CMAKE_C_FLAGS MATCHES "-fsanitize")
    set(hostile_scale 8)
endif()
foreach(row "fixtures_r3/a=2" "fixtures/mutants=4")
    string(REPLACE "=" ";" row ${row})
    list(GET row 0 f)
    list(GET row 1 stride)
    math(EXPR stride "${stride} * ${hostile_scale}")
    string(REPLACE "/" "_" n ${f})
    add_test(NAME reports_hostile_json_${n}
        COMMAND test_hostile_json ${CMAKE_CURRENT_LIST_DIR}/${f}.json ${stride})
endforeach()

# --- kernel identity and honest baselines (identity_check.cmake): a regressed plug-in fails
# however its path is spelled; a removed kernel is missing; another seed compares only what
# it may; a 0.1 result without ids is a baseline; exec adapters' names
add_test(NAME reports_identity_baseline
    COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gelucheck> -DDIR=${r3_out}/identity
            -DGOOD=$<TARGET_FILE:gcfx_idk> -DREGRESS=$<TARGET_FILE:gcfx_idk_regress>
            -DDROP=$<TARGET_FILE:gcfx_idk_drop>
            -DEXAMPLE=$<TARGET_FILE:gelucheck_example_plugin> -DSRC=${PROJECT_SOURCE_DIR}
            -DPY=/usr/bin/python3 -DVALIDATE=${run_validate} -DSCHEMA=${run_schema}
            -DBSCHEMA=${PROJECT_SOURCE_DIR}/reports/schema/gelucheck-baseline-1.schema.json
            -P ${CMAKE_CURRENT_LIST_DIR}/identity_check.cmake)
set_tests_properties(reports_identity_baseline PROPERTIES LABELS cli)
