# A plug-in that switches FTZ and DAZ on while it loads (fixtures/fastmath.c, a constructor as
# -Ofast links in): the load check of adapters/core/fpenv.c, in the worker and in process
# (test_fpenv_load.c), and the fpenv_modified finding "at load" in the result of gelucheck
# run, with either isolation (check_fpenv_load.c).  Included from tests/CMakeLists.txt after
# suites/run.cmake (run_check.cmake's variables) and registry.cmake (gcfx_module).
gcfx_module(gcfx_fastmath fastmath fastmath.c)
set(fx_fastmath $<TARGET_FILE:gcfx_fastmath>)

add_executable(test_adapters_fpenv_load ${CMAKE_CURRENT_LIST_DIR}/test_fpenv_load.c)
target_link_libraries(test_adapters_fpenv_load PRIVATE gc_adapters PkgConfig::CMOCKA
                                                       gelucheck_warnings)
target_compile_definitions(test_adapters_fpenv_load PRIVATE FX_FASTMATH="${fx_fastmath}")
add_dependencies(test_adapters_fpenv_load gcfx_fastmath)
add_test(NAME adapters_fpenv_load COMMAND test_adapters_fpenv_load)

add_executable(check_fpenv_load ${CMAKE_CURRENT_LIST_DIR}/check_fpenv_load.c)
target_link_libraries(check_fpenv_load PRIVATE PkgConfig::CMOCKA PkgConfig::JANSSON
                                               gelucheck_warnings)
# the kernel half.f32 through the suites that would show FTZ or DAZ reaching an eval (ftz,
# premature_flush in ulp and tail; position_dependent in vector), two threads: with the
# worker one load per thread, in process one dlopen (the first) that runs the constructor
foreach(iso process none)
    set(args "run|--adapter|${fx_fastmath}|--kernel|half.f32|--suite|ulp,tail,vector|--samples|2000|--threads|2|--isolation|${iso}")
    add_test(NAME adapters_fpenv_load_run_${iso}
        COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gelucheck> "-DARGS=${args}" -DRC=1
                -DDIR=${CMAKE_CURRENT_BINARY_DIR}/run_results/fpenv_load_${iso}
                -DPY=/usr/bin/python3 -DVALIDATE=${run_validate} -DSCHEMA=${run_schema}
                -DCHECK=$<TARGET_FILE:check_fpenv_load> -DMODE=load
                -P ${CMAKE_CURRENT_LIST_DIR}/../suites/run_check.cmake)
    set_tests_properties(adapters_fpenv_load_run_${iso} PROPERTIES LABELS cli)
endforeach()
