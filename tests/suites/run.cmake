# tests of the suites module: gelucheck run end to end (gs_run_kernel, the JSON result, the CLI).
# Included from tests/CMakeLists.txt (paths relative to tests/).

# fixture_cr: a plug-in whose 36 kernels ("gelu.f32", ..., "erfc.bf16") return the reference's
# correctly rounded RN bits; other tests load it with $<TARGET_FILE:gelucheck_fixture_cr>.
add_library(gelucheck_fixture_cr MODULE suites/fixture_cr.c)
set_target_properties(gelucheck_fixture_cr PROPERTIES
    OUTPUT_NAME fixture_cr C_VISIBILITY_PRESET hidden)
target_link_libraries(gelucheck_fixture_cr PRIVATE geluref gelucheck_plugin_abi gelucheck_warnings)

# --- gs_run_kernel and the result document (reports/) as a library
add_executable(test_run_kernel suites/test_run_kernel.c)
target_link_libraries(test_run_kernel PRIVATE gc_reports gc_suites PkgConfig::CMOCKA
                                              gelucheck_warnings m)
target_compile_definitions(test_run_kernel PRIVATE
    FIXTURE_CR="$<TARGET_FILE:gelucheck_fixture_cr>")
add_dependencies(test_run_kernel gelucheck_fixture_cr)
add_test(NAME suites_run_kernel COMMAND test_run_kernel)

# --- gelucheck run end to end: run the command, validate the JSON against the schema, check it
add_executable(test_run_result suites/test_run_result.c)
target_link_libraries(test_run_result PRIVATE PkgConfig::CMOCKA PkgConfig::JANSSON
                                              gelucheck_warnings)
set(run_schema ${PROJECT_SOURCE_DIR}/reports/schema/gelucheck-result-1.schema.json)
set(run_validate ${CMAKE_CURRENT_LIST_DIR}/validate_result.py)
# Debian's python3-jsonschema is for the system python (a python3 earlier on PATH may lack it)
execute_process(COMMAND /usr/bin/python3 -c "import jsonschema"
    RESULT_VARIABLE run_no_jsonschema OUTPUT_QUIET ERROR_QUIET)
if(run_no_jsonschema)
    message(STATUS "tests: /usr/bin/python3 lacks jsonschema: results are not validated "
                   "(apt-get install python3-jsonschema)")
    set(run_validate "")
else()
    # the schema itself is a valid draft-07 schema
    add_test(NAME suites_run_schema COMMAND /usr/bin/python3 ${run_validate} ${run_schema})
endif()
set(fixture_cr $<TARGET_FILE:gelucheck_fixture_cr>)

# run_test(NAME RC ARGS [MODE m] [ARGS2 args] [ERR regex]): gelucheck ARGS ('|' separated)
# --json result.json in a fresh folder, exit status RC, the result validated, then
# test_run_result MODE on it (or, with ARGS2, a second run compared byte for byte).
function(run_test name rc args)
    cmake_parse_arguments(PARSE_ARGV 3 T "" "MODE;ARGS2;ERR" "")
    set(defs -DEXE=$<TARGET_FILE:gelucheck> "-DARGS=${args}" -DRC=${rc}
             -DDIR=${CMAKE_CURRENT_BINARY_DIR}/run_results/${name}
             -DPY=/usr/bin/python3 -DVALIDATE=${run_validate} -DSCHEMA=${run_schema})
    if(DEFINED T_MODE)
        list(APPEND defs -DCHECK=$<TARGET_FILE:test_run_result> -DMODE=${T_MODE})
    endif()
    if(DEFINED T_ARGS2)
        list(APPEND defs "-DARGS2=${T_ARGS2}")
    endif()
    if(DEFINED T_ERR)
        list(APPEND defs "-DERR=${T_ERR}")
    endif()
    add_test(NAME suites_run_${name}
        COMMAND ${CMAKE_COMMAND} ${defs} -P ${CMAKE_CURRENT_LIST_DIR}/run_check.cmake)
    set_tests_properties(suites_run_${name} PROPERTIES LABELS cli)
endfunction()

# every mutant fails, caught by the suite and kind its description names (exit 1), all 23 in
# one run: writes_yn.f32, which writes one past the end of y, is reported by the vector suite
# and harmless to the others (their buffers come from gs_buf_alloc, with slack).
run_test(mutants 1 "run|--adapter|mutants|--policy|default|--samples|20000|--threads|2"
    MODE mutants)
# the correctly rounded fixture passes strict with no finding.  Each of its evaluations is an
# MPFR one, so the default run takes kernels of each dtype and several funcs (about 10 s);
# all 9 funcs x 4 dtypes take about 5 minutes on 2 cores (label slow).
run_test(fixture_strict 0 "run|--adapter|${fixture_cr}|--policy|strict|--samples|2000|--threads|2|--kernel|gelu.bf16|--kernel|gelu_tanh.f16|--kernel|gelu_sigmoid.f32|--kernel|normpdf.f64|--kernel|erf.bf16|--kernel|normpdf.f16"
    MODE fixture)
run_test(fixture_strict_all 0 "run|--adapter|${fixture_cr}|--policy|strict|--samples|2000|--threads|2"
    MODE fixture)
set_tests_properties(suites_run_fixture_strict_all PROPERTIES LABELS "cli;slow")
# the two long ones stay out of the sanitizer pass (scripts/test leaves out 'sweep' there)
set_tests_properties(suites_run_mutants suites_run_fixture_strict PROPERTIES LABELS "cli;sweep")
# libm erf1p.f32: the flush near -5.54 beside the last non-zero -14.356067657470703
run_test(libm_erf1p 1 "run|--adapter|libm|--kernel|erf1p.f32|--samples|20000|--threads|2"
    MODE erf1p)
# libm grad_erfc.f32, the default run (ulp suite): the worst input is the float nearest the
# zero of gelu_grad, a target, at more than 1e7 ulp
run_test(libm_gradzero 1 "run|--adapter|libm|--kernel|grad_erfc.f32|--suite|ulp|--threads|2"
    MODE gradzero)
# the result does not depend on --threads (everything but "timing")
run_test(threads_same 1 "run|--adapter|libm|--adapter|mutants|--kernel|erf1p.f32|--kernel|nosqrt2.f32|--kernel|lane_nan8.f32|--samples|5000|--threads|1"
    ARGS2 "run|--adapter|libm|--adapter|mutants|--kernel|erf1p.f32|--kernel|nosqrt2.f32|--kernel|lane_nan8.f32|--samples|5000|--threads|2"
    MODE same)
# an adapter that cannot be loaded: exit 3, the other adapter still runs and the result says so
run_test(load_error 3 "run|--adapter|plugin:/nonexistent.so|--adapter|libm|--kernel|erf1p.f64|--samples|2000|--threads|1"
    ERR "cannot load adapter 'plugin:/nonexistent[.]so'")
run_test(exec_false 3 "run|--adapter|exec:false|--threads|1" ERR "cannot load adapter 'exec:false'")

# --- the command line: help, usage errors (exit 2, nothing run, one line on stderr)
set(e "gelucheck: error: ")
cli_test(run_help 0 "run|--help"
    OUT "^usage: gelucheck run --adapter SPEC.*--samples N.*--threads N.*Exit status")
cli_test(run_in_help 0 "--help" OUT "\n  run +run the conformance suites")
cli_test(run_no_adapter 2 "run" ERR "^${e}no adapter given" EMPTY_OUT)
cli_test(run_unknown_option 2 "run|--adapter|libm|--bogus" ERR "^${e}unknown option '--bogus'\n$" EMPTY_OUT)
cli_test(run_operand 2 "run|--adapter|libm|erf1p.f32" ERR "^${e}run takes no operands: 'erf1p[.]f32'" EMPTY_OUT)
cli_test(run_missing_value 2 "run|--adapter|libm|--samples" ERR "^${e}option '--samples' needs a value\n$")
cli_test(run_bad_suite 2 "run|--adapter|libm|--suite|ulp,ulpp" EMPTY_OUT
    ERR "^${e}unknown suite 'ulpp' in --suite [(]suites: ulp, special, identity, tail, vector, fingerprint[)]\n$")
cli_test(run_empty_suite 2 "run|--adapter|libm|--suite|ulp,,tail" ERR "^${e}empty suite name in --suite")
cli_test(run_bad_policy 2 "run|--adapter|libm|--policy|sloppy" EMPTY_OUT
    ERR "^${e}unknown policy 'sloppy' [(]built-in: strict, faithful, default, lenient; or an INI file[)]\n$")
cli_test(run_missing_policy_file 2 "run|--adapter|libm|--policy|/nonexistent/p.ini" ERR "^${e}[^\n]*p[.]ini")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/run_bad_policy.ini "[gelu.f32]\nmax_ulp = 2\nmax_ulps = 3\n")
cli_test(run_bad_policy_file 2 "run|--adapter|libm|--policy|${CMAKE_CURRENT_BINARY_DIR}/run_bad_policy.ini"
    ERR "^${e}[^\n]*run_bad_policy[.]ini:3:[^\n]*max_ulps" EMPTY_OUT)
cli_test(run_bad_samples 2 "run|--adapter|libm|--samples|0" ERR "^${e}bad --samples '0': not an integer in 1[.][.]1099511627776\n$")
cli_test(run_bad_samples_text 2 "run|--adapter|libm|--samples|1e6" ERR "^${e}bad --samples '1e6'")
cli_test(run_bad_samples_huge 2 "run|--adapter|libm|--samples|1099511627777" ERR "^${e}bad --samples")
cli_test(run_bad_samples_neg 2 "run|--adapter|libm|--samples|-5" ERR "^${e}bad --samples '-5'")
cli_test(run_bad_seed 2 "run|--adapter|libm|--seed|x1" ERR "^${e}bad --seed 'x1': not an integer")
cli_test(run_bad_seed_big 2 "run|--adapter|libm|--seed|9223372036854775808" ERR "^${e}bad --seed")
# --range with an end at 0: exactly the non-zero floats between the ends (counted by the test)
add_test(NAME suites_run_range_zero
    COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/check_range_zero.py
            $<TARGET_FILE:gelucheck> ${CMAKE_CURRENT_BINARY_DIR}/range_zero)
cli_test(run_bad_range 2 "run|--adapter|libm|--range|1:-1" ERR "^${e}bad --range '1:-1': LO must not be above HI [(]LO = 1, HI = -1[)]\n$")
cli_test(run_bad_range_form 2 "run|--adapter|libm|--range|-1" ERR "^${e}bad --range '-1'")
cli_test(run_bad_range_inf 2 "run|--adapter|libm|--range|-inf:0" ERR "^${e}bad --range '-inf:0'")
cli_test(run_bad_range_text 2 "run|--adapter|libm|--range|a:b" ERR "^${e}bad --range 'a:b'")
cli_test(run_bad_threads 2 "run|--adapter|libm|--threads|0" ERR "^${e}bad --threads '0': not an integer in 1[.][.]1024\n$")
cli_test(run_bad_threads_big 2 "run|--adapter|libm|--threads|1025" ERR "^${e}bad --threads '1025'")
# the default --threads: the CPUs of the affinity mask (one when pinned to one), not all online
add_test(NAME suites_run_threads_default
    COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/threads_default.py
            $<TARGET_FILE:gelucheck> ${CMAKE_CURRENT_BINARY_DIR}/threads_default)
cli_test(run_bad_dtype 2 "run|--adapter|libm|--dtype|f8" ERR "^${e}unknown dtype 'f8'")
cli_test(run_bad_progress 2 "run|--adapter|libm|--progress|sometimes" ERR "^${e}bad --progress 'sometimes'")
cli_test(run_bad_timeout 2 "run|--adapter|libm|--timeout|0" ERR "^${e}bad --timeout '0'")
cli_test(run_bad_startup_timeout 2 "run|--adapter|libm|--startup-timeout|nan" ERR "^${e}bad --startup-timeout 'nan'")
cli_test(run_unknown_kernel 2 "run|--adapter|libm|--kernel|erf2p.f32" EMPTY_OUT
    ERR "^${e}adapter 'libm' has no kernel 'erf2p[.]f32'")
cli_test(run_unknown_kernel_two 2 "run|--adapter|libm|--adapter|mutants|--kernel|erf1p.f32|--kernel|nope"
    ERR "^${e}no adapter has a kernel 'nope'" EMPTY_OUT)
cli_test(run_nothing_selected 2 "run|--adapter|libm|--kernel|erf1p.f32|--dtype|bf16"
    ERR "^${e}no kernel left to run" EMPTY_OUT)
# a missing folder is created (reports_run_report); one under a file cannot be
cli_test(run_json_under_file 2 "run|--adapter|libm|--json|${CMAKE_CURRENT_LIST_FILE}/r.json"
    ERR "^${e}cannot write --json '[^']*/run[.]cmake/r[.]json': cannot create folder '[^']*/run[.]cmake': a file of that name exists
$"
    EMPTY_OUT)
cli_test(run_bad_func 2 "run|--adapter|libm|--func|gleu"
    ERR "^${e}unknown --func 'gleu' [(]expected one of: gelu, gelu_tanh, .*erfc[)]\n$" EMPTY_OUT)
cli_test(run_onnx_empty 3 "run|--adapter|onnx:"
    ERR "nothing after the 'onnx:'")
# (--resume, the last option refused as not implemented yet: tests in interrupt.cmake)

# normpdf(+-0) = 1/sqrt(2 pi) is inexact: a kernel 1 ulp low there (and about 1.5 ulp
# elsewhere) passes default, whose special and identity suites judge it by the accuracy
# default grants, and fails strict
set(normpdf_lo "exec:/usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/suites/exec_normpdf.py")
run_test(normpdf_inexact_default 0 "run|--adapter|${normpdf_lo}|--suite|special,identity|--threads|1")
run_test(normpdf_inexact_strict 1 "run|--adapter|${normpdf_lo}|--suite|special,identity|--policy|strict|--threads|1")
# lenient tolerates NaN for x = -inf (nan_at_neg_inf = allow): nan_neginf.f32, accurate
# elsewhere, passes it; only the special suite judges +-inf and +-0
run_test(nan_neginf_lenient 0 "run|--adapter|mutants|--kernel|nan_neginf.f32|--policy|lenient|--samples|5000|--threads|2")
# a kernel that hangs past --timeout fails (exit 1, docs/design.md section 7) with a timeout
# finding; the suites after it are not run (the exec adapter is killed)
run_test(timeout_fails 1 "run|--adapter|exec:/usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/adapters/exec_fixtures/misbehave.py hang|--kernel|bad.f64|--timeout|0.5|--threads|1"
    MODE timeout)
# --progress always: a line with kernel, suite, done/total, rate and ETA on stderr (rewritten
# with \r); never: nothing on stderr for a passing run
cli_test(run_progress_always 1 "run|--adapter|libm|--kernel|erfc.f32|--suite|ulp|--samples|100000|--threads|1|--reference|mpfr|--progress|always"
    ERR "\\[1/1\\] libm erfc[.]f32  ulp  [0-9]+/[0-9]+  [^\n]*/s  ETA")
cli_test(run_progress_never 1 "run|--adapter|libm|--kernel|erfc.f32|--suite|ulp|--samples|100000|--threads|1|--progress|never"
    EMPTY_ERR)
# the summary's totals say how many adapters could not be loaded
cli_test(run_adapter_not_loaded 3 "run|--adapter|plugin:/nonexistent.so"
    OUT "ERROR  plugin:/nonexistent[.]so  adapter not loaded: [^\n]*\n\nERROR: 0 kernels, [^\n]*; 1 adapter not loaded;"
    ERR "^${e}cannot load adapter 'plugin:/nonexistent[.]so'")
# an approximation is also measured against the exact function, in the summary too
cli_test(run_vs_exact 1 "run|--adapter|libm|--kernel|tanh.bf16|--suite|ulp|--threads|2"
    OUT "FAIL   libm  tanh[.]bf16  gelu_tanh bf16  worst: [^\n]*\n    vs exact    gelu: max [0-9.e+]+ ulp [(]x >= -1: [0-9.e+]+ ulp[)], [0-9.]+% of the outputs are RN[(]gelu[)]\n")

# [kernel ADAPTER/KERNEL] policy sections: one kernel judged by its own values, matched by
# identity; a misspelt kernel refused; --resume sees a changed section
add_test(NAME suites_run_policy_kernel
    COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gelucheck> -DDIR=${CMAKE_CURRENT_BINARY_DIR}/policy_kernel
            -DPY=/usr/bin/python3 -DVALIDATE=${run_validate} -DSCHEMA=${run_schema}
            -P ${CMAKE_CURRENT_LIST_DIR}/policy_kernel_check.cmake)
