# Interrupted runs and --resume (docs/design.md sections 7 and 10): SIGINT/SIGTERM during a sweep
# writes what was measured, marked incomplete, exit 130/143; --resume continues it to the
# uninterrupted run's result.  Included from tests/CMakeLists.txt after run.cmake (its
# run_schema, run_validate, cli_test).

# interrupt_test(NAME SIGS ARGS): interrupt_check.py runs `gelucheck run ARGS` ('|'
# separated) whole, then interrupted by each of SIGS (comma separated, SIG@NAME: while kernel
# NAME's first request is held) and resumed, and compares.  The kernel interrupted is
# hold_adapter.py's (an exec adapter: the example's kernels, a request held until gelucheck
# says it caught the signal), --adapter ${hold}.  Every run gets --threads 2 (two requests
# held, the sweep's other work items left) and --timeout 3600 (a held batch is not a hang,
# however long a loaded machine makes the test wait).  A few seconds each on 2 cores:
# labelled sweep with the shard tests.
set(hold "exec:/usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/adapters/exec_fixtures/hold_adapter.py")
function(interrupt_test name sigs args)
    string(REPLACE "|" ";" args "run|--threads|2|--timeout|3600|${args}")
    add_test(NAME suites_interrupt_${name}
        COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/interrupt_check.py
                $<TARGET_FILE:gelucheck> ${CMAKE_CURRENT_BINARY_DIR}/interrupt_results/${name}
                ${run_schema} "${run_validate}" ${sigs} ${args})
    set_tests_properties(suites_interrupt_${name} PROPERTIES LABELS "cli;sweep")
endfunction()

# SIGINT in the second of three kernels (the first, libm's, finished and kept as is, the third
# not started and listed, the second's special suite not started); an exhaustive f32 sweep
# over [-1.5, -1.45] (about 420,000 inputs, eight work items); the JUnit XML written beside
# the JSON
interrupt_test(sigint "SIGINT@gelu_erfc.f32"
    "--adapter|libm|--adapter|${hold}|--kernel|erf1p.f64|--kernel|gelu_erfc.f32|--kernel|gelu_tanh.f32|\
--exhaustive|--samples|2000|--suite|ulp,special|--range|-1.5:-1.45|--junit|junit.xml")
# SIGTERM, and the resumed run interrupted again by SIGTERM before the last resume
interrupt_test(sigterm "SIGTERM,SIGTERM"
    "--adapter|${hold}|--kernel|gelu_erfc.f32|--exhaustive|--suite|ulp|--range|-1.5:-1.45")
# stratified (not exhaustive) sweeps: their work items are binades of random inputs, whose
# covered items carry no x intervals.  f32 with the special suite after it; f64 (interrupted
# twice), the identity suite after it
interrupt_test(stratified_f32 "SIGINT"
    "--adapter|${hold}|--kernel|gelu_erfc.f32|--suite|ulp,special|--samples|300000")
interrupt_test(stratified_f64 "SIGTERM,SIGINT"
    "--adapter|${hold}|--kernel|gelu_erfc.f64|--suite|ulp,identity|--samples|300000")
# --shard K/N: shard K's items are K, K + N, ... of the sweep; resumed, the shard's result is
# the uninterrupted shard's (exhaustive f32 over a range: its covered x intervals are single
# items; stratified f32: the special suite is not run in shard 2)
interrupt_test(shard_exhaustive "SIGINT"
    "--adapter|${hold}|--kernel|gelu_erfc.f32|--exhaustive|--suite|ulp,special|--range|-1.5:-1.3|\
--shard|1/3")
interrupt_test(shard_stratified "SIGTERM"
    "--adapter|${hold}|--kernel|gelu_erfc.f32|--suite|ulp,special|--samples|600000|--shard|2/3")

# --- the ulp suite's read-back as a library: a sweep cut after one item and continued, and
# tampered interrupted entries measured again (suites/ulp_resume.c)
add_executable(test_ulp_resume suites/test_ulp_resume.c)
target_link_libraries(test_ulp_resume PRIVATE gc_reports gc_suites PkgConfig::CMOCKA
                                              gelucheck_warnings)
add_test(NAME suites_ulp_resume COMMAND test_ulp_resume)

# --- refused: exit 2, one line, nothing run
set(e "gelucheck: error: ")
set(fx ${PROJECT_SOURCE_DIR}/tests/reports/fixtures)
cli_test(run_resume_not_json 2 "run|--adapter|libm|--resume|${fx}/bad_syntax.json" EMPTY_OUT
    ERR "^${e}--resume: [^\n]*/bad_syntax[.]json: line 3, column 16: unexpected token[^\n]*\n$")
cli_test(run_resume_missing 2 "run|--adapter|libm|--resume|/nonexistent/r.json" EMPTY_OUT
    ERR "^${e}--resume: /nonexistent/r[.]json: cannot read: No such file or directory\n$")
cli_test(run_resume_not_result 2 "run|--adapter|libm|--resume|${fx}/bad_schema.json" EMPTY_OUT
    ERR "^${e}--resume: [^\n]*/bad_schema[.]json: schema is 'gelucheck-result/0', want 'gelucheck-result/1'\n$")
cli_test(run_resume_complete 2 "run|--adapter|mutants|--resume|${fx}/mutants.json" EMPTY_OUT
    ERR "^${e}--resume '[^\n]*/mutants[.]json': the result is complete: nothing to resume [^\n]*\n$")
cli_test(run_help_resume 0 "run|--help"
    OUT "--resume FILE +continue the interrupted run whose result is FILE.*130, 143\ninterrupted by SIGINT, SIGTERM")
