# What the end-to-end checks (cmake -P scripts) share; include() it, with EXE and DIR set.
#   check_run(NAME WANT ARGS...)   gelucheck ARGS in DIR; fails unless the exit status is WANT;
#                                  sets out, err and ctx (the command and both outputs, for
#                                  messages) in the caller
#   check_validate(SCHEMA FILE)    FILE validates against SCHEMA (PY runs VALIDATE); nothing
#                                  when VALIDATE is empty (no python3-jsonschema)
function(check_run name want)
    execute_process(COMMAND "${EXE}" ${ARGN} WORKING_DIRECTORY "${DIR}"
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    set(ctx "${name}: gelucheck ${ARGN}\n--- stdout:\n${out}--- stderr:\n${err}")
    if(NOT rc STREQUAL "${want}")
        message(FATAL_ERROR "exit status ${rc}, want ${want}: ${ctx}")
    endif()
    set(out "${out}" PARENT_SCOPE)
    set(err "${err}" PARENT_SCOPE)
    set(ctx "${ctx}" PARENT_SCOPE)
endfunction()

function(check_validate schema file)
    if(NOT VALIDATE)
        return()
    endif()
    execute_process(COMMAND "${PY}" "${VALIDATE}" "${schema}" "${file}"
        RESULT_VARIABLE rc ERROR_VARIABLE e)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "${file} does not validate against ${schema}:\n${e}")
    endif()
endfunction()
