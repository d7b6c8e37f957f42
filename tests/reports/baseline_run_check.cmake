# gelucheck run --baseline end to end (cmake -P script), in a fresh folder DIR:
#   1. ARGS --json base.json                       exit 0 (the kernels pass)
#   2. ARGS --baseline base.json                    exit 0, no regression, JUnit shape ok
#   3. ARGS --baseline doctored.json                exit 1: the baseline claims max_ulp 0 (better
#      than reality); the summary and the JUnit name the metric
#   4. ARGS --baseline not-json                     exit 2 naming the file, nothing run
# -DEXE -DARGS (a|b|c) -DDIR -DPY (/usr/bin/python3) -DCHECKJ (check_junit.py)
# [-DVALIDATE -DSCHEMA]: the results written are validated against the schema too.
string(REPLACE "|" ";" args "${ARGS}")
include(${CMAKE_CURRENT_LIST_DIR}/../check_lib.cmake)
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")

function(run name want)
    execute_process(COMMAND "${EXE}" ${args} ${ARGN}
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    set(ctx "${name}: gelucheck ${args} ${ARGN}\n--- stdout:\n${out}--- stderr:\n${err}")
    if(NOT rc STREQUAL "${want}")
        message(FATAL_ERROR "exit status ${rc}, want ${want}: ${ctx}")
    endif()
    set(out "${out}" PARENT_SCOPE)
    set(err "${err}" PARENT_SCOPE)
    set(ctx "${ctx}" PARENT_SCOPE)
endfunction()

function(check_files xml json)
    execute_process(COMMAND "${PY}" "${CHECKJ}" "${xml}" RESULT_VARIABLE rc OUTPUT_VARIABLE o)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "${xml}: not the JUnit shape:\n${o}")
    endif()
    check_validate("${SCHEMA}" "${json}")
endfunction()

run(base 0 --json "${DIR}/base.json")

run(same 0 --baseline "${DIR}/base.json" --json "${DIR}/same.json" --junit "${DIR}/same.xml")
if(out MATCHES "    baseline  " OR NOT out MATCHES "\nPASS: " OR NOT out MATCHES
   "\nbaseline: 2 kernels compared, 0 regressions, 0 improvements, 0 missing, 0 new\n")
    message(FATAL_ERROR "against itself: a regression shown, or not PASS: ${ctx}")
endif()
check_files("${DIR}/same.xml" "${DIR}/same.json")
file(READ "${DIR}/same.xml" xml)
if(NOT xml MATCHES "name=\"baseline\" time=\"0\"/>" OR xml MATCHES "<failure")
    message(FATAL_ERROR "against itself: the baseline testcases should pass:\n${xml}")
endif()

execute_process(COMMAND "${PY}" -c "
import json, sys
d = json.load(open(sys.argv[1]))
for k in d['kernels']:
    for s in k['suites']:
        if s['name'] == 'ulp':
            s['metrics']['overall']['max_ulp'] = 0
json.dump(d, open(sys.argv[2], 'w'))
" "${DIR}/base.json" "${DIR}/doctored.json" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cannot write ${DIR}/doctored.json")
endif()
run(worse 1 --baseline "${DIR}/doctored.json" --json "${DIR}/worse.json"
    --junit "${DIR}/worse.xml")
if(NOT out MATCHES "\n    baseline    max_ulp 0 -> [0-9.e+-]+ [(]worse[)]\n" OR
   NOT out MATCHES "\nFAIL: ")
    message(FATAL_ERROR "against a doctored baseline: no max_ulp regression shown: ${ctx}")
endif()
check_files("${DIR}/worse.xml" "${DIR}/worse.json")
file(READ "${DIR}/worse.xml" xml)
if(NOT xml MATCHES "<failure message=\"max_ulp 0 -&gt; [^\"]*\" type=\"regression\">")
    message(FATAL_ERROR "against a doctored baseline: no JUnit failure naming max_ulp:\n${xml}")
endif()

file(WRITE "${DIR}/not-json" "this is not a result\n")
run(bad 2 --baseline "${DIR}/not-json")
if(NOT err MATCHES "^gelucheck: error: [^\n]*not-json: [^\n]+\n$")
    message(FATAL_ERROR "a bad --baseline: the message should name the file: ${ctx}")
endif()
