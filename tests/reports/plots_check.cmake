# The plots of real results, end to end (cmake -P script, plots.cmake):
#   -DEXE=gelucheck -DPLOTS=test_plots -DPY=/usr/bin/python3 -DCHECK=check_plots.py
#   -DDIR=folder (made afresh)  -DARGS=a|b|c (the run's options, '|' separated)
#   [-DVALIDATE=validate_result.py -DSCHEMA=schema.json]: the result is validated first
# Runs `gelucheck ARGS --json DIR/result.json`, writes the plots of every kernel into
# DIR/plots and the combined plot into DIR/compare.svg, then checks them with CHECK.
function(step)
    execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    message("${ARGV}\n${out}")
    if(NOT rc EQUAL 0 AND NOT (ARGV0 STREQUAL EXE AND rc EQUAL 1)) # a run may fail its kernels
        message(FATAL_ERROR "exit status ${rc}\n--- stderr:\n${err}")
    endif()
endfunction()

string(REPLACE "|" ";" args "${ARGS}")
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}/plots")
step("${EXE}" ${args} --json "${DIR}/result.json")
if(VALIDATE)
    step("${PY}" "${VALIDATE}" "${SCHEMA}" "${DIR}/result.json")
endif()
step("${PLOTS}" write "${DIR}/plots" "${DIR}/result.json")
step("${PLOTS}" compare "${DIR}/compare.svg" "${DIR}/result.json")
step("${PY}" "${CHECK}" "${DIR}/result.json" "${DIR}/plots" "${DIR}/compare.svg")
