# valgrind on short runs of gelucheck (issue 8, "Sanitizers"): memcheck errors (invalid reads
# and writes, uninitialised values, bad frees) and definite or indirect leaks fail the test.
# A built-in adapter, and the C exec example (the host only: --trace-children=no).  About
# 10 s each on one core, so they run in the default pass of scripts/test (label valgrind;
# `ctest -L valgrind` runs them alone).  Left out of sanitizer builds (valgrind cannot run
# AddressSanitizer's binaries) and where valgrind is missing (scripts/packages.txt has it).
# Included from tests/CMakeLists.txt after parse_cli.cmake (cli_check.cmake).
find_program(VALGRIND_EXE valgrind)
if(NOT VALGRIND_EXE)
    message(STATUS "tests: valgrind not found: the valgrind tests are left out "
                   "(apt-get install valgrind)")
elseif(CMAKE_C_FLAGS MATCHES "-fsanitize")
    message(STATUS "tests: a sanitizer build: the valgrind tests are left out")
else()
    set(vg "-q|--error-exitcode=99|--leak-check=full"
           "|--errors-for-leak-kinds=definite,indirect|--show-leak-kinds=definite,indirect"
           "|--trace-children=no|$<TARGET_FILE:gelucheck>|run")
    string(JOIN "" vg ${vg})
    # RC 1: the kernels fail the default policy (99 would be valgrind's); stderr empty: no
    # valgrind report at all (gelucheck itself writes nothing there on a normal run)
    foreach(row "libm=--adapter|libm|--kernel|erf1p.f32"
                "exec=--adapter|exec:$<TARGET_FILE:gelucheck_exec_example>|--kernel|gelu_erfc.f32")
        string(FIND "${row}" "=" eq)
        string(SUBSTRING "${row}" 0 ${eq} n)
        math(EXPR eq "${eq} + 1")
        string(SUBSTRING "${row}" ${eq} -1 args)
        add_test(NAME valgrind_run_${n}
            COMMAND ${CMAKE_COMMAND} -DEXE=${VALGRIND_EXE}
                    "-DARGS=${vg}|${args}|--samples|2000|--threads|2" -DRC=1 -DEMPTY_ERR=1
                    -P ${CMAKE_CURRENT_LIST_DIR}/../cli_check.cmake)
        set_tests_properties(valgrind_run_${n} PROPERTIES LABELS valgrind TIMEOUT 600)
    endforeach()
endif()
