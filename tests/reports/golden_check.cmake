# A golden test of the Markdown report (markdown.cmake): renders a committed result fixture
# with `gelucheck report`, compares report.md byte for byte with the committed golden and
# checks that result.json round-trips (test_markdown roundtrip: json_equal).
#   -DEXE=gelucheck -DCHECK=test_markdown -DFIXTURE=x.json -DGOLDEN=x.report.md -DDIR=folder
# Update the goldens with tests/reports/make_fixtures.sh GELUCHECK --goldens (README.md there).
file(REMOVE_RECURSE "${DIR}")
execute_process(COMMAND "${EXE}" report "${FIXTURE}" --report "${DIR}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gelucheck report exit status ${rc}, want 0\n${err}")
endif()
foreach(f report.md result.json junit.xml)
    if(NOT EXISTS "${DIR}/${f}")
        message(FATAL_ERROR "gelucheck report wrote no ${DIR}/${f}")
    endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${DIR}/report.md" "${GOLDEN}"
    RESULT_VARIABLE diff)
if(NOT diff EQUAL 0)
    execute_process(COMMAND diff -u "${GOLDEN}" "${DIR}/report.md" OUTPUT_VARIABLE d)
    string(SUBSTRING "${d}" 0 4000 d)
    message(FATAL_ERROR "${DIR}/report.md differs from ${GOLDEN} (if the change is meant, "
                        "update with tests/reports/make_fixtures.sh GELUCHECK --goldens):\n${d}")
endif()
execute_process(COMMAND "${CHECK}" roundtrip "${FIXTURE}" "${DIR}/result.json" RESULT_VARIABLE rt)
if(NOT rt EQUAL 0)
    message(FATAL_ERROR "${DIR}/result.json is not the fixture ${FIXTURE} again")
endif()
