# Runs a renderer and compares its stdout with a golden file (cmake -P script), for the JUnit
# and compare golden tests (junit_compare_baseline.cmake).
#   -DCMD=a|b|c ('|' separates the arguments)  -DGOLDEN=path  -DACTUAL=path (where the output
#   is kept for a look when they differ)
# Update the golden files with tests/reports/fixtures_r3/update.sh BUILD_DIR, never by hand.
string(REPLACE "|" ";" cmd "${CMD}")
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "0")
    message(FATAL_ERROR "${cmd}: exit status ${rc}: ${err}")
endif()
file(WRITE "${ACTUAL}" "${out}")
file(READ "${GOLDEN}" want)
if(NOT out STREQUAL want)
    execute_process(COMMAND diff -u "${GOLDEN}" "${ACTUAL}" OUTPUT_VARIABLE d)
    message(FATAL_ERROR "output differs from ${GOLDEN} (got: ${ACTUAL}); if the change is "
                        "intended, rerun tests/reports/fixtures_r3/update.sh BUILD_DIR:\n${d}")
endif()
