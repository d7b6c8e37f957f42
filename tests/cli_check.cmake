# Runs one gelucheck command and checks its exit status and output (cmake -P script).
#   -DEXE=path  -DARGS=a|b|c ('|' separates the arguments)  -DRC=n
#   [-DOUT=regex] [-DERR=regex]: must match stdout / stderr;  [-DEMPTY_OUT=1]: no stdout;
#   [-DEMPTY_ERR=1]: no stderr.
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND "${EXE}" ${args}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(ctx "gelucheck ${args}\n--- stdout:\n${out}--- stderr:\n${err}")
if(NOT rc STREQUAL "${RC}")
    message(FATAL_ERROR "exit status ${rc}, want ${RC}: ${ctx}")
endif()
if(DEFINED OUT AND NOT out MATCHES "${OUT}")
    message(FATAL_ERROR "stdout does not match '${OUT}': ${ctx}")
endif()
if(DEFINED ERR AND NOT err MATCHES "${ERR}")
    message(FATAL_ERROR "stderr does not match '${ERR}': ${ctx}")
endif()
if(EMPTY_OUT AND NOT out STREQUAL "")
    message(FATAL_ERROR "stdout should be empty: ${ctx}")
endif()
if(EMPTY_ERR AND NOT err STREQUAL "")
    message(FATAL_ERROR "stderr should be empty: ${ctx}")
endif()
