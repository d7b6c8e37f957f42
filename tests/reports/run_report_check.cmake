# `gelucheck run --report DIR --junit FILE --json FILE` (markdown.cmake): runs ARGS ('|'
# separated) in a fresh DIR, wants exit RC and the report folder: report.md naming every
# kernel in KERNELS, result.json, junit.xml, plots/; and the --junit and --json files, whose
# missing folders (two levels each) the run creates, as --report does, with no temporary
# file left beside them (each is written atomically).
#   -DEXE=gelucheck -DARGS=... -DRC=n -DDIR=folder -DKERNELS=a|b
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND "${EXE}" ${args} --report rep --junit j/k/junit.xml
                        --json "${DIR}/js/a/result.json"
    WORKING_DIRECTORY "${DIR}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL "${RC}")
    message(FATAL_ERROR "exit status ${rc}, want ${RC}\n${out}\n${err}")
endif()
if(NOT out MATCHES "report: rep/report[.]md\n")
    message(FATAL_ERROR "stdout does not say where the report is:\n${out}")
endif()
foreach(f rep/report.md rep/result.json rep/junit.xml j/k/junit.xml js/a/result.json)
    if(NOT EXISTS "${DIR}/${f}")
        message(FATAL_ERROR "no ${DIR}/${f}")
    endif()
endforeach()
file(GLOB left "${DIR}/j/k/*" "${DIR}/js/a/*")
list(LENGTH left n)
if(NOT n EQUAL 2)
    message(FATAL_ERROR "want junit.xml and result.json alone in their folders, got: ${left}")
endif()
file(READ "${DIR}/js/a/result.json" doc)
string(JSON schema GET "${doc}" schema)
if(NOT schema STREQUAL "gelucheck-result/1")
    message(FATAL_ERROR "js/a/result.json: schema '${schema}'")
endif()
if(NOT IS_DIRECTORY "${DIR}/rep/plots")
    message(FATAL_ERROR "no ${DIR}/rep/plots/")
endif()
file(READ "${DIR}/rep/report.md" md)
string(REPLACE "|" ";" kernels "${KERNELS}")
foreach(k ${kernels})
    string(REPLACE "_" "\\\\_" ke "${k}")
    if(NOT md MATCHES "\n## [^\n]* ${ke}: ")
        message(FATAL_ERROR "report.md has no section for ${k}")
    endif()
endforeach()
