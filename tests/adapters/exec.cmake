# The exec client (adapters/exec) against fixture adapters: the Python and C examples and
# misbehaving ones (exec_fixtures/, one-line sh commands in test_exec_open.c).  Included from
# tests/CMakeLists.txt; needs gc_adapters (which links gc_exec), gelucheck_exec_example and
# PkgConfig::CMOCKA.  Python fixtures run with the python3 found here (standard library only);
# without one they are skipped.
find_package(Python3 COMPONENTS Interpreter)
set(exec_python "")
if(Python3_Interpreter_FOUND) # the interpreter itself, not a wrapper (pyenv shims cost 0.1 s)
    execute_process(COMMAND ${Python3_EXECUTABLE} -c "import sys; print(sys.executable)"
        OUTPUT_VARIABLE exec_python OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()

add_executable(test_adapters_exec
    ${CMAKE_CURRENT_LIST_DIR}/test_exec.c
    ${CMAKE_CURRENT_LIST_DIR}/test_exec_open.c
    ${CMAKE_CURRENT_LIST_DIR}/test_exec_eval.c
    ${CMAKE_CURRENT_LIST_DIR}/test_exec_examples.c
    ${CMAKE_CURRENT_LIST_DIR}/test_exec_hostile.c)
target_compile_definitions(test_adapters_exec PRIVATE
    EXEC_FIXTURES="${CMAKE_CURRENT_LIST_DIR}/exec_fixtures"
    EXEC_EXAMPLE_PY="${CMAKE_CURRENT_LIST_DIR}/../../adapters/exec/example_adapter.py"
    EXEC_EXAMPLE_C="$<TARGET_FILE:gelucheck_exec_example>"
    EXEC_PYTHON3="${exec_python}")
target_include_directories(test_adapters_exec PRIVATE ${CMAKE_CURRENT_LIST_DIR}/../../adapters/exec)
target_link_libraries(test_adapters_exec PRIVATE gc_adapters gc_exec geluref PkgConfig::CMOCKA
                                                 gelucheck_warnings m)
add_dependencies(test_adapters_exec gelucheck_exec_example)
foreach(group open eval examples hostile)
    add_test(NAME adapters_exec_${group} COMMAND test_adapters_exec ${group})
endforeach()

# the examples answer requests that break the protocol with 'error' replies
set(bad_requests ${CMAKE_CURRENT_LIST_DIR}/exec_fixtures/bad_requests.sh)
add_test(NAME adapters_exec_example_errors_c
    COMMAND sh ${bad_requests} $<TARGET_FILE:gelucheck_exec_example>)
if(exec_python)
    add_test(NAME adapters_exec_example_errors_py
        COMMAND sh ${bad_requests} ${exec_python}
                ${CMAKE_CURRENT_LIST_DIR}/../../adapters/exec/example_adapter.py)
endif()
