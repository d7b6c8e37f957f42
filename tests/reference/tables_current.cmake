# Runs the table generator and compares its output with the committed tables.
execute_process(COMMAND ${GEN} OUTPUT_FILE ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gen_fast_tables failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT} ${COMMITTED} RESULT_VARIABLE diff)
if(NOT diff EQUAL 0)
    message(FATAL_ERROR "reference/src/fast_tables.c is not the output of gen_fast_tables: "
                        "regenerate it (see reference/CMakeLists.txt)")
endif()
