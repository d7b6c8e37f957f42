# Runs one configuration whole and in N shards, merges the shards and checks that the merged
# result is the whole run's (cmake -P script, shard.cmake):
#   -DEXE=gelucheck  -DARGS=a|b|c ('|' separates; run appends --json result.json)  -DN=shards
#   -DORDER=k;k;... the order the shard files are given to merge (a permutation of 0..N-1)
#   -DRC=n: the exit status of the whole run, which the merge must exit with too
#   -DDIR=folder (made afresh)  -DCHECK=test_run_result
#   [-DPY=/usr/bin/python3 -DVALIDATE=validate_result.py -DSCHEMA=schema.json]
# Each run writes DIR/<name>/result.json in its own folder, so that the recorded commands
# (--json result.json) are the same.  The merge also writes its report and JUnit XML.
string(REPLACE "|" ";" args "${ARGS}")
file(REMOVE_RECURSE "${DIR}")

function(validate file)
    if(NOT VALIDATE)
        return()
    endif()
    execute_process(COMMAND "${PY}" "${VALIDATE}" "${SCHEMA}" "${file}"
        RESULT_VARIABLE vrc ERROR_VARIABLE verr)
    if(NOT vrc EQUAL 0)
        message(FATAL_ERROR "${file} does not validate against ${SCHEMA}:\n${verr}")
    endif()
endfunction()

# run_in(sub extra...): gelucheck ARGS extra... --json result.json in DIR/sub
function(run_in sub)
    file(MAKE_DIRECTORY "${DIR}/${sub}")
    execute_process(COMMAND "${EXE}" ${args} ${ARGN} --json result.json
        WORKING_DIRECTORY "${DIR}/${sub}" RESULT_VARIABLE rc OUTPUT_VARIABLE out
        ERROR_VARIABLE err)
    message("gelucheck ${args} ${ARGN}: exit ${rc}")
    if(rc GREATER 1)
        message(FATAL_ERROR "exit status ${rc}\n--- stdout:\n${out}--- stderr:\n${err}")
    endif()
    validate("${DIR}/${sub}/result.json")
    set(run_rc ${rc} PARENT_SCOPE)
endfunction()

run_in(whole)
if(NOT run_rc STREQUAL "${RC}")
    message(FATAL_ERROR "the whole run: exit status ${run_rc}, want ${RC}")
endif()
math(EXPR last "${N} - 1")
foreach(k RANGE ${last})
    run_in(shard${k} --shard ${k}/${N})
endforeach()

set(files "")
foreach(k ${ORDER})
    list(APPEND files "${DIR}/shard${k}/result.json")
endforeach()
execute_process(COMMAND "${EXE}" merge ${files} --json "${DIR}/merged.json"
    --report "${DIR}/report" --junit "${DIR}/junit.xml"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("gelucheck merge ${files}: exit ${rc}\n${out}")
if(NOT rc STREQUAL "${RC}")
    message(FATAL_ERROR "merge: exit status ${rc}, want ${RC}\n--- stderr:\n${err}")
endif()
if(NOT out MATCHES "merged from ${N} shards")
    message(FATAL_ERROR "merge: the summary does not say 'merged from ${N} shards'")
endif()
foreach(f merged.json report/report.md report/result.json junit.xml)
    if(NOT EXISTS "${DIR}/${f}")
        message(FATAL_ERROR "merge did not write ${DIR}/${f}")
    endif()
endforeach()
validate("${DIR}/merged.json")

set(shard_files "")
foreach(k RANGE ${last})
    list(APPEND shard_files "${DIR}/shard${k}/result.json")
endforeach()
execute_process(COMMAND "${CHECK}" merged "${DIR}/whole/result.json" "${DIR}/merged.json"
    ${shard_files} RESULT_VARIABLE crc)
if(NOT crc EQUAL 0)
    message(FATAL_ERROR "${CHECK} merged: the merged result is not the whole run's")
endif()
