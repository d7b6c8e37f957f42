# tests of --shard K/N, --reference and gelucheck merge (docs/design.md sections 9, 11).  Included
# from tests/CMakeLists.txt after run.cmake (its run_test, run_schema, run_validate,
# fixture_cr and test_run_result).

# shard_test(NAME RC ARGS N ORDER): ARGS ('|' separated) run whole and as N shards, the
# shards merged in ORDER (a list of K), the merged result compared with the whole run's
# (shard_check.cmake; test_run_result merged).  RC: the exit status of both.
function(shard_test name rc args n order)
    add_test(NAME suites_shard_${name}
        COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gelucheck> "-DARGS=${args}" -DN=${n}
                "-DORDER=${order}" -DRC=${rc} -DCHECK=$<TARGET_FILE:test_run_result>
                -DDIR=${CMAKE_CURRENT_BINARY_DIR}/shard_results/${name}
                -DPY=/usr/bin/python3 -DVALIDATE=${run_validate} -DSCHEMA=${run_schema}
                -P ${CMAKE_CURRENT_LIST_DIR}/shard_check.cmake)
    set_tests_properties(suites_shard_${name} PROPERTIES LABELS "cli;sweep")
endfunction()

# f32, the stratified sweep: an accurate kernel, an approximation (vs_exact and its curve, made
# in shard 0) and two failing ones (findings and worst lists from every shard); the files
# given to merge out of order
shard_test(f32_stratified 1
    "run|--adapter|libm|--adapter|mutants|--kernel|erfc_via_f64.f32|--kernel|tanh.f32|--kernel|erf1p.f32|--kernel|poly6.f32|--samples|20000|--threads|2"
    3 "2;0;1")
# f16, exhaustive (16 work items of 4096 inputs): a failing approximation with NaN outputs, a
# failing mutant and the correctly rounded fixture kernel, which passes
shard_test(f16_exhaustive 1
    "run|--adapter|libm|--adapter|mutants|--adapter|${fixture_cr}|--kernel|tanh.f16|--kernel|tanh_f16div.f16|--kernel|gelu_tanh.f16|--threads|2"
    3 "1;2;0")
# f32 --exhaustive restricted to x in [-5.6, -5.5] (about 210000 inputs in 4 work items of
# 2^16 patterns): the flush of erf1p.f32 at -5.54 and tail_mod8's flush
shard_test(f32_exhaustive_range 1
    "run|--adapter|libm|--adapter|mutants|--kernel|erf1p.f32|--kernel|tail_mod8.f32|--exhaustive|--range|-5.6:-5.5|--threads|2"
    3 "0;2;1")
# N = 1: one shard is the whole run
shard_test(one 1 "run|--adapter|libm|--kernel|erf1p.f16|--threads|2" 1 "0")
# more shards than the f16 sweep has items to spare for some: the shards 16.. of 20 measure
# nothing in the ulp suite and still merge
shard_test(many 1 "run|--adapter|libm|--kernel|erf1p.bf16|--suite|ulp,special|--threads|1" 20
    "19;18;17;16;15;14;13;12;11;10;9;8;7;6;5;4;3;2;1;0")

# --reference mpfr: accepted, recorded ("reference" in the result), the same suites run
run_test(reference_mpfr 1 "run|--adapter|libm|--kernel|erf1p.f16|--suite|ulp|--reference|mpfr|--threads|2"
    MODE mpfr)

# --- the command line: bad --shard and --reference values, --baseline with --shard (exit 2,
# nothing run, one line on stderr naming the option)
set(e "gelucheck: error: ")
set(form "want K/N, shard K [(]counted from 0[)] of N, e[.]g[.] 0/4\n$")
set(i 0)
foreach(bad "3" "3/" "/4" "a/b" "1/4x" " 1/4" "1/ 4" "+1/4" "-1/4" "1//4" "1/4/2")
    math(EXPR i "${i} + 1")
    string(REPLACE "+" "[+]" re "${bad}")
    cli_test(run_bad_shard_form${i} 2 "run|--adapter|libm|--shard|${bad}" EMPTY_OUT
        ERR "^${e}bad --shard '${re}': ${form}")
endforeach()
cli_test(run_bad_shard_k_eq_n 2 "run|--adapter|libm|--shard|4/4" EMPTY_OUT
    ERR "^${e}bad --shard '4/4': K must be below N [(]the shards of 4 are 0/4 [.][.] 3/4[)]\n$")
cli_test(run_bad_shard_k_big 2 "run|--adapter|libm|--shard|99999999999999999999/4" EMPTY_OUT
    ERR "^${e}bad --shard '99999999999999999999/4': K must be below N")
cli_test(run_bad_shard_n_zero 2 "run|--adapter|libm|--shard|1/0" EMPTY_OUT
    ERR "^${e}bad --shard '1/0': N must be in 1[.][.]1000000\n$")
cli_test(run_bad_shard_n_big 2 "run|--adapter|libm|--shard|0/1000001" EMPTY_OUT
    ERR "^${e}bad --shard '0/1000001': N must be in 1[.][.]1000000\n$")
cli_test(run_bad_shard_n_overflow 2 "run|--adapter|libm|--shard|0/18446744073709551617" EMPTY_OUT
    ERR "^${e}bad --shard '0/18446744073709551617': N must be in 1[.][.]1000000\n$")
cli_test(run_shard_baseline 2 "run|--adapter|libm|--shard|0/2|--baseline|x.json" EMPTY_OUT
    ERR "^${e}--baseline cannot be combined with --shard: give it to 'gelucheck merge'")
cli_test(run_bad_reference 2 "run|--adapter|libm|--reference|exact" EMPTY_OUT
    ERR "^${e}bad --reference 'exact' [(]expected one of: fast, mpfr[)]\n$")
cli_test(run_help_shard 0 "run|--help"
    OUT "--shard K/N +measure shard K [(]0-based[)] of N.*--reference WHICH +fast")
cli_test(merge_in_help 0 "--help" OUT "\n  merge +join the results of the shards")
cli_test(merge_help 0 "merge|--help"
    OUT "^usage: gelucheck merge SHARD[.]json[.][.][.] --json OUT.*Exit status")

# --- gelucheck merge errors: exit 2, one line naming the file, nothing written
set(sr ${CMAKE_CURRENT_BINARY_DIR}/shard_inputs)
add_test(NAME suites_shard_make_inputs
    COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gelucheck> -DDIR=${sr}
            -P ${CMAKE_CURRENT_LIST_DIR}/shard_make.cmake)
set_tests_properties(suites_shard_make_inputs PROPERTIES FIXTURES_SETUP shard_inputs LABELS cli)
set(fx ${PROJECT_SOURCE_DIR}/tests/reports/fixtures)
set(out ${sr}/merged.json)
# merge_test(NAME RC ARGS [OUT re] [ERR re] [EMPTY_OUT]): cli_test needing the shard inputs
function(merge_test name rc args)
    cli_test(merge_${name} ${rc} "${args}" ${ARGN})
    set_tests_properties(cli_merge_${name} PROPERTIES FIXTURES_REQUIRED shard_inputs)
endfunction()
# the two shards of one run, given in any order, with different --json names: merged
merge_test(ok 1 "merge|${sr}/s1of2.json|${sr}/s0of2.json|--json|${out}"
    OUT "FAIL   libm  erf1p[.]f16  gelu f16  worst: [^\n]*\n.*; merged from 2 shards;")
# the tail suite split in two (f16: its scan takes every input), merged; a tail metric merge
# does not know is refused rather than lost
merge_test(tail_ok 1 "merge|${sr}/t1of2.json|${sr}/t0of2.json|--json|${out}"
    OUT "FAIL   libm  erf1p[.]f16  gelu f16  worst: [^\n]*\n.*; merged from 2 shards;")
merge_test(tail_unknown_metric 2 "merge|${sr}/t0of2.json|${sr}/t1of2_unknown.json|--json|${out}"
    EMPTY_OUT ERR "^${e}[^\n]*/t1of2_unknown[.]json: kernels[[]0[]] [(]'erf1p[.]f16'[)]: tail suite: 'metrics'[.]'flush_count' is unknown to gelucheck merge\n$")
merge_test(ulp_unknown_metric 2 "merge|${sr}/s0of2.json|${sr}/s1of2_unknown.json|--json|${out}"
    EMPTY_OUT ERR "^${e}[^\n]*/s1of2_unknown[.]json: kernels[[]0[]] [(]'erf1p[.]f16'[)]: ulp suite: 'metrics'[.]'spread' is unknown to gelucheck merge\n$")
merge_test(bad_json 2 "merge|${sr}/s0of2.json|${fx}/bad_syntax.json|--json|${out}" EMPTY_OUT
    ERR "^${e}[^\n]*/bad_syntax[.]json: line 3, column 16: unexpected token")
merge_test(bad_schema 2 "merge|${fx}/bad_schema.json|${sr}/s0of2.json|--json|${out}" EMPTY_OUT
    ERR "^${e}[^\n]*/bad_schema[.]json: schema is 'gelucheck-result/0', want 'gelucheck-result/1'\n$")
merge_test(missing_file 2 "merge|${sr}/s0of2.json|${sr}/nonexistent.json|--json|${out}" EMPTY_OUT
    ERR "^${e}[^\n]*/nonexistent[.]json: cannot read: No such file or directory\n$")
merge_test(mixed_runs 2 "merge|${sr}/s0of2.json|${sr}/seed2_s1of2.json|--json|${out}" EMPTY_OUT
    ERR "^${e}[^\n]*/seed2_s1of2[.]json: not a shard of the same run as [^\n]*/s0of2[.]json: 'seed' differs\n$")
merge_test(missing_shard 2 "merge|${sr}/s0of2.json|--json|${out}" EMPTY_OUT
    ERR "^${e}shard 1 of 2 missing [(][^\n]*/s0of2[.]json is shard 0 of 2; give all 2[)]\n$")
merge_test(duplicate_shard 2 "merge|${sr}/s0of2.json|${sr}/s1of2.json|${sr}/s0of2.json|--json|${out}"
    EMPTY_OUT ERR "^${e}[^\n]*/s0of2[.]json: shard 0 of 2 given twice [(]also [^\n]*/s0of2[.]json[)]\n$")
merge_test(count_mismatch 2 "merge|${sr}/s0of2.json|${sr}/s1of3.json|--json|${out}" EMPTY_OUT
    ERR "^${e}[^\n]*/s1of3[.]json: a shard of 3, but [^\n]*/s0of2[.]json is a shard of 2\n$")
merge_test(incomplete 2 "merge|${sr}/s0of2.json|${sr}/incomplete_s1of2.json|--json|${out}"
    EMPTY_OUT ERR "^${e}[^\n]*/incomplete_s1of2[.]json: shard 1 of 2 is incomplete")
merge_test(no_output 2 "merge|${sr}/s0of2.json|${sr}/s1of2.json" EMPTY_OUT
    ERR "^${e}nothing to write: give --json OUT, --report DIR or --junit FILE\n$")
merge_test(no_files 2 "merge|--json|${out}" EMPTY_OUT ERR "^${e}no shard results given")
merge_test(bad_option 2 "merge|${sr}/s0of2.json|--bogus" EMPTY_OUT
    ERR "^${e}unknown option '--bogus'\n$")
