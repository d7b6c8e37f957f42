# Runs `gelucheck run ... --json FILE` and checks what it wrote (cmake -P script, run.cmake):
#   -DEXE=gelucheck  -DARGS=a|b|c ('|' separates; the script appends --json FILE)  -DRC=n
#   -DDIR=folder (made afresh; the command runs there and writes result.json)
#   [-DPY=/usr/bin/python3 -DVALIDATE=validate_result.py -DSCHEMA=schema.json]: validate it
#   [-DCHECK=test_run_result -DMODE=mutants|fixture|erf1p|same]: then check its content:
#     CHECK MODE DIR/result.json [DIR/2/result.json]
#   [-DARGS2=...]: a second run (same RC) into DIR/2/result.json
#   [-DERR=regex]: stderr must match
function(run_one args dir)
    string(REPLACE "|" ";" args "${args}")
    file(REMOVE_RECURSE "${dir}")
    file(MAKE_DIRECTORY "${dir}")
    execute_process(COMMAND "${EXE}" ${args} --json result.json WORKING_DIRECTORY "${dir}"
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    message("gelucheck ${args}\n${out}")
    if(NOT rc STREQUAL "${RC}")
        message(FATAL_ERROR "exit status ${rc}, want ${RC}\n--- stderr:\n${err}")
    endif()
    if(DEFINED ERR AND NOT err MATCHES "${ERR}")
        message(FATAL_ERROR "stderr does not match '${ERR}':\n${err}")
    endif()
    if(NOT EXISTS "${dir}/result.json")
        message(FATAL_ERROR "no result written in ${dir}")
    endif()
    file(GLOB leftovers "${dir}/result.json.tmp*")
    if(leftovers)
        message(FATAL_ERROR "temporary files left: ${leftovers}")
    endif()
    if(VALIDATE)
        execute_process(COMMAND "${PY}" "${VALIDATE}" "${SCHEMA}" "${dir}/result.json"
            RESULT_VARIABLE vrc ERROR_VARIABLE verr)
        if(NOT vrc EQUAL 0)
            message(FATAL_ERROR "result does not validate against ${SCHEMA}:\n${verr}")
        endif()
    endif()
endfunction()

run_one("${ARGS}" "${DIR}")
set(check_args ${MODE} "${DIR}/result.json")
if(DEFINED ARGS2)
    run_one("${ARGS2}" "${DIR}/2")
    list(APPEND check_args "${DIR}/2/result.json")
endif()
if(CHECK)
    execute_process(COMMAND "${CHECK}" ${check_args} RESULT_VARIABLE crc)
    if(NOT crc EQUAL 0)
        message(FATAL_ERROR "${CHECK} ${check_args} failed")
    endif()
endif()
