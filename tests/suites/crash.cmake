# Crashes and hangs become findings with the smallest reproducing batch (issue 8, docs/design.md
# section 10; suites/crash.c): gelucheck run on exec_fixtures/crashers.py, each result
# validated against the schema and checked by crash_check.py; and the bisection itself on an
# in-memory adapter (test_crash.c).  Included from tests/CMakeLists.txt after suites/run.cmake.

add_executable(test_suites_crash suites/test_crash.c)
target_link_libraries(test_suites_crash PRIVATE gc_suites PkgConfig::CMOCKA gelucheck_warnings)
add_test(NAME suites_crash_bisect COMMAND test_suites_crash)

# crash_test(NAME RC KERNELS...): the kernels of crashers.py (in its order: good.f32 last),
# suites ulp and special, --timeout 1, a small sample
set(crashers "exec:exec /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/adapters/exec_fixtures/crashers.py")
function(crash_test name rc)
    set(args "run|--adapter|${crashers}|--suite|ulp,special|--timeout|1|--samples|1000|--threads|1")
    foreach(k IN LISTS ARGN)
        string(APPEND args "|--kernel|${k}")
    endforeach()
    add_test(NAME suites_crash_${name}
        COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gelucheck> "-DARGS=${args}" -DRC=${rc}
                -DDIR=${CMAKE_CURRENT_BINARY_DIR}/crash_results/${name}
                -DPY=/usr/bin/python3 -DVALIDATE=${run_validate} -DSCHEMA=${run_schema}
                -DCHECK=/usr/bin/python3 -DMODE=${CMAKE_CURRENT_LIST_DIR}/crash_check.py
                -P ${CMAKE_CURRENT_LIST_DIR}/run_check.cmake)
    set_tests_properties(suites_crash_${name} PROPERTIES LABELS cli)
endfunction()
# signals and exits: each narrowed to one input (segv_at.f32: exactly x = 2); exit 1
crash_test(died 1 segv.f32 abort.f32 segv_at.f32 halfexit.f32 good.f32)
# a hang and a reply past --timeout: the bisection stops at its cap (1 + 4 timeouts each,
# about 11 s in all); exit 1
crash_test(stalled 1 hang.f32 slow.f32 good.f32)
# a count that differs: an adapter_error (the adapter is restarted for the next kernel);
# exit 3, the kernel could not be served
crash_test(protocol 3 huge.f32 good.f32)
# the command of segv_at.f32's finding (--range X:X, the one input) reproduces the crash on
# that input alone: the same finding, a batch of one
add_test(NAME suites_crash_repro
    COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gelucheck>
            "-DARGS=run|--adapter|${crashers}|--kernel|segv_at.f32|--suite|ulp|--range|0x1p+1:0x1p+1|--timeout|1|--threads|1"
            -DRC=1 -DDIR=${CMAKE_CURRENT_BINARY_DIR}/crash_results/repro
            -DPY=/usr/bin/python3 -DVALIDATE=${run_validate} -DSCHEMA=${run_schema}
            -DCHECK=/usr/bin/python3 -DMODE=${CMAKE_CURRENT_LIST_DIR}/crash_check.py
            -P ${CMAKE_CURRENT_LIST_DIR}/run_check.cmake)
set_tests_properties(suites_crash_repro PROPERTIES LABELS cli)
# the same through gelucheck-worker: the hostile fixture plug-in's crashes, exit and stall
# become crash/timeout findings with one reproducing input, its stray writes
# out_of_bounds_write/input_modified findings (every suite still runs), and good.f32, last, is
# still measured, and so is libm's erfc.f32 after them (a second adapter); exit 1
set(args "run|--adapter|plugin:$<TARGET_FILE:gcfx_hostile>|--adapter|libm|--kernel|erfc.f32|--suite|ulp,special|--timeout|1|--samples|1000|--threads|1")
foreach(k segv abort sigfpe exit3 sleep write_after write_before write_x good)
    string(APPEND args "|--kernel|${k}.f32")
endforeach()
add_test(NAME suites_crash_worker
    COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gelucheck> "-DARGS=${args}" -DRC=1
            -DDIR=${CMAKE_CURRENT_BINARY_DIR}/crash_results/worker
            -DPY=/usr/bin/python3 -DVALIDATE=${run_validate} -DSCHEMA=${run_schema}
            -DCHECK=/usr/bin/python3 -DMODE=${CMAKE_CURRENT_LIST_DIR}/crash_check.py
            -P ${CMAKE_CURRENT_LIST_DIR}/run_check.cmake)
set_tests_properties(suites_crash_worker PROPERTIES LABELS cli)
