# `gelucheck run --report DIR --junit FILE` (markdown.cmake): runs ARGS ('|' separated) in a
# fresh DIR, wants exit RC and the report folder: report.md naming every kernel in KERNELS,
# result.json, junit.xml, plots/, and the --junit file.
#   -DEXE=gelucheck -DARGS=... -DRC=n -DDIR=folder -DKERNELS=a|b
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}/j") # --junit wants its folder; --report makes its own
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND "${EXE}" ${args} --report rep --junit j/junit.xml
    WORKING_DIRECTORY "${DIR}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL "${RC}")
    message(FATAL_ERROR "exit status ${rc}, want ${RC}\n${out}\n${err}")
endif()
if(NOT out MATCHES "report: rep/report[.]md\n")
    message(FATAL_ERROR "stdout does not say where the report is:\n${out}")
endif()
foreach(f rep/report.md rep/result.json rep/junit.xml j/junit.xml)
    if(NOT EXISTS "${DIR}/${f}")
        message(FATAL_ERROR "no ${DIR}/${f}")
    endif()
endforeach()
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
