# --memory-limit (docs/isolation.md): the fixture plug-in fixtures/hog.c, whose kernels allocate
# without end, run in gelucheck-worker under RLIMIT_AS; the helpers of adapters/core/memlimit*.c
# (test_memlimit.c).  Every test here sets GELUCHECK_NO_CGROUP=1: the cgroup v2 way is never
# exercised, since a test must not make or change cgroups on the machine that runs it.  The
# tests that need the limit are skipped in sanitizer builds, where it is off.  Included from
# tests/CMakeLists.txt after suites/crash.cmake (run_validate, run_schema, cli_test).
gcfx_module(gcfx_hog hog hog.c)
# the allocations must reach the system's malloc and the NULL write the CPU
target_compile_options(gcfx_hog PRIVATE $<$<C_COMPILER_ID:GNU,Clang>:-fno-sanitize=all>)

# the helpers: sizes in messages, the headroom, /proc/self/cgroup's line, the choice of the way
# (never a cgroup here: gc_mem_init is given no cgroup root, or GELUCHECK_NO_CGROUP=1)
add_executable(test_adapters_memlimit ${CMAKE_CURRENT_LIST_DIR}/test_memlimit.c)
target_link_libraries(test_adapters_memlimit PRIVATE gc_adapters PkgConfig::CMOCKA
                                                     gelucheck_warnings)
target_compile_definitions(test_adapters_memlimit PRIVATE
    FX_HOG="$<TARGET_FILE:gcfx_hog>" FX_HOSTILE="$<TARGET_FILE:gcfx_hostile>")
add_dependencies(test_adapters_memlimit gcfx_hog gcfx_hostile)
add_test(NAME adapters_memlimit COMMAND test_adapters_memlimit)
set_tests_properties(adapters_memlimit PROPERTIES ENVIRONMENT GELUCHECK_NO_CGROUP=1)

# In sanitizer builds the limit is off (AddressSanitizer reserves terabytes of address space):
# the tests that need it are skipped there, saying so (and the hogs would take the machine).
set(ml_skip "")
if(CMAKE_C_FLAGS MATCHES "-fsanitize=[^ ]*(address|thread|memory)")
    set(ml_skip "--memory-limit is off in sanitizer builds")
endif()
set(ml_hog "plugin:$<TARGET_FILE:gcfx_hog>")

# ml_run(NAME RC ARGS [NEEDS_LIMIT]): gelucheck ARGS ('|' separated) --json, the result
# validated and checked by memlimit_check.py (run_check.cmake)
function(ml_run name rc args)
    if(ml_skip AND ARGN)
        add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -E echo "skipped: ${ml_skip}")
    else()
        add_test(NAME ${name}
            COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gelucheck> "-DARGS=${args}" -DRC=${rc}
                    -DDIR=${CMAKE_CURRENT_BINARY_DIR}/memlimit_results/${name}
                    -DPY=/usr/bin/python3 -DVALIDATE=${run_validate} -DSCHEMA=${run_schema}
                    -DCHECK=/usr/bin/python3 -DMODE=${CMAKE_CURRENT_LIST_DIR}/memlimit_check.py
                    -P ${CMAKE_CURRENT_SOURCE_DIR}/suites/run_check.cmake)
    endif()
    set_tests_properties(${name} PROPERTIES LABELS cli ENVIRONMENT GELUCHECK_NO_CGROUP=1
                                            SKIP_REGULAR_EXPRESSION "^skipped: ")
endfunction()

# Kernels that allocate 1 MiB after 1 MiB, touching every page, under a limit of 128 MiB (a
# worker takes about 50 MiB of address space to start; 128 MiB keeps the test's memory and time
# small): each is a crash finding that says it ran out of memory under that limit, narrowed to
# one input, its command carrying the limit; good.f32, after them, is still measured.  Exit 1.
ml_run(suites_memlimit_oom 1
    "run|--adapter|${ml_hog}|--kernel|hog.f32|--kernel|hog_abort.f32|--kernel|good.f32|--suite|special|--threads|1|--memory-limit|128M"
    NEEDS_LIMIT)
# the limit the worker got, as the limit.f32 kernel reads it back (its adapter_error: exit 3):
# none with 0 (in sanitizer builds too), 4 GiB by default, 1 GiB for 1g
ml_run(cli_memory_limit_zero 3
    "run|--adapter|${ml_hog}|--kernel|limit.f32|--suite|special|--threads|1|--memory-limit|0")
ml_run(cli_memory_limit_default 3
    "run|--adapter|${ml_hog}|--kernel|limit.f32|--suite|special|--threads|1" NEEDS_LIMIT)
ml_run(cli_memory_limit_lower_g 3
    "run|--adapter|${ml_hog}|--kernel|limit.f32|--suite|special|--threads|1|--memory-limit|1g"
    NEEDS_LIMIT)

# a limit too small for the worker to start, and a plug-in whose open allocates without end:
# adapter errors that say so (exit 3)
set(ml_err "^gelucheck: error: cannot load adapter 'plugin:[^']*libhog[.]so': gelucheck-worker")
set(ml_a "run|--adapter|${ml_hog}|--kernel|good.f32|--suite|special|--threads|1")
if(ml_skip)
    foreach(t too_small open)
        add_test(NAME cli_memory_limit_${t} COMMAND ${CMAKE_COMMAND} -E echo "skipped: ${ml_skip}")
    endforeach()
else()
    cli_test(memory_limit_too_small 3 "${ml_a}|--memory-limit|16M"
        ERR "${ml_err} cannot start under the worker's --memory-limit of 16 MiB [(]RLIMIT_AS[)]: it takes [0-9.]+ MiB of address space before it opens the adapter")
    cli_test(memory_limit_open 3 "${ml_a}|--adapter-options|hog|--memory-limit|128M"
        ERR "${ml_err} ran out of memory while opening the adapter, under the worker's --memory-limit of 128 MiB [(]RLIMIT_AS[)]\n$")
endif()
set_tests_properties(cli_memory_limit_too_small cli_memory_limit_open PROPERTIES LABELS cli
    ENVIRONMENT GELUCHECK_NO_CGROUP=1 SKIP_REGULAR_EXPRESSION "^skipped: ")

# The cgroup v2 way (memlimit_cgroup.c) is not run by any test: on the machines that run these
# tests cgroups belong to the machine's management, and a test must not make or change one.
add_test(NAME adapters_memlimit_cgroup
    COMMAND ${CMAKE_COMMAND} -E echo
            "skipped: the cgroup v2 way of --memory-limit is never exercised by the tests (a test must not make or change cgroups on the machine that runs it), only the RLIMIT_AS way is")
set_tests_properties(adapters_memlimit_cgroup PROPERTIES SKIP_REGULAR_EXPRESSION "^skipped: ")
